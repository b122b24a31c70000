"""Turn lottery results into JSON-ready dicts shaped as ``api.schemas.lotteries`` documents."""

from __future__ import annotations

from typing import Any

from games.limits import current_deadline
from games.numbers import Exact, put_number, to_float
from utility.compare import Comparison
from utility.eu_consistency import Consistency
from utility.evaluate import Evaluation
from utility.lottery import Lottery


def exact_pair(target: dict[str, Any], name: str, value: Exact) -> None:
    """``name`` as a JSON number and ``name_exact`` as its exact string."""
    put_number(target, name, value, always_exact=True)


def evaluation_json(result: Evaluation) -> dict[str, Any]:
    out: dict[str, Any] = {}
    exact_pair(out, "emv", result.emv)
    for name in ("expected_utility", "certainty_equivalent", "risk_premium"):
        out[name] = getattr(result, name)
        exact = getattr(result, f"{name}_exact")
        if exact is not None:
            out[f"{name}_exact"] = exact
    out["attitude"] = result.attitude
    out["method"] = result.method
    out["tolerance"] = result.tolerance
    return out


def lottery_json(lottery: Lottery) -> list[dict[str, Any]]:
    clock = current_deadline()
    branches = []
    for p, x in lottery:
        clock.spend(4)
        branch: dict[str, Any] = {}
        exact_pair(branch, "p", p)
        exact_pair(branch, "x", x)
        branches.append(branch)
    return branches


def comparison_json(result: Comparison, formula: str) -> dict[str, Any]:
    ranking = []
    for entry in result.ranking:
        item = {"rank": entry.rank, "name": entry.name}
        item.update(evaluation_json(entry.evaluation))
        ranking.append(item)
    dominance = [
        {"dominant": d.dominant, "dominated": d.dominated, "order": d.order}
        for d in result.dominance
    ]
    return {"utility": formula, "ranking": ranking, "dominance": dominance}


def consistency_json(result: Consistency) -> dict[str, Any]:
    out: dict[str, Any] = {
        "consistent": result.consistent,
        "prizes": [to_float(x) for x in result.prizes],
        "witness": None,
        "certificate": None,
    }
    if result.witness is not None:
        keys = [str(x) for x in result.prizes]
        out["witness"] = {k: float(v) for k, v in zip(keys, result.witness, strict=True)}
        if result.witness_exact:
            out["witness_exact"] = {k: str(v) for k, v in zip(keys, result.witness, strict=True)}
    certificate = result.certificate
    if certificate is not None:
        entry: dict[str, Any] = {
            "multipliers": [float(m) for m in certificate.multipliers],
            "monotonicity": [
                {"lower": to_float(lo), "higher": to_float(hi), "multiplier": float(m)}
                for lo, hi, m in certificate.monotonicity
            ],
            "explanation": certificate.explanation,
        }
        if certificate.exact:
            entry["multipliers_exact"] = [str(m) for m in certificate.multipliers]
        out["certificate"] = entry
    return out
