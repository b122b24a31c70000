"""The compiled reader of plain trees (games/trees/_reader.pyx) against the level reader and the
general walk it stands in for: the same tree, node for node, pointers included; and nothing
for any other shape, so errors keep their pointers."""

from __future__ import annotations

import math
import os
from array import array
from fractions import Fraction
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.trees.compiled_reader as compiled_reader
from games.errors import InvalidInputError, LimitExceededError
from games.limits import Limits
from games.trees.compiled_reader import compiled_plain_tree, scan_shorthand, scanned_shorthand_tree
from games.trees.level_reader import plain_tree
from games.trees.model import IntColumn, Tree
from games.trees.node_reader import TreeBuilder
from games.trees.parser import parse_tree
from tests.strategies import shorthand_trees

pytestmark = pytest.mark.skipif(
    not compiled_reader.COMPILED, reason="the compiled reader is not built or not wanted"
)

COLUMNS = (
    "ids",
    "kinds",
    "children",
    "parents",
    "depths",
    "values",
    "evals",
    "moves",
    "probabilities",
    "players",
    "_positions",
    "_array_nodes",
    "_bare_leaves",
)


def mixed(draw: st.DrawFn, shorthand: Any) -> Any:
    """The same tree with each node drawn as an array/integer or as a bare object."""
    as_object = draw(st.booleans())
    if isinstance(shorthand, list):
        kids = [mixed(draw, kid) for kid in shorthand]
        return {"children": kids} if as_object else kids
    return {"value": shorthand} if as_object else shorthand


@st.composite
def plain_trees(draw: st.DrawFn) -> Any:
    return mixed(draw, draw(shorthand_trees(max_depth=5, max_branching=5)))


def assert_same(mine: Tree, theirs: Tree, columns: tuple[str, ...] = COLUMNS) -> None:
    for name in columns:
        assert list(getattr(mine, name)) == list(getattr(theirs, name)), name
        assert getattr(mine, name) == getattr(theirs, name), name
    assert mine.leaf_count == theirs.leaf_count
    assert mine.kind_set == theirs.kind_set == frozenset(theirs.kinds)
    for index in range(len(mine)):
        assert mine.pointer(index) == theirs.pointer(index)
        assert mine.value_pointer(index) == theirs.value_pointer(index)
        assert mine.ids[index] == theirs.ids[index]


def test_the_set_up_built_the_compiled_reader() -> None:
    if os.environ.get("ARBITER_PURE_PYTHON") == "1":
        pytest.skip("the pure-Python readers were asked for")
    assert compiled_reader.COMPILED


@settings(max_examples=300, deadline=None)
@given(plain_trees(), st.sampled_from(["max", "min"]))
def test_compiled_reader_builds_what_the_level_reader_and_the_walk_build(
    raw: Any, root: str
) -> None:
    mine = compiled_plain_tree(raw, root, Limits(), "/tree")
    assert mine is not None
    level = plain_tree(raw, root, Limits(), "/tree")
    assert level is not None
    assert_same(mine, level)
    # the walk keeps no shape flags of its own: only what they give (the pointers) is compared
    assert_same(mine, TreeBuilder(root, Limits(), "/tree").build_nested(raw), COLUMNS[:10])


@pytest.mark.parametrize(
    "raw",
    [
        7,
        {"value": 7},
        [1, 2.5],
        [1, "3"],
        [[1], []],
        [1, True],
        {"id": "a", "children": [1]},
        [1, {"value": 1, "move": "m"}],
        {"children": [{"value": 1.0}]},
        [1, {"children": []}],
        [1, {"children": 3}],
        [1, None],
        [1, 10**400],
        {"kind": "player", "children": [1]},
        {"kind": "leaf", "children": [1]},
        [{"kind": "max", "value": 1}],
        [{"kind": 3, "children": [1]}],
        {"p": "1", "children": [1]},
        [{"p": "1", "children": [1]}],  # p under a MAX node
        {"kind": "chance", "children": [{"p": "0.5", "value": 1}, 2]},  # one p missing
        {"kind": "chance", "children": [{"p": "0.5", "value": 1}, {"p": "0.6", "value": 2}]},
        {"kind": "chance", "children": [{"p": "x", "value": 1}]},
        {"kind": "chance", "children": [{"p": "1.5", "value": 1}]},
        {"kind": "chance", "children": [{"p": True, "value": 1}]},
        {"kind": "chance", "children": [{"p": [1], "value": 1}]},
        {"kind": "chance", "children": [{"p": None, "value": 1}]},
        {"kind": None, "children": [1]},
        [{"children": [1], "value": 2}],
    ],
)
def test_compiled_reader_declines_anything_else(raw: Any) -> None:
    assert compiled_plain_tree(raw, "max", Limits(), "/tree") is None


