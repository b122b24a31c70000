"""Hostile trees against every /v1/trees/* endpoint: huge, deep, wide, chance-heavy.

Every request runs under one deadline and stops within about a second of it, however
the work is shaped (413 time-limit); exact numbers that grow (probability sums, backed-up
expectations, Star1 windows, payoffs summed along a path) are refused past the configured
number of digits with a pointer (413 number-too-large); integers past 64 bits come back
as numbers with exact strings beside them, never as a 500.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import orjson
import pytest
from flask.testing import FlaskClient

from api import create_app
from games.limits import Limits

LIMIT = 0.3
"""Seconds each time-limited request may run; every one must answer within LIMIT + 1."""

PRIMES = (97, 89, 83, 79, 73, 71, 67, 61, 59, 53, 47, 43, 41, 37, 31, 29)
"""Chance probabilities 1/q and (q-1)/q: every level multiplies the denominators by q."""

NO_DIGIT_LIMIT = {"ARBITER_MAX_EXACT_DIGITS": 10**7}
"""A digit limit that never fires, so only the deadline can stop exact work."""


def client_for(limit: float = LIMIT, settings: dict[str, Any] | None = None) -> FlaskClient:
    config: dict[str, Any] = {"TESTING": True, "ARBITER_TIME_LIMIT": limit}
    config.update(settings or {})
    return create_app(config).test_client()


def post(client: FlaskClient, path: str, body: Any) -> tuple[Any, float]:
    try:
        data = orjson.dumps(body)
    except TypeError:  # integers past 64 bits: the standard library writes them
        data = json.dumps(body).encode()
    started = time.monotonic()
    response = client.post(path, data=data, content_type="application/json")
    return response, time.monotonic() - started


def problem(response: Any, status: int, slug: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/problem+json"
    body: dict[str, Any] = response.get_json()
    assert body["status"] == status
    assert body["type"].endswith(f"/{slug}"), body
    return body


# -- hostile inputs ---------------------------------------------------------------------


def chance_chain(count: int, utility: int = 0) -> dict[str, Any]:
    """Flat form: chance node c<i> has a leaf l<i> (p 1/q) and c<i+1> (p (q-1)/q).

    The expectation at c0 has a denominator near the product of every q on the way
    down: about 6.3 bits more per level, so its exact arithmetic grows quadratically.
    ``utility`` > 0 writes leaf values as lists of that many numbers (max^n).
    """

    def value(number: int) -> Any:
        return [number, *range(1, utility)] if utility else number

    nodes: list[dict[str, Any]] = []
    for i in range(count):
        q = PRIMES[i % len(PRIMES)]
        last = i == count - 1
        nodes.append(
            {
                "id": f"c{i}",
                "kind": "chance",
                "children": [f"l{i}", f"t{i}" if last else f"c{i + 1}"],
            }
        )
        if i:
            above = PRIMES[(i - 1) % len(PRIMES)]
            nodes[-1]["p"] = f"{above - 1}/{above}"
        nodes.append({"id": f"l{i}", "p": f"1/{q}", "value": value(i % 7)})
    q = PRIMES[(count - 1) % len(PRIMES)]
    nodes.append({"id": f"t{count - 1}", "p": f"{q - 1}/{q}", "value": value(3)})
    return {"root": "c0", "nodes": nodes}


def wide_shorthand(leaves: int) -> list[Any]:
    """One MAX root over 1,000-leaf MIN nodes: a wide, shallow tree of ``leaves`` leaves."""
    return [[(i * 7919 + j) % 1001 for j in range(1000)] for i in range(leaves // 1000)]


def deep_chain(count: int, utility: int = 0) -> dict[str, Any]:
    """Flat form: n<i> has children n<i+1> and a leaf x<i>, ``count`` levels deep.

    ``utility`` > 0 makes the internal nodes max^n player nodes over utility lists.
    """

    def value(number: int) -> Any:
        return [number, *range(1, utility)] if utility else number

    nodes: list[dict[str, Any]] = []
    for i in range(count):
        nodes.append({"id": f"n{i}", "children": [f"n{i + 1}", f"x{i}"]})
        if utility:
            nodes[-1]["kind"] = "player"
        nodes.append({"id": f"x{i}", "value": value(i % 5)})
    nodes.append({"id": f"n{count}", "value": value(0)})
    return {"root": "n0", "nodes": nodes}


def efg_wide(actions: int) -> str:
    """A Gambit game whose root has ``actions`` moves, each to its own outcome."""
    moves = " ".join(f'"a{i}"' for i in range(actions))
    lines = ['EFG 2 R "wide" { "A" "B" } ""', f'p "root" 1 1 "" {{ {moves} }} 0']
    lines += [f't "" {i + 1} "o" {{ {i}, {-i} }}' for i in range(actions)]
    return "\n".join(lines) + "\n"


def primes(count: int) -> list[int]:
    """The first ``count`` primes (a sieve of Eratosthenes; the n-th prime is below
    n (ln n + ln ln n) + 10 for every n)."""
    bound = int(count * (math.log(count + 2) + math.log(math.log(count + 2) + 1))) + 10
    sieve = bytearray([1]) * bound
    sieve[:2] = b"\x00\x00"
    for number in range(2, math.isqrt(bound) + 1):
        if sieve[number]:
            sieve[number * number :: number] = bytes(len(range(number * number, bound, number)))
    return [number for number in range(bound) if sieve[number]][:count]


def efg_payoff_path(depth: int) -> str:
    """Node i pays (1/p_i, -1/p_i), p_i the i-th prime: Gambit adds the outcomes along a
    path, so the payoff at depth d is a sum over d distinct primes, its denominator their
    product (about 11 more bits at every level of a few thousand)."""
    lines = ['EFG 2 R "path" { "A" "B" } ""']
    for i, q in enumerate(primes(depth)):
        lines.append(f'p "" 1 {i + 1} "" {{ "on" "off" }} {i + 1} "o" {{ 1/{q}, -1/{q} }}')
        lines.append('t "" 0')
    lines.append('t "" 0')
    return "\n".join(lines) + "\n"


def graph_test(depth: int, branching: tuple[int, ...], algorithm: str) -> str:
    """A CS188 GraphGameTreeTest over 40 states that never ends before ``depth`` rounds."""
    lines = []
    for state in range(40):
        for action in range(branching[state % len(branching)]):
            lines.append(f"S{state} a{action} S{(state + 1 + action) % 40}")
    evaluation = "\n".join(f"S{state} {state}" for state in range(40))
    return (
        f'class: "GraphGameTreeTest"\nalg: "{algorithm}"\ndepth: "{depth}"\nnum_agents: "2"\n'
        'start_state: "S0"\nwin_states: ""\nlose_states: ""\n'
        'successors: """\n' + "\n".join(lines) + '\n"""\n'
        f'evaluation: """\n{evaluation}\n"""\n'
    )


# -- every endpoint stops at the deadline ----------------------------------------------

# (name, path, body, settings): each takes ten times LIMIT or more without a deadline
# (seconds on a laptop; the chance chains and path sums grow quadratically), so only the
# deadline can make them answer within LIMIT + 1 s.
# The wide trees are read, searched and written by compiled loops in about 0.3 s: their
# deadline is a tenth of that.
FAST = {"ARBITER_TIME_LIMIT": 0.03}
TIME_ATTACKS: list[tuple[str, str, Callable[[], Any], dict[str, Any] | None]] = [
    ("minimax wide", "/v1/trees/minimax", lambda: {"tree": wide_shorthand(1_500_000)}, FAST),
    ("minimax deep", "/v1/trees/minimax", lambda: {"tree": deep_chain(100_000)}, None),
    ("alphabeta wide", "/v1/trees/alphabeta", lambda: {"tree": wide_shorthand(1_500_000)}, FAST),
    (
        "alphabeta trace",
        "/v1/trees/alphabeta",
        # the trace limit raised to a million nodes: the deadline still holds
        lambda: {
            "tree": [
                [[f"{(i + j + k) % 89}/{k + 3}" for k in range(20)] for j in range(20)]
                for i in range(1200)
            ],
            "trace": True,
        },
        {"ARBITER_MAX_TRACE_NODES": 1_000_000},
    ),
    (
        "alphabeta move ordering, fractions",
        "/v1/trees/alphabeta",
        lambda: {
            "tree": [
                [[f"{(i * j + k) % 97}/{k + 2}" for k in range(8)] for j in range(100)]
                for i in range(300)
            ],
            "move_ordering": True,
        },
        None,
    ),
    (
        "expectimax chance chain",
        "/v1/trees/expectimax",
        lambda: {"tree": chance_chain(6000)},
        NO_DIGIT_LIMIT,
    ),
    (
        "Star1 chance chain",
        "/v1/trees/expectimax",
        lambda: {"tree": chance_chain(9000), "bounds": [0, 6]},
        NO_DIGIT_LIMIT,
    ),
    (
        "maxn chance chain",
        "/v1/trees/maxn",
        lambda: {"tree": chance_chain(12_000, 3)},
        NO_DIGIT_LIMIT,
    ),
    (
        "paranoid chance chain",
        "/v1/trees/maxn",
        lambda: {"tree": chance_chain(12_000, 3), "paranoid": 1},
        NO_DIGIT_LIMIT,
    ),
    (
        "maxn deep",
        "/v1/trees/maxn",
        lambda: {"tree": deep_chain(100_000, 3), "paranoid": 0},
        None,
    ),
    (
        "import efg wide",
        "/v1/trees/import",
        lambda: {"format": "efg", "text": efg_wide(250_000)},
        None,
    ),
    (
        "import efg payoffs summed along a path",
        "/v1/trees/import",
        lambda: {"format": "efg", "text": efg_payoff_path(12_000)},
        NO_DIGIT_LIMIT,
    ),
    # the imported graph stays under the node limit (a tree past it is refused before it is
    # unfolded): depth 8, 2 binary agents, over half a million nodes, seconds to import; the
    # grader's searches of depth 9 and of depth 5 with 3 and 5 actions pass 2,000,000 states
    # and are refused as soon as they are counted, or stopped at the deadline
    (
        "import cs188 unfolded",
        "/v1/trees/import",
        lambda: {"format": "cs188", "text": graph_test(8, (2,), "MinimaxAgent")},
        None,
    ),
    (
        "cs188 search",
        "/v1/trees/cs188",
        lambda: {"text": graph_test(9, (2,), "MinimaxAgent")},
        None,
    ),
    (
        "cs188 expectimax averages",
        "/v1/trees/cs188",
        lambda: {"text": graph_test(5, (3, 5), "ExpectimaxAgent")},
        NO_DIGIT_LIMIT,
    ),
    (
        "export efg",
        "/v1/trees/export",
        lambda: {"tree": wide_shorthand(1_000_000), "format": "efg"},
        None,
    ),
    (
        "render chance chain",
        "/v1/trees/render",
        lambda: {"tree": chance_chain(9_000), "format": "dot", "algorithm": "expectimax"},
        NO_DIGIT_LIMIT,
    ),
]


@pytest.mark.parametrize(
    ("path", "build", "settings"),
    [pytest.param(path, build, settings, id=name) for name, path, build, settings in TIME_ATTACKS],
)
def test_every_endpoint_stops_at_the_deadline(
    path: str, build: Callable[[], Any], settings: dict[str, Any] | None
) -> None:
    response, elapsed = post(client_for(LIMIT, settings), path, build())
    body = response.get_json()
    if path == "/v1/trees/cs188" and body["type"].endswith("/limit-exceeded"):
        # the grader's searches generate the whole unfolded tree, so it is counted first:
        # one past 2,000,000 states is refused before it starts, when the count finishes
        # within the deadline
        assert "counted before any is built" in problem(response, 413, "limit-exceeded")["detail"]
    else:
        assert "ARBITER_TIME_LIMIT" in problem(response, 413, "time-limit")["detail"]
    assert elapsed < LIMIT + 1, elapsed


# -- exact numbers are bounded where they grow -------------------------------------------


BITS = Limits(max_exact_digits=1000).max_exact_bits
"""The bound of 1,000 digits as the server applies it: in binary digits (3,323)."""


def too_large(value: Fraction) -> bool:
    return max(value.numerator.bit_length(), value.denominator.bit_length()) > BITS


def reference_first_too_large(count: int) -> str:
    """The chance node of ``chance_chain(count)`` whose expectation first (backing up from
    the bottom) is past the bound of 1,000 digits, with plain Fractions."""
    below = Fraction(3)
    for i in range(count - 1, -1, -1):
        q = PRIMES[i % len(PRIMES)]
        below = Fraction(1, q) * (i % 7) + Fraction(q - 1, q) * below
        if too_large(below):
            return f"c{i}"
    raise AssertionError("the chain never grows that large")


def test_backed_up_expectation_past_the_digit_limit_points_at_its_chance_node() -> None:
    # The chain of the report: 1/97, 1/89, 1/83, ... down a flat chain. Without a
    # bound the exact expectation of the root has ~10,000 digits and takes seconds.
    count = 1500
    response, elapsed = post(client_for(5.0), "/v1/trees/expectimax", {"tree": chance_chain(count)})
    body = problem(response, 413, "number-too-large")
    culprit = reference_first_too_large(count)
    assert f"chance node {culprit!r}" in body["detail"]
    assert "1000 digits" in body["detail"] and "ARBITER_MAX_EXACT_DIGITS" in body["detail"]
    # c<i> is node 2i of the flat list (each c<i> is followed by its leaf l<i>)
    assert body["errors"][0]["pointer"] == f"/tree/nodes/{2 * int(culprit[1:])}"
    assert elapsed < 5.0 + 1


def test_star1_running_sum_past_the_digit_limit_points_at_its_chance_node() -> None:
    response, elapsed = post(
        client_for(5.0), "/v1/trees/expectimax", {"tree": chance_chain(1500), "bounds": [0, 6]}
    )
    body = problem(response, 413, "number-too-large")
    # Star1 adds p * v outcome by outcome; at the last outcome the sum is the expectation
    culprit = reference_first_too_large(1500)
    assert f"partial expected value of chance node {culprit!r}" in body["detail"]
    assert body["errors"][0]["pointer"] == f"/tree/nodes/{2 * int(culprit[1:])}"
    assert elapsed < 5.0 + 1


def test_star1_window_past_the_digit_limit_points_at_the_outcome() -> None:
    # MAX root: a leaf worth 3 + 10^-9 (so alpha = that), then the chance chain with every
    # leaf worth 3 (so every expectation is exactly 3). Star1 searches the second outcome
    # of c<i> with the window A = (q alpha - 3) / (q - 1), which becomes the alpha of c<i+1>:
    # the windows gain a factor q - 1 in their denominators at every level.
    chain = chance_chain(1500)
    for node in chain["nodes"]:
        if "value" in node:
            node["value"] = 3
    nodes = [
        {"id": "m", "kind": "max", "children": ["a", "c0"]},
        {"id": "a", "value": "3.000000001"},
    ]
    nodes += chain["nodes"]
    tree = {"root": "m", "nodes": nodes}
    response, elapsed = post(
        client_for(5.0), "/v1/trees/expectimax", {"tree": tree, "bounds": [0, 6]}
    )
    body = problem(response, 413, "number-too-large")
    # c<i> searches l<i> (p = 1/q, 6 (q - 1)/q unseen) with A = q alpha - 6 (q - 1), then
    # c<i+1> (p = (q - 1)/q, after l<i> gave 3/q) with A = (q alpha - 3) / (q - 1)
    alpha = Fraction(3_000_000_001, 1_000_000_000)
    culprit = ""
    for i in range(1500):
        q = PRIMES[i % len(PRIMES)]
        if too_large(q * alpha - 6 * (q - 1)):
            culprit = f"l{i}"
            break
        alpha = (q * alpha - 3) / (q - 1)
        if too_large(alpha):
            culprit = f"c{i + 1}"
            break
    assert f"Star1 window of outcome {culprit!r}" in body["detail"]
    position = [node["id"] for node in nodes].index(culprit)
    assert body["errors"][0]["pointer"] == f"/tree/nodes/{position}/p"
    assert elapsed < 5.0 + 1


def test_maxn_expected_utilities_past_the_digit_limit_are_refused() -> None:
    response, elapsed = post(client_for(5.0), "/v1/trees/maxn", {"tree": chance_chain(1500, 3)})
    body = problem(response, 413, "number-too-large")
    culprit = reference_first_too_large(1500)
    assert f"chance node {culprit!r}" in body["detail"]
    assert body["errors"][0]["pointer"] == f"/tree/nodes/{2 * int(culprit[1:])}"
    assert elapsed < 5.0 + 1


def huge_denominators(count: int) -> list[str]:
    """Probabilities 1/d with distinct 95-digit odd d: their exact sum has ~95*count digits."""
    return [f"1/{10**94 + 2 * k + 1}" for k in range(count)]


@pytest.mark.parametrize("form", ["nested", "flat", "ids"])
def test_probability_sum_past_the_digit_limit_is_refused_at_once(form: str) -> None:
    # 4,000 outcomes of probability 1/<95 digits>: summing them took 35-70 s (one lcm of
    # 380,000 digits) and then answered 500 (str() of the sum in the error message).
    chances = huge_denominators(4000)
    if form == "flat":
        nodes: list[dict[str, Any]] = [
            {"id": "r", "kind": "chance", "children": [f"k{i}" for i in range(len(chances))]}
        ]
        nodes += [{"id": f"k{i}", "p": p, "value": 1} for i, p in enumerate(chances)]
        tree: Any = {"root": "r", "nodes": nodes}
        pointer = "/tree/nodes/0/children"
    else:
        kids = [{"p": p, "value": 1} for p in chances]
        if form == "ids":  # ids make the tree non-plain: the general walk reads it
            kids = [kid | {"id": f"k{i}"} for i, kid in enumerate(kids)]
        tree = {"kind": "chance", "children": kids}
        pointer = "/tree/children"
    response, elapsed = post(client_for(0.5), "/v1/trees/expectimax", {"tree": tree})
    body = problem(response, 413, "number-too-large")
    assert body["errors"][0]["pointer"] == pointer
    assert "sum of the probabilities of chance node" in body["detail"]
    assert elapsed < 0.5 + 1


def test_probability_sum_too_long_to_print_is_described_not_printed() -> None:
    # With the digit bound raised, 60 such outcomes sum to a fraction of ~5,700 digits,
    # past Python's 4,300-digit str() limit: the message gives its size instead.
    chances = huge_denominators(60)
    tree = {"kind": "chance", "children": [{"p": p, "value": 1} for p in chances]}
    response, elapsed = post(
        client_for(0.5, NO_DIGIT_LIMIT), "/v1/trees/expectimax", {"tree": tree}
    )
    body = problem(response, 422, "invalid-input")
    approximate = sum(1 / (10**94 + 2 * k + 1) for k in range(60))
    assert f"sum to {approximate:.6g} (exact form too long to show), not 1" in body["detail"]
    assert body["errors"][0]["pointer"] == "/tree/children"
    assert elapsed < 0.5 + 1


def test_probability_sum_missing_1_by_a_hair_says_by_how_much() -> None:
    # 1e-400 + 1 has 401 digits; rounded it reads 1, so the message gives the difference
    tree = {"kind": "chance", "children": [{"p": "1e-400", "value": 1}, {"p": 1, "value": 2}]}
    response, elapsed = post(client_for(0.5), "/v1/trees/expectimax", {"tree": tree})
    body = problem(response, 422, "invalid-input")
    assert "sum to 1 + 1e-400 (exact form too long to show), not 1" in body["detail"]
    text = 'EFG 2 R "x" { "A" } ""\nc "" 1 "" { "a" 1e-400 "b" 1 } 0\nt "" 1 "o" { 1 }\nt "" 0\n'
    imported, _ = post(client_for(0.5), "/v1/trees/import", {"format": "efg", "text": text})
    detail = problem(imported, 422, "invalid-input")["detail"]
    assert "sum to 1 + 1e-400 (exact form too long to show), not exactly 1" in detail
    assert elapsed < 0.5 + 1


def test_efg_chance_probabilities_past_the_digit_limit_are_refused() -> None:
    moves = " ".join(f'"a{k}" {p}' for k, p in enumerate(huge_denominators(4000)))
    text = f'EFG 2 R "c" {{ "A" }} ""\nc "" 1 "" {{ {moves} }} 0\n' + 't "" 1 "o" { 1 }\n' * 4000
    response, elapsed = post(client_for(5.0), "/v1/trees/import", {"format": "efg", "text": text})
    body = problem(response, 413, "number-too-large")
    assert "(line 2)" in body["detail"] and body["errors"][0]["pointer"] == "/text"
    assert elapsed < 5.0 + 1


def test_efg_payoffs_summed_along_a_path_past_the_digit_limit_are_refused() -> None:
    response, elapsed = post(
        client_for(5.0), "/v1/trees/import", {"format": "efg", "text": efg_payoff_path(2000)}
    )
    body = problem(response, 413, "number-too-large")
    assert "summed along its path" in body["detail"] and body["errors"][0]["pointer"] == "/text"
    assert elapsed < 5.0 + 1


# -- integers past 64 bits are written by the one writer --------------------------------

BIG = 10**20
BIG_TEXT = "100000000000000000000"


def test_maxn_utilities_past_64_bits() -> None:
    tree = {"player": 0, "children": [{"value": ["1e20", 1, 2]}, {"value": [3, "1e20", 1]}]}
    response, _ = post(client_for(5.0), "/v1/trees/maxn", {"tree": tree, "paranoid": 0})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body["value"] == [1e20, 1, 2] and body["value_exact"] == [BIG_TEXT, "1", "2"]
    assert body["nodes"]["root.1"]["value_exact"] == ["3", BIG_TEXT, "1"]
    assert body["paranoid"]["value"] == 1e20 and body["paranoid"]["value_exact"] == BIG_TEXT


def test_star1_bounds_past_64_bits() -> None:
    tree = {
        "children": [{"kind": "chance", "children": [1, 2]}, {"kind": "chance", "children": [3, 4]}]
    }
    body = {"tree": tree, "bounds": ["-1e19", "1e19"]}
    response, _ = post(client_for(5.0), "/v1/trees/expectimax", body)
    assert response.status_code == 200, response.get_data(as_text=True)
    answer = response.get_json()
    assert answer["bounds"] == [-1e19, 1e19]
    assert answer["value"] == 3.5 and answer["value_exact"] == "7/2"


@pytest.mark.parametrize("mode", ["zero_sum", "maxn"])
def test_efg_payoffs_past_64_bits_import_and_solve(mode: str) -> None:
    text = (
        'EFG 2 R "big" { "A" "B" } ""\n'
        'p "root" 1 1 "" { "L" "R" } 0\n'
        f't "" 1 "x" {{ {BIG}, -{BIG} }}\n'
        't "" 2 "y" { 1, -1 }\n'
    )
    client = client_for(5.0)
    response, _ = post(client, "/v1/trees/import", {"format": "efg", "text": text, "mode": mode})
    assert response.status_code == 200, response.get_data(as_text=True)
    tree = response.get_json()["tree"]
    first = tree["children"][0]["value"]
    assert first == (BIG_TEXT if mode == "zero_sum" else [BIG_TEXT, f"-{BIG_TEXT}"])
    # the imported tree is posted back as it came: the exact value survives the trip
    solver = "/v1/trees/minimax" if mode == "zero_sum" else "/v1/trees/maxn"
    solved, _ = post(client, solver, {"tree": tree})
    assert solved.status_code == 200, solved.get_data(as_text=True)
    answer = solved.get_json()
    if mode == "zero_sum":
        assert answer["value"] == 1e20 and answer["value_exact"] == BIG_TEXT
    else:
        assert answer["value_exact"] == [BIG_TEXT, f"-{BIG_TEXT}"]


def test_export_render_and_cs188_write_big_integers() -> None:
    client = client_for(5.0)
    exported, _ = post(client, "/v1/trees/export", {"tree": [[BIG, 1]], "format": "efg"})
    assert exported.status_code == 200
    assert f"{{ {BIG_TEXT}, -{BIG_TEXT} }}" in exported.get_data(as_text=True)
    drawn, _ = post(client, "/v1/trees/render", {"tree": [[BIG, 2], [3]], "format": "dot"})
    assert drawn.status_code == 200
    assert '"root" [shape=triangle, label="3"' in drawn.get_data(as_text=True)
    assert f'label="{BIG_TEXT}"' in drawn.get_data(as_text=True)
    text = graph_test(1, (2,), "MinimaxAgent")
    text = text.replace("S2 2\n", f"S2 {BIG}\n").replace("S3 3\n", f"S3 {BIG}\n")
    graded, _ = post(client, "/v1/trees/cs188", {"text": text})
    assert graded.status_code == 200, graded.get_data(as_text=True)
    answer = graded.get_json()
    # S0 (MAX) -a0-> S1 (MIN) -> S2, S3 and S0 -a1-> S2 (MIN) -> S3, S4, scored at ply 2:
    # max(min(10^20, 10^20), min(10^20, 4)) = 10^20, by action a0
    assert answer["value"] == 1e20 and answer["value_exact"] == BIG_TEXT
    assert answer["action"] == "a0"
    assert answer["action_values"][0] == {"action": "a0", "value": 1e20, "value_exact": BIG_TEXT}


@pytest.mark.parametrize(
    ("tree", "path", "pointer"),
    [
        ([[10**301, 1], [2]], "/v1/trees/minimax", "/tree/0/0"),
        (
            {"children": [{"id": "a", "value": -(10**301)}, {"value": 1}]},
            "/v1/trees/minimax",
            "/tree/children/0/value",
        ),
        (
            {"player": 0, "children": [{"value": [1, 10**301]}, {"value": [1, 2]}]},
            "/v1/trees/maxn",
            "/tree/children/0/value/1",
        ),
    ],
)
def test_integers_past_the_magnitude_cap_are_refused_with_a_pointer(
    tree: Any, path: str, pointer: str
) -> None:
    response, elapsed = post(client_for(5.0), path, {"tree": tree})
    body = problem(response, 422, "invalid-input")
    assert body["errors"][0]["pointer"] == pointer
    assert "1e300" in body["detail"]
    assert elapsed < 5.0 + 1


def test_render_refuses_a_large_tree_before_solving_it() -> None:
    # 2,001 nodes: too many for an SVG drawing, refused before any search is made
    tree = [list(range(1000)), list(range(999))]
    response, elapsed = post(client_for(5.0), "/v1/trees/render", {"tree": tree})
    body = problem(response, 413, "limit-exceeded")
    assert "2000 nodes" in body["detail"] and "2002" in body["detail"]
    assert elapsed < 5.0 + 1


@pytest.mark.parametrize(
    "path", ["/v1/trees/minimax", "/v1/trees/alphabeta", "/v1/trees/expectimax", "/v1/trees/maxn"]
)
def test_depth_cutoffs_past_64_bits_are_refused_and_the_largest_is_echoed(path: str) -> None:
    # answers echo the cutoff, and a JSON integer past 64 bits made the answer a 500
    tree: Any = [[1, 2], [3]]
    if path.endswith("maxn"):
        tree = {"player": 0, "children": [{"value": [1, 2]}, {"value": [2, 1]}]}
    client = client_for(5.0)
    response, elapsed = post(client, path, {"tree": tree, "depth": 2**63})
    body = problem(response, 422, "invalid-request")
    assert body["errors"][0]["pointer"] == "/depth"
    assert elapsed < 5.0 + 1
    answer, _ = post(client, path, {"tree": tree, "depth": 2**63 - 1})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.get_json()["depth"] == 2**63 - 1
