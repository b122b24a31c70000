# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The compiled twin of :class:`games.trees.node_reader.TreeBuilder` for plain trees.

A plain tree is made of shorthand arrays and integers, and of objects whose only fields are
``children``, an integer ``value``, ``kind`` and ``p`` (expectiminimax trees included): the
shape of large generated trees. :func:`read_plain` reads one into the columns the node reader
would build, node for node, as plain Python lists. Anything else, any error and any limit
passed gives None: the node reader then reads the tree and reports what is wrong, with its
pointer. :func:`games.trees.parser.parse_tree` chooses between the two.

The walk is breadth-first over the decoded JSON, as the node reader's, into one C array of
nodes (borrowed references: ``raw`` keeps every node alive); a second pass makes the lists.
"""

from cpython.dict cimport PyDict_Next
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport PyUnicode_1BYTE_DATA, PyUnicode_AsUTF8AndSize, PyUnicode_New
from libc.string cimport memcpy

from games import numbers as _numbers
from games.trees import grammar as _grammar, model as _model

cdef enum:
    BATCH = 4096  # nodes read between two calls of the deadline's spend

cdef enum:  # a node's kind
    MAX_CODE = 0
    MIN_CODE = 1
    CHANCE_CODE = 2
    LEAF_CODE = 3
    NO_CODE = 4  # a kind no plain node has

cdef enum:  # how a node is written
    OBJECT = 0
    ARRAY = 1
    BARE = 2  # a leaf written as its bare integer

# the grammar's constants (games/trees/grammar.py, model.py, games/numbers.py)
cdef tuple KINDS = (_model.MAX, _model.MIN, _model.CHANCE, _model.LEAF)  # by code
cdef dict HANDOVER = _grammar.HANDOVER
cdef object EMPTY = _grammar.EMPTY
cdef object MAGNITUDE = _numbers.MAX_MAGNITUDE
cdef str ROOT_ID = _model.ROOT_ID
if not (ROOT_ID + _grammar.ID_SEPARATOR).isascii():  # (ids are made as ASCII text below)
    raise ImportError("the compiled reader makes ASCII default ids only")
cdef bytes SEPARATOR = _grammar.ID_SEPARATOR.encode("ascii")


cdef struct Node:
    PyObject* raw  # the decoded node
    PyObject* value  # a leaf's integer, else NULL
    PyObject* chance  # its stated p, else NULL
    Py_ssize_t parent
    Py_ssize_t first  # its first child's index
    Py_ssize_t count  # its number of children (0: a leaf)
    Py_ssize_t depth
    unsigned char turn  # the kind it takes if it states none
    unsigned char kind
    unsigned char shape


cdef unsigned char kind_code(object kind):
    """The code of ``kind`` (a name in :data:`KINDS`), else NO_CODE."""
    cdef unsigned char code
    if type(kind) is not str:
        return NO_CODE
    for code in range(4):
        if kind == KINDS[code]:
            return code
    return NO_CODE


cdef Node* resized(Node* nodes, Py_ssize_t* capacity, Py_ssize_t wanted) except NULL:
    """``nodes`` with room for ``wanted`` (grown by doubling; the caller frees it)."""
    cdef Py_ssize_t size = capacity[0]
    if wanted <= size and nodes != NULL:
        return nodes
    while size < wanted:
        size = size * 2 if size else 4096
    nodes = <Node*>grown(nodes, size * sizeof(Node))
    capacity[0] = size
    return nodes


cdef bint read_fields(dict node, Node* n, PyObject** kids, PyObject** stated):
    """The fields of a node object into ``n``, its children and stated kind into ``kids`` and
    ``stated`` (borrowed); False unless they are those of a plain node."""
    cdef Py_ssize_t position = 0
    cdef PyObject* key
    cdef PyObject* item
    cdef object name
    while PyDict_Next(node, &position, &key, &item):
        if item == <PyObject*>None:
            return False  # a null field
        name = <object>key
        if name == "children":
            kids[0] = item
        elif name == "value":
            n.value = item
        elif name == "kind":
            stated[0] = item
        elif name == "p":
            n.chance = item
        else:
            return False  # another field
    if kids[0] == NULL:
        return n.value != NULL and type(<object>n.value) is int
    return n.value == NULL and type(<object>kids[0]) is list


def read_plain(
    object raw,
    str root_kind,
    Py_ssize_t max_nodes,
    Py_ssize_t max_depth,
    object read_probability,
    object spend,
):
    """The columns of plain tree ``raw``, or None: ``(ids, kinds, children, parents, depths,
    positions, values, probabilities, chance_nodes, array_nodes, bare_leaves)``.

    ``root_kind`` is the root's kind if it states none (``"max"`` or ``"min"``; any other
    gives None). ``probabilities`` is None when no node states ``p``, else the stated ones
    (None where a node states none: the caller settles the chance nodes). A stated
    probability is ``read_probability(p)``, or None when it is not one (then so is the
    answer), each distinct string or integer read once. Integers beyond
    :data:`games.numbers.MAX_MAGNITUDE`, more than ``max_nodes`` nodes or ``max_depth``
    levels give None. Each node read costs one unit of ``spend``.
    """
    cdef Node* nodes = NULL
    cdef Node* n
    cdef Py_ssize_t capacity = 0, total = 1, index = 0, i, count, pending = 0
    cdef unsigned char below[3]
    cdef PyObject* kids
    cdef PyObject* stated
    cdef object node
    cdef int overflow = 0
    cdef bint any_chance = False
    below[MAX_CODE] = kind_code(HANDOVER[KINDS[MAX_CODE]])
    below[MIN_CODE] = kind_code(HANDOVER[KINDS[MIN_CODE]])
    if not (type(raw) is list or type(raw) is dict) or kind_code(root_kind) > MIN_CODE:
        return None
    try:
        nodes = resized(nodes, &capacity, 1)
        nodes[0].raw = <PyObject*>raw
        nodes[0].parent = -1
        nodes[0].depth = 0
        nodes[0].turn = kind_code(root_kind)
        while index < total:
            pending += 1
            if pending == BATCH:
                spend(pending)
                pending = 0
            n = &nodes[index]
            n.value = n.chance = kids = stated = NULL
            node = <object>n.raw
            if type(node) is list:
                kids = n.raw
                n.shape = ARRAY
            elif type(node) is int:
                n.value = n.raw
                n.shape = BARE
            elif type(node) is dict:
                if not read_fields(node, n, &kids, &stated):
                    return None
                n.shape = OBJECT
            else:
                return None
            if n.chance != NULL and (index == 0 or nodes[n.parent].kind != CHANCE_CODE):
                return None  # p belongs to the outcomes of a chance node
            any_chance |= n.chance != NULL
            if kids == NULL:  # a leaf: an integer within the magnitude
                if index == 0 or (stated != NULL and kind_code(<object>stated) != LEAF_CODE):
                    return None
                PyLong_AsLongLongAndOverflow(<object>n.value, &overflow)
                if overflow and not -MAGNITUDE <= <object>n.value <= MAGNITUDE:
                    return None
                n.kind = LEAF_CODE
                n.first = n.count = 0
            else:  # an internal node: its children take the next free indices
                n.kind = n.turn if stated == NULL else kind_code(<object>stated)
                count = PyList_GET_SIZE(<object>kids)
                if (
                    n.kind > CHANCE_CODE
                    or count == 0
                    or total + count > max_nodes
                    or n.depth + 1 > max_depth
                ):
                    return None
                n.first = total
                n.count = count
                nodes = resized(nodes, &capacity, total + count)
                n = &nodes[index]  # (the array may have moved)
                for i in range(count):
                    nodes[total + i].raw = PyList_GET_ITEM(<object>kids, i)
                    nodes[total + i].parent = index
                    nodes[total + i].depth = n.depth + 1
                    # below MAX comes MIN and below MIN comes MAX; chance passes its turn on
                    nodes[total + i].turn = n.turn if n.kind == CHANCE_CODE else below[n.kind]
                total += count
            index += 1
        if pending:
            spend(pending)
        return columns(nodes, total, any_chance, read_probability)
    finally:
        PyMem_Free(nodes)


cdef inline void put(list items, Py_ssize_t index, object item) noexcept:
    """``items[index] = item`` in a list just made (its slot still empty)."""
    Py_INCREF(item)
    PyList_SET_ITEM(items, index, item)


cdef object columns(Node* nodes, Py_ssize_t total, bint any_chance, object read_probability):
    """The lists of the nodes read (see :func:`read_plain`), or None where a stated
    probability is not one."""
    cdef list ids = PyList_New(total), kinds = PyList_New(total), children = PyList_New(total)
    cdef list parents = PyList_New(total), depths = PyList_New(total)
    cdef list positions = PyList_New(total), values = PyList_New(total)
    cdef list probabilities = PyList_New(total) if any_chance else None
    cdef list chance_nodes = []
    cdef bytearray array_nodes = bytearray(total), bare_leaves = bytearray(total)
    cdef dict read = {}  # a stated probability by its string or integer
    cdef Py_ssize_t i, j, size, capacity = 64
    cdef Node* n
    cdef object parent, depth, chance, number, start, stop = 1
    cdef const char* text
    cdef bint keyed
    cdef char* name = <char*>grown(NULL, capacity)  # a child's id: its parent's, then its own
    try:
        put(ids, 0, ROOT_ID)
        put(parents, 0, -1)
        put(depths, 0, 0)
        put(positions, 0, 0)
        for i in range(total):
            n = &nodes[i]
            put(kinds, i, KINDS[n.kind])
            if n.shape == ARRAY:
                array_nodes[i] = 1
            elif n.shape == BARE:
                bare_leaves[i] = 1
            if any_chance:
                chance = None
                if n.chance != NULL:
                    chance = <object>n.chance
                    # (only strings and integers by value: 1 == 1.0 == True)
                    keyed = type(chance) is str or type(chance) is int
                    number = read.get(chance) if keyed else None
                    if number is None:
                        number = read_probability(chance)
                        if number is None:
                            return None
                        if keyed:
                            read[chance] = number
                    chance = number
                put(probabilities, i, chance)
            if n.count == 0:
                put(children, i, EMPTY)
                put(values, i, <object>n.value)
                continue
            # (a range's stop is the next one's start: children are numbered in order)
            start, stop = stop, n.first + n.count
            put(children, i, range(start, stop))
            put(values, i, None)
            if n.kind == CHANCE_CODE:
                chance_nodes.append(i)
            # the children's ids are this node's, the separator and their positions
            text = PyUnicode_AsUTF8AndSize(<object>PyList_GET_ITEM(ids, i), &size)
            if size + len(SEPARATOR) + 24 > capacity:  # (a position has at most 20 digits)
                capacity = 2 * (size + len(SEPARATOR) + 24)
                name = <char*>grown(name, capacity)
            memcpy(name, text, size)
            memcpy(name + size, <const char*>SEPARATOR, len(SEPARATOR))
            size += len(SEPARATOR)
            parent, depth = i, n.depth + 1
            for j in range(n.count):
                put(ids, n.first + j, ascii_text(name, size + digits(j, name + size)))
                put(parents, n.first + j, parent)
                put(depths, n.first + j, depth)
                put(positions, n.first + j, j)
        return (
            ids,
            kinds,
            children,
            parents,
            depths,
            positions,
            values,
            probabilities,
            chance_nodes,
            array_nodes,
            bare_leaves,
        )
    finally:
        PyMem_Free(name)


cdef void* grown(void* block, Py_ssize_t size) except NULL:
    """``block`` reallocated to ``size`` bytes (on failure it is still the caller's to free)."""
    cdef void* moved = PyMem_Realloc(block, size)
    if moved == NULL:
        raise MemoryError()
    return moved


cdef inline str ascii_text(const char* text, Py_ssize_t size):
    """A str of the ``size`` ASCII characters at ``text``."""
    cdef str made = PyUnicode_New(size, 127)
    memcpy(PyUnicode_1BYTE_DATA(made), text, size)
    return made


cdef inline Py_ssize_t digits(Py_ssize_t number, char* out) noexcept:
    """Write ``number`` (not negative) in decimal at ``out``; its length."""
    cdef char reversed_[24]
    cdef Py_ssize_t length = 0, k
    while True:
        reversed_[length] = <char>(48 + number % 10)
        length += 1
        number //= 10
        if number == 0:
            break
    for k in range(length):
        out[k] = reversed_[length - 1 - k]
    return length
