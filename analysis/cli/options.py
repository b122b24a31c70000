"""What every ``arbiter`` command's parser shares: one-line usage errors, the limit options,
and exact numbers as option values."""

from __future__ import annotations

import argparse
import dataclasses
import math
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final, NoReturn

from analysis.cli.documents import read_document
from analysis.cli.error_handler import CommandLineError, option_name, reading
from analysis.grading.feedback import FEEDBACK_LEVELS
from analysis.grading.generator_settings import PROBLEM_TYPES, ProblemSettings, read_settings
from games.errors import ArbiterError
from games.limits import Limits
from games.numbers import Exact, parse_exact

DEFAULT_LIMITS: Final = Limits()


NEGATIVE_NUMBER: Final = re.compile(r"^-(\d+(/\d+)?|\d*\.\d+|\d+\.?\d*[eE][-+]?\d+)$")
"""What a negative number looks like on our command lines: exact forms as in JSON bodies
(``-7/2``, ``-0.5``, ``-1e3``), so that such a value is never taken for an option."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with a usage error raised as one :class:`CommandLineError` naming the option,
    and every exact negative number (``--bounds -7/2 3``) read as a value."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # argparse's own pattern knows only -3 and -0.5; no option of ours looks like a number
        self._negative_number_matcher = NEGATIVE_NUMBER

    def error(self, message: str) -> NoReturn:
        where, _, rest = message.partition(": ")
        hint = f" (see {self.prog} --help)"
        if where.startswith("argument ") and rest:
            raise CommandLineError(where.removeprefix("argument "), rest + hint)
        raise CommandLineError(self.prog.removeprefix("arbiter").strip(), message + hint)


def command_parser(name: str, summary: str, description: str = "") -> ArgumentParser:
    """The parser of ``arbiter NAME``, with ``--time-limit`` and ``--max-nodes``.

    Parameters
    ----------
    summary
        The one line ``arbiter --help`` shows; the description when none is given.
    """
    parser = ArgumentParser(
        prog=f"arbiter {name}",
        description=description or summary[0].upper() + summary[1:] + ".",
    )
    group = parser.add_argument_group("limits")
    group.add_argument(
        "--time-limit",
        type=seconds_option,
        default=DEFAULT_LIMITS.time_limit,
        metavar="SECONDS",
        help="stop a computation that runs longer (default: %(default)s; 0: no limit)",
    )
    group.add_argument(
        "--max-nodes",
        type=count_option,
        default=DEFAULT_LIMITS.max_nodes,
        metavar="N",
        help="refuse a tree with more nodes (default: %(default)s)",
    )
    return parser


def limits_of(args: argparse.Namespace) -> Limits:
    """The :class:`~games.limits.Limits` the command's options ask for."""
    return Limits(max_nodes=args.max_nodes, time_limit=args.time_limit or None)


def exact_option(text: str) -> Exact:
    """An exact number as an option value: ``3``, ``0.1``, ``-7/2``."""
    try:
        return parse_exact(text, "")
    except ArbiterError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def seconds_option(text: str) -> float:
    """A duration in seconds, 0 or more."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= seconds < math.inf:
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, got {text!r}")
    return seconds


def count_option(text: str) -> int:
    """A whole number, 1 or more."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text!r}")
    return count


def add_draw_options(command: argparse.ArgumentParser) -> None:
    """``--type`` and ``--seed``, which override a generator settings file."""
    command.add_argument("--type", choices=PROBLEM_TYPES, default=None, help="problem type")
    command.add_argument(
        "--seed", type=int, default=None, metavar="N", help="the seed (default: a fresh one)"
    )


@contextmanager
def drawn_settings(args: argparse.Namespace, overrides: Sequence[str]) -> Iterator[ProblemSettings]:
    """The generator settings of ``args.settings`` (a JSON file, ``-`` for standard input,
    none: the defaults) with the options named in ``overrides`` (``type``, ``seed``,
    ``student``) that were given over them. An error raised inside points at what set the
    setting it concerns: the option, or the file's field (``settings.json#/depth``)."""
    raw: Any = {} if args.settings is None else read_document(args.settings)
    source = args.settings or ""
    given = {name: getattr(args, name) for name in overrides if getattr(args, name) is not None}

    def option_of(parameter: str) -> str:
        if parameter in given or not source:
            return option_name(parameter)
        return f"{source}#/{parameter}"

    with reading(source or "-", option_of):
        yield dataclasses.replace(read_settings(raw), **given)


def add_student_feedback(command: argparse.ArgumentParser) -> None:
    """``--feedback`` of what students see (a bundle graded where they read it): by
    default ``fields``, which writes no value of the key."""
    command.add_argument(
        "--feedback",
        choices=FEEDBACK_LEVELS,
        default="fields",
        help="what students see of each grade: score, fields (each field's points and "
        "status, no key values), hints, full (default: fields)",
    )
