"""Turn utility-function results into the JSON documented by ``api.schemas.utility_functions``.

Every number is written by :mod:`games.numbers` under the one rule of ``docs/numbers.md``:
values SymPy found exactly carry their exact form, values found numerically are plain
JSON numbers.
"""

from __future__ import annotations

from typing import Any

from games.numbers import put_number, put_numbers, read_exact_form
from utility.elicitation import Elicitation, Fit
from utility.shape import PointValues, UtilityAnalysis


def analysis_json(result: UtilityAnalysis) -> dict[str, Any]:
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