def test_limits_are_left_to_the_walk_which_names_the_node() -> None:
    with pytest.raises(LimitExceededError):
        parse_tree([[1, 2], [3, 4]], limits=Limits(max_nodes=6))
    assert compiled_plain_tree([[1, 2], [3, 4]], "max", Limits(max_nodes=6), "/tree") is None
    assert compiled_plain_tree([[1, 2], [3, 4]], "max", Limits(max_depth=1), "/tree") is None
    assert compiled_plain_tree([[1, 2], [3, 4]], "max", Limits(max_nodes=7), "/tree") is not None


def test_an_error_keeps_its_pointer() -> None:
    with pytest.raises(InvalidInputError) as raised:
        parse_tree([[1, 2], [3, {"children": [4, "x"]}]])
    assert [error.pointer for error in raised.value.errors] == ["/tree/1/1/children/1"]


def test_default_ids_act_as_the_list_of_ids() -> None:
    tree = compiled_plain_tree(
        [2, [-1, 5], [1, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]], "max", Limits(), "/t"
    )
    assert tree is not None
    ids = tree.ids
    expected = ["root", "root.0", "root.1", "root.2", "root.1.0", "root.1.1", "root.2.0"]
    expected += ["root.2.1"] + [f"root.2.1.{i}" for i in range(11)]
    assert len(ids) == len(expected)
    assert [ids[i] for i in range(len(ids))] == expected  # made one at a time
    assert ids[-1] == "root.2.1.10" and ids[1:3] == ["root.0", "root.1"]
    assert ids == expected and expected == ids and list(ids) == expected
    assert ids.index("root.2.1.10") == len(expected) - 1 and "root.2.1.3" in ids
    assert tree.index_of("root.2.0") == 6
    blob, offsets = ids.encoded()
    assert blob == "".join(expected).encode()
    assert list(offsets) == [0, *__import__("itertools").accumulate(map(len, expected))]
    with pytest.raises(IndexError):
        ids[len(expected)]


@settings(max_examples=200, deadline=None)
@given(
    shape=shorthand_trees(max_depth=4, max_branching=12),
    chain=st.integers(0, 30),
    wide=st.integers(0, 120),
)
def test_the_ids_blob_is_every_id_in_turn(shape: Any, chain: int, wide: int) -> None:
    # ids short and long side by side (a chain of single children makes ids past the 32
    # bytes copied at once; positions of two and three digits, near the blob's end too)
    for _ in range(chain):
        shape = [shape, 0] if chain % 2 else [shape]
    shape = [shape, list(range(wide or 1))]
    scanned = scan_shorthand(orjson.dumps({"tree": shape}), Limits())
    assert scanned is not None and scanned[0] is not None
    tree = scanned_shorthand_tree(scanned[0], "max", "/tree")
    assert tree is not None
    expected, level = [], [("root", shape)]  # the default ids, breadth first
    while level:
        expected += [name for name, _ in level]
        level = [
            (f"{name}.{k}", child)
            for name, node in level
            if isinstance(node, list)
            for k, child in enumerate(node)
        ]
    assert [tree.ids[i] for i in range(len(tree))] == expected  # (each from its parents)
    blob, offsets = tree.ids.encoded()
    assert blob == "".join(expected).encode()
    assert len(offsets) == len(expected) + 1 and all(
        blob[offsets[i] : offsets[i + 1]] == name.encode() for i, name in enumerate(expected)
    )


def probability_forms(draw: st.DrawFn, weight: int, total: int) -> Any:
    """A probability ``weight / total`` in one of the forms the grammar reads."""
    form = draw(st.sampled_from(["ratio", "decimal", "number"]))
    if form == "ratio" or (form == "decimal" and 100 % total):
        return f"{weight}/{total}"
    if form == "decimal":
        return f"{weight * 100 // total / 100:.2f}"
    if weight in (0, total):
        return weight // total  # the integers 0 and 1
    return weight / total if total in (2, 4, 5, 8, 10) else f"{weight}/{total}"


