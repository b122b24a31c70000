"""Turn lottery results into JSON-ready dicts shaped as ``api.schemas.lotteries`` documents.

Every number is written by :mod:`games.numbers` under the one rule of ``docs/numbers.md``.
"""

from __future__ import annotations

from typing import Any

from games.limits import current_deadline
from games.numbers import Exact, put_number, put_numbers, read_exact_form
from utility.compare import Comparison
from utility.eu_consistency import Consistency
from utility.evaluate import Evaluation
from utility.lottery import Lottery


def evaluation_json(result: Evaluation) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put_number(out, "emv", result.emv)
    eu = read_exact_form(result.expected_utility, result.expected_utility_exact)
    put_number(out, "expected_utility", eu)
    ce = read_exact_form(result.certainty_equivalent, result.certainty_equivalent_exact)
    put_number(out, "certainty_equivalent", ce)
    premium = read_exact_form(result.risk_premium, result.risk_premium_exact)
    put_number(out, "risk_premium", premium)
    out["attitude"] = result.attitude
    out["method"] = result.method
    out["tolerance"] = result.tolerance
    return out


def evaluate_json(
    result: Evaluation, formula: str, wealth: Exact, compound: bool, reduced: Lottery | None
) -> dict[str, Any]:
    """``/v1/lotteries/evaluate``: the evaluation, the utility and wealth used, and the
    reduced lottery when asked for."""
    out = evaluation_json(result)
    out["utility"] = formula
    put_number(out, "wealth", wealth)
    out["compound"] = compound
    if reduced is not None:
        out["reduced"] = lottery_json(reduced)
    return out


def lottery_json(lottery: Lottery) -> list[dict[str, Any]]:
    clock = current_deadline()
    branches = []
    for p, x in lottery:
        clock.spend(4)
        branch: dict[str, Any] = {}
        put_number(branch, "p", p)
        put_number(branch, "x", x)
        branches.append(branch)
    return branches


def comparison_json(result: Comparison, formula: str) -> dict[str, Any]:
    ranking = []
    for entry in result.ranking:
        item: dict[str, Any] = {"rank": entry.rank, "name": entry.name}
        item.update(evaluation_json(entry.evaluation))
        ranking.append(item)
    dominance = [
        {"dominant": d.dominant, "dominated": d.dominated, "order": d.order}
        for d in result.dominance
    ]
    return {"utility": formula, "ranking": ranking, "dominance": dominance}


def consistency_json(result: Consistency) -> dict[str, Any]:
    out: dict[str, Any] = {"consistent": result.consistent}
    put_numbers(out, "prizes", result.prizes)
    if result.witness is None:
        out["witness"] = None
    else:
        keys = [str(x) for x in result.prizes]
        put_numbers(out, "witness", dict(zip(keys, result.witness, strict=True)))
    certificate = result.certificate
    if certificate is None:
        out["certificate"] = None
        return out
    entry: dict[str, Any] = {}
    put_numbers(entry, "multipliers", certificate.multipliers)
    monotonicity = []
    for lower, higher, multiplier in certificate.monotonicity:
        step: dict[str, Any] = {}
        put_number(step, "lower", lower)
        put_number(step, "higher", higher)
        put_number(step, "multiplier", multiplier)
        monotonicity.append(step)
    entry["monotonicity"] = monotonicity
    entry["explanation"] = certificate.explanation
    out["certificate"] = entry
    return out
