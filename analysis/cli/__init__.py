"""The ``arbiter`` command line: thin commands over the library."""