@st.composite
def plain_chance_trees(draw: st.DrawFn) -> Any:
    """Plain trees mixing MAX, MIN and chance nodes, kinds stated or left to the turn,
    probabilities stated in every form (or none: uniform), nodes drawn as arrays/integers
    or as objects."""

    def node(depth: int, outcome: Any = None) -> Any:
        leaf = depth == 0 or draw(st.integers(0, 4)) == 0
        fields: dict[str, Any] = {} if outcome is None else {"p": outcome}
        as_object = outcome is not None or draw(st.booleans())
        if leaf:
            value = draw(st.integers(-5, 5))
            if not as_object:
                return value
            if draw(st.integers(0, 3)) == 0:
                fields["kind"] = "leaf"
            return {**fields, "value": value}
        kind = draw(st.sampled_from([None, None, "max", "min", "chance"]))
        count = draw(st.integers(1, 3))
        outcomes: list[Any] = [None] * count
        if kind == "chance" and draw(st.booleans()):
            weights = draw(
                st.lists(st.integers(0, 4), min_size=count, max_size=count).filter(
                    lambda w: sum(w) > 0
                )
            )
            outcomes = [probability_forms(draw, w, sum(weights)) for w in weights]
        kids = [node(depth - 1, chance) for chance in outcomes]
        if kind is None and not as_object:
            return kids
        if kind is not None:
            fields["kind"] = kind
        return {**fields, "children": kids}

    return node(draw(st.integers(1, 5)))


@settings(max_examples=400, deadline=None)
@given(plain_chance_trees(), st.sampled_from(["max", "min"]))
def test_compiled_reader_reads_chance_trees_as_the_level_reader_does(raw: Any, root: str) -> None:
    level = plain_tree(raw, root, Limits(), "/tree")
    mine = compiled_plain_tree(raw, root, Limits(), "/tree")
    if level is None:  # probabilities that do not sum to 1 (decimals rounded down)
        assert mine is None
        return
    assert mine is not None
    assert_same(mine, level)
    assert_same(mine, TreeBuilder(root, Limits(), "/tree").build_nested(raw), COLUMNS[:10])
    # what it records for the searches: the leaves' extremes, and, when every chance node
    # states every p, the probabilities on the scale of their least common denominator
    leaf_values = [value for value in mine.values if value is not None]
    assert mine.leaf_range == (min(leaf_values), max(leaf_values))
    chance = [node for node, kind in enumerate(mine.kinds) if kind == "chance"]
    stated = all(
        isinstance(kid, dict) and "p" in kid
        for node in chance
        for kid in chance_children(raw, mine, node)
    )
    weights = mine.chance_weights
    assert (weights is not None) is (bool(chance) and stated)
    if weights is not None:
        numbers = [p for p in mine.probabilities if p is not None]
        assert weights.common == math.lcm(*(Fraction(p).denominator for p in numbers))
        assert list(weights.nodes) == [
            0 if p is None else int(p * weights.common) for p in mine.probabilities
        ]
        assert [int(p * weights.common) for p in weights.numbers] == weights.shares


def chance_children(raw: Any, tree: Tree, node: int) -> list[Any]:
    """The decoded children of node ``node`` of ``tree`` read from ``raw``."""
    steps = []
    while node > 0:
        steps.append(tree._positions[node])
        node = tree.parents[node]
    here = raw
    for step in reversed(steps):
        here = (here if isinstance(here, list) else here["children"])[step]
    return list(here if isinstance(here, list) else here["children"])


def spoiled(draw: st.DrawFn, raw: Any) -> Any:
    """``raw`` with one object node given a wrong or unusual field."""
    objects: list[dict[str, Any]] = []
    stack = [raw]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            objects.append(node)
            stack.extend(node.get("children", []))
        elif isinstance(node, list):
            stack.extend(node)
    if not objects:
        return raw
    target = draw(st.sampled_from(objects))
    name = draw(st.sampled_from(["p", "kind", "value", "children", "id", "eval"]))
    target[name] = draw(
        st.sampled_from(
            [None, "0.5", "1/3", 1, 0, 2, -1, 0.25, True, "x", "chance", "leaf", "max", "player"]
            + [[], [1], {}, 10**400, "1/0", " 0.5 "]
        )
    )
    return raw


