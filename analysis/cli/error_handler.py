"""The one place where the ``arbiter`` command line turns failures into exit codes.

Every command runs inside :func:`run`: whatever goes wrong is reported as one line on
standard error, ``arbiter: <where>: <message>``, and an exit status, never a traceback.
``<where>`` is what the user can go and fix: a file (``tree.json``), a position in it
(``tree.json:3:14`` for bad JSON, ``tree.json#/tree/1`` for a JSON pointer into it) or
an option (``--depth``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Final

from games.errors import ArbiterError, FieldError, LimitExceededError, TimeLimitError

EXIT_OK: Final = 0
EXIT_ATTENTION: Final = 1
"""Done, but something needs the user's attention: ``arbiter grade`` found answers that
belong to no roster student (listed, not graded)."""
EXIT_INTERNAL: Final = 70
"""An unexpected exception: a bug in Arbiter."""
EXIT_INPUT: Final = 2
"""A usage or input error: a bad option, an unreadable file, bad JSON, an invalid model."""
EXIT_LIMIT: Final = 3
"""A limit stopped the computation: ``--time-limit``, ``--max-nodes``, exact digits, memory."""
EXIT_INTERRUPTED: Final = 130
"""Interrupted with Ctrl-C (128 + SIGINT, as the shell reports it)."""
EXIT_CLOSED_PIPE: Final = 141
"""Standard output was closed by its reader (``| head``): 128 + SIGPIPE, as for a C tool."""

EXIT_CODES: Final = {
    EXIT_OK: "success",
    EXIT_ATTENTION: "done, but answers match no roster student (arbiter grade: listed apart)",
    EXIT_INTERNAL: "internal error (a bug: please report it)",
    EXIT_INPUT: "usage or input error (bad option, unreadable file, bad JSON, invalid input)",
    EXIT_LIMIT: "a limit stopped the computation (--time-limit, --max-nodes, exact digits)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_CLOSED_PIPE: "standard output closed by its reader (e.g. | head); nothing is printed",
}

STDIN_NAME: Final = "<stdin>"


class CommandLineError(Exception):
    """Raised for a problem the command line finds itself: a bad option, file or JSON text."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where
        self.message = message


def source_name(source: str) -> str:
    """How a file argument is named in messages (``-`` is standard input)."""
    return STDIN_NAME if source == "-" else source


@contextmanager
def reading(source: str, option_of: Callable[[str], str]) -> Iterator[None]:
    """Locate the core's errors raised inside in the document read from ``source``.

    A pointer into the document becomes ``source#pointer``; an error about a keyword
    parameter (``depth``) goes where ``option_of`` says that parameter came from: an
    option (``--depth``) or a field of the file.
    """
    name = source_name(source)
    try:
        yield
    except ArbiterError as error:
        error.located(option_of)
        error.errors = [_in_document(name, problem, error) for problem in error.errors]
        raise


def _in_document(name: str, problem: FieldError, error: ArbiterError) -> FieldError:
    if problem.parameter:  # already located by ``option_of``
        return problem
    if problem.pointer:
        return FieldError(f"{name}#{problem.pointer}", problem.message)
    if isinstance(error, TimeLimitError):
        return FieldError("--time-limit", problem.message)
    return FieldError(name, problem.message)


def run(work: Callable[[], int]) -> int:
    """Run ``work`` (which returns an exit status) and report whatever it raises.

    Returns the exit status; never raises, and prints no traceback.
    """
    try:
        try:
            status = work()
        except SystemExit as stop:  # argparse after --help or --version
            code = EXIT_OK if stop.code is None else stop.code
            status = code if isinstance(code, int) else EXIT_INPUT
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_CLOSED_PIPE
    except KeyboardInterrupt:
        _say("", "interrupted")
        return EXIT_INTERRUPTED
    except CommandLineError as error:
        _say(error.where, error.message)
        return EXIT_INPUT
    except ArbiterError as error:
        return _report(error)
    except MemoryError:
        _say("", "out of memory")
        return EXIT_LIMIT
    except OSError as error:
        _say(str(error.filename or ""), error.strerror or str(error))
        return EXIT_INPUT
    except Exception as error:
        _say("internal error", f"{type(error).__name__}: {error} (please report it)")
        return EXIT_INTERNAL


def _report(error: ArbiterError) -> int:
    """One line per field error; the status says whether the input or a limit is at fault."""
    error.located(option_name)
    for problem in error.errors:
        where = problem.pointer
        if not where and isinstance(error, TimeLimitError):
            where = "--time-limit"
        _say(where, problem.message)
    return EXIT_LIMIT if isinstance(error, LimitExceededError) else EXIT_INPUT


def option_name(parameter: str, renamed: Mapping[str, str] | None = None) -> str:
    """The option that sets the core's keyword ``parameter``: ``max_sum`` -> ``--max-sum``."""
    if renamed and parameter in renamed:
        return renamed[parameter]
    return "--" + parameter.replace("_", "-")


def _say(where: str, message: str) -> None:
    line = f"{where}: {message}" if where else message
    # one line, whatever the message holds
    print("arbiter: " + " ".join(line.splitlines()), file=sys.stderr)


def _silence_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail
    again and print a second error (the recipe of the Python docs, ``signal`` module)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass  # not a real file (captured output): nothing will be flushed to a pipe
