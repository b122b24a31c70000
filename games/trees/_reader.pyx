# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled reader of plain trees: the tree :func:`games.trees.level_reader.plain_tree`
builds, for a tree of shorthand arrays and integers, or of objects whose only fields are
``children``, an integer ``value``, ``kind`` and ``p``, mixed as they come.

Such is the shape of large generated trees (expectiminimax trees included). The tree is the
level reader's node for node, with three differences of form that no reader of the model sees:
every leaf shares one empty range (equal to any other); parents, depths and positions are
``array('q')`` columns; and the ids, all defaults (``root``, ``root.2``, ``root.2.0`` ...), are
a :class:`DefaultIds` sequence that makes each id when asked (a million strings cost more than
the rest of the tree). Anything else, any error and any limit passed, gives None: the level
reader or the general walk then reads the tree and reports what is wrong with its pointer.

The walk is breadth-first over the decoded JSON (borrowed references: ``raw`` keeps every node
alive), into C arrays; the Python lists are made once, at their final size. Stated
probabilities are read by the caller's ``read_probability`` (the grammar's rule), once per
distinct string or integer.
"""

from games.trees.model import IntColumn

from games.trees._columns cimport Interned, copy_32, interned, interned_free, new_range

from cpython cimport array as carray

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE, PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.dict cimport PyDict_Next
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy

cdef enum:
    BATCH = 4096  # nodes read between two calls of the deadline's spend
    JSON_NESTING = 1024  # deepest nesting of arrays and objects orjson decodes
    MAX_DISTINCT = 4096  # distinct probabilities put on one integer scale by the reader
    SHORT_ID = 32  # the bytes copy_32 copies: a parent's id that short is copied by it

cdef object EMPTY = range(0)

cdef extern from "Python.h":
    # the macros on a borrowed pointer (Cython's take an object, with a reference of their own)
    void incref "Py_INCREF" (PyObject* item)
    void list_set "PyList_SET_ITEM" (object items, Py_ssize_t index, PyObject* item)

cdef enum:
    SMALL_LOW = -5  # the ints CPython keeps made (its small-int cache)
    SMALL_HIGH = 256

cdef list SMALL_INT_OBJECTS = list(range(SMALL_LOW, SMALL_HIGH + 1))
cdef PyObject* SMALL_INTS[SMALL_HIGH - SMALL_LOW + 1]  # borrowed from SMALL_INT_OBJECTS


cdef int point_at_small_ints() except -1:
    cdef Py_ssize_t k
    for k in range(SMALL_HIGH - SMALL_LOW + 1):
        SMALL_INTS[k] = <PyObject*>SMALL_INT_OBJECTS[k]
    return 0


point_at_small_ints()
cdef carray.array INT_COLUMN = IntColumn("q")  # the template of columns made by clone

cdef enum:
    MAX_CODE = 0
    MIN_CODE = 1
    CHANCE_CODE = 2
    LEAF_CODE = 3
    NO_CODE = 4  # a stated kind no plain node has


cdef int field_code(object key):
    """0, 1, 2, 3 for the keys children, value, kind and p; -1 for any other."""
    if type(key) is not str:
        return -1
    if key == "children":
        return 0
    if key == "value":
        return 1
    if key == "kind":
        return 2
    if key == "p":
        return 3
    return -1


cdef inline unsigned char kind_code(object kind, tuple names):
    """The code of kind name ``kind`` among ``names`` (max, min, chance, leaf), else NO_CODE."""
    cdef unsigned char code
    for code in range(4):
        if kind == names[code]:
            return code
    return NO_CODE


cdef struct Columns:
    PyObject** nodes  # the decoded node of each index (borrowed)
    int64_t* parents
    int64_t* first  # first child's index (internal nodes)
    int64_t* count  # number of children (0: a leaf)
    unsigned char* shape  # 1 an array, 2 a bare integer, 0 an object
    unsigned char* turn  # the kind the node takes if it states none (MAX_CODE ...)
    unsigned char* kind  # its kind (MAX_CODE, MIN_CODE, CHANCE_CODE; LEAF_CODE for a leaf)
    PyObject** values  # a leaf's integer (borrowed), NULL for internal nodes
    PyObject** chances  # its stated p (borrowed), NULL where it states none
    Py_ssize_t size
    Py_ssize_t capacity


cdef void release(Columns* c):
    free(c.nodes)
    free(c.parents)
    free(c.first)
    free(c.count)
    free(c.shape)
    free(c.turn)
    free(c.kind)
    free(c.values)
    free(c.chances)


cdef void* resized(void* block, Py_ssize_t size) except NULL:
    cdef void* grown = realloc(block, size)
    if grown == NULL:
        raise MemoryError()
    return grown


cdef int reserve(Columns* c, Py_ssize_t wanted) except -1:
    cdef Py_ssize_t capacity = c.capacity
    if wanted <= capacity:
        return 0
    while capacity < wanted:
        capacity = capacity * 2 if capacity else 1 << 12
    c.nodes = <PyObject**>resized(c.nodes, capacity * sizeof(PyObject*))
    c.values = <PyObject**>resized(c.values, capacity * sizeof(PyObject*))
    c.chances = <PyObject**>resized(c.chances, capacity * sizeof(PyObject*))
    c.parents = <int64_t*>resized(c.parents, capacity * sizeof(int64_t))
    c.first = <int64_t*>resized(c.first, capacity * sizeof(int64_t))
    c.count = <int64_t*>resized(c.count, capacity * sizeof(int64_t))
    c.shape = <unsigned char*>resized(c.shape, capacity)
    c.turn = <unsigned char*>resized(c.turn, capacity)
    c.kind = <unsigned char*>resized(c.kind, capacity)
    c.capacity = capacity
    return 0


cdef tuple depths_and_positions(Columns* c, Py_ssize_t total):
    """Each node's depth (one more than its parent's: parents come first in level order) and
    position among its siblings (its index less its parent's first child's), written
    straight into two :class:`IntColumn` s."""
    cdef carray.array depths = IntColumn("q"), positions = IntColumn("q")
    cdef long long* depth
    cdef long long* position
    cdef Py_ssize_t i
    carray.resize(depths, total)
    carray.resize(positions, total)
    depth = depths.data.as_longlongs
    position = positions.data.as_longlongs
    depth[0] = position[0] = 0
    for i in range(1, total):
        depth[i] = depth[c.parents[i]] + 1
        position[i] = i - c.first[c.parents[i]]
    return depths, positions


cdef object int64_column(int64_t* data, Py_ssize_t size):
    """An :class:`IntColumn` of ``size`` integers copied from ``data`` (once, straight into
    the array's own buffer)."""
    cdef carray.array column = IntColumn("q")
    carray.resize(column, size)
    if size:
        memcpy(column.data.as_voidptr, data, size * sizeof(int64_t))
    return column


def read_plain(
    object raw,
    str root_kind,
    tuple kind_names,
    dict handover,
    str root_id,
    str separator,
    Py_ssize_t max_nodes,
    Py_ssize_t max_depth,
    object magnitude,
    object read_probability,
    object weigh,
    object spend,
):
    """The columns of a plain tree, or None: ``(ids, kinds, children, parents, depths,
    positions, values, probabilities, chance_nodes, array_nodes, bare_leaves, leaves,
    weights, leaf_range, kind_set)``.

    ``kind_names`` are the names of MAX, MIN, chance and leaf; ``handover`` maps MAX's and
    MIN's to the kind of the nodes below them (chance passes its own turn on);
    ``read_probability(raw)`` gives a stated probability, or None when it is not one (then
    so does this). ``probabilities`` is None when no node states one (else None where a node
    states none: the caller settles the chance nodes, unless ``weights`` did). ``weigh(numbers)``
    gives ``(Q, shares)`` for the distinct probability objects read (each times ``Q`` is its
    share, an integer), or None; ``weights`` is then ``(Q, numbers, shares, per_node)``, with
    ``per_node`` each node's probability times ``Q`` (0 where it has none), when every chance
    node states every outcome's ``p`` and they sum to 1 (else None, and the caller settles
    them). ``leaf_range`` is the smallest and largest leaf value when all are 64-bit
    integers, else None; ``kind_set`` the kinds that occur. Integers beyond ``magnitude`` either
    way, more than ``max_nodes`` nodes or ``max_depth`` levels give None. Each node read
    costs one unit of ``spend``.
    """
    cdef Columns c
    cdef Py_ssize_t index = 0, total = 1, i, kids_count, pending = 0, leaves = 0
    cdef Py_ssize_t level_end = 1, level = 0
    cdef int64_t depth
    cdef int overflow = 0
    cdef object node, kids, value, stated, chance
    cdef list kinds, values, children, probabilities = None, chance_nodes = []
    cdef dict table = {}
    cdef unsigned char shape, code, turn
    cdef unsigned char below[3]
    cdef bint any_chance = False, in_words = True
    cdef unsigned int present = 0  # a bit for each kind code met
    cdef list distinct = []
    cdef dict slot_of = {}
    cdef int32_t* slots = NULL
    cdef int64_t low = 0, high = 0, word
    cdef object weights_found = None, leaf_range = None
    cdef PyObject* names[4]  # the keys children, value, kind and p, as first met
    cdef PyObject* key
    cdef PyObject* item
    cdef Py_ssize_t position
    cdef int field
    if not (type(raw) is list or type(raw) is dict):
        return None  # a bare leaf is no plain tree
    code = kind_code(root_kind, kind_names)
    if code > MIN_CODE:
        return None
    below[MAX_CODE] = kind_code(handover[kind_names[MAX_CODE]], kind_names)
    below[MIN_CODE] = kind_code(handover[kind_names[MIN_CODE]], kind_names)
    if below[MAX_CODE] > MIN_CODE or below[MIN_CODE] > MIN_CODE:
        return None
    names[0] = names[1] = names[2] = names[3] = NULL
    c.nodes = NULL
    c.parents = c.first = c.count = NULL
    c.shape = c.turn = c.kind = NULL
    c.values = c.chances = NULL
    c.size = c.capacity = 0
    try:
        reserve(&c, 1)
        c.nodes[0] = <PyObject*>raw
        c.parents[0] = -1
        c.turn[0] = code
        while index < total:
            if index == level_end:  # a new level begins (its depth is one more)
                level_end = total
                level += 1
            node = <object>c.nodes[index]
            pending += 1
            if pending >= BATCH:
                spend(pending)
                pending = 0
            kids = None
            stated = None
            chance = None
            if type(node) is list:
                kids = node
                shape = 1
            elif type(node) is int:
                value = node
                shape = 2
            elif type(node) is dict:
                # the fields one by one (a decoder makes each distinct key once, so a key
                # is almost always one already seen: compared by address)
                position = 0
                value = None
                while PyDict_Next(node, &position, &key, &item):
                    if item == <PyObject*>None:
                        return None  # a null field
                    if key != names[0] and key != names[1] and key != names[2] and key != names[3]:
                        field = field_code(<object>key)
                        if field < 0:
                            return None  # another field
                        names[field] = key
                    if key == names[0]:
                        kids = <object>item
                    elif key == names[1]:
                        value = <object>item
                    elif key == names[2]:
                        stated = <object>item
                    else:
                        chance = <object>item
                if kids is None:
                    if type(value) is not int:
                        return None
                elif value is not None or type(kids) is not list:
                    return None
                shape = 0
            else:
                return None
            c.shape[index] = shape
            turn = c.turn[index]
            if chance is None:
                c.chances[index] = NULL
            elif index == 0 or c.kind[c.parents[index]] != CHANCE_CODE:
                return None  # p belongs to the outcomes of a chance node
            else:
                c.chances[index] = <PyObject*>chance
                any_chance = True
            if kids is None:
                if index == 0:
                    return None  # the root is a leaf: no plain tree
                if stated is not None and (
                    type(stated) is not str or kind_code(stated, kind_names) != LEAF_CODE
                ):
                    return None
                word = PyLong_AsLongLongAndOverflow(value, &overflow)
                if overflow:
                    in_words = False
                    if value > magnitude or value < -magnitude:
                        return None
                elif leaves == 0:
                    low = high = word
                elif word < low:
                    low = word
                elif word > high:
                    high = word
                c.values[index] = <PyObject*>value
                c.count[index] = 0
                c.first[index] = 0
                c.kind[index] = LEAF_CODE
                leaves += 1
            else:
                if stated is None:
                    code = turn
                else:
                    if type(stated) is not str:
                        return None
                    code = kind_code(stated, kind_names)
                    if code > CHANCE_CODE:
                        return None
                c.kind[index] = code
                if code == CHANCE_CODE:
                    chance_nodes.append(index)
                else:
                    turn = below[code]
                depth = level + 1
                kids_count = PyList_GET_SIZE(kids)
                if kids_count == 0 or total + kids_count > max_nodes or depth > max_depth:
                    return None
                reserve(&c, total + kids_count)
                c.values[index] = NULL
                c.first[index] = total
                c.count[index] = kids_count
                for i in range(kids_count):
                    c.nodes[total + i] = PyList_GET_ITEM(kids, i)
                    c.parents[total + i] = index
                    c.turn[total + i] = turn
                total += kids_count
            index += 1
        if pending:
            spend(pending)
        kinds = PyList_New(total)
        values = PyList_New(total)
        children = PyList_New(total)
        if any_chance:
            probabilities = PyList_New(total)
            slots = <int32_t*>malloc(total * sizeof(int32_t))
            if slots == NULL:
                raise MemoryError()
        array_nodes = bytearray(total)
        bare_leaves = bytearray(total)
        for i in range(total):
            kind = kind_names[c.kind[i]]
            present |= 1 << c.kind[i]
            if c.count[i]:
                value = None
                kids = new_range(c.first[i], c.count[i])
            else:
                value = <object>c.values[i]
                kids = EMPTY
            Py_INCREF(kind)
            PyList_SET_ITEM(kinds, i, kind)
            Py_INCREF(value)
            PyList_SET_ITEM(values, i, value)
            Py_INCREF(kids)
            PyList_SET_ITEM(children, i, kids)
            if c.shape[i] == 1:
                array_nodes[i] = 1
            elif c.shape[i] == 2:
                bare_leaves[i] = 1
            if any_chance:
                if c.chances[i] == NULL:
                    chance = None
                    slots[i] = -1
                else:
                    chance = <object>c.chances[i]
                    if type(chance) is str or type(chance) is int:
                        # (only strings and integers: 1 == 1.0 == True would merge inputs)
                        value = table.get(chance)
                        if value is None:
                            value = read_probability(chance)
                            if value is None:
                                return None
                            table[chance] = value
                            slot_of[chance] = len(distinct)
                            distinct.append(value)
                        slots[i] = <int32_t>slot_of[chance]
                    else:
                        value = read_probability(chance)
                        if value is None:
                            return None
                        slots[i] = <int32_t>len(distinct)
                        distinct.append(value)
                    chance = value
                Py_INCREF(chance)
                PyList_SET_ITEM(probabilities, i, chance)
        if any_chance and len(distinct) <= MAX_DISTINCT:
            weights_found = chance_weights(&c, slots, total, distinct, weigh)
        if in_words and leaves:
            leaf_range = (low, high)
        parents = int64_column(c.parents, total)
        depths, positions = depths_and_positions(&c, total)
        ids = DefaultIds(root_id, separator, parents, positions)
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
            leaves,
            weights_found,
            leaf_range,
            frozenset([kind_names[k] for k in range(4) if present & (1 << k)]),
        )
    finally:
        release(&c)
        free(slots)