@settings(max_examples=400, deadline=None)
@given(st.data(), st.sampled_from(["max", "min"]))
def test_any_tree_the_compiled_reader_reads_the_others_read_alike(
    data: st.DataObject, root: str
) -> None:
    raw = spoiled(data.draw, data.draw(plain_chance_trees()))
    mine = compiled_plain_tree(raw, root, Limits(), "/tree")
    level = plain_tree(raw, root, Limits(), "/tree")
    if mine is not None:
        assert level is not None
        assert_same(mine, level)
    # and the parser's answer, tree or error, is the one it gives without the compiled reader
    answers = []
    for compiled in (True, False):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(compiled_reader, "COMPILED", compiled)
            try:
                tree = parse_tree(raw, root=root)
            except InvalidInputError as error:
                answers.append([(e.pointer, e.message) for e in error.errors])
            else:
                answers.append([list(getattr(tree, name)) for name in COLUMNS[:10]])
    assert answers[0] == answers[1]


def test_chance_trees_keep_their_stated_kinds_and_turns() -> None:
    # MAX root; its chance child passes MIN on (the turn it was given); a stated MAX below
    # hands MIN to its children; "1/4" and 0.75 are read exactly, and a silent chance node's
    # outcomes are equally likely
    raw = {
        "children": [
            {
                "kind": "chance",
                "children": [{"p": "1/4", "children": [1, 2]}, {"p": 0.75, "children": [[3]]}],
            },
            {"kind": "chance", "children": [4, {"kind": "max", "children": [[5], 6]}]},
        ]
    }
    tree = compiled_plain_tree(raw, "max", Limits(), "/tree")
    assert tree is not None
    assert tree.kinds == ["max", "chance", "chance", "min", "min", "leaf", "max"] + [
        "leaf",
        "leaf",
        "max",
        "min",
        "leaf",
        "leaf",
        "leaf",
    ]
    half = Fraction(1, 2)
    assert tree.probabilities[:7] == [None, None, None, Fraction(1, 4), Fraction(3, 4), half, half]
    assert tree.pointer(9) == "/tree/children/0/children/1/children/0"


# -- shorthand trees scanned from a request's bytes ------------------------------------------

SPACES = st.sampled_from(["", " ", "\n", "\t ", "\r\n  "])


@st.composite
def plain_texts(draw: st.DrawFn, tree: Any) -> tuple[str, Any]:
    """``tree`` (nested arrays of integers) as JSON text with any whitespace JSON allows, each
    node drawn as an array or number, or as an object with its one member ``children`` or
    ``value``; and the JSON value the text holds."""
    space = SPACES
    as_object = draw(st.booleans())
    if isinstance(tree, list):
        kids = [draw(plain_texts(kid)) for kid in tree]
        text = "[" + ",".join(draw(space) + kid + draw(space) for kid, _ in kids) + "]"
        value: Any = [held for _, held in kids]
        key = "children"
    else:
        text, value, key = str(tree), tree, "value"
    if as_object:
        text = "{" + draw(space) + f'"{key}"' + draw(space) + ":" + draw(space) + text
        return text + draw(space) + "}", {key: value}
    return text, value


OTHER_MEMBERS = st.dictionaries(
    st.sampled_from(["root", "depth", "layout", "x", "tre", "trees", "[", "}", "é"]),
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-(2**63), 2**63 - 1)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=6,
    ),
    max_size=3,
)


@st.composite
def bodies(draw: st.DrawFn) -> tuple[bytes, Any]:
    # (integers about CPython's small ones, -5 to 256, which the reader takes from a table)
    values = st.integers(-10, 300) | st.integers(-(10**18) + 1, 10**18 - 1)
    tree = draw(shorthand_trees(max_depth=5, max_branching=5, values=values))
    others = draw(OTHER_MEMBERS)
    members = [
        orjson.dumps(key).decode()
        + draw(SPACES)
        + ":"
        + draw(SPACES)
        + orjson.dumps(value).decode()
        for key, value in others.items()
    ]
    text, tree = draw(plain_texts(tree))
    members.insert(
        draw(st.integers(0, len(members))), '"tree"' + draw(SPACES) + ":" + draw(SPACES) + text
    )
    text = (
        draw(SPACES)
        + "{"
        + draw(SPACES)
        + ("," + draw(SPACES)).join(members)
        + draw(SPACES)
        + "}"
        + draw(SPACES)
    )
    return text.encode(), tree


