"""The parser every ``arbiter`` command shares, called directly: usage errors as one
:class:`CommandLineError` naming the option, the limit options and exact option values."""

from __future__ import annotations

import argparse
from fractions import Fraction

import pytest

from analysis.cli.error_handler import CommandLineError
from analysis.cli.options import (
    ArgumentParser,
    command_parser,
    count_option,
    exact_option,
    limits_of,
    seconds_option,
)
from games.limits import Limits


def toy() -> ArgumentParser:
    parser = command_parser("toy", "do a toy thing")
    parser.add_argument("file")
    parser.add_argument("--bound", type=exact_option)
    parser.add_argument("--window", type=exact_option, nargs=2)
    return parser


def usage_error(*argv: str) -> CommandLineError:
    with pytest.raises(CommandLineError) as caught:
        toy().parse_args(list(argv))
    return caught.value


def test_the_description_defaults_to_the_summary() -> None:
    assert toy().description == "Do a toy thing."
    assert command_parser("toy", "x", "Longer.").description == "Longer."
    assert toy().prog == "arbiter toy"


def test_defaults_are_the_default_limits() -> None:
    args = toy().parse_args(["t.json"])
    assert (args.time_limit, args.max_nodes) == (60.0, 2_000_000)
    assert limits_of(args) == Limits()


def test_limit_options() -> None:
    args = toy().parse_args(["t.json", "--time-limit", "2.5", "--max-nodes", "9841"])
    assert limits_of(args) == Limits(max_nodes=9841, time_limit=2.5)
    # 0 seconds means no limit at all
    assert limits_of(toy().parse_args(["t.json", "--time-limit", "0"])).time_limit is None


@pytest.mark.parametrize(
    ("text", "value"),
    [("3", 3), ("-7/2", Fraction(-7, 2)), ("1/3", Fraction(1, 3)), ("0.1", Fraction(1, 10))],
)
def test_exact_option_values(text: str, value: int | Fraction) -> None:
    read = exact_option(text)
    assert read == value and type(read) is type(value)
    assert toy().parse_args(["t.json", f"--bound={text}"]).bound == value


def test_negative_numbers_argparse_knows_as_numbers() -> None:
    args = toy().parse_args(["t.json", "--window", "-3", "-0.5", "--bound", "-2"])
    assert (args.window, args.bound) == ([-3, Fraction(-1, 2)], -2)


@pytest.mark.parametrize("low", ["-7/2", "-1e3", "-2.5e-1", "-3", "-.5"])
def test_negative_fractions_as_separate_option_values(low: str) -> None:
    args = toy().parse_args(["t.json", "--window", low, "3"])
    assert args.window == [exact_option(low), 3]


def test_an_option_error_names_the_option() -> None:
    error = usage_error("t.json", "--bound", "1/0")
    assert error.where == "--bound"
    assert error.message == "zero denominator in '1/0' (see arbiter toy --help)"
    error = usage_error("t.json", "--max-nodes", "0")
    assert (error.where, error.message) == (
        "--max-nodes",
        "must be at least 1, got '0' (see arbiter toy --help)",
    )


def test_other_usage_errors_name_the_command() -> None:
    error = usage_error()
    assert error.where == "toy"
    assert error.message == "the following arguments are required: file (see arbiter toy --help)"
    assert str(usage_error("t.json", "--strict")) == (
        "toy: unrecognized arguments: --strict (see arbiter toy --help)"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("soon", "not a number of seconds: 'soon'"),
        ("-1", "must be 0 or more seconds, got '-1'"),
        ("inf", "must be 0 or more seconds, got 'inf'"),
        ("nan", "must be 0 or more seconds, got 'nan'"),
    ],
)
def test_seconds_refused(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=f"^{message}$"):
        seconds_option(text)


def test_seconds_and_counts_accepted() -> None:
    assert seconds_option("0") == 0.0 and seconds_option("1e-9") == 1e-9
    assert count_option("1") == 1 and count_option("2000000") == 2_000_000


@pytest.mark.parametrize(
    ("text", "message"),
    [("1.5", "not a whole number: '1.5'"), ("-3", "must be at least 1, got '-3'")],
)
def test_counts_refused(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=f"^{message}$"):
        count_option(text)


def test_exact_option_refuses_text_that_is_no_number() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="'x' is not a number"):
        exact_option("x")
