"""Turn a vNM axiom report into the JSON documented by ``api.schemas.preferences``.

Every number is written by :mod:`games.numbers` under the one rule of ``docs/numbers.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.numbers import put_number, put_numbers
from utility.axioms import AxiomReport, AxiomResult


def report_json(report: AxiomReport, prizes: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "axioms": {name: _axiom(result) for name, result in report.axioms.items()},
        "utility": None,
        "expected_utility_consistent": None,
    }
    consistency = report.consistency
    if consistency is not None:
        out["expected_utility_consistent"] = consistency.consistent
        if consistency.witness is not None:
            # the consistency LP numbers prizes 0, 1, ... in the order of ``prizes``
            utilities = {
                prizes[int(k)]: u
                for k, u in zip(consistency.prizes, consistency.witness, strict=True)
            }
            put_numbers(out, "utility", utilities)
        if consistency.certificate is not None:
            out["explanation"] = consistency.certificate.explanation
    return out


def _axiom(result: AxiomResult) -> dict[str, Any]:
    """``{holds, witness}``; the witness's probabilities (see :class:`AxiomResult`) as numbers."""
    witness = dict(result.witness)
    if "indifference_points" in witness:
        points = []
        for point in witness["indifference_points"]:
            entry = {k: v for k, v in point.items() if k != "p"}
            put_number(entry, "p", point["p"])
            points.append(entry)
        witness["indifference_points"] = points
    if isinstance(witness.get("same_reduction"), Mapping):
        put_numbers(witness, "same_reduction", witness["same_reduction"])
    return {"holds": result.holds, "witness": witness}