cdef object chance_weights(Columns* c, int32_t* slots, Py_ssize_t total, list distinct, object weigh):
    """``(Q, numbers, shares, per_node)`` (see :func:`read_plain`), or None."""
    cdef Py_ssize_t i, k, count = len(distinct)
    cdef int64_t common, sum_, share_
    cdef int overflow = 0
    cdef int64_t* shares
    cdef int64_t* weights
    weighed = weigh(distinct)
    if weighed is None:
        return None
    common = PyLong_AsLongLongAndOverflow(weighed[0], &overflow)
    if overflow or common <= 0 or common > (1LL << 62):
        return None
    shares = <int64_t*>malloc((count + 1) * sizeof(int64_t))
    weights = <int64_t*>malloc(total * sizeof(int64_t))
    try:
        if shares == NULL or weights == NULL:
            raise MemoryError()
        for k in range(count):
            share_ = PyLong_AsLongLongAndOverflow(weighed[1][k], &overflow)
            if overflow or share_ < 0 or share_ > common:
                return None
            shares[k] = share_
        for i in range(total):
            weights[i] = shares[slots[i]] if slots[i] >= 0 else 0
        # every chance node states each outcome's p, and they sum to 1: Q on this scale
        for i in range(total):
            if c.count[i] == 0 or c.kind[i] != CHANCE_CODE:
                continue
            sum_ = 0
            for k in range(c.first[i], c.first[i] + c.count[i]):
                if slots[k] < 0:
                    return None  # silent outcomes (uniform, or an error): the caller settles
                sum_ += weights[k]  # (each at most Q < 2 ** 62: no overflow before the test)
                if sum_ > common:
                    return None
            if sum_ != common:
                return None
        return (weighed[0], distinct, list(weighed[1]), int64_column(weights, total))
    finally:
        free(shares)
        free(weights)