@settings(max_examples=300, deadline=None)
@given(bodies(), st.sampled_from(["max", "min"]))
def test_a_scanned_shorthand_tree_is_the_tree_of_the_decoded_body(body: Any, root: str) -> None:
    data, tree = body
    found = scan_shorthand(data, Limits())
    assert found is not None
    scanned, start, end = found
    assert orjson.loads(data[start:end]) == tree == orjson.loads(data)["tree"]
    # the rest of the body, the tree's text replaced, decodes to the other members
    rest = orjson.loads(data[:start] + b"0" + data[end:])
    assert rest == {**orjson.loads(data), "tree": 0}
    mine = scanned_shorthand_tree(scanned, root, "/tree")
    assert mine is not None
    theirs = compiled_plain_tree(tree, root, Limits(), "/tree")
    assert theirs is not None
    assert_same(mine, theirs)
    assert mine.leaf_range == theirs.leaf_range
    # the leaves' integers as a column, for the compiled searches (0 at internal nodes)
    assert mine.leaf_words is not None and theirs.leaf_words is None
    assert list(mine.leaf_words) == [0 if value is None else value for value in theirs.values]


@settings(max_examples=500, deadline=None)
@given(bodies(), st.data())
def test_a_scan_answers_as_decoding_the_whole_body_would(body: Any, data: st.DataObject) -> None:
    # a byte changed, dropped or added anywhere: the scan gives None, or the tree the body
    # holds, or the rest of the body fails to decode as the whole body does
    text, _ = body
    at = data.draw(st.integers(0, len(text)))
    byte = data.draw(st.sampled_from(b'[]{},:"\\ 0123456789-.eE+tx'))
    change = data.draw(st.sampled_from(["replace", "drop", "add"]))
    if change == "replace" and at < len(text):
        text = text[:at] + bytes([byte]) + text[at + 1 :]
    elif change == "drop":
        text = text[:at] + text[at + 1 :]
    else:
        text = text[:at] + bytes([byte]) + text[at:]
    found = scan_shorthand(text, Limits())
    if found is None:
        return
    scanned, start, end = found
    # what the endpoint does with a scan: the rest of the body decoded, or where that fails
    # the whole body, which must fail too (its error is the one answered)
    try:
        rest = orjson.loads(text[:start] + b"0" + text[end:])
    except orjson.JSONDecodeError:
        with pytest.raises(orjson.JSONDecodeError):
            orjson.loads(text)
        return
    decoded = orjson.loads(text)
    assert isinstance(decoded, dict) and rest == {**decoded, "tree": 0}
    assert orjson.loads(text[start:end]) == decoded["tree"]
    mine = scanned_shorthand_tree(scanned, "max", "/tree")
    theirs = compiled_plain_tree(decoded["tree"], "max", Limits(), "/tree")
    assert mine is not None and theirs is not None
    assert_same(mine, theirs)


@pytest.mark.parametrize(
    "body",
    [
        b'{"tree": [1, 2.5]}',
        b'{"tree": [1, 2e3]}',
        b'{"tree": [1, "3"]}',
        b'{"tree": [[1], []]}',
        b'{"tree": []}',
        b'{"tree": [1, 02]}',
        b'{"tree": [1, -]}',
        b'{"tree": [1, 1234567890123456789]}',  # 19 digits
        b'{"tree": [1, 2,]}',
        b'{"tree": [1 2]}',
        b'{"tree": [1, 2]]}',
        b'{"tree": [1, [2]}',
        b'{"tree": 7}',
        b'{"tree": [1, true]}',
        b'{"tree": [1, null]}',
        b'{"tr\\u0065e": [1, 2]}',  # an escaped key
        b'{"tree": [1, 2], "tree": [3, 4]}',
        b'{"tree": [1, 2]} x',
        b'{"tree": [1, 2]',
        b'[{"tree": [1, 2]}]',
        b'{"depth": 2}',
        b"{}",
        b'{"x": "unterminated, "tree": [1, 2]}',
        b'{"tree": {"children": []}}',
        b'{"tree": {"children": [1], "value": 2}}',
        b'{"tree": {"value": 1, "children": [2]}}',
        b'{"tree": {"value": 1}}',  # a leaf for a root
        b'{"tree": {"children": [{"value": 1.5}]}}',
        b'{"tree": {"children": [{"value": [1]}]}}',
        b'{"tree": {"children": {"value": 1}}}',
        b'{"tree": {"kind": "max", "children": [1]}}',
        b'{"tree": {"children": [1], "id": "a"}}',
        b'{"tree": {"children": [{"value": 1, "move": "a"}]}}',
        b'{"tree": {"children": [1]}',
        b'{"tree": {"children" [1]}}',
        b'{"tree": {"children": [1] ]}',
        b'{"tree": {"chi\\u006cdren": [1]}}',  # an escaped member name
        b'{"tree": {}}',
    ],
)
def test_the_scan_leaves_any_other_body_to_the_decoder(body: bytes) -> None:
    assert scan_shorthand(body, Limits()) is None


