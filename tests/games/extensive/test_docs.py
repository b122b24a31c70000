"""docs/extensive.md: its worked Kuhn poker, in both forms, is Kuhn poker."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games.extensive.efg import read_efg
from games.extensive.json_form import read_json_form
from games.extensive.poker import kuhn_poker
from tests.games.extensive.games_compared import meaning

DOC = Path(__file__).parents[3] / "docs" / "extensive.md"


def block(language: str) -> str:
    """The page's one ``language`` block that writes a game (other blocks show answers)."""
    found = re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    games = [text for text in found if "EFG 2" in text or '"root"' in text]
    assert len(games) == 1, f"one ```{language} block writing a game expected in {DOC.name}"
    return str(games[0])


def test_the_documented_efg_kuhn_poker_is_kuhn_poker() -> None:
    assert meaning(read_efg(block("efg"))) == meaning(kuhn_poker())


def test_the_documented_json_kuhn_poker_is_kuhn_poker() -> None:
    assert meaning(read_json_form(json.loads(block("json")))) == meaning(kuhn_poker())


def test_the_two_documented_forms_are_one_game() -> None:
    efg, raw = read_efg(block("efg")), read_json_form(json.loads(block("json")))
    assert (efg.nodes, efg.infosets) == (raw.nodes, raw.infosets)
