# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled inner loops of minimax and alpha-beta over an explicit tree.

Each is its Python twin step for step (:func:`analysis.trees.alpha_beta._search` without a
trace, :func:`analysis.trees.backup.back_up` for MAX and MIN nodes), on the same Python
objects: values are compared with Python's own comparison, so integers, fractions and big
integers are handled exactly alike, and the results (values, bounds, best children, evaluated
leaves, cutoffs, node counts) are the same objects in the same order. What the compiler removes
is the interpreter's cost per step: bytecode dispatch, frame lists and tuple packing. The
children of a node are read as a ``range`` (its start and step, once per node) when they are
one, as they are in every parsed tree; any other sequence is read item by item.

Both spend on the caller's deadline by work done, a batch of steps at a time.
"""

from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.object cimport Py_EQ, Py_GE, Py_GT, Py_LE, Py_LT, PyObject_RichCompareBool
from libc.stdint cimport int64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size) except NULL

cdef enum:
    EXACT = 0
    LOWER = 1
    UPPER = 2
    BATCH = 4096  # units of work between two calls of the deadline's spend

cdef long long LIMIT = 1LL << 62  # the infinities of a window, as C integers

cdef double NEG_INF = float("-inf")
cdef double POS_INF = float("inf")


cdef struct Frame:
    Py_ssize_t node
    Py_ssize_t start  # first child's index (ranges), or -1: children read from ``listed``
    Py_ssize_t step
    Py_ssize_t left  # number of children
    Py_ssize_t slot  # next child to search
    Py_ssize_t best
    int best_bound
    bint is_max
    long long alpha  # the window and value as C integers (``ints`` only)
    long long beta
    long long v


cdef inline Py_ssize_t child_at(Frame* frame, list listed, Py_ssize_t depth, Py_ssize_t slot) except? -1:
    if frame.start >= 0:
        return frame.start + slot * frame.step
    return <Py_ssize_t>(<tuple>listed[depth])[slot]


cdef inline void open_frame(
    Frame* frame, list listed, Py_ssize_t depth, Py_ssize_t node, object kids, bint is_max
) except *:
    frame.node = node
    frame.slot = 0
    frame.best = -1
    frame.best_bound = EXACT
    frame.is_max = is_max
    if type(kids) is range:
        frame.left = len(kids)
        frame.step = kids.step
        frame.start = kids.start if frame.left else 0
        listed[depth] = None
    else:
        items = tuple(kids)
        frame.left = len(items)
        frame.start = -1
        frame.step = 0
        listed[depth] = items


cdef inline bint small_int(object value, long long* out):
    """Whether ``value`` is an int within +/-2**62, stored in ``out`` (the infinities of a
    window lie beyond that range, so they compare right as C integers)."""
    cdef int overflow = 0
    cdef long long number
    if type(value) is not int:
        return False
    number = PyLong_AsLongLongAndOverflow(value, &overflow)
    if overflow or number <= -LIMIT or number >= LIMIT:
        return False
    out[0] = number
    return True


cdef inline bint greater(bint ints, long long a, long long b, object x, object y) except -1:
    if ints:
        return a > b
    return PyObject_RichCompareBool(x, y, Py_GT)


cdef inline bint less(bint ints, long long a, long long b, object x, object y) except -1:
    if ints:
        return a < b
    return PyObject_RichCompareBool(x, y, Py_LT)


cdef inline bint equal(bint ints, long long a, long long b, object x, object y) except -1:
    if ints:
        return a == b
    return PyObject_RichCompareBool(x, y, Py_EQ)


def alpha_beta_walk(
    list children,
    list static,
    list kinds,
    str max_kind,
    bint strict,
    list values,
    list bounds,
    list best_child,
    list evaluated,
    list cutoffs,
    list pruned,
    object cutoff,
    tuple bound_names,
    object spend,
    bint ints,
    object leaf_kind=None,
):
    """Alpha-beta from the root (an internal node) of ``children``, filling ``values``,
    ``bounds``, ``best_child``, ``evaluated`` and ``cutoffs`` as the Python search does.

    ``pruned`` gets the roots of the subtrees each cut skips, left to right (the cutoffs'
    ``cut`` in order). ``bound_names`` are the strings written for exact, lower and upper
    bounds; ``cutoff``
    builds a cutoff record from (node, alpha, beta, value, after, cut). Returns the number
    of internal nodes entered.

    With ``ints``, values are compared as C integers, which holds while every static value
    read is an int within +/-2**62; at the first that is not, the walk stops and returns -1,
    and the caller walks again without ``ints`` (what was filled in so far is the same).

    A node whose kind is ``leaf_kind`` (the very object) is static without a look at its
    children, which are further away in memory; any other is internal if it has children.
    """
    cdef Py_ssize_t capacity = 64
    cdef Py_ssize_t top = 0
    cdef Frame* frames = <Frame*>malloc(capacity * sizeof(Frame))
    cdef Frame* frame
    cdef Frame* grown
    cdef Py_ssize_t slot, first_slot, child = -1, descend, entered = 1, pending = 0, k
    cdef int child_bound = EXACT, bound
    cdef bint cut, is_max, have_returned = False, child_max
    cdef long long a, b, c, s = 0, r = 0
    cdef object alpha, beta, v, score, returned = None, item, skipped
    # the window and value of each open frame as Python objects, indexed by depth (the
    # frames hold them as C integers too, for ``ints``)
    cdef list alphas = [NEG_INF], betas = [POS_INF], vs = [None], listed = [None]
    if frames == NULL:
        raise MemoryError()
    try:
        root_max = kinds[0] == max_kind
        vs[0] = NEG_INF if root_max else POS_INF
        open_frame(&frames[0], listed, 0, 0, children[0], root_max)
        frames[0].alpha = -LIMIT
        frames[0].beta = LIMIT
        frames[0].v = -LIMIT if root_max else LIMIT
        while True:
            frame = &frames[top]
            alpha = alphas[top]
            beta = betas[top]
            v = vs[top]
            a = frame.alpha
            b = frame.beta
            c = frame.v
            slot = frame.slot
            is_max = frame.is_max
            first_slot = slot
            cut = False
            if have_returned:
                # fold the internal child's value into v and the window
                if is_max:
                    if greater(ints, r, c, returned, v) or (
                        child_bound == EXACT
                        and frame.best_bound != EXACT
                        and equal(ints, r, c, returned, v)
                    ):
                        v = returned
                        c = r
                        frame.best = child
                        frame.best_bound = child_bound
                    if greater(ints, c, b, v, beta) or (not strict and equal(ints, c, b, v, beta)):
                        cut = slot < frame.left
                    elif greater(ints, c, a, v, alpha):
                        alpha = v
                        a = c
                else:
                    if less(ints, r, c, returned, v) or (
                        child_bound == EXACT
                        and frame.best_bound != EXACT
                        and equal(ints, r, c, returned, v)
                    ):
                        v = returned
                        c = r
                        frame.best = child
                        frame.best_bound = child_bound
                    if less(ints, c, a, v, alpha) or (not strict and equal(ints, c, a, v, alpha)):
                        cut = slot < frame.left
                    elif less(ints, c, b, v, beta):
                        beta = v
                        b = c
                have_returned = False
                returned = None
            descend = -1
            # static children are read and folded in until an internal child turns up
            if not cut:
                while slot < frame.left:
                    child = child_at(frame, listed, top, slot)
                    slot += 1
                    if kinds[child] is not leaf_kind and children[child]:
                        descend = child
                        break
                    score = static[child]
                    if ints and not small_int(score, &s):
                        return -1
                    values[child] = score
                    bounds[child] = bound_names[EXACT]
                    evaluated.append(child)
                    if is_max:
                        if greater(ints, s, c, score, v) or (
                            frame.best_bound != EXACT and equal(ints, s, c, score, v)
                        ):
                            v = score
                            c = s
                            frame.best = child
                            frame.best_bound = EXACT
                        if greater(ints, c, b, v, beta) or (
                            not strict and equal(ints, c, b, v, beta)
                        ):
                            cut = slot < frame.left
                        elif greater(ints, c, a, v, alpha):
                            alpha = v
                            a = c
                    else:
                        if less(ints, s, c, score, v) or (
                            frame.best_bound != EXACT and equal(ints, s, c, score, v)
                        ):
                            v = score
                            c = s
                            frame.best = child
                            frame.best_bound = EXACT
                        if less(ints, c, a, v, alpha) or (
                            not strict and equal(ints, c, a, v, alpha)
                        ):
                            cut = slot < frame.left
                        elif less(ints, c, b, v, beta):
                            beta = v
                            b = c
                    if cut:
                        break
            pending += slot - first_slot + 1
            if pending >= BATCH:
                spend(pending)
                pending = 0
            if descend != -1:
                frame.slot = slot
                frame.alpha = a
                frame.beta = b
                frame.v = c
                alphas[top] = alpha
                betas[top] = beta
                vs[top] = v
                entered += 1
                top += 1
                if top == capacity:
                    capacity *= 2
                    grown = <Frame*>realloc(frames, capacity * sizeof(Frame))
                    if grown == NULL:
                        raise MemoryError()
                    frames = grown
                if top == len(alphas):
                    alphas.append(None)
                    betas.append(None)
                    vs.append(None)
                    listed.append(None)
                child_max = kinds[descend] == max_kind
                alphas[top] = alpha
                betas[top] = beta
                vs[top] = NEG_INF if child_max else POS_INF
                open_frame(&frames[top], listed, top, descend, children[descend], child_max)
                frames[top].alpha = a
                frames[top].beta = b
                frames[top].v = -LIMIT if child_max else LIMIT
                continue
            if cut:
                skipped = PyTuple_New(frame.left - slot)
                for k in range(slot, frame.left):
                    item = child_at(frame, listed, top, k)
                    Py_INCREF(item)
                    PyTuple_SET_ITEM(skipped, k - slot, item)
                    pruned.append(item)
                # the record's tuple built directly (a named tuple's own constructor is a
                # Python function)
                cutoffs.append(tuple.__new__(cutoff, (frame.node, alpha, beta, v, child, skipped)))
                bound = LOWER if is_max else UPPER
            else:
                bound = frame.best_bound
            values[frame.node] = v
            bounds[frame.node] = bound_names[bound]
            best_child[frame.node] = frame.best
            returned = v
            r = c
            child_bound = bound
            child = frame.node
            have_returned = True
            listed[top] = None
            if top == 0:
                break
            top -= 1
        if pending:
            spend(pending)
        return entered
    finally:
        free(frames)


def back_up_extremes(
    list children,
    list values,
    list best_child,
    list kinds,
    str max_kind,
    Py_ssize_t covered,
    object spend,
    object cost,
):
    """Minimax values of the first ``covered`` nodes, bottom up, in place.

    ``values`` holds the static value of every static node on entry; each internal node
    gets the largest (MAX) or smallest (MIN) value of its children and, in ``best_child``,
    the leftmost child that has it. A node's cost is its number of children, times
    ``cost(value)`` for a value that is not a machine integer (one for a machine integer).
    """
    cdef Py_ssize_t index, left, start, step, slot, kid, best, pending = 0, units
    cdef bint is_max
    cdef object kids, best_value, score
    cdef tuple items
    for index in range(covered - 1, -1, -1):
        kids = children[index]
        if not kids:
            continue
        is_max = kinds[index] == max_kind
        if type(kids) is range:
            left = len(kids)
            start = kids.start
            step = kids.step
            best = start
            best_value = values[start]
            for slot in range(1, left):
                kid = start + slot * step
                score = values[kid]
                if PyObject_RichCompareBool(score, best_value, Py_GT if is_max else Py_LT):
                    best_value = score
                    best = kid
        else:
            items = tuple(kids)
            left = len(items)
            best = items[0]
            best_value = values[best]
            for slot in range(1, left):
                kid = items[slot]
                score = values[kid]
                if PyObject_RichCompareBool(score, best_value, Py_GT if is_max else Py_LT):
                    best_value = score
                    best = kid
        values[index] = best_value
        best_child[index] = best
        units = left
        if type(best_value) is not int or not -(1 << 62) < best_value < (1 << 62):
            units *= cost(best_value)
        pending += units
        if pending >= BATCH:
            spend(pending)
            pending = 0
    if pending:
        spend(pending)


# -- JSON writing: the per-node parts of an answer, written as bytes -------------------------
#
# A million-node answer has a million node entries; building them as dicts for orjson costs far
# more than writing the bytes. These write exactly what ``orjson.dumps`` writes for the same
# dict or list (each id is copied as is when it is printable ASCII without a quote or a
# backslash, and given to orjson otherwise), for the caller to embed as an ``orjson.Fragment``.


cdef struct Buffer:
    char* data
    Py_ssize_t size
    Py_ssize_t capacity


cdef int grow(Buffer* buffer, Py_ssize_t more) except -1:
    cdef Py_ssize_t wanted = buffer.size + more
    cdef Py_ssize_t capacity = buffer.capacity
    cdef char* data
    if wanted <= capacity:
        return 0
    while capacity < wanted:
        capacity = capacity * 2 if capacity else 1 << 16
    data = <char*>realloc(buffer.data, capacity)
    if data == NULL:
        raise MemoryError()
    buffer.data = data
    buffer.capacity = capacity
    return 0


cdef inline int put(Buffer* buffer, const char* text, Py_ssize_t length) except -1:
    if buffer.size + length > buffer.capacity:
        grow(buffer, length)
    memcpy(buffer.data + buffer.size, text, length)
    buffer.size += length
    return 0


cdef int put_string(Buffer* buffer, object text, object dumps) except -1:
    """``text`` as a JSON string: copied between quotes when nothing in it needs escaping."""
    cdef Py_ssize_t length, i
    cdef const char* data
    cdef unsigned char c
    cdef bytes written
    if type(text) is str and PyUnicode_IS_ASCII(text):
        data = PyUnicode_AsUTF8AndSize(text, &length)
        for i in range(length):
            c = <unsigned char>data[i]
            if c < 0x20 or c == 0x22 or c == 0x5C or c == 0x7F:
                break
        else:
            grow(buffer, length + 2)
            buffer.data[buffer.size] = b'"'
            memcpy(buffer.data + buffer.size + 1, data, length)
            buffer.data[buffer.size + length + 1] = b'"'
            buffer.size += length + 2
            return 0
    written = dumps(text)
    put(buffer, PyBytes_AS_STRING(written), PyBytes_GET_SIZE(written))
    return 0


cdef bytes finish(Buffer* buffer):
    try:
        return PyBytes_FromStringAndSize(buffer.data, buffer.size)
    finally:
        free(buffer.data)
        buffer.data = NULL


cdef class Ids:
    """A tree's ids as the writers read them: a list of str (any other sequence is listed),
    or the UTF-8 bytes of default ids one after the other
    (``games.trees._reader.DefaultIds.encoded``), which never need escaping."""

    cdef list names
    cdef const char* blob
    cdef object kept
    cdef const int64_t[:] offsets

    def __init__(self, object ids):
        if type(ids) is list:
            self.names = ids
        elif hasattr(ids, "encoded"):
            self.kept, offsets = ids.encoded()
            self.blob = PyBytes_AS_STRING(self.kept)
            self.offsets = offsets
        else:
            self.names = list(ids)

    cdef int put(self, Buffer* buffer, Py_ssize_t index, object dumps) except -1:
        cdef Py_ssize_t start, length
        if self.names is not None:
            return put_string(buffer, self.names[index], dumps)
        start = self.offsets[index]
        length = self.offsets[index + 1] - start
        grow(buffer, length + 2)
        buffer.data[buffer.size] = b'"'
        memcpy(buffer.data + buffer.size + 1, self.blob + start, length)
        buffer.data[buffer.size + length + 1] = b'"'
        buffer.size += length + 2
        return 0


def node_map_bytes(
    object ids,
    list values,
    object bounds,
    object exact_name,
    object entry,
    object dumps,
    object spend,
):
    """The JSON object ``{id: entry}`` of every node whose value is not None, in index order.

    ``ids`` is a list of str or a ``DefaultIds``; ``bounds`` is a list of bound names per node,
    or None (every bound ``exact_name``); ``entry(value, bound)`` gives the bytes of one entry,
    asked once per distinct pair (and charging the deadline for it); ``dumps`` writes an id
    that needs escaping. Each node costs one unit of ``spend``.
    """
    cdef Buffer buffer = Buffer(NULL, 0, 0)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t index, count = len(values), pending = 0
    cdef bint first = True
    cdef object value, bound, written, last_bound = None
    cdef dict by_bound = {}, entries = None
    cdef list bound_list = bounds if bounds is not None else None
    try:
        put(&buffer, b"{", 1)
        for index in range(count):
            value = values[index]
            pending += 1
            if pending >= BATCH:
                spend(pending)
                pending = 0
            if value is None:
                continue
            bound = exact_name if bound_list is None else bound_list[index]
            if bound is not last_bound:
                entries = by_bound.get(bound)
                if entries is None:
                    entries = by_bound[bound] = {}
                last_bound = bound
            written = entries.get(value)
            if written is None:
                written = entries[value] = entry(value, bound)
            if not first:
                put(&buffer, b",", 1)
            first = False
            names.put(&buffer, index, dumps)
            put(&buffer, b":", 1)
            put(&buffer, PyBytes_AS_STRING(written), PyBytes_GET_SIZE(written))
        put(&buffer, b"}", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        free(buffer.data)


def id_array_bytes(object ids, object indices, object dumps, object spend):
    """The JSON array of ``ids[i]`` for each ``i`` of ``indices``; a unit of ``spend`` each."""
    cdef Buffer buffer = Buffer(NULL, 0, 0)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t pending = 0
    cdef bint first = True
    try:
        put(&buffer, b"[", 1)
        for index in indices:
            pending += 1
            if pending >= BATCH:
                spend(pending)
                pending = 0
            if not first:
                put(&buffer, b",", 1)
            first = False
            names.put(&buffer, index, dumps)
        put(&buffer, b"]", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        free(buffer.data)


def leaves_bytes(object ids, list children, object tops, object dumps, object spend):
    """The JSON array of the ids of the leaves (nodes without ``children``) of the subtrees
    under ``tops``, left to right: ``leaves_below_all`` written out, one unit of ``spend``
    per node walked."""
    cdef Buffer buffer = Buffer(NULL, 0, 0)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t pending = 0, node, k, size
    cdef bint first = True
    cdef list stack = []
    cdef object kids
    try:
        put(&buffer, b"[", 1)
        for top in tops:
            stack.append(top)
            while stack:
                node = stack.pop()
                pending += 1
                if pending >= BATCH:
                    spend(pending)
                    pending = 0
                kids = children[node]
                size = len(kids)
                if size:
                    for k in range(size - 1, -1, -1):
                        stack.append(kids[k])
                    continue
                if not first:
                    put(&buffer, b",", 1)
                first = False
                names.put(&buffer, node, dumps)
        put(&buffer, b"]", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        free(buffer.data)


def cutoffs_bytes(object ids, list cutoffs, object number, object dumps, object spend):
    """The JSON array of the cutoff records ``{"node", "alpha", "beta", "value", "after",
    "cut"}``; ``number(name, value)`` gives the bytes of one number's members (``"alpha":3``,
    with ``alpha_exact`` where it is not exact), asked once per distinct name and value."""
    cdef Buffer buffer = Buffer(NULL, 0, 0)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t pending = 0, k
    cdef bint first = True
    cdef tuple cut
    cdef dict written = {"alpha": {}, "beta": {}, "value": {}}
    cdef dict seen
    cdef object member
    try:
        put(&buffer, b"[", 1)
        for record in cutoffs:
            cut = record[5]
            pending += 4 + len(cut)
            if pending >= BATCH:
                spend(pending)
                pending = 0
            put(&buffer, b"{\"node\":" if first else b",{\"node\":", 8 if first else 9)
            first = False
            names.put(&buffer, record[0], dumps)
            for name, value in (("alpha", record[1]), ("beta", record[2]), ("value", record[3])):
                seen = written[name]
                # a window's only floats are the infinities, which equal no exact number,
                # so a value is its own key
                member = seen.get(value)
                if member is None:
                    member = seen[value] = number(name, value)
                put(&buffer, b",", 1)
                put(&buffer, PyBytes_AS_STRING(member), PyBytes_GET_SIZE(member))
            put(&buffer, b",\"after\":", 9)
            names.put(&buffer, record[4], dumps)
            put(&buffer, b",\"cut\":[", 8)
            for k in range(len(cut)):
                if k:
                    put(&buffer, b",", 1)
                names.put(&buffer, cut[k], dumps)
            put(&buffer, b"]}", 2)
        put(&buffer, b"]", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        free(buffer.data)


def decisions_bytes(
    object ids,
    list best_child,
    list kinds,
    list values,
    object chance_kind,
    object dumps,
    object spend,
):
    """The JSON object ``{ids[node]: ids[best_child[node]]}`` of every node with a best child
    (``>= 0``) that is not a chance node and has a value, in index order: the ``decisions``
    of an expectimax or Star1 answer. Each node costs one unit of ``spend``."""
    cdef Buffer buffer = Buffer(NULL, 0, 0)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t index, child, count = len(best_child), pending = 0
    cdef bint first = True
    cdef object kind
    try:
        put(&buffer, b"{", 1)
        for index in range(count):
            pending += 1
            if pending >= BATCH:
                spend(pending)
                pending = 0
            child = best_child[index]
            if child < 0:
                continue
            kind = kinds[index]
            if kind is chance_kind or kind == chance_kind or values[index] is None:
                continue
            if not first:
                put(&buffer, b",", 1)
            first = False
            names.put(&buffer, index, dumps)
            put(&buffer, b":", 1)
            names.put(&buffer, child, dumps)
        put(&buffer, b"}", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        free(buffer.data)
