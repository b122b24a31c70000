"""Unfolding a game defined by rules into a tree: counts, labels, cutoff values, chance.

Three small games written here (so the test depends on no catalogue): take-away (take 1
or 2 from a pile, whoever takes the last wins), 3x3 tic-tac-toe with the open-lines
evaluation, and a one-die betting game with unequal exact probabilities. Every expected
number is derived by hand in the comment beside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import pytest

from analysis.search.unfold import unfold_game, unfold_tree
from analysis.trees.solve import solve_tree
from games.errors import InvalidInputError, LimitExceededError
from games.limits import Limits, limited
from games.rules.game import CHANCE, EvaluationInfo
from games.trees.model import Tree
from games.trees.parser import parse_tree

ONE = Fraction(1)


class TakeAway:
    """A pile of ``n``; a move takes 1 or 2; taking the last one wins. State: (pile, mover)."""

    name = "take_away"
    players = 2
    has_chance = False
    win = ONE
    loss = -ONE

    def __init__(self, pile: int) -> None:
        self.pile = pile
        # a pile that is a multiple of 3 is lost for the mover (Bouton's rule for one pile)
        self.evaluations: Mapping[str, EvaluationInfo] = {
            "modulo": EvaluationInfo("modulo", "1/2 when the pile is no multiple of 3", self.modulo)
        }

    def modulo(self, state: tuple[int, int], player: int) -> Fraction:
        pile, mover = state
        good = Fraction(1, 2) if pile % 3 else Fraction(-1, 2)
        return good if mover == player else -good

    def initial_state(self) -> tuple[int, int]:
        return (self.pile, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def actions(self, state: tuple[int, int]) -> Sequence[int]:
        return [take for take in (1, 2) if take <= state[0]]

    def result(self, state: tuple[int, int], move: int) -> tuple[int, int]:
        return (state[0] - move, 1 - state[1])

    def chance_outcomes(self, state: tuple[int, int]) -> Sequence[tuple[int, Fraction]]:
        return ()

    def is_terminal(self, state: tuple[int, int]) -> bool:
        return state[0] == 0

    def utility(self, state: tuple[int, int], player: int) -> Fraction:
        # the mover at an empty pile did not take the last one: it lost
        return -ONE if state[1] == player else ONE

    def key(self, state: tuple[int, int]) -> tuple[int, int]:
        return state

    def is_noisy(self, state: tuple[int, int], move: int) -> bool:
        return False

    def move_text(self, state: tuple[int, int], move: int) -> str:
        return f"take {move}"

    def parse_move(self, state: tuple[int, int], text: str) -> int:
        return int(text.removeprefix("take "))

    def position_text(self, state: tuple[int, int]) -> str:
        return str(state[0])

    def parse_position(self, text: str) -> tuple[int, int]:
        return (int(text), 0)


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe:
    """3x3 tic-tac-toe; a state is the row-major string of ``x``, ``o`` and ``.``."""

    name = "tic_tac_toe"
    players = 2
    has_chance = False
    win = ONE
    loss = -ONE

    def __init__(self) -> None:
        self.evaluations: Mapping[str, EvaluationInfo] = {
            "open_lines": EvaluationInfo(
                "open_lines", "(lines open for me - lines open for them) / 9", self.open_lines
            )
        }

    def open_lines(self, board: str, player: int) -> Fraction:
        mine, theirs = "xo"[player], "ox"[player]
        free = sum(all(board[i] != theirs for i in line) for line in LINES)
        blocked = sum(all(board[i] != mine for i in line) for line in LINES)
        return Fraction(free - blocked, 9)

    def initial_state(self) -> str:
        return "........."

    def to_move(self, board: str) -> int:
        return 0 if board.count("x") == board.count("o") else 1

    def winner(self, board: str) -> str | None:
        for a, b, c in LINES:
            if board[a] != "." and board[a] == board[b] == board[c]:
                return board[a]
        return None

    def actions(self, board: str) -> Sequence[int]:
        return [] if self.is_terminal(board) else [i for i in range(9) if board[i] == "."]

    def result(self, board: str, move: int) -> str:
        return board[:move] + "xo"[self.to_move(board)] + board[move + 1 :]

    def chance_outcomes(self, board: str) -> Sequence[tuple[int, Fraction]]:
        return ()

    def is_terminal(self, board: str) -> bool:
        return self.winner(board) is not None or "." not in board

    def utility(self, board: str, player: int) -> Fraction:
        mark = self.winner(board)
        if mark is None:
            return Fraction(0)
        return ONE if mark == "xo"[player] else -ONE

    def key(self, board: str) -> str:
        return board

    def is_noisy(self, board: str, move: int) -> bool:
        return False

    def move_text(self, board: str, move: int) -> str:
        return str(move + 1)

    def parse_move(self, board: str, text: str) -> int:
        return int(text) - 1

    def position_text(self, board: str) -> str:
        return board

    def parse_position(self, text: str) -> str:
        return text


FACES = {1: Fraction(1, 3), 2: Fraction(1, 2), 3: Fraction(1, 6)}


class DiceBet:
    """Player 0 passes (worth 0) or bets; a die shows 1, 2 or 3 with probabilities 1/3, 1/2,
    1/6; then player 1 calls (player 0 wins 1 unless the die shows 1) or folds (player 0
    wins 1). States are the moves so far as a string: "", "pass", "bet", "bet 2", "bet 2 call"."""

    name = "dice_bet"
    players = 2
    has_chance = True
    win = ONE
    loss = -ONE

    def __init__(self) -> None:
        self.evaluations: Mapping[str, EvaluationInfo] = {
            "face": EvaluationInfo("face", "(face - 2) / 2 for player 0", self.face)
        }

    def face(self, state: str, player: int) -> Fraction:
        value = Fraction(int(state.split()[1]) - 2, 2)
        return value if player == 0 else -value

    def initial_state(self) -> str:
        return ""

    def to_move(self, state: str) -> int:
        if state == "bet":
            return CHANCE
        return 0 if state == "" else 1

    def actions(self, state: str) -> Sequence[str]:
        return ["pass", "bet"] if state == "" else ["call", "fold"]

    def result(self, state: str, move: str) -> str:
        return f"{state} {move}".strip()

    def chance_outcomes(self, state: str) -> Sequence[tuple[str, Fraction]]:
        return [(str(face), p) for face, p in FACES.items()]

    def is_terminal(self, state: str) -> bool:
        return state == "pass" or state.endswith(("call", "fold"))

    def utility(self, state: str, player: int) -> Fraction:
        if state == "pass":
            won = Fraction(0)
        elif state.endswith("fold"):
            won = ONE
        else:
            won = -ONE if state.split()[1] == "1" else ONE
        return won if player == 0 else -won

    def key(self, state: str) -> str:
        return state

    def is_noisy(self, state: str, move: str) -> bool:
        return False

    def move_text(self, state: str, move: str) -> str:
        return f"roll {move}" if state == "bet" else move

    def parse_move(self, state: str, text: str) -> str:
        return text

    def position_text(self, state: str) -> str:
        return state

    def parse_position(self, text: str) -> str:
        return text


def labels(tree: Tree, node: int) -> list[str | None]:
    return [tree.moves[child] for child in tree.children[node]]


def best_label(tree: Tree, algorithm: str) -> str | None:
    solution = solve_tree(tree, algorithm)
    assert solution.best_move is not None
    return tree.moves[tree.index_of(solution.best_move)]


@pytest.mark.parametrize(("pile", "nodes", "value"), [(3, 7, -1), (4, 12, 1), (5, 20, 1)])
def test_take_away_whole_tree(pile: int, nodes: int, value: int) -> None:
    # T(n) = 1 + T(n-1) + T(n-2), T(0) = 1, T(1) = 2: T(3) = 7, T(4) = 12, T(5) = 20; the
    # mover loses exactly when the pile is a multiple of 3
    game = TakeAway(pile)
    tree = unfold_tree(game, game.initial_state(), 10)
    assert len(tree) == nodes
    assert tree.kinds[0] == "max"
    assert labels(tree, 0) == ["take 1", "take 2"]
    assert {tree.kinds[child] for child in tree.children[0]} <= {"min", "leaf"}
    assert solve_tree(tree, "minimax").value == value
    assert solve_tree(tree, "alphabeta").value == value


def test_take_away_from_four_takes_one() -> None:
    # 4 -> 3 leaves the opponent a multiple of 3
    game = TakeAway(4)
    assert best_label(unfold_tree(game, game.initial_state(), 10), "minimax") == "take 1"


def test_cutoff_leaves_hold_the_evaluation_from_the_root_players_view() -> None:
    # from 4, one ply: pile 3 with the opponent to move (-1/2 for it, +1/2 for the root
    # player) and pile 2 (+1/2 for the opponent, -1/2 for the root player)
    game = TakeAway(4)
    unfolded = unfold_game(game, game.initial_state(), 1)
    assert unfolded.document == {
        "kind": "max",
        "children": [{"move": "take 1", "value": "1/2"}, {"move": "take 2", "value": "-1/2"}],
    }
    assert (unfolded.nodes, unfolded.leaves, unfolded.cutoff_leaves) == (3, 2, 2)
    assert unfolded.evaluation == "modulo"
    tree = parse_tree(unfolded.document)
    assert solve_tree(tree, "minimax").value == Fraction(1, 2)
    # the root player is player 1 here: values are from its view, it is MAX
    second = unfold_game(game, (4, 1), 1)
    assert second.root_player == 1
    assert second.document["children"][0]["value"] == "1/2"


def test_depth_zero_is_the_root_alone() -> None:
    game = TakeAway(4)
    assert unfold_game(game, game.initial_state(), 0).document == {"value": "1/2"}
    assert unfold_game(game, (0, 0), 0).document == {"value": -1}


def test_tic_tac_toe_counts_by_depth() -> None:
    # 9 * 8 * 7 * 6 boards at ply 4 and nothing ends before ply 5: 1 + 9 + 72 + 504 + 3024
    game = TicTacToe()
    four = unfold_game(game, game.initial_state(), 4)
    assert (four.nodes, four.leaves, four.cutoff_leaves) == (3610, 3024, 3024)
    # 15,120 boards at ply 5, of which 1,440 are won by x (the published count of games
    # that end on the fifth move)
    five = unfold_game(game, game.initial_state(), 5)
    assert (five.nodes, five.leaves, five.cutoff_leaves) == (3610 + 15120, 15120, 15120 - 1440)


def test_tic_tac_toe_one_ply_takes_the_centre_by_open_lines() -> None:
    # x in the centre: 8 lines open for x, 4 left for o: 4/9; a corner: 8 - 5 = 3/9;
    # an edge: 8 - 6 = 2/9
    game = TicTacToe()
    tree = unfold_tree(game, game.initial_state(), 1)
    assert len(tree) == 10
    assert labels(tree, 0) == [str(square) for square in range(1, 10)]
    leaf_values = [tree.values[child] for child in tree.children[0]]
    corner, edge, centre = Fraction(3, 9), Fraction(2, 9), Fraction(4, 9)
    assert leaf_values == [corner, edge, corner, edge, centre, edge, corner, edge, corner]
    assert solve_tree(tree, "minimax").value == centre
    assert best_label(tree, "minimax") == "5"


def test_tic_tac_toe_won_positions_for_either_mover() -> None:
    # x on 1 and 2, o on 4 and 5: x moves (as many marks as o) and wins on 3
    game = TicTacToe()
    tree = unfold_tree(game, "xx.oo....", 9)
    assert solve_tree(tree, "alphabeta").value == 1
    assert best_label(tree, "alphabeta") == "3"
    # with o to move in "xx.oo.x..", o wins at 6 at once
    o_tree = unfold_tree(game, "xx.oo.x..", 9)
    assert o_tree.kinds[0] == "max"
    assert solve_tree(o_tree, "minimax").value == 1
    assert best_label(o_tree, "minimax") == "6"


def test_chance_nodes_carry_exact_probabilities() -> None:
    game = DiceBet()
    unfolded = unfold_game(game, "", 5)
    # root, pass, bet, three rolls, two replies to each: 1 + 2 + 3 + 6
    assert unfolded.nodes == 12
    assert unfolded.document["children"][1] == {
        "move": "bet",
        "kind": "chance",
        "children": [
            {
                "move": "roll 1",
                "p": "1/3",
                "kind": "min",
                "children": [{"move": "call", "value": -1}, {"move": "fold", "value": 1}],
            },
            {
                "move": "roll 2",
                "p": "1/2",
                "kind": "min",
                "children": [{"move": "call", "value": 1}, {"move": "fold", "value": 1}],
            },
            {
                "move": "roll 3",
                "p": "1/6",
                "kind": "min",
                "children": [{"move": "call", "value": 1}, {"move": "fold", "value": 1}],
            },
        ],
    }
    tree = unfold_tree(game, "", 5)
    bet = tree.children[0][1]
    assert [tree.probabilities[roll] for roll in tree.children[bet]] == list(FACES.values())
    # min calls after a 1 (-1), and is worth 1 otherwise: 1/3 * -1 + 1/2 + 1/6 = 1/3 > 0
    assert solve_tree(tree, "expectimax").value == Fraction(1, 3)
    assert best_label(tree, "expectimax") == "bet"


def test_chance_cutoff_uses_the_evaluation() -> None:
    # two plies: the rolls are cut off and valued (face - 2) / 2: -1/2, 0, 1/2, so bet is
    # worth 1/3 * -1/2 + 1/2 * 0 + 1/6 * 1/2 = -1/12 and pass (0) is better
    game = DiceBet()
    unfolded = unfold_game(game, "", 2)
    assert (unfolded.nodes, unfolded.leaves, unfolded.cutoff_leaves) == (6, 4, 3)
    tree = parse_tree(unfolded.document)
    assert solve_tree(tree, "expectimax").value == 0
    assert solve_tree(tree.subtree(tree.children[0][1]), "expectimax").value == Fraction(-1, 12)
    assert best_label(tree, "expectimax") == "pass"


def test_a_chance_root_is_refused() -> None:
    with pytest.raises(InvalidInputError) as caught:
        unfold_game(DiceBet(), "bet", 2)
    assert caught.value.errors[0].parameter == "position"


def test_an_unknown_evaluation_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(InvalidInputError, match="it has: open_lines") as caught:
        unfold_game(TicTacToe(), ".........", 1, "material")
    assert caught.value.errors[0].parameter == "evaluation"


@pytest.mark.parametrize("depth", [-1, True, 1.5])
def test_a_depth_that_is_no_count_of_plies_is_refused(depth: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        unfold_game(TakeAway(4), (4, 0), depth)  # type: ignore[arg-type]
    assert caught.value.errors[0].parameter == "depth"


def test_node_limits_refuse_the_depth() -> None:
    game = TicTacToe()
    # 1 + 9 + 72 = 82 nodes to depth 2
    assert unfold_game(game, game.initial_state(), 2, max_nodes=82).nodes == 82
    with pytest.raises(LimitExceededError, match="more than 81 nodes") as caught:
        unfold_game(game, game.initial_state(), 2, max_nodes=81)
    assert caught.value.errors[0].parameter == "depth"
    # the limits in force bound it too, whatever the caller asks
    with limited(Limits(max_nodes=50)), pytest.raises(LimitExceededError, match="than 50"):
        unfold_game(game, game.initial_state(), 2, max_nodes=1000)
    with limited(Limits(max_depth=3)), pytest.raises(LimitExceededError) as deep:
        unfold_game(game, game.initial_state(), 4)
    assert deep.value.errors[0].parameter == "depth"


def test_the_document_is_what_a_tree_endpoint_reads() -> None:
    # the model built by unfold_tree is the one the posted document gives
    game = TicTacToe()
    document = unfold_game(game, "xx.oo....", 3).document
    posted = parse_tree(document)
    unfolded = unfold_tree(game, "xx.oo....", 3)
    assert posted.ids == unfolded.ids
    assert posted.kinds == unfolded.kinds
    assert posted.values == unfolded.values
    assert posted.moves == unfolded.moves
