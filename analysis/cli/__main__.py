"""``python -m analysis.cli``: the ``arbiter`` command."""

import sys

from analysis.cli import main

if __name__ == "__main__":
    sys.exit(main())
