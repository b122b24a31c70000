"""CFR and CFR+ converge to the known equilibria, stop at the deadline, and plot their curve.

Known answers: Kuhn poker's value -1/18 (Kuhn 1950) and NashConv 0 at equilibrium; the uniform
profile's NashConv 11/12 (Kuhn) and 1709/360 (Leduc), from OpenSpiel's tests. Iteration counts
are bounds, not the code's own output: CFR's exploitability falls as O(1/sqrt(T)), and CFR+
reaches exploitability 1e-3 on Leduc in about 500 iterations in OpenSpiel.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction as F

import pytest

from analysis.extensive.cfr import solve_cfr
from analysis.extensive.cfr_plot import convergence_svg
from analysis.extensive.policy import TreeArrays, expected_payoffs, nash_conv
from games.errors import InvalidInputError
from games.extensive.model import Builder
from games.extensive.poker import kuhn_poker, leduc_poker
from games.limits import Limits, limited


@pytest.mark.parametrize("method, iterations", [("cfr", 2500), ("cfr_plus", 200)])
def test_kuhn_poker_converges_to_its_value(method: str, iterations: int) -> None:
    game = kuhn_poker()
    result = solve_cfr(
        game,
        method,  # type: ignore[arg-type]
        iterations,
        record_every=25 if method == "cfr" else 1,
        target_nash_conv=1e-2,
    )
    assert result.stopped == "target"
    assert result.iterations < iterations
    assert result.nash_conv <= 1e-2
    assert result.curve[0] == (0, pytest.approx(11 / 12))
    assert result.curve[-1] == (result.iterations, result.nash_conv)
    # recomputed from the returned profile, not taken from the run
    assert nash_conv(game, result.profile) == pytest.approx(result.nash_conv, abs=1e-12)
    # a profile within NashConv e of an equilibrium is worth the value within e
    assert expected_payoffs(game, result.profile)[0] == pytest.approx(-1 / 18, abs=1e-2)


def test_cfr_plus_value_of_kuhn_poker_tends_to_minus_1_18() -> None:
    game = kuhn_poker()
    result = solve_cfr(game, "cfr_plus", 1000, record_every=250)
    assert [t for t, _ in result.curve] == [0, 250, 500, 750, 1000]
    assert result.stopped == "iterations" and result.iterations == 1000
    assert result.nash_conv < 1e-3
    assert expected_payoffs(game, result.profile)[0] == pytest.approx(-1 / 18, abs=1e-4)
    assert result.evaluation.payoffs == pytest.approx(expected_payoffs(game, result.profile))
    # player 2's equilibrium strategy is unique (Kuhn 1950): bluff a jack with 1/3, call
    # with a queen with 1/3, always bet and call with a king, never call with a jack
    shown = result.profile.as_mapping(game)["Player 2"]
    assert shown["J, check"]["bet"] == pytest.approx(1 / 3, abs=0.02)
    assert shown["Q, bet"]["call"] == pytest.approx(1 / 3, abs=0.02)
    assert shown["K, check"]["bet"] == pytest.approx(1, abs=0.01)
    assert shown["J, bet"]["call"] == pytest.approx(0, abs=0.01)


def test_cfr_plus_on_leduc_reaches_exploitability_below_1e_2() -> None:
    game = leduc_poker()
    result = solve_cfr(game, "cfr_plus", 300, record_every=20, target_nash_conv=2e-2)
    assert result.stopped == "target" and result.iterations <= 300
    assert result.exploitability is not None and result.exploitability <= 1e-2
    assert result.curve[0][1] == pytest.approx(1709 / 360)
    arrays = TreeArrays(game)
    checked = arrays.nash_conv(arrays.flat(result.profile))
    assert checked == pytest.approx(result.nash_conv, abs=1e-12)


def test_runs_are_deterministic_and_cfr_plus_beats_cfr() -> None:
    game = kuhn_poker()
    first = solve_cfr(game, "cfr_plus", 100)
    assert solve_cfr(game, "cfr_plus", 100).curve == first.curve
    assert first.nash_conv < solve_cfr(game, "cfr", 100).nash_conv


def test_a_deadline_stops_the_run_with_what_it_reached() -> None:
    game = leduc_poker()
    with limited(Limits(time_limit=0.5)):
        result = solve_cfr(game, "cfr_plus", 1_000_000, record_every=5)
    assert result.stopped == "time_limit"
    assert 0 < result.iterations < 1_000_000
    assert result.iterations % 5 == 0  # the last recorded iteration
    assert result.seconds < 3
    assert result.curve[-1] == (result.iterations, result.nash_conv)
    assert result.nash_conv < result.curve[0][1]
    # its payoffs and best responses come with it (the deadline has passed)
    assert result.evaluation.nash_conv == result.nash_conv
    assert result.evaluation.exploitability == result.exploitability


def test_zero_iterations_return_the_uniform_profile() -> None:
    result = solve_cfr(kuhn_poker(), "cfr", 0)
    assert result.iterations == 0 and result.stopped == "iterations"
    assert result.nash_conv == pytest.approx(11 / 12)
    assert result.profile.probabilities[0] == (0.5, 0.5)


@pytest.mark.parametrize(
    "options, parameter",
    [
        ({"method": "cfr_minus"}, "method"),
        ({"iterations": -1}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"record_every": 0}, "record_every"),
        ({"target_nash_conv": -1.0}, "target_nash_conv"),
    ],
)
def test_bad_parameters_are_named(options: dict[str, object], parameter: str) -> None:
    with pytest.raises(InvalidInputError) as caught:
        solve_cfr(kuhn_poker(), **options)  # type: ignore[arg-type]
    assert caught.value.errors[0].parameter == parameter


def test_the_convergence_plot_is_log_scaled_svg() -> None:
    game = kuhn_poker()
    runs = [solve_cfr(game, "cfr", 50), solve_cfr(game, "cfr_plus", 50)]
    svg = convergence_svg(runs)
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    ids = {element.get("id") for element in root.iter()}
    assert {"curve-0", "curve-1"} <= ids
    assert "exploitability" in svg and "CFR+: 50 iterations" in svg
    labels = [element.text for element in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "0.1" in labels and "0.01" in labels  # powers of ten: a log scale
    assert not any("$" in (label or "") for label in labels)  # no raw mathtext
    assert convergence_svg(runs) == svg  # deterministic


def test_three_players_get_nash_conv_without_exploitability() -> None:
    """Player 3 chooses l (all get 1, -1, 0) or r, after which player 1 chooses u (0, 0, 5) or
    d (3, 0, -2): player 1 plays d, so player 3 plays l, the only equilibrium where player 1's
    set is reached with any weight, and NashConv tends to 0."""
    builder = Builder(["P1", "P2", "P3"])
    builder.decision(2, "s", ["l", "r"])
    builder.terminal([F(1), F(-1), F(0)])
    builder.decision(0, "t", ["u", "d"])
    builder.terminal([F(0), F(0), F(5)])
    builder.terminal([F(3), F(0), F(-2)])
    game = builder.build()
    result = solve_cfr(game, "cfr_plus", 200)
    assert result.exploitability is None and result.evaluation.exploitability is None
    assert result.nash_conv < 1e-2
    assert result.profile.probabilities[0][0] == pytest.approx(1, abs=1e-2)  # l
    assert result.profile.probabilities[1][1] == pytest.approx(1, abs=1e-2)  # d
    assert "NashConv of the average strategy" in convergence_svg([result])