cdef class DefaultIds:
    """The default ids of a tree in breadth-first order (a sequence of str): the root's, then
    for every other node its parent's, the separator and its position among its siblings.

    An id is made when asked. Reading them all (iterating, comparing, searching) makes and keeps
    the whole list once; :meth:`encoded` gives them as UTF-8 bytes for a JSON writer.
    """

    cdef str root
    cdef str separator
    cdef object parents
    cdef object positions
    cdef list made
    cdef object blob
    cdef object offsets

    def __init__(self, str root, str separator, object parents, object positions):
        self.root = root
        self.separator = separator
        self.parents = parents
        self.positions = positions
        self.made = None
        self.blob = None
        self.offsets = None

    def __len__(self):
        return len(self.parents)

    def __getitem__(self, index):
        cdef list steps
        cdef Py_ssize_t node, size = len(self.parents)
        cdef int64_t[:] offsets
        if self.made is not None or isinstance(index, slice):
            return self.all()[index]
        node = index
        if node < 0:
            node += size
        if node < 0 or node >= size:
            raise IndexError("id index out of range")
        if self.blob is not None:  # written out already: read it there
            offsets = self.offsets
            return PyUnicode_DecodeUTF8(
                PyBytes_AS_STRING(self.blob) + offsets[node], offsets[node + 1] - offsets[node], NULL
            )
        steps = []
        while node > 0:
            steps.append(str(self.positions[node]))
            node = self.parents[node]
        steps.append(self.root)
        steps.reverse()
        return self.separator.join(steps)

    def __iter__(self):
        return iter(self.all())

    def __reversed__(self):
        return reversed(self.all())

    def __contains__(self, value):
        return value in self.all()

    def __eq__(self, other):
        if isinstance(other, DefaultIds):
            return self.all() == (<DefaultIds>other).all()
        return self.all() == other

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        return f"DefaultIds({len(self)} ids)"

    def index(self, value, *args):
        return self.all().index(value, *args)

    def count(self, value):
        return self.all().count(value)

    def all(self):
        """Every id, made once (as a list of str) and kept."""
        cdef Py_ssize_t i, size
        cdef list made
        cdef int64_t[:] offsets
        cdef const char* data
        if self.made is None:
            size = len(self.parents)
            blob, offsets = self.encoded()
            data = PyBytes_AS_STRING(blob)
            made = PyList_New(size)
            for i in range(size):
                name = PyUnicode_DecodeUTF8(data + offsets[i], offsets[i + 1] - offsets[i], NULL)
                Py_INCREF(name)
                PyList_SET_ITEM(made, i, name)
            self.made = made
        return self.made

    def parts(self):
        """``(root, separator, parents, positions)``, the root's id and the separator in
        UTF-8 and the parent and position columns, for a writer that writes each id from its
        parent's (``analysis.trees._kernels.node_map_bytes``); None once :meth:`encoded` has
        made the ids, which a writer then copies."""
        if self.blob is not None:
            return None
        return (
            self.root.encode("utf-8"), self.separator.encode("utf-8"), self.parents, self.positions
        )

    def encoded(self):
        """``(blob, offsets)``: every id in UTF-8, one after the other, id ``i`` being
        ``blob[offsets[i]:offsets[i + 1]]`` (made once and kept). Ids are written in index
        order and a parent comes before its children, so a child's id is its parent's
        (already written) and its own position: one pass works out every offset, the next
        copies the bytes straight into the blob."""
        cdef Py_ssize_t size = len(self.parents), i, length, parent, written, end
        cdef const int64_t[:] parent_column = self.parents
        cdef const int64_t[:] position_column = self.positions
        cdef const int64_t* parents
        cdef const int64_t* positions
        cdef carray.array offsets
        cdef long long* starts
        cdef char* data
        cdef int64_t position
        cdef int places
        cdef bytes root = self.root.encode("utf-8"), separator = self.separator.encode("utf-8")
        cdef Py_ssize_t separator_size = len(separator)
        cdef const char* separator_data = PyBytes_AS_STRING(separator)
        cdef bytes blob
        if self.blob is not None:
            return self.blob, self.offsets
        offsets = carray.clone(INT_COLUMN, size + 1, False)
        starts = offsets.data.as_longlongs
        # the offsets: an id is its parent's, the separator and its position's digits
        starts[0] = 0
        if size == 0:
            self.blob, self.offsets = b"", offsets
            return self.blob, self.offsets
        parents = &parent_column[0]
        positions = &position_column[0]
        # (the running end in a local: read back from ``starts``, each offset would wait for
        # the store of the one before)
        end = starts[1] = len(root)
        for i in range(1, size):
            parent = parents[i]
            position = positions[i]
            places = 1
            while position >= 10:
                places += 1
                position //= 10
            end += starts[parent + 1] - starts[parent] + separator_size + places
            starts[i + 1] = end
        blob = PyBytes_FromStringAndSize(NULL, end)
        data = PyBytes_AS_STRING(blob)
        memcpy(data, PyBytes_AS_STRING(root), len(root))
        for i in range(1, size):
            parent = parents[i]
            written = starts[i]
            length = starts[parent + 1] - starts[parent]
            # the parent's id, which ends before this one starts: a short one is copied as 32
            # bytes at once, in a few moves (what that writes past the parent's id lands on ids
            # not yet written, each written over in turn)
            if length <= SHORT_ID and written + SHORT_ID <= end:
                copy_32(data + written, data + starts[parent])
            else:
                memcpy(data + written, data + starts[parent], length)
            written += length
            if separator_size == 1:
                data[written] = separator_data[0]
            else:
                memcpy(data + written, separator_data, separator_size)
            # the position's digits, from the last (the id's end is known)
            written = starts[i + 1]
            position = positions[i]
            while True:
                written -= 1
                data[written] = <char>(48 + position % 10)
                position //= 10
                if position == 0:
                    break
        self.blob = blob
        self.offsets = offsets
        return self.blob, self.offsets


