"""Refinements of equilibria in games with information sets: subgames, subgame-perfect
equilibria, and a check of sequential rationality at every information set.

A **subgame** starts at a node whose subtree no information set straddles: every set lies
wholly inside the subtree or wholly outside it (Selten 1965). Under perfect recall a node
of a set of two or more nodes never starts one. :func:`subgames` finds them all.

A **subgame-perfect equilibrium** plays an equilibrium in every subgame.
:func:`subgame_perfect_equilibrium` finds one by backward induction over subgames, each
before every subgame holding it (reversed prefix order): each subgame, with the subgames
below it already replaced by terminal nodes paying their equilibrium payoffs, has no proper
subgame left; it is solved exactly (one player deciding: a best reply; two players: the
sequence-form LP when zero-sum, Lemke's algorithm otherwise), and replaced in turn by its
equilibrium payoffs. With perfect information this is Zermelo's backward induction.

A Nash equilibrium may still play badly where it is never reached. **Sequential
rationality** (Kreps and Wilson 1982) asks that at every information set the mover's choice
be a best reply to *a consistent belief* over the set's nodes and to the profile's play
afterwards. :func:`sequential_rationality` checks it against one consistent belief, computed
exactly: the limit as ``eps -> 0`` of the beliefs under the completely mixed profile
``(1 - eps) * sigma + eps * uniform``. A node's reach probability under that profile is a
polynomial in ``eps``, and its lowest-order term is the product of each edge's lowest-order
term: the edge's probability ``sigma(a)`` if positive, else ``eps / |A|``. The limit belief
puts weight only on the set's nodes of the lowest order, in proportion to their
coefficients. At a set reached with positive probability, the lowest order is 0 and this is
Bayes' rule. The choice is then compared with every action's value under the belief, the
play continuing with the profile below (a one-shot deviation: for a consistent assessment,
passing it at every set is sequential rationality, Hendon, Jacobsen and Sloth 1996).

A set flagged here is not optimal against *this* belief; at a set of one node, or where one
action is best against every belief (player 1 holding the king in Kuhn poker, facing a bet),
it is not optimal against any.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from analysis.extensive.lemke import solve_lemke
from analysis.extensive.policy import (
    BehaviourProfile,
    ProfileEvaluation,
    best_response,
    check_profile,
    evaluate_profile,
)
from analysis.extensive.sequence_lp import solve_zero_sum
from games.errors import DomainError, InvalidInputError
from games.extensive.model import CHANCE, TERMINAL, Builder, ExtensiveGame, node_name
from games.limits import current_deadline

Payoffs = tuple[Fraction, ...]


@dataclass(frozen=True, slots=True)
class Subgame:
    """One subgame of a game.

    Attributes
    ----------
    root
        The node it starts at.
    name
        The root's name, or the actions leading to it from the game's root joined by
        ``" / "`` (``"root"`` for the whole game).
    nodes
        How many nodes it has.
    """

    root: int
    name: str
    nodes: int


@dataclass(frozen=True, slots=True)
class SubgamePerfectEquilibrium:
    """A subgame-perfect equilibrium found by backward induction over subgames.

    Attributes
    ----------
    profile
        The behaviour profile (exact), at every information set.
    payoffs
        Each player's payoff in the whole game.
    subgames
        Every subgame, in the order they were solved: reversed prefix order, so each
        comes before every subgame holding it.
    methods
        How each subgame was solved once the subgames below it were replaced by their
        payoffs: ``"chance"`` (no decision left), ``"best_action"`` (one decision node),
        ``"best_reply"`` (one player decides, at several nodes), ``"sequence_lp"`` or
        ``"lemke"``.
    values
        Each subgame's equilibrium payoffs.
    evaluation
        ``profile`` evaluated afresh in the whole game by the tree walk of
        :mod:`analysis.extensive.policy`: payoffs, best responses and NashConv, which is 0.
    """

    profile: BehaviourProfile
    payoffs: Payoffs
    subgames: tuple[Subgame, ...]
    methods: tuple[str, ...]
    values: tuple[Payoffs, ...]
    evaluation: ProfileEvaluation


@dataclass(frozen=True, slots=True)
class InfosetAssessment:
    """The check of one information set.

    Attributes
    ----------
    infoset, name, player
        The set's index, name and mover.
    reached
        Whether the profile reaches the set with positive probability.
    order
        The lowest power of ``eps`` in the set's reach probability under the perturbed
        profile (0 when reached).
    belief
        ``(node, probability)`` for each node of the set: Bayes' rule when reached, else the
        limit of the perturbed profile's beliefs.
    action_values
        The mover's expected payoff of each action under the belief, the profile played
        afterwards.
    chosen_value
        The value of the profile's own mix of actions there.
    optimal
        Whether ``chosen_value`` is the best of ``action_values``.
    gain
        What the best action gains over the profile's choice (0 when optimal).
    """

    infoset: int
    name: str
    player: int
    reached: bool
    order: int
    belief: tuple[tuple[int, Fraction], ...]
    action_values: tuple[Fraction, ...]
    chosen_value: Fraction
    optimal: bool
    gain: Fraction


@dataclass(frozen=True, slots=True)
class SequentialRationality:
    """Every information set checked (see the module for the belief used).

    Attributes
    ----------
    assessments
        One per information set, in the game's order.
    sequentially_rational
        Whether the choice is optimal at every set.
    unreached
        The sets the profile does not reach.
    flagged
        The sets where the choice is not optimal.
    """

    assessments: tuple[InfosetAssessment, ...]
    sequentially_rational: bool
    unreached: tuple[int, ...]
    flagged: tuple[int, ...]


def subgames(game: ExtensiveGame) -> tuple[Subgame, ...]:
    """Every subgame of ``game`` (a node whose subtree no information set straddles), in
    prefix order: the whole game first.

    :raises TimeLimitError: the deadline passed.
    """
    spend = current_deadline().spend
    nodes = game.nodes
    size = [1] * len(nodes)
    for index in range(len(nodes) - 1, 0, -1):
        size[nodes[index].parent] += size[index]
    straddled = [False] * len(nodes)
    for infoset in game.infosets:
        if len(infoset.nodes) < 2:
            continue
        count: dict[int, int] = {}
        for member in infoset.nodes:
            at = member
            while at != -1:
                spend(1)
                count[at] = count.get(at, 0) + 1
                at = nodes[at].parent
        for at, members in count.items():
            if members < len(infoset.nodes):
                straddled[at] = True
    found = []
    for index, node in enumerate(nodes):
        if node.player == TERMINAL or straddled[index]:
            continue
        spend(1)
        found.append(Subgame(index, node_name(game, index), size[index]))
    return tuple(found)


def subgame_perfect_equilibrium(game: ExtensiveGame) -> SubgamePerfectEquilibrium:
    """A subgame-perfect equilibrium of ``game``, exact, by backward induction over its
    subgames (see the module).

    :raises DomainError: a subgame with imperfect information has more than two players
        (no exact solver here for it).
    :raises LimitExceededError: a subgame is too large for the exact solvers.
    :raises TimeLimitError: the deadline passed.
    """
    found = subgames(game)
    if not found:  # the root is the only node
        empty = BehaviourProfile(())
        payoffs = game.nodes[0].payoffs
        return SubgamePerfectEquilibrium(empty, payoffs, (), (), (), evaluate_profile(game, empty))
    rows: list[tuple[Fraction, ...]] = [()] * len(game.infosets)
    solved: dict[int, Payoffs] = {}
    methods: dict[int, str] = {}
    for subgame in reversed(found):
        reduced, origin = _reduced(game, subgame.root, solved)
        behaviour, methods[subgame.root] = _solve_reduced(reduced)
        for h, probabilities in enumerate(behaviour):
            rows[origin[h]] = probabilities
        solved[subgame.root] = _node_values(reduced, behaviour)[0]
    profile = BehaviourProfile(tuple(rows))
    evaluation = evaluate_profile(game, profile)
    if evaluation.nash_conv != 0:
        raise DomainError(
            "backward induction over subgames gave a profile with NashConv "
            f"{evaluation.nash_conv}; this should not happen, please report the game"
        )
    order = tuple(reversed(found))
    return SubgamePerfectEquilibrium(
        profile,
        solved[0],
        order,
        tuple(methods[s.root] for s in order),
        tuple(solved[s.root] for s in order),
        evaluation,
    )


def sequential_rationality(game: ExtensiveGame, profile: BehaviourProfile) -> SequentialRationality:
    """Check, at every information set, that the mover's choice in ``profile`` is a best
    reply to the consistent belief of the module's perturbation, exactly.

    :raises InvalidInputError: the profile does not fit the game or is not exact.
    :raises TimeLimitError: the deadline passed.
    """
    check_profile(game, profile)
    if not profile.exact:
        raise InvalidInputError(
            "the sequential-rationality check needs an exact profile (fractions), not floats",
            parameter="profile",
        )
    rows: list[tuple[Fraction, ...]] = [
        tuple(Fraction(p) for p in row) for row in profile.probabilities
    ]
    spend = current_deadline().spend
    values = _node_values(game, rows)
    # each node's reach under (1 - eps) sigma + eps uniform: its lowest-order term
    # coefficient * eps**order, the product of the edges' lowest-order terms
    coefficient = [Fraction(1)] * len(game.nodes)
    order = [0] * len(game.nodes)
    for index, node in enumerate(game.nodes):
        spend(len(node.children) + 1)
        for a, child in enumerate(node.children):
            if node.player == CHANCE:
                term, power = node.probabilities[a], 0
            elif rows[node.infoset][a] > 0:
                term, power = rows[node.infoset][a], 0
            else:
                term, power = Fraction(1, len(node.children)), 1
            coefficient[child] = coefficient[index] * term
            order[child] = order[index] + power
    assessments = []
    for h, infoset in enumerate(game.infosets):
        spend(len(infoset.nodes) * len(infoset.actions))
        # a zero-probability chance edge leaves coefficient 0: such nodes never count
        live = [n for n in infoset.nodes if coefficient[n] != 0]
        lowest = min((order[n] for n in live), default=0)
        weights = {n: coefficient[n] for n in live if order[n] == lowest}
        total = sum(weights.values(), Fraction(0))
        if total == 0:  # only through probability-0 chance: any belief; take uniform
            weights = {n: Fraction(1) for n in infoset.nodes}
            total = Fraction(len(infoset.nodes))
        belief = tuple((n, weights.get(n, Fraction(0)) / total) for n in infoset.nodes)
        me = infoset.player
        action_values = tuple(
            sum(
                (mu * values[game.nodes[n].children[a]][me] for n, mu in belief),
                Fraction(0),
            )
            for a in range(len(infoset.actions))
        )
        chosen = sum((p * v for p, v in zip(rows[h], action_values, strict=True)), Fraction(0))
        best = max(action_values)
        reached = lowest == 0 and bool(live)
        assessments.append(
            InfosetAssessment(
                h, infoset.name, me, reached, lowest, belief, action_values, chosen,
                chosen == best, best - chosen,
            )
        )  # fmt: skip
    done = tuple(assessments)
    return SequentialRationality(
        done,
        all(a.optimal for a in done),
        tuple(a.infoset for a in done if not a.reached),
        tuple(a.infoset for a in done if not a.optimal),
    )


def _node_values(game: ExtensiveGame, rows: Sequence[Sequence[Fraction]]) -> list[Payoffs]:
    """Each node's expected payoffs under the behaviour ``rows``, bottom-up (exact)."""
    spend = current_deadline().spend
    zero = (Fraction(0),) * len(game.players)
    values: list[Payoffs] = [zero] * len(game.nodes)
    for index in range(len(game.nodes) - 1, -1, -1):
        node = game.nodes[index]
        spend(len(node.children) + 1)
        if node.player == TERMINAL:
            values[index] = node.payoffs
            continue
        weights = node.probabilities if node.player == CHANCE else rows[node.infoset]
        total = list(zero)
        for weight, child in zip(weights, node.children, strict=True):
            if weight:
                for p, v in enumerate(values[child]):
                    total[p] += weight * v
        values[index] = tuple(total)
    return values


