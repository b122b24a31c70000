"""The ``arbiter`` command line: thin commands over the library.

Each command turns its options into one library call and prints the result
(:mod:`analysis.cli.trees`, :mod:`analysis.cli.grade`); every failure goes through
one handler (:mod:`analysis.cli.error_handler`) that prints one line on standard
error and returns an exit status. ``docs/cli.md`` documents the commands.
"""

from analysis.cli.program import main

__all__ = ["main"]