# -- plain trees read straight from the request's bytes ----------------------------------------

cdef struct Scan:  # a plain tree's nodes in the order of the text (depth-first)
    int64_t* parent
    int64_t* depth
    int64_t* position
    int64_t* count  # number of children (0: a leaf)
    int64_t* value  # a leaf's integer
    unsigned char* objects  # 1 where the node is written as an object (else an array or a number)
    Py_ssize_t size
    Py_ssize_t capacity
    bint over  # the tree has more than the node limit: read on for its syntax, nothing kept


cdef void scan_release(Scan* d) noexcept:
    free(d.parent)
    free(d.depth)
    free(d.position)
    free(d.count)
    free(d.value)
    free(d.objects)


cdef int scan_reserve(Scan* d, Py_ssize_t text) except -1:
    """Room for more nodes: at first for as many as ``text`` bytes can hold (a node takes two
    at least), up to 4,096; then twice as many each time."""
    cdef Py_ssize_t capacity
    if d.size < d.capacity:
        return 0
    capacity = d.capacity * 2 if d.capacity else min(1 << 12, text // 2 + 1)
    d.parent = <int64_t*>resized(d.parent, capacity * sizeof(int64_t))
    d.depth = <int64_t*>resized(d.depth, capacity * sizeof(int64_t))
    d.position = <int64_t*>resized(d.position, capacity * sizeof(int64_t))
    d.count = <int64_t*>resized(d.count, capacity * sizeof(int64_t))
    d.value = <int64_t*>resized(d.value, capacity * sizeof(int64_t))
    d.objects = <unsigned char*>resized(d.objects, capacity)
    d.capacity = capacity
    return 0


cdef inline Py_ssize_t skip_space(const unsigned char* s, Py_ssize_t i, Py_ssize_t end) noexcept:
    while i < end and (s[i] == 32 or s[i] == 10 or s[i] == 13 or s[i] == 9):
        i += 1
    return i


cdef inline bint is_digit(unsigned char c) noexcept:
    return 48 <= c <= 57


cdef Py_ssize_t skip_string(const unsigned char* s, Py_ssize_t i, Py_ssize_t end) noexcept:
    """The index past the JSON string that opens at ``s[i]``, or -1 (it does not close, or
    holds a control character). Escapes are stepped over, not checked: the decoder that
    reads the rest of the body checks them."""
    i += 1
    while i < end:
        if s[i] == 34:  # "
            return i + 1
        if s[i] == 92:  # backslash
            i += 2
            continue
        if s[i] < 32:
            return -1
        i += 1
    return -1


cdef Py_ssize_t skip_value(const unsigned char* s, Py_ssize_t i, Py_ssize_t end) noexcept:
    """The index past the JSON value that starts at ``s[i]`` (its brackets balanced, strings
    stepped over; anything else runs to the next comma, bracket or space), or -1."""
    cdef Py_ssize_t depth = 0
    while i < end:
        if s[i] == 34:
            i = skip_string(s, i, end)
            if i < 0:
                return -1
            if depth == 0:
                return i
            continue
        if s[i] == 91 or s[i] == 123:  # [ {
            depth += 1
        elif s[i] == 93 or s[i] == 125:  # ] }
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif depth == 0 and (s[i] == 44 or s[i] == 32 or s[i] == 10 or s[i] == 13 or s[i] == 9):
            return i
        i += 1
    return i if depth == 0 else -1


cdef Py_ssize_t scan_tree(
    const unsigned char* s, Py_ssize_t i, Py_ssize_t end, Scan* d, Py_ssize_t max_nodes,
    Py_ssize_t max_depth, object spend,
) except -2:
    """Read the plain tree that opens at ``s[i]`` into ``d``, depth-first: nested arrays of
    JSON integers (the shorthand), and objects whose only member is ``"children"`` (a
    non-empty array) or ``"value"`` (an integer), mixed as they come. Returns the index past
    its last bracket or brace, or -1 where the text is anything else (another value or
    member, a number with a fraction, exponent or more than 18 digits, an empty array, bad
    syntax) or passes ``max_depth`` or the decoder's nesting limit (with the body's object
    around it). A tree of more than ``max_nodes`` nodes is read on to its end all the same,
    for the same checks, but its nodes past the limit are not kept: ``d.over`` then says so,
    and the columns are not the tree's. An explicit stack of open arrays: no recursion."""
    cdef int64_t* open_nodes = NULL
    cdef int64_t* open_counts = NULL
    cdef unsigned char* open_objects = NULL
    cdef Py_ssize_t top = 0, capacity = 0, node, digits, pending = 0
    cdef Py_ssize_t nesting = 1  # the containers open, the body's object included
    cdef int64_t value
    cdef bint negative
    cdef unsigned char written  # 0: an array or a number; 1: an object, children; 2: value
    # the columns and the node count, held in locals: a store through one of the columns
    # could otherwise change the struct's fields, for all the compiler knows, and each would
    # be read again after it
    cdef Py_ssize_t size = d.size
    cdef int64_t* parents = d.parent
    cdef int64_t* depths = d.depth
    cdef int64_t* positions = d.position
    cdef int64_t* counts = d.count
    cdef int64_t* values = d.value
    cdef unsigned char* objects = d.objects
    try:
        while True:
            # a value at s[i]
            if i >= end:
                return -1
            if size >= max_nodes and size:
                # past the limit: the tree is refused whole, but only once its text is
                # known to be a plain tree (any other is the readers' to judge): each further
                # node goes to the root's row, whose columns are thrown away with the rest
                d.over = True
                node = 0
            else:
                if size >= d.capacity:
                    d.size = size
                    scan_reserve(d, end - i)
                    parents, depths, positions = d.parent, d.depth, d.position
                    counts, values, objects = d.count, d.value, d.objects
                node = size
                size += 1
            pending += 1
            if pending >= BATCH:
                spend(pending)
                pending = 0
            counts[node] = 0  # (an array's, when it closes)
            depths[node] = top
            if top:
                # the children counted so far, kept on the stack (the counts' column would
                # be read back and written for every child)
                parents[node] = open_nodes[top - 1]
                positions[node] = open_counts[top - 1]
                open_counts[top - 1] += 1
            else:
                parents[node] = -1
                positions[node] = 0
            written = 0
            if s[i] == 123:  # {: its one member, "children" or "value", then its value
                i = skip_space(s, i + 1, end)
                if i + 10 <= end and memcmp(s + i, b'"children"', 10) == 0:
                    written = 1
                    i += 10
                elif i + 7 <= end and memcmp(s + i, b'"value"', 7) == 0:
                    written = 2
                    i += 7
                else:
                    return -1  # (any other member: the readers read it)
                i = skip_space(s, i, end)
                if i >= end or s[i] != 58:  # :
                    return -1
                i = skip_space(s, i + 1, end)
                if i >= end or (s[i] == 91) != (written == 1):
                    return -1  # (children that are not an array, a value that is one)
                if nesting + 1 > JSON_NESTING:
                    return -1  # (the decoder refuses it, and says so)
            objects[node] = written != 0
            if s[i] == 91:  # [
                if top + 1 > max_depth:
                    return -1  # (its children would lie past the deepest level allowed)
                nesting += 1 + (written == 1)
                if nesting > JSON_NESTING:
                    return -1  # (the decoder refuses it, and says so)
                if top == capacity:
                    capacity = capacity * 2 if capacity else 64
                    open_nodes = <int64_t*>resized(open_nodes, capacity * sizeof(int64_t))
                    open_counts = <int64_t*>resized(open_counts, capacity * sizeof(int64_t))
                    open_objects = <unsigned char*>resized(open_objects, capacity)
                open_nodes[top] = node
                open_counts[top] = 0
                open_objects[top] = written
                top += 1
                i = skip_space(s, i + 1, end)
                if i >= end or s[i] == 93:
                    return -1  # an empty array: the readers say what is wrong with it
                continue
            if top == 0:
                return -1  # (a leaf for a root: no plain tree)
            negative = s[i] == 45  # -
            if negative:
                i += 1
            if i >= end or not is_digit(s[i]):
                return -1
            value = 0
            digits = 0
            if s[i] == 48 and i + 1 < end and is_digit(s[i + 1]):
                return -1  # a leading zero
            while i < end and is_digit(s[i]):
                value = value * 10 + (s[i] - 48)
                digits += 1
                i += 1
                if digits > 18:
                    return -1
            if i < end and (s[i] == 46 or s[i] == 101 or s[i] == 69):  # . e E
                return -1
            values[node] = -value if negative else value
            if written == 2:  # the object's closing brace
                i = skip_space(s, i, end)
                if i >= end or s[i] != 125:
                    return -1
                i += 1
            # after a value: a comma and the next value, or brackets (and braces) closing
            while True:
                i = skip_space(s, i, end)
                if i >= end:
                    return -1
                if s[i] == 44:  # ,
                    i = skip_space(s, i + 1, end)
                    break
                if s[i] != 93:
                    return -1
                top -= 1
                counts[open_nodes[top]] = open_counts[top]
                i += 1
                nesting -= 1
                if open_objects[top]:
                    i = skip_space(s, i, end)
                    if i >= end or s[i] != 125:
                        return -1
                    i += 1
                    nesting -= 1
                if top == 0:
                    if pending:
                        spend(pending)
                    return i
    finally:
        d.size = size
        free(open_nodes)
        free(open_counts)
        free(open_objects)


cdef class ChildRanges:
    """Every node's children as a ``range``, kept as two columns of machine integers (the
    first child's index and the number of children): a list of ranges without a range object
    per node to make and free. Each range is made when read; the compiled searches and
    writers read the columns (:attr:`starts`, :attr:`counts`) instead. Equal to the list of
    the same ranges."""

    cdef readonly carray.array starts  # IntColumn: a node's first child (0 for a leaf)
    cdef readonly carray.array counts  # IntColumn: its number of children
    cdef Py_ssize_t size

    def __init__(self, carray.array starts, carray.array counts):
        if starts.ob_descr.typecode != b"q" or counts.ob_descr.typecode != b"q":
            raise TypeError("starts and counts must be array('q') columns")
        if len(starts) != len(counts):
            raise ValueError("starts and counts differ in length")
        self.starts = starts
        self.counts = counts
        self.size = len(counts)

    cdef inline object node_range(self, Py_ssize_t node):
        cdef int64_t count = self.counts.data.as_longlongs[node]
        if count == 0:
            return EMPTY
        return new_range(self.starts.data.as_longlongs[node], count)

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        cdef Py_ssize_t node
        if isinstance(index, slice):
            return [self.node_range(node) for node in range(*index.indices(self.size))]
        node = index
        if node < 0:
            node += self.size
        if node < 0 or node >= self.size:
            raise IndexError("ChildRanges index out of range")
        return self.node_range(node)

    def __iter__(self):
        return iter(self.all())

    def __reversed__(self):
        return reversed(self.all())

    def all(self):
        """The list of the ranges, made at once."""
        cdef list made = PyList_New(self.size)
        cdef Py_ssize_t node
        cdef object kids
        for node in range(self.size):
            kids = self.node_range(node)
            Py_INCREF(kids)
            PyList_SET_ITEM(made, node, kids)
        return made

    def __contains__(self, value):
        return value in self.all()

    def index(self, value, *args):
        return self.all().index(value, *args)

    def count(self, value):
        cdef Py_ssize_t node, found = 0
        if type(value) is range and len(value) == 0:  # the leaves, counted in C
            for node in range(self.size):
                if self.counts.data.as_longlongs[node] == 0:
                    found += 1
            return found
        return self.all().count(value)

    def __eq__(self, other):
        if isinstance(other, ChildRanges):
            return self.all() == other.all()
        if isinstance(other, list):
            return self.all() == other
        return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __repr__(self):
        return f"ChildRanges({self.all()!r})"


cdef class ScannedShorthand:
    """A plain tree (the shorthand's arrays and integers, and objects whose one member is
    ``children`` or ``value``) read from a request's bytes by :func:`scan_body`, in
    breadth-first order, kinds not yet given (they follow the request's ``root``)."""

    cdef readonly object parents  # IntColumn
    cdef readonly object depths
    cdef readonly object positions
    cdef object first
    cdef object count
    cdef readonly object value  # IntColumn: a leaf's integer, 0 at internal nodes
    cdef bytes objects  # 1 where a node is written as an object
    cdef readonly Py_ssize_t size
    cdef readonly Py_ssize_t leaves
    cdef int64_t low
    cdef int64_t high

    def columns(
        self, str root_kind, tuple kind_names, dict handover, str root_id, str separator
    ):
        """The columns :func:`read_plain` gives for this tree, or None where ``root_kind``
        is not MAX's or MIN's name."""
        cdef Py_ssize_t total = self.size, i
        cdef unsigned char code
        cdef unsigned char below[2]
        cdef const int64_t[:] count = self.count
        cdef const int64_t[:] value = self.value
        cdef const unsigned char* objects = self.objects
        cdef const int64_t[:] depth = self.depths
        cdef list kinds = PyList_New(total)
        cdef list values = PyList_New(total)
        cdef PyObject* kind
        cdef PyObject* made
        cdef PyObject* none = <PyObject*>None
        cdef int64_t number
        cdef object big  # a number past the small ints, interned
        cdef object leaf_kind = kind_names[LEAF_CODE]
        cdef object even_kind, odd_kind  # the internal nodes' kind at even and odd depths
        cdef bytearray array_nodes = bytearray(total), bare_leaves = bytearray(total)
        cdef unsigned char* arrays = array_nodes
        cdef unsigned char* bare = bare_leaves
        cdef unsigned int present = 1 << LEAF_CODE
        cdef Interned numbers = Interned(NULL, NULL, 0, 0)
        code = kind_code(root_kind, kind_names)
        if code > MIN_CODE:
            return None
        below[0] = kind_code(handover[kind_names[MAX_CODE]], kind_names)
        below[1] = kind_code(handover[kind_names[MIN_CODE]], kind_names)
        if below[0] > MIN_CODE or below[1] > MIN_CODE:
            return None
        # a plain tree states no kinds: a level's internal nodes all take the same one
        even_kind = kind_names[code]
        odd_kind = kind_names[below[code]]
        present |= 1 << code
        if depth[total - 1] > 1:
            present |= 1 << below[code]
        if below[below[code]] != code:
            return None  # (the handover of MAX and MIN alternates)
        try:
            # (borrowed pointers, each stored with a reference of its own: the objects held in
            # variables would cost a reference taken and dropped at every assignment)
            for i in range(total):
                if count[i]:
                    kind = <PyObject*>(odd_kind if depth[i] & 1 else even_kind)
                    made = none
                    arrays[i] = not objects[i]
                else:
                    kind = <PyObject*>leaf_kind
                    # one object per distinct number (Python keeps -5 to 256 made already)
                    number = value[i]
                    if SMALL_LOW <= number <= SMALL_HIGH:
                        made = SMALL_INTS[number - SMALL_LOW]
                    else:
                        big = interned(&numbers, number)
                        made = <PyObject*>big
                    bare[i] = not objects[i]
                incref(kind)
                list_set(kinds, i, kind)
                incref(made)
                list_set(values, i, made)
        finally:
            interned_free(&numbers)
        return (
            DefaultIds(root_id, separator, self.parents, self.positions),
            kinds,
            ChildRanges(self.first, self.count),  # (a range made only when one is read)
            self.parents,
            self.depths,
            self.positions,
            values,
            None,
            [],
            array_nodes,
            bare_leaves,
            self.leaves,
            None,
            (self.low, self.high),
            frozenset([kind_names[k] for k in range(4) if present & (1 << k)]),
        )


cdef ScannedShorthand breadth_first(Scan* d):
    """The tree of ``d`` renumbered breadth-first: a level's nodes keep their text order
    (which is left to right), so a stable count by depth gives each node its index."""
    cdef Py_ssize_t total = d.size, i, levels = 0, k, at, parent, stride
    cdef ScannedShorthand tree = ScannedShorthand.__new__(ScannedShorthand)
    cdef int64_t* index = <int64_t*>malloc(total * sizeof(int64_t))
    cdef int64_t* starts = NULL
    cdef carray.array parents, depths, positions, first, count, value
    cdef int64_t leaf
    cdef bint any_leaf = False
    cdef int64_t* text_depth
    cdef int64_t* text_parent
    cdef int64_t* text_position
    cdef int64_t* text_count
    cdef int64_t* text_value
    cdef long long* parent_of
    cdef long long* depth_of
    cdef long long* position_of
    cdef long long* first_of
    cdef long long* count_of
    cdef long long* value_of
    cdef bytes objects = PyBytes_FromStringAndSize(NULL, d.size)
    cdef char* object_of = PyBytes_AS_STRING(objects)
    try:
        if index == NULL:
            raise MemoryError()
        for i in range(total):
            if d.depth[i] + 1 > levels:
                levels = d.depth[i] + 1
        # nodes a level, counted in four interleaved tallies summed after (with one, the
        # increment of a node would wait for the store of the node before, most often of the
        # same depth)
        starts = <int64_t*>calloc(4 * (levels + 1), sizeof(int64_t))
        if starts == NULL:
            raise MemoryError()
        stride = levels + 1
        for i in range(total):
            starts[(i & 3) * stride + d.depth[i] + 1] += 1
        for k in range(1, stride):
            starts[k] += starts[stride + k] + starts[2 * stride + k] + starts[3 * stride + k]
        for k in range(levels):
            starts[k + 1] += starts[k]
        parents = carray.clone(INT_COLUMN, total, False)
        depths = carray.clone(INT_COLUMN, total, False)
        positions = carray.clone(INT_COLUMN, total, False)
        first = carray.clone(INT_COLUMN, total, False)
        count = carray.clone(INT_COLUMN, total, False)
        value = carray.clone(INT_COLUMN, total, False)
        tree.low = tree.high = 0
        tree.leaves = 0
        # one pass in text order: a node's index is the next free one of its level, and its
        # parent (earlier in the text) already has one; a first child sets its parent's
        # ``first``, which the parent set to 0 when its own turn came
        # (the columns in locals, for the reason scan_tree gives)
        text_depth, text_parent, text_position = d.depth, d.parent, d.position
        text_count, text_value = d.count, d.value
        parent_of, depth_of = parents.data.as_longlongs, depths.data.as_longlongs
        position_of, first_of = positions.data.as_longlongs, first.data.as_longlongs
        count_of, value_of = count.data.as_longlongs, value.data.as_longlongs
        for i in range(total):
            at = starts[text_depth[i]]
            starts[text_depth[i]] += 1
            index[i] = at
            parent = text_parent[i]
            if parent >= 0:
                parent_of[at] = index[parent]
                if text_position[i] == 0:
                    first_of[index[parent]] = at
            else:
                parent_of[at] = -1
            depth_of[at] = text_depth[i]
            position_of[at] = text_position[i]
            count_of[at] = text_count[i]
            object_of[at] = d.objects[i]
            first_of[at] = 0
            if text_count[i]:
                value_of[at] = 0
                continue
            leaf = text_value[i]
            value_of[at] = leaf
            if not any_leaf:
                tree.low = tree.high = leaf
                any_leaf = True
            elif leaf < tree.low:
                tree.low = leaf
            elif leaf > tree.high:
                tree.high = leaf
            tree.leaves += 1
        tree.parents, tree.depths, tree.positions = parents, depths, positions
        tree.first, tree.count, tree.value = first, count, value
        tree.objects = objects
        tree.size = total
        return tree
    finally:
        free(index)
        free(starts)


def scan_body(bytes data, Py_ssize_t max_nodes, Py_ssize_t max_depth, object spend):
    """``(tree, start, end)`` when ``data`` is a JSON object whose member ``tree`` is a
    plain tree (nested arrays of integers of at most 18 digits, and objects whose one member
    is ``children`` or ``value``), read by
    :func:`scan_tree` (``data[start:end]`` is its text); else None. The rest of the body is
    only stepped over: its decoder checks it. A second ``tree`` member, a key with an
    escape, or a tree past ``max_depth`` gives None; a plain tree of more than ``max_nodes``
    nodes gives ``(None, start, end)``, its nodes past the limit read but not kept."""
    cdef const unsigned char* s = <const unsigned char*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t end = len(data), i, key_end, start = -1, stop = -1
    cdef Scan d
    cdef bint is_tree
    d.parent = d.depth = d.position = d.count = d.value = NULL
    d.objects = NULL
    d.size = d.capacity = 0
    d.over = False
    try:
        i = skip_space(s, 0, end)
        if i >= end or s[i] != 123:  # {
            return None
        i = skip_space(s, i + 1, end)
        if i < end and s[i] == 125:
            return None
        while True:
            if i >= end or s[i] != 34:
                return None
            key_end = skip_string(s, i, end)
            if key_end < 0:
                return None
            if memchr(s + i + 1, 92, key_end - i - 2) != NULL:
                return None  # an escaped key might spell "tree"
            is_tree = key_end - i == 6 and memcmp(s + i + 1, b"tree", 4) == 0
            i = skip_space(s, key_end, end)
            if i >= end or s[i] != 58:  # :
                return None
            i = skip_space(s, i + 1, end)
            if i >= end:
                return None
            if is_tree:
                if start >= 0 or (s[i] != 91 and s[i] != 123):
                    return None  # a second tree, or not a plain one
                start = i
                i = scan_tree(s, i, end, &d, max_nodes, max_depth, spend)
                if i < 0:
                    return None
                stop = i
            else:
                i = skip_value(s, i, end)
                if i < 0:
                    return None
            i = skip_space(s, i, end)
            if i >= end:
                return None
            if s[i] == 125:  # }
                break
            if s[i] != 44:
                return None
            i = skip_space(s, i + 1, end)
        if start < 0 or skip_space(s, i + 1, end) != end:
            return None
        if d.over:
            return None, start, stop  # (a plain tree past the node limit)
        return breadth_first(&d), start, stop
    finally:
        scan_release(&d)