def _reduced(
    game: ExtensiveGame, root: int, solved: dict[int, Payoffs]
) -> tuple[ExtensiveGame, list[int]]:
    """The subgame at ``root`` as a game of its own, each subgame below it already solved
    (in ``solved``) cut off as a terminal node paying its equilibrium payoffs; and each of
    its information sets' index in ``game``."""
    nodes = game.nodes
    builder = Builder(game.players)
    origin: dict[int, int] = {}  # the reduced game's node -> the game's node
    stack = [root]
    while stack:  # prefix order: the builder takes the nodes as they come
        index = stack.pop()
        node = nodes[index]
        if index != root and index in solved:
            builder.terminal(solved[index], node.name)
            continue
        if node.player == TERMINAL:
            builder.terminal(node.payoffs, node.name)
            continue
        if node.player == CHANCE:
            builder.chance(list(zip(node.actions, node.probabilities, strict=True)), node.name)
        else:
            infoset = game.infosets[node.infoset]
            added = builder.decision(
                node.player, node.infoset, node.actions, node.name, infoset.name
            )
            origin[added] = index
        stack.extend(reversed(node.children))
    reduced = builder.build(game.title, game.comment)
    infosets = [nodes[origin[infoset.nodes[0]]].infoset for infoset in reduced.infosets]
    return reduced, infosets


