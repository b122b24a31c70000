"""The .efg tokenizer both readers share: kinds, unescaped strings and line numbers."""

from __future__ import annotations

import pytest

from games.errors import InvalidInputError
from games.formats.efg_text import tokenize


def test_tokens_carry_their_kind_text_and_line() -> None:
    text = (
        'EFG 2 R "a \\"quoted\\" title" { "P1" }\np "" 1 1 "" { "L" "R" } 0\nt "" 1 "" { 1/2, -3 }'
    )
    tokens = tokenize(text)
    assert [(t.kind, t.text) for t in tokens[:4]] == [
        ("word", "EFG"),
        ("number", "2"),
        ("word", "R"),
        ("string", 'a "quoted" title'),
    ]
    numbers = [(t.text, t.line) for t in tokens if t.kind == "number"]
    assert numbers[-2:] == [("1/2", 3), ("-3", 3)]
    assert tokens[-1].kind == "close" and tokens[-1].line == 3


def test_a_character_outside_the_format_is_refused_with_its_line() -> None:
    with pytest.raises(InvalidInputError, match="line 2"):
        tokenize('EFG 2 R "" { "a" }\np "" 1 1 "" { "L" } 0 @')
