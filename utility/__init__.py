"""Expected utility: lotteries, utility functions, risk attitude, the vNM axioms and Allais.

One concept per module: ``lottery`` (model, parsing, reduction), ``formula`` (the
allow-list parser), ``families`` and ``function`` (utilities), ``evaluate``
(EMV, EU, CE, premium), ``compare`` and ``stochastic_dominance``, ``shape``
(curvature and Arrow-Pratt), ``eu_consistency`` (the LP behind Allais),
``preferences`` and ``axioms``, ``elicitation``, ``plot`` and ``json_output``.
Nothing here imports the web layer.

The public API: :func:`parse_lottery` and :func:`read_utility` read the inputs,
:func:`evaluate_lottery` gives EMV, expected utility, certainty equivalent, risk
premium and attitude, :func:`compare` ranks lotteries, :func:`eu_consistency`
decides whether any expected utility explains a set of choices (Allais),
:func:`check_axioms` checks stated preferences against the vNM axioms. The names load
on first use (SymPy is heavy).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from utility.axioms import AxiomReport, check_axioms
    from utility.compare import Comparison, compare
    from utility.eu_consistency import Choice, Consistency, eu_consistency, parse_choice
    from utility.evaluate import Evaluation, evaluate_lottery
    from utility.function import UtilityFunction, read_utility
    from utility.lottery import Lottery, from_pairs, parse_lottery
    from utility.preferences import PreferenceProblem, parse_preferences

_HOMES = {
    "AxiomReport": "utility.axioms",
    "check_axioms": "utility.axioms",
    "Comparison": "utility.compare",
    "compare": "utility.compare",
    "Choice": "utility.eu_consistency",
    "Consistency": "utility.eu_consistency",
    "eu_consistency": "utility.eu_consistency",
    "parse_choice": "utility.eu_consistency",
    "Evaluation": "utility.evaluate",
    "evaluate_lottery": "utility.evaluate",
    "UtilityFunction": "utility.function",
    "read_utility": "utility.function",
    "Lottery": "utility.lottery",
    "from_pairs": "utility.lottery",
    "parse_lottery": "utility.lottery",
    "PreferenceProblem": "utility.preferences",
    "parse_preferences": "utility.preferences",
}

__all__ = [
    "AxiomReport",
    "Choice",
    "Comparison",
    "Consistency",
    "Evaluation",
    "Lottery",
    "PreferenceProblem",
    "UtilityFunction",
    "check_axioms",
    "compare",
    "eu_consistency",
    "evaluate_lottery",
    "from_pairs",
    "parse_choice",
    "parse_lottery",
    "parse_preferences",
    "read_utility",
]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'utility' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value