def _solve_reduced(game: ExtensiveGame) -> tuple[list[tuple[Fraction, ...]], str]:
    """An equilibrium of a game without proper subgames, exact: its behaviour at each
    information set, and how it was found."""
    movers = sorted({infoset.player for infoset in game.infosets})
    if not movers:
        return [], "chance"
    deciding = [i for i, node in enumerate(game.nodes) if node.player >= 0]
    if len(deciding) == 1:  # one decision: the action whose subtree pays its mover most
        node = game.nodes[deciding[0]]
        values = _node_values(game, [(Fraction(1),) + (Fraction(0),) * (len(node.actions) - 1)])
        paid = [values[child][node.player] for child in node.children]
        return [_pure(len(paid), paid.index(max(paid)))], "best_action"
    if len(movers) == 1:
        # one player decides: a best reply (against nobody) is optimal at every set
        (player,) = movers
        placeholder = BehaviourProfile(
            tuple((Fraction(1),) + (Fraction(0),) * (len(s.actions) - 1) for s in game.infosets)
        )
        reply = best_response(game, placeholder, player)
        rows = [_pure(len(game.infosets[h].actions), a) for h, a in zip(
            game.player_infosets(player), reply.actions, strict=True
        )]  # fmt: skip
        return rows, "best_reply"
    if len(game.players) != 2:
        raise DomainError(
            f"a subgame with imperfect information has {len(movers)} players moving in a game "
            f"of {len(game.players)}; the exact solvers here handle two-player games (use cfr "
            "or cfr_plus for an approximation)",
            parameter="method",
        )
    behaviour = solve_zero_sum(game).behaviour if game.zero_sum else solve_lemke(game).behaviour
    found: list[tuple[Fraction, ...]] = [()] * len(game.infosets)
    for player in (0, 1):
        for h, probabilities in behaviour[player].items():
            found[h] = probabilities
    return found, "sequence_lp" if game.zero_sum else "lemke"


def _pure(size: int, action: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(int(a == action)) for a in range(size))
