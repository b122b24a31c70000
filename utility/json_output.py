"""Expected-utility results as the JSON the API documents (and the CLI prints).

Lotteries (evaluate, compare, EU consistency), utility functions (shape, elicitation)
and the vNM axioms. Each function names every field it writes, so a new attribute
on a result cannot reach an answer by accident. Every number is written by
:mod:`games.numbers` under the one rule of ``docs/numbers.md``: values SymPy found
exactly carry their exact form, values found numerically are plain JSON numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.limits import current_deadline
from games.numbers import Exact, put_number, put_numbers, read_exact_form
from utility.axioms import AxiomReport, AxiomResult
from utility.compare import Comparison
from utility.elicitation import Elicitation, Fit
from utility.eu_consistency import Consistency
from utility.evaluate import Evaluation
from utility.lottery import Lottery
from utility.shape import PointValues, UtilityAnalysis


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


def shape_json(result: UtilityAnalysis) -> dict[str, Any]:
    out: dict[str, Any] = {
        "utility": result.formula,
        "derivative": result.derivative,
        "second_derivative": result.second_derivative,
    }
    put_numbers(out, "domain", (result.low, result.high))
    out["increasing"] = result.increasing
    out["decreasing_at"] = result.decreasing_at
    out["curvature"] = result.curvature
    out["attitude"] = result.attitude
    out["changes_at"] = list(result.changes_at)
    out["arrow_pratt_absolute"] = result.arrow_pratt_absolute
    out["arrow_pratt_relative"] = result.arrow_pratt_relative
    out["at_points"] = [_point(point) for point in result.at_points]
    affine = result.affine
    invariance: dict[str, Any] = {}
    put_number(invariance, "a", affine.a)
    put_number(invariance, "b", affine.b)
    invariance["arrow_pratt_unchanged"] = affine.arrow_pratt_unchanged
    invariance["certainty_equivalents"] = [
        {"name": n, "certainty_equivalent": c, "transformed": t}
        for n, c, t in affine.certainty_equivalents
    ]
    invariance["ranking_unchanged"] = affine.ranking_unchanged
    out["affine_invariance"] = invariance
    return out


def _point(point: PointValues) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    put_number(entry, "x", point.x)
    put_number(entry, "utility", read_exact_form(point.utility, point.utility_exact))
    put_number(entry, "marginal", point.marginal)
    put_number(entry, "absolute", read_exact_form(point.absolute, point.absolute_exact))
    put_number(entry, "relative", read_exact_form(point.relative, point.relative_exact))
    return entry


def _fit_json(fit: Fit) -> dict[str, Any]:
    return {
        "family": fit.family,
        "coefficient": fit.coefficient,
        "residuals": list(fit.residuals),
        "rmse": fit.rmse,
        "explains_all": fit.explains_all,
    }


def elicitation_json(result: Elicitation) -> dict[str, Any]:
    points = []
    for x, u in result.points:
        point: dict[str, Any] = {}
        put_number(point, "x", x)
        point["utility"] = u
        points.append(point)
    return {
        "points": points,
        "cara": _fit_json(result.cara),
        "crra": None if result.crra is None else _fit_json(result.crra),
        "crra_note": result.crra_note,
        "implied_cara": list(result.implied_cara),
        "flagged": [
            {"answer": i, "reason": r} for i, r in zip(result.flagged, result.reasons, strict=True)
        ],
    }


def axioms_json(report: AxiomReport, prizes: tuple[str, ...]) -> dict[str, Any]:
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
