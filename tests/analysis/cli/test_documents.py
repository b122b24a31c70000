"""``read_document``, ``print_document`` and ``write_file``, called directly.

A file is read as the API reads a request body: UTF-8 (a byte-order mark allowed), strict
JSON, integers of any length kept exact up to 4,000 digits. Every problem is one
:class:`CommandLineError` naming the file and, for bad text, the line and column (from 1).
The error paths seen through ``arbiter`` itself are in ``test_unix_behaviour.py``.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from analysis.cli.documents import (
    MAX_INTEGER_DIGITS,
    print_document,
    read_document,
    write_file,
)
from analysis.cli.error_handler import CommandLineError


def document(tmp_path: Path, content: bytes) -> str:
    path = tmp_path / "doc.json"
    path.write_bytes(content)
    return str(path)


def refusal(source: str) -> CommandLineError:
    with pytest.raises(CommandLineError) as caught:
        read_document(source)
    return caught.value


def test_numbers_are_read_as_written(tmp_path: Path) -> None:
    source = document(tmp_path, b'{"big": 1180591620717411303424, "tenth": 0.1, "t": true}')
    assert read_document(source) == {"big": 2**70, "tenth": 0.1, "t": True}
    assert type(read_document(source)["big"]) is int


def test_a_byte_order_mark_is_allowed(tmp_path: Path) -> None:
    assert read_document(document(tmp_path, b"\xef\xbb\xbf[1, 2]")) == [1, 2]


def test_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"tree": [[3]]}')))
    assert read_document("-") == {"tree": [[3]]}
    # a stream without bytes underneath (a test's StringIO) is read as text
    monkeypatch.setattr(sys, "stdin", io.StringIO("[4]"))
    assert read_document("-") == [4]


def test_errors_on_standard_input_name_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"[1,\n\n  ]")))
    error = refusal("-")
    # the "]" on line 3, column 3 is where a value was expected
    assert (error.where, error.message) == ("<stdin>:3:3", "not valid JSON: Expecting value")


def test_bad_json_gives_line_and_column(tmp_path: Path) -> None:
    source = document(tmp_path, b'{"a": 1,\n "b" 2}')
    error = refusal(source)
    assert error.where == f"{source}:2:6"
    assert error.message == "not valid JSON: Expecting ':' delimiter"


def test_bad_utf8_position_is_counted_in_bytes(tmp_path: Path) -> None:
    # line 2 is ' "é", "' then 0xfe: seven characters, eight bytes ("é" is two), so 0xfe
    # is byte 9 of the line
    source = document(tmp_path, b'[1,\n "\xc3\xa9", "\xfe"]')
    error = refusal(source)
    assert (error.where, error.message) == (f"{source}:2:9", "not UTF-8 text (byte 0xfe)")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"  \n\t ", "the file is empty; expected JSON"),
        (b"[-Infinity]", "-Infinity is not a JSON value"),
        (b"[1e400]", "the number 1e400 is beyond the range of a double"),
        (b"1" * (MAX_INTEGER_DIGITS + 1), "an integer has more than 4000 digits"),
    ],
)
def test_what_arbiter_refuses(tmp_path: Path, content: bytes, message: str) -> None:
    source = document(tmp_path, content)
    error = refusal(source)
    assert (error.where, error.message) == (source, message)


def test_the_longest_integer_is_read(tmp_path: Path) -> None:
    assert read_document(document(tmp_path, b"9" * MAX_INTEGER_DIGITS)) == 10**4000 - 1


def test_deep_nesting_points_to_the_flat_form(tmp_path: Path) -> None:
    error = refusal(document(tmp_path, b"[" * 3000 + b"]" * 3000))
    assert error.message.startswith("JSON nested deeper than the parser's limit")
    assert '{"root": id, "nodes": [...]}' in error.message


def test_a_directory_and_a_missing_file(tmp_path: Path) -> None:
    error = refusal(str(tmp_path))
    assert (error.where, error.message) == (str(tmp_path), "Is a directory")
    missing = str(tmp_path / "missing.json")
    error = refusal(missing)
    assert (error.where, error.message) == (missing, "No such file or directory")


def test_print_document_indents_by_two(capsys: pytest.CaptureFixture[str]) -> None:
    print_document({"value": 3, "pv": ["root.0"]})
    assert capsys.readouterr().out == '{\n  "value": 3,\n  "pv": [\n    "root.0"\n  ]\n}\n'


def test_write_file(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    write_file(str(target), json.dumps({"score": 2}))
    assert json.loads(target.read_text()) == {"score": 2}
    nowhere = str(tmp_path / "no" / "such" / "results.json")
    with pytest.raises(CommandLineError) as caught:
        write_file(nowhere, "{}")
    assert (caught.value.where, caught.value.message) == (nowhere, "No such file or directory")
