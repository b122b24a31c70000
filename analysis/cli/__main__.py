"""``python -m analysis.cli``: the ``arbiter`` command."""

import sys

from analysis.cli import main

sys.exit(main())
