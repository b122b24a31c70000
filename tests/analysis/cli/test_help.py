"""Every option, argument and subcommand of ``arbiter`` says what it is for."""

from __future__ import annotations

import argparse

import pytest

from analysis.cli.program import COMMANDS, command_parser, program_parser


def test_the_program_and_its_commands_have_help() -> None:
    parser = program_parser()
    for action in parser._actions:
        assert action.help and action.help != argparse.SUPPRESS, action
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    listed = {choice.dest: choice.help for choice in commands._choices_actions}
    assert listed == {name: command.summary for name, command in COMMANDS.items()}
    assert all(listed.values())


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_has_help(name: str) -> None:
    parser = command_parser(name)
    assert parser.prog == f"arbiter {name}" and parser.description
    options = {option for action in parser._actions for option in action.option_strings}
    assert {"--help", "--time-limit", "--max-nodes"} <= options
    for action in parser._actions:
        assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)
        assert not isinstance(action, argparse._SubParsersAction)