def test_the_scan_steps_over_the_other_members_whatever_they_hold() -> None:
    body = b'{"x": {"tree": [9]}, "s": "a]\\"tree\\": [", "tree" :[ [1,-2] ,3 ] , "n": [[], {}]}'
    found = scan_shorthand(body, Limits())
    assert found is not None
    scanned, start, end = found
    assert body[start:end] == b"[ [1,-2] ,3 ]"
    tree = scanned_shorthand_tree(scanned, "min", "/tree")
    assert tree is not None and tree.kinds == ["min", "max", "leaf", "leaf", "leaf"]
    assert tree.values == [None, None, 3, 1, -2] and list(tree.ids)[3] == "root.0.0"


def test_the_scan_keeps_the_limits_and_leaves_their_errors_to_the_walk() -> None:
    body = b'{"tree": [[1, 2], [3, 4]]}'  # 7 nodes, 3 levels
    # past the node limit: read to its end, nothing kept (refused at /tree, not decoded)
    assert scan_shorthand(body, Limits(max_nodes=6)) == (None, 9, 25)
    assert scan_shorthand(body, Limits(max_nodes=1)) == (None, 9, 25)
    assert scan_shorthand(body, Limits(max_depth=1)) is None
    assert scan_shorthand(body, Limits(max_nodes=7, max_depth=2)) is not None
    # but only a plain tree whose text is right to its end: any other is the readers'
    for tail in (b"[3, 4.5]", b"[3, ]", b'[3, "4"]', b"[3, []]", b"[3, [[4]]]"):
        wrong = b'{"tree": [[1, 2], ' + tail + b"]}"
        assert scan_shorthand(wrong, Limits(max_nodes=6, max_depth=2)) is None
    # nesting the decoder refuses (1,024 levels, the body's object included) is left to it
    chain = [b'{"tree": ' + b"[" * depth + b"1" + b"]" * depth + b"}" for depth in (1023, 1024)]
    assert scan_shorthand(chain[0], Limits()) is not None and orjson.loads(chain[0])
    assert scan_shorthand(chain[1], Limits()) is None
    with pytest.raises(orjson.JSONDecodeError):
        orjson.loads(chain[1])
    # an object node nests twice ({ and [), its leaf once: 1 + 2 * 511 + 1 = 1,024 at most
    deep = b'{"children": [' * 511
    for inner, fits in ((b"[1]", True), (b'{"value": 1}', True), (b"[[1]]", False)):
        body = b'{"tree": ' + deep + inner + b"]}" * 511 + b"}"
        assert (scan_shorthand(body, Limits(max_depth=600)) is not None) == fits
        if not fits:
            with pytest.raises(orjson.JSONDecodeError):
                orjson.loads(body)
    assert (
        scan_shorthand(
            b'{"tree": ' + b'{"children": [' * 512 + b"1" + b"]}" * 512 + b"}",
            Limits(max_depth=600),
        )
        is None
    )


def test_child_ranges_are_the_list_of_ranges_they_keep() -> None:
    from games.trees._reader import ChildRanges

    # [[1, 2], 3, [4]]: the root's children 1-3, node 1's 4-5, node 3's 6
    starts, counts = [1, 4, 0, 6, 0, 0, 0], [3, 2, 0, 1, 0, 0, 0]
    children = ChildRanges(IntColumn("q", starts), IntColumn("q", counts))
    listed = [range(1, 4), range(4, 6), range(0), range(6, 7), range(0), range(0), range(0)]
    assert len(children) == 7 and list(children) == listed and children.all() == listed
    assert children == listed and listed == children and not children != listed
    assert children == ChildRanges(IntColumn("q", starts), IntColumn("q", counts))
    assert children != listed[:-1] and children != tuple(listed)
    assert children[0] == range(1, 4) and children[-4] == range(6, 7) and not children[2]
    assert children[1:4] == listed[1:4] and children[::-2] == listed[::-2]
    assert list(reversed(children)) == listed[::-1]
    assert children.count(range(0)) == 4 and children.count(range(4, 6)) == 1
    assert children.index(range(6, 7)) == 3 and range(4, 6) in children
    for wrong in (7, -8):
        with pytest.raises(IndexError):
            children[wrong]
    with pytest.raises(TypeError):
        hash(children)
    with pytest.raises(ValueError):
        ChildRanges(IntColumn("q", [1]), IntColumn("q", [1, 2]))
    with pytest.raises(TypeError):
        ChildRanges(array("i", starts), array("i", counts))
