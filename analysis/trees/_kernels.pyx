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

from cpython.array cimport array, resize

from games.trees.model import IntColumn

try:
    from games.trees._reader import ChildRanges
except ImportError:  # (the reader not built: no tree has them)
    ChildRanges = None

from games.trees._columns cimport (
    Interned,
    copy_32,
    interned_free,
    push,
    range_length,
    range_start,
    range_step,
    table_find,
    table_put,
)
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.ref cimport Py_INCREF, Py_XDECREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.object cimport (
    Py_EQ,
    Py_GE,
    Py_GT,
    Py_LE,
    Py_LT,
    PyObject,
    PyObject_RichCompareBool,
)
from libc.stdint cimport int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, strlen

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)
    const char* PyUnicode_AsUTF8AndSize(object text, Py_ssize_t* size) except NULL

cdef enum:
    EXACT = 0
    LOWER = 1
    UPPER = 2
    STATIC_LEAF = 4  # the bit of a node's code where its value is its static value
    BATCH = 4096  # units of work between two calls of the deadline's spend
    HUGE_BUFFER = 8 << 20  # bytes from which a buffer asks for huge pages
    ENTRY_ROOM = 50  # most bytes of a node map's entry but its id: `,"":{"value":`, 20, a bound

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
        frame.left = range_length(kids)
        frame.step = range_step(kids)
        frame.start = range_start(kids) if frame.left else 0
        listed[depth] = None
    else:
        items = tuple(kids)
        frame.left = len(items)
        frame.start = -1
        frame.step = 0
        listed[depth] = items


cdef struct ChildColumns:  # the columns of a ChildRanges, or NULLs: read the list
    const long long* starts
    const long long* counts


cdef int child_columns(ChildColumns* columns, object children) except -1:
    """Point ``columns`` at the columns of ``children`` where it is a :class:`ChildRanges`;
    else it must be a list (read item by item)."""
    columns.starts = columns.counts = NULL
    if type(children) is ChildRanges:
        columns.starts = (<array>children.starts).data.as_longlongs
        columns.counts = (<array>children.counts).data.as_longlongs
    elif type(children) is not list:
        raise TypeError("children must be a list or ChildRanges")
    return 0


cdef inline void open_node(
    Frame* frame,
    list listed,
    Py_ssize_t depth,
    Py_ssize_t node,
    object children,
    const long long* starts,
    const long long* counts,
    bint is_max,
) except *:
    """:func:`open_frame` for ``node``, its children read from the columns of a
    :class:`ChildRanges` (``counts`` not NULL) or from ``children``, a list."""
    if counts == NULL:
        open_frame(frame, listed, depth, node, (<list>children)[node], is_max)
        return
    frame.node = node
    frame.slot = 0
    frame.best = -1
    frame.best_bound = EXACT
    frame.is_max = is_max
    frame.left = counts[node]
    frame.step = 1
    frame.start = starts[node]
    listed[depth] = None


cdef inline bint has_children(object children, const long long* counts, Py_ssize_t node) except -1:
    if counts != NULL:
        return counts[node] != 0
    return bool((<list>children)[node])


cdef const long long* word_column(object words) except NULL:
    """The machine integers of ``words``, an ``array('q')`` (an ``IntColumn``); anything else
    is a TypeError."""
    if not isinstance(words, array) or (<array>words).ob_descr.typecode != b"q":
        raise TypeError("leaf words must be an array('q')")
    if len(words) == 0:
        raise ValueError("no leaf words")
    return (<array>words).data.as_longlongs


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


cdef inline object window_number(long long value):
    """A window's bound or a value kept as a C integer, as the Python search has it: an int,
    or past +/-2**62 (where no value read as a machine integer lies) an infinity."""
    if value <= -LIMIT:
        return NEG_INF
    if value >= LIMIT:
        return POS_INF
    return value


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
    object children,
    list static,
    list kinds,
    str max_kind,
    bint strict,
    list values,
    list bounds,
    int64_t[:] best_child,
    array evaluated,
    list cutoffs,
    list pruned,
    tuple bound_names,
    object spend,
    bint ints,
    object leaf_kind=None,
    object words=None,
    object numbers=None,
    object codes=None,
):
    """Alpha-beta from the root (an internal node) of ``children``, filling ``values``,
    ``bounds``, ``best_child``, ``evaluated`` and ``cutoffs`` as the Python search does.

    ``evaluated`` (an ``array('q')``) gets the static nodes in evaluation order;
    ``cutoffs`` gets each cutoff's record as the plain tuple (node, alpha, beta, value, after,
    cut); ``pruned`` the roots of the subtrees each cut skips, left to right (the cutoffs'
    ``cut`` in order). ``bound_names`` are the strings written for exact, lower and upper
    bounds. Returns the number of internal nodes entered.

    With ``ints``, values are compared as C integers, which holds while every static value
    read is an int within +/-2**62; at the first that is not, the walk stops and returns -1,
    and the caller walks again without ``ints`` (what was filled in so far is the same).

    A node whose kind is ``leaf_kind`` (the very object) is static without a look at its
    children, which are further away in memory; any other is internal if it has children.
    ``children`` is a list or a :class:`ChildRanges` (read from its columns). ``words``,
    where given, holds every leaf's value as a machine integer (``Tree.leaf_words``), read
    for ``ints`` instead of converting the object of ``static``.

    With ``codes`` (a zeroed ``bytearray``, a byte a node) and ``ints``, each visited node's
    value and bound go to columns instead of ``values`` and ``bounds`` (not touched, and may
    be None): ``numbers`` (an ``array('q')``, made as long as the tree) gets its value as a
    machine integer, ``codes`` 1 + its bound's index in ``bound_names``, with ``STATIC_LEAF``
    (4) added where the value is its static value (see
    :class:`analysis.trees.alpha_beta.ScaledValues`). Nothing is then made or counted a node:
    the window and values live as C integers only, and a cutoff's record gets them as Python
    numbers when it is made (the infinities of a window as ``float('-inf')`` and ``inf``, as
    the Python search has them).
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
    cdef ChildColumns columns
    cdef const long long* starts
    cdef const long long* counts
    cdef const long long* leaf_words = NULL
    cdef object kind
    cdef bint coded = codes is not None
    cdef bint keep = not coded  # the window and values kept as Python objects too
    cdef long long* number_data = NULL
    cdef unsigned char* code_data = NULL
    if frames == NULL:
        raise MemoryError()
    try:
        if words is not None:
            if len(words) != len(static):
                raise ValueError("words and static values differ in length")
            leaf_words = word_column(words)
        if coded:
            if not ints:
                raise ValueError("value columns hold machine integers: ints only")
            if type(codes) is not bytearray or len(codes) != len(static):
                raise ValueError("codes must be a bytearray of a byte per node")
            if not isinstance(numbers, array) or (<array>numbers).ob_descr.typecode != b"q":
                raise TypeError("numbers must be an array('q')")
            resize(numbers, len(static))
            number_data = (<array>numbers).data.as_longlongs
            code_data = <unsigned char*>PyByteArray_AS_STRING(codes)
        child_columns(&columns, children)
        starts, counts = columns.starts, columns.counts
        root_max = kinds[0] == max_kind
        vs[0] = NEG_INF if root_max else POS_INF
        alpha = beta = v = score = None  # (read only with ``keep``)
        open_node(&frames[0], listed, 0, 0, children, starts, counts, root_max)
        frames[0].alpha = -LIMIT
        frames[0].beta = LIMIT
        frames[0].v = -LIMIT if root_max else LIMIT
        while True:
            frame = &frames[top]
            if keep:
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
                        if keep:
                            v = returned
                        c = r
                        frame.best = child
                        frame.best_bound = child_bound
                    if greater(ints, c, b, v, beta) or (not strict and equal(ints, c, b, v, beta)):
                        cut = slot < frame.left
                    elif greater(ints, c, a, v, alpha):
                        if keep:
                            alpha = v
                        a = c
                else:
                    if less(ints, r, c, returned, v) or (
                        child_bound == EXACT
                        and frame.best_bound != EXACT
                        and equal(ints, r, c, returned, v)
                    ):
                        if keep:
                            v = returned
                        c = r
                        frame.best = child
                        frame.best_bound = child_bound
                    if less(ints, c, a, v, alpha) or (not strict and equal(ints, c, a, v, alpha)):
                        cut = slot < frame.left
                    elif less(ints, c, b, v, beta):
                        if keep:
                            beta = v
                        b = c
                have_returned = False
                if keep:
                    returned = None
            descend = -1
            # static children are read and folded in until an internal child turns up
            if not cut:
                while slot < frame.left:
                    child = child_at(frame, listed, top, slot)
                    slot += 1
                    if kinds[child] is not leaf_kind and has_children(children, counts, child):
                        descend = child
                        break
                    if keep or leaf_words == NULL:
                        score = static[child]
                    if ints:
                        if leaf_words != NULL:
                            s = leaf_words[child]
                        elif not small_int(score, &s):
                            return -1
                    if coded:
                        number_data[child] = s
                        code_data[child] = STATIC_LEAF | (1 + EXACT)
                    else:
                        values[child] = score
                        bounds[child] = bound_names[EXACT]
                    push(evaluated, child)
                    if is_max:
                        if greater(ints, s, c, score, v) or (
                            frame.best_bound != EXACT and equal(ints, s, c, score, v)
                        ):
                            if keep:
                                v = score
                            c = s
                            frame.best = child
                            frame.best_bound = EXACT
                        if greater(ints, c, b, v, beta) or (
                            not strict and equal(ints, c, b, v, beta)
                        ):
                            cut = slot < frame.left
                        elif greater(ints, c, a, v, alpha):
                            if keep:
                                alpha = v
                            a = c
                    else:
                        if less(ints, s, c, score, v) or (
                            frame.best_bound != EXACT and equal(ints, s, c, score, v)
                        ):
                            if keep:
                                v = score
                            c = s
                            frame.best = child
                            frame.best_bound = EXACT
                        if less(ints, c, a, v, alpha) or (
                            not strict and equal(ints, c, a, v, alpha)
                        ):
                            cut = slot < frame.left
                        elif less(ints, c, b, v, beta):
                            if keep:
                                beta = v
                            b = c
                    if cut:
                        break
            charge(&pending, slot - first_slot + 1, spend)
            if descend != -1:
                frame.slot = slot
                frame.alpha = a
                frame.beta = b
                frame.v = c
                if keep:
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
                kind = kinds[descend]
                child_max = kind is max_kind or kind == max_kind
                if keep:
                    alphas[top] = alpha
                    betas[top] = beta
                    vs[top] = NEG_INF if child_max else POS_INF
                open_node(&frames[top], listed, top, descend, children, starts, counts, child_max)
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
                # a plain tuple (``CutoffRows`` gives it out as a ``Cutoff`` record)
                if keep:
                    cutoffs.append((frame.node, alpha, beta, v, child, skipped))
                else:
                    cutoffs.append(
                        (
                            frame.node,
                            window_number(a),
                            window_number(b),
                            window_number(c),
                            child,
                            skipped,
                        )
                    )
                bound = LOWER if is_max else UPPER
            else:
                bound = frame.best_bound
            if coded:
                number_data[frame.node] = c
                code_data[frame.node] = 1 + bound
            else:
                values[frame.node] = v
                bounds[frame.node] = bound_names[bound]
            best_child[frame.node] = frame.best
            if keep:
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
    int64_t[:] best_child,
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
    cdef bint is_max, ints
    cdef long long best_small, small
    cdef object kids, best_value, score
    cdef tuple items
    for index in range(covered - 1, -1, -1):
        kids = children[index]
        if type(kids) is range:
            left = range_length(kids)
            if left == 0:
                continue
            is_max = kinds[index] == max_kind
            start = range_start(kids)
            step = range_step(kids)
            best = start
            best_value = values[start]
            # machine integers are compared as such, until a value is not one
            ints = small_int(best_value, &best_small)
            for slot in range(1, left):
                kid = start + slot * step
                score = values[kid]
                if ints and small_int(score, &small):
                    if (small > best_small) if is_max else (small < best_small):
                        best_value = score
                        best_small = small
                        best = kid
                    continue
                ints = False
                if PyObject_RichCompareBool(score, best_value, Py_GT if is_max else Py_LT):
                    best_value = score
                    best = kid
        else:
            if not kids:
                continue
            is_max = kinds[index] == max_kind
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
        if not small_int(best_value, &best_small):
            units *= cost(best_value)
        charge(&pending, units, spend)
    if pending:
        spend(pending)


# -- JSON writing: the per-node parts of an answer, written as bytes -------------------------
#
# A million-node answer has a million node entries; building them as dicts for orjson costs far
# more than writing the bytes. These write exactly what ``orjson.dumps`` writes for the same
# dict or list (each id is copied as is when it is printable ASCII without a quote or a
# backslash, and given to orjson otherwise), for the caller to embed as an ``orjson.Fragment``.


cdef extern from "Python.h":
    int _PyBytes_Resize(PyObject** bytes, Py_ssize_t size) except -1


cdef extern from *:
    """
    #include <stdint.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* Ask the kernel to back the whole 2 MB pages within [start, start + size) with huge
       pages, where it can (Linux's transparent huge pages, in "madvise" mode on most
       systems): writing a large answer into fresh memory otherwise takes a page fault every
       4 KB, which on a virtual machine costs as much as writing the bytes. A hint only. */
    static void arbiter_huge_pages(char* start, Py_ssize_t size) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        uintptr_t low = ((uintptr_t)start + 0x1FFFFF) & ~(uintptr_t)0x1FFFFF;
        uintptr_t high = ((uintptr_t)start + (uintptr_t)size) & ~(uintptr_t)0x1FFFFF;
        if (high > low)
            (void)madvise((void*)low, high - low, MADV_HUGEPAGE);
    #endif
    }
    """
    void huge_pages "arbiter_huge_pages" (char* start, Py_ssize_t size) noexcept


cdef struct Buffer:  # JSON written in place into a bytes object, which finish() hands over
    char* data
    Py_ssize_t size
    Py_ssize_t capacity
    PyObject* owner  # the bytes object that holds ``data`` (a new reference), or NULL


cdef int grow(Buffer* buffer, Py_ssize_t more) except -1:
    cdef Py_ssize_t wanted = buffer.size + more
    cdef Py_ssize_t capacity = buffer.capacity
    cdef object made
    if wanted <= capacity:
        return 0
    while capacity < wanted:
        capacity = capacity * 2 if capacity else 1 << 16
    if buffer.owner == NULL:
        made = PyBytes_FromStringAndSize(NULL, capacity)
        Py_INCREF(made)
        buffer.owner = <PyObject*>made
    else:
        _PyBytes_Resize(&buffer.owner, capacity)  # (on failure it frees the object)
    buffer.data = PyBytes_AS_STRING(<object>buffer.owner)
    buffer.capacity = capacity
    if capacity >= HUGE_BUFFER:
        huge_pages(buffer.data + buffer.size, capacity - buffer.size)
    return 0


cdef void release(Buffer* buffer) noexcept:
    """Free what ``buffer`` holds (nothing once :func:`finish` has handed it over)."""
    Py_XDECREF(buffer.owner)
    buffer.owner = NULL
    buffer.data = NULL


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
    """The bytes written: the buffer's own object cut to size (no copy of what was written)."""
    cdef bytes written
    if buffer.owner == NULL:
        return b""
    _PyBytes_Resize(&buffer.owner, buffer.size)
    written = <bytes>buffer.owner
    release(buffer)
    return written


cdef inline int charge(Py_ssize_t* pending, Py_ssize_t units, object spend) except -1:
    """Add ``units`` of work to ``pending``, spent on the deadline a batch at a time."""
    pending[0] += units
    if pending[0] >= BATCH:
        spend(pending[0])
        pending[0] = 0
    return 0


cdef inline char* write_integer(char* out, long long number) noexcept:
    """``number`` in decimal (as JSON and orjson write it) at ``out``, which has room for 20
    characters; returns the end. One and two digits, the usual values, without a loop."""
    cdef char digits[24]
    cdef int length = 0
    cdef unsigned long long rest
    if number < 0:
        out[0] = b"-"
        out += 1
        rest = <unsigned long long>(-(number + 1)) + 1
    else:
        rest = <unsigned long long>number
    if rest < 10:
        out[0] = <char>(48 + rest)
        return out + 1
    if rest < 100:
        out[0] = <char>(48 + rest // 10)
        out[1] = <char>(48 + rest % 10)
        return out + 2
    while True:
        digits[length] = <char>(48 + rest % 10)
        length += 1
        rest //= 10
        if rest == 0:
            break
    while length:
        length -= 1
        out[0] = digits[length]
        out += 1
    return out


cdef inline int put_integer(Buffer* buffer, long long number) except -1:
    """``number`` in decimal, as JSON (and orjson) writes an integer."""
    if buffer.size + 21 > buffer.capacity:
        grow(buffer, 21)
    buffer.size = write_integer(buffer.data + buffer.size, number) - buffer.data
    return 0


cdef class Ids:
    """A tree's ids as the writers read them: a list of str (any other sequence is listed),
    the UTF-8 bytes of default ids one after the other
    (``games.trees._reader.DefaultIds.encoded``), which never need escaping, or a
    ``range(len(tree))``: nodes named by their index, written as JSON integers (the
    columns layout)."""

    cdef list names
    cdef const char* blob
    cdef object kept
    cdef const int64_t[:] offsets
    cdef bint indices

    def __init__(self, object ids):
        if type(ids) is list:
            self.names = ids
        elif type(ids) is range:
            if ids.start != 0 or ids.step != 1:
                raise ValueError("nodes are named by index with range(len(tree)) only")
            self.indices = True
        elif hasattr(ids, "encoded"):
            self.kept, offsets = ids.encoded()
            self.blob = PyBytes_AS_STRING(self.kept)
            self.offsets = offsets
        else:
            self.names = list(ids)

    cdef int put(self, Buffer* buffer, Py_ssize_t index, object dumps) except -1:
        cdef Py_ssize_t start, length
        if self.indices:
            return put_integer(buffer, index)
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

    cdef int put_span(
        self, Buffer* buffer, Py_ssize_t low, Py_ssize_t high, bint first, object dumps
    ) except -1:
        """The names of nodes ``low`` to ``high - 1``, each after a comma but the very first
        (``first``): default ids, consecutive in their blob, with room made once."""
        cdef Py_ssize_t node, start, length
        cdef char* out
        if self.blob == NULL or high <= low:
            for node in range(low, high):
                if not first:
                    put(buffer, b",", 1)
                first = False
                self.put(buffer, node, dumps)
            return 0
        grow(buffer, self.offsets[high] - self.offsets[low] + 3 * (high - low))
        out = buffer.data + buffer.size
        for node in range(low, high):
            if not first:
                out[0] = b","
                out += 1
            first = False
            start = self.offsets[node]
            length = self.offsets[node + 1] - start
            out[0] = b'"'
            memcpy(out + 1, self.blob + start, length)
            out[length + 1] = b'"'
            out += length + 2
        buffer.size = out - buffer.data
        return 0


cdef struct CodeTexts:  # the bytes written for codes 1 to 3 of value columns (their bounds)
    const char* data[4]
    Py_ssize_t size[4]


cdef int code_texts(CodeTexts* texts, list items) except -1:
    """Point ``texts`` at ``items[1]`` to ``items[3]`` (bytes, which the caller keeps)."""
    cdef int k
    for k in range(1, 4):
        texts.data[k] = PyBytes_AS_STRING(items[k])
        texts.size[k] = PyBytes_GET_SIZE(items[k])
    return 0


cdef inline long long machine_integer(const long long[:] column, Py_ssize_t index) except? -1:
    """``column[index]``, which must lie within +/-2**62 (a ValueError otherwise)."""
    cdef long long small = column[index]
    if small <= -LIMIT or small >= LIMIT:
        raise ValueError("a machine integer column holds an integer past 2**62")
    return small


cdef inline Py_ssize_t next_visited(
    const unsigned char* codes,
    Py_ssize_t index,
    Py_ssize_t count,
    Py_ssize_t* pending,
    object spend,
) except -1:
    """The first node from ``index`` on whose code byte is not 0 (``count`` if none), the
    nodes stepped over charged to ``spend`` (a unit each): a run of nodes the search did not
    visit is stepped over eight bytes at a time."""
    cdef Py_ssize_t start = index
    cdef uint64_t word
    while index + 8 <= count:
        memcpy(&word, codes + index, 8)
        if word:
            break
        index += 8
    while index < count and not codes[index]:
        index += 1
    if index > start:
        charge(pending, index - start, spend)
    return index


cdef int put_default_id_entries(
    Buffer* buffer, tuple parts, const long long[:] column, bytes tail, object spend
) except -1:
    """The entries ``"id":{"value":n,"bound":"b"}`` of every node of a column of machine
    integers, named by the default ids ``parts`` describes (:meth:`DefaultIds.parts`: the
    root's id, the separator, the parent and position columns): a node's id is its parent's,
    copied from where the answer already holds it, the separator and its position. One pass
    works out the ids' lengths, for room made once; the next writes. A unit of ``spend`` a
    node."""
    cdef bytes root = parts[0], separator = parts[1]
    cdef const int64_t[:] parents = parts[2]
    cdef const int64_t[:] positions = parts[3]
    cdef Py_ssize_t count = column.shape[0], index, parent, pending = 0, total
    cdef Py_ssize_t separator_size = len(separator), tail_size = len(tail)
    cdef const char* separator_data = PyBytes_AS_STRING(separator)
    cdef const char* tail_data = PyBytes_AS_STRING(tail)
    cdef int64_t* lengths = NULL
    cdef int64_t* at = NULL  # where each id's text starts in the answer
    cdef int64_t position
    cdef long long small
    cdef char* out
    if count == 0:
        return 0
    if parents.shape[0] != count or positions.shape[0] != count:
        raise ValueError("the ids and the values differ in length")
    lengths = <int64_t*>malloc(count * sizeof(int64_t))
    at = <int64_t*>malloc(count * sizeof(int64_t))
    try:
        if lengths == NULL or at == NULL:
            raise MemoryError()
        lengths[0] = len(root)
        total = lengths[0]
        for index in range(1, count):
            parent = parents[index]
            if parent < 0 or parent >= index:
                raise ValueError("a default id's parent comes before it")
            position = positions[index]
            lengths[index] = lengths[parent] + separator_size + 1
            while position >= 10:
                lengths[index] += 1
                position //= 10
            total += lengths[index]
        # each entry: a comma, its quoted id, :{"value":, at most 20 characters, the tail (and
        # room past the last for a short id's copy of 32 bytes)
        grow(buffer, total + count * (34 + tail_size) + 32)
        out = buffer.data + buffer.size
        for index in range(count):
            charge(&pending, 1, spend)
            small = machine_integer(column, index)
            if index:
                out[0] = b","
                out += 1
            out[0] = b'"'
            out += 1
            at[index] = out - buffer.data
            if index == 0:
                memcpy(out, PyBytes_AS_STRING(root), lengths[0])
            else:
                parent = parents[index]
                if lengths[parent] <= 32:  # (what lands past it is written over next)
                    copy_32(out, buffer.data + at[parent])
                else:
                    memcpy(out, buffer.data + at[parent], lengths[parent])
                memcpy(out + lengths[parent], separator_data, separator_size)
                write_integer(out + lengths[parent] + separator_size, positions[index])
            out += lengths[index]
            out[0] = b'"'
            memcpy(out + 1, b':{"value":', 10)
            out = write_integer(out + 11, small)
            memcpy(out, tail_data, tail_size)
            out += tail_size
        buffer.size = out - buffer.data
        if pending:
            spend(pending)
        return 0
    finally:
        free(lengths)
        free(at)


cdef int put_integer_entries(
    Buffer* buffer,
    Ids names,
    const long long[:] column,
    const unsigned char* codes,
    Py_ssize_t count,
    list tails,
    object spend,
) except -1:
    """The entries ``"id":{"value":n,"bound":"b"}`` of :func:`node_map_bytes` for nodes 0 to
    ``count - 1`` named by default ids (their blob) with machine integers for values, comma
    separated: each written through one pointer, with room made once an entry. With
    ``codes``, a node whose code is 0 is left out and ``tails[code & 3]`` ends an entry
    (``,"bound":"b"}``); without, every node is written with ``tails[1]``. A unit of
    ``spend`` a node."""
    cdef Py_ssize_t index, start, length, pending = 0, room, following = 0
    cdef CodeTexts tail
    cdef unsigned char code = 1
    cdef long long small
    cdef char* out
    cdef bint first = True
    code_texts(&tail, tails)
    while following < count:
        index = following
        if codes != NULL:  # (the nodes not visited before it stepped over, charged)
            index = next_visited(codes, following, count, &pending, spend)
            if index == count:
                break
            code = codes[index] & 3
        following = index + 1
        charge(&pending, 1, spend)
        if not code:
            continue
        small = machine_integer(column, index)
        start = names.offsets[index]
        length = names.offsets[index + 1] - start
        # a comma, the quoted id, :{"value":, at most 21 characters of integer, the tail
        room = length + 34 + tail.size[code]
        if buffer.size + room > buffer.capacity:
            grow(buffer, room)
        out = buffer.data + buffer.size
        if not first:
            out[0] = b","
            out += 1
        first = False
        out[0] = b'"'
        memcpy(out + 1, names.blob + start, length)
        out += length + 1
        out[0] = b'"'
        memcpy(out + 1, b':{"value":', 10)
        out = write_integer(out + 11, small)
        memcpy(out, tail.data[code], tail.size[code])
        buffer.size = out + tail.size[code] - buffer.data
    if pending:
        spend(pending)
    return 0


def node_map_bytes(
    object ids,
    object values,
    object bounds,
    object exact_name,
    object entry,
    object dumps,
    object spend,
    bint integers=True,
    bytes codes=None,
    tuple bound_names=None,
):
    """The JSON object ``{id: entry}`` of every node whose value is not None, in index order.

    ``ids`` is a list of str or a ``DefaultIds``; ``values`` a list, or with ``integers`` an
    ``array('q')`` of machine integers (every node then has a value); ``bounds`` is a list of
    bound names per node, or None (every bound ``exact_name``); ``entry(value, bound)`` gives
    the bytes of one entry, asked once per distinct pair (and charging the deadline for it);
    ``dumps`` writes an id that needs escaping. With ``integers`` a machine integer's entry
    is written here, as ``entry`` would write it (``values`` are the values themselves);
    without, every entry is ``entry``'s (``values`` are keys it turns into numbers). Each
    node costs one unit of ``spend``.

    With ``codes`` (a search's value columns, see :func:`alpha_beta_walk`), ``values`` is an
    ``array('q')`` of machine integers read only where a node's code is not 0, and its bound
    is ``bound_names[code & 3]`` (``bounds`` is not read).
    """
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef Ids names
    cdef Py_ssize_t index, count = len(values), pending = 0
    cdef bint first = True, words = integers and isinstance(values, array)
    cdef bint coded = codes is not None
    cdef object parts = None
    cdef const unsigned char* code_data = NULL
    cdef unsigned char code
    cdef object value = None, bound, written, last_bound = None, tail = None
    cdef dict by_bound = {}, tails = {}, entries = None
    cdef long long small
    cdef list value_list = None
    cdef const long long[:] column
    cdef list bound_list = bounds if bounds is not None else None
    if coded:
        if not words or len(codes) != count or bound_names is None or len(bound_names) != 4:
            raise ValueError("codes go with a column of machine integers and four bound names")
        code_data = <const unsigned char*>PyBytes_AS_STRING(codes)
        bound_list = None
    if words:
        column = values
    else:
        value_list = values
    if bound_list is not None and len(bound_list) != count:
        raise ValueError("values and bounds differ in length")
    if words and not coded and bound_list is None and type(ids) is not list:
        # every node, named by default ids not yet written out: each is written from its
        # parent's, already in the answer (no blob of ids made first)
        parts = getattr(ids, "parts", lambda: None)()
    if parts is not None:
        try:
            put(&buffer, b"{", 1)
            put_default_id_entries(
                &buffer, parts, column, b',"bound":' + dumps(exact_name) + b"}", spend
            )
            put(&buffer, b"}", 1)
            return finish(&buffer)
        finally:
            release(&buffer)
    names = Ids(ids)
    try:
        # room for the whole map at once where it is known well (a column of machine
        # integers, every node in it, named by default ids): a large answer is then not
        # moved as it grows
        if words and not coded and names.blob != NULL:
            grow(&buffer, names.offsets[count] + count * ENTRY_ROOM)
        put(&buffer, b"{", 1)
        if words and names.blob != NULL and (coded or bound_list is None):
            # default ids and machine integers, the usual large answer: one tight loop
            put_integer_entries(
                &buffer,
                names,
                column,
                code_data,
                count,
                [None] + [
                    b',"bound":' + dumps(name) + b"}"
                    for name in (bound_names[1:] if coded else (exact_name,) * 3)
                ],
                spend,
            )
            count = 0  # (written)
        for index in range(count):
            charge(&pending, 1, spend)
            if coded:
                code = code_data[index] & 3
                if not code:
                    continue
                bound = bound_names[code]
            else:
                if not words:
                    value = value_list[index]
                    if value is None:
                        continue
                bound = exact_name if bound_list is None else bound_list[index]
            if bound is not last_bound:
                entries = by_bound.get(bound)
                if entries is None:
                    entries = by_bound[bound] = {}
                    # the end of a machine integer's entry with this bound, written once
                    tails[bound] = b',"bound":' + dumps(bound) + b"}"
                tail = tails[bound]
                last_bound = bound
            if not first:
                put(&buffer, b",", 1)
            first = False
            names.put(&buffer, index, dumps)
            if words:
                small = column[index]
                if small <= -LIMIT or small >= LIMIT:
                    raise ValueError("a machine integer column holds an integer past 2**62")
            if words or (integers and small_int(value, &small)):
                # the entry of a machine integer, as the ``entry`` callback writes it
                put(&buffer, b":{\"value\":", 10)
                put_integer(&buffer, small)
                put(&buffer, PyBytes_AS_STRING(tail), PyBytes_GET_SIZE(tail))
                continue
            written = entries.get(value)
            if written is None:
                written = entries[value] = entry(value, bound)
            put(&buffer, b":", 1)
            put(&buffer, PyBytes_AS_STRING(written), PyBytes_GET_SIZE(written))
        put(&buffer, b"}", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        release(&buffer)


def scaled_node_map_bytes(
    object ids, object numbers, bytes codes, tuple bound_names, object entry, object dumps,
    object spend
):
    """:func:`node_map_bytes` of a search that keeps its answers in columns (the compiled
    Star1): per node, ``numbers[node]`` (an ``array('q')``) is its value's key and the low
    bits of ``codes[node]`` are 0 where it has no value, else 1 + its bound's index in
    ``bound_names``. ``entry(key, bound)`` gives the bytes of one entry, asked once per
    distinct pair. Each node costs one unit of ``spend``."""
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef Ids names = Ids(ids)
    cdef const int64_t[:] keys = numbers
    cdef const unsigned char* code = <const unsigned char*>PyBytes_AS_STRING(codes)
    cdef Py_ssize_t index, count = len(codes), pending = 0
    cdef bint first = True
    cdef unsigned char bound
    cdef PyObject* found
    cdef object written
    cdef Interned tables[4]  # per bound: key -> the bytes of its entry
    cdef int k
    if keys.shape[0] != count:
        raise ValueError("numbers and codes differ in length")
    for k in range(4):
        tables[k] = Interned(NULL, NULL, 0, 0)
    try:
        put(&buffer, b"{", 1)
        for index in range(count):
            charge(&pending, 1, spend)
            bound = code[index] & 3
            if not bound:
                continue
            if not first:
                put(&buffer, b",", 1)
            first = False
            names.put(&buffer, index, dumps)
            found = table_find(&tables[bound], keys[index])
            if found == NULL:
                written = table_put(
                    &tables[bound], keys[index], entry(keys[index], bound_names[bound - 1])
                )
                found = <PyObject*>written
            put(&buffer, b":", 1)
            put(&buffer, PyBytes_AS_STRING(<object>found), PyBytes_GET_SIZE(<object>found))
        put(&buffer, b"}", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        release(&buffer)
        for k in range(4):
            interned_free(&tables[k])


def back_up_words(
    object children, list static, list kinds, str max_kind, object spend, object words=None
):
    """:func:`back_up_extremes` of a whole tree whose static values are all integers within
    +/-2**62, on machine integers: ``(values, best_child)`` as two ``IntColumn`` s (every
    node has a value), or None where a static value is anything else (the caller backs up
    the objects). ``children`` is a list of ranges or a :class:`ChildRanges` (read from its
    columns). ``words``, where given, holds every leaf's value as a machine integer (an
    ``array('q')``; ``Tree.leaf_words``), read instead of the objects of ``static``. Each
    node costs its number of children in ``spend``."""
    cdef Py_ssize_t count = len(children), index, left, start, step = 1, slot, kid, best
    cdef Py_ssize_t pending = 0
    cdef array values = IntColumn("q"), best_child = IntColumn("q")
    cdef long long* value
    cdef long long* chosen
    cdef long long best_value, score
    cdef bint is_max
    cdef object kids
    cdef list listed = None
    cdef ChildColumns columns
    cdef const long long* starts
    cdef const long long* counts
    cdef const long long* leaf_words = NULL
    cdef object kind
    if len(static) != count or len(kinds) != count:
        return None
    if type(children) is not list and type(children) is not ChildRanges:
        return None
    if words is not None:
        if len(words) != count:
            return None
        leaf_words = word_column(words)
    child_columns(&columns, children)
    starts, counts = columns.starts, columns.counts
    if counts == NULL:
        listed = children
    resize(values, count)
    resize(best_child, count)
    value = values.data.as_longlongs
    chosen = best_child.data.as_longlongs
    for index in range(count - 1, -1, -1):
        if counts != NULL:
            left = counts[index]
            start = starts[index]
        else:
            kids = listed[index]
            if type(kids) is not range:
                return None
            left = range_length(kids)
            if left:
                start = range_start(kids)
                step = range_step(kids)
        chosen[index] = -1
        if left == 0:
            if leaf_words != NULL:
                value[index] = leaf_words[index]
            elif not small_int(static[index], &value[index]):
                return None
            continue
        kind = kinds[index]
        is_max = kind is max_kind or kind == max_kind
        best = start
        best_value = value[start]
        for slot in range(1, left):
            kid = start + slot * step
            score = value[kid]
            if (score > best_value) if is_max else (score < best_value):
                best_value = score
                best = kid
        value[index] = best_value
        chosen[index] = best
        charge(&pending, left, spend)
    if pending:
        spend(pending)
    return values, best_child


def words_bytes(object column, object spend):
    """The JSON array of the machine integers of ``column`` (an ``array('q')``), written as
    :func:`column_bytes` writes integers within +/-2**62; None if one lies beyond. A unit
    of ``spend`` per entry."""
    cdef const long long[:] words = column
    cdef Py_ssize_t index, count = words.shape[0], start, end
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef char* out
    cdef long long number
    try:
        put(&buffer, b"[", 1)
        for start in range(0, count, BATCH):
            end = min(start + BATCH, count)
            # room for the batch at once: a comma, a sign and 19 digits each
            grow(&buffer, (end - start) * 21)
            out = buffer.data + buffer.size
            for index in range(start, end):
                number = words[index]
                if number <= -LIMIT or number >= LIMIT:
                    return None
                if index:
                    out[0] = b","
                    out += 1
                out = write_integer(out, number)
            buffer.size = out - buffer.data
            spend(end - start)
        put(&buffer, b"]", 1)
        return finish(&buffer)
    finally:
        release(&buffer)


cdef inline object written_once(object entry, dict seen, object write):
    """``write(entry)``, asked once per distinct entry (the bytes are kept in ``seen``)."""
    cdef object written = seen.get(entry)
    if written is None:
        written = seen[entry] = write(entry)
    return written


def column_bytes(list column, object write, bint integers, object mask, object spend):
    """The JSON array of ``column`` (one entry per node): an integer of at most 62 bits as
    itself when ``integers``, any other entry as ``write(entry)`` gives it (asked once per
    distinct entry), and None as ``null``; with a ``mask`` (a list as long as ``column``) only
    the entries whose ``mask`` entry is not None are written. Returns the bytes and the
    distinct entries given to ``write``, for the caller to see whether any of them needs an
    exact companion. Each entry costs one unit of ``spend``."""
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef Py_ssize_t index, count = len(column), pending = 0
    cdef long long small
    cdef bint first = True
    cdef list present = mask
    cdef object entry, written, last = None, last_written = None
    cdef dict seen = {}
    if present is not None and len(present) != count:
        raise ValueError("a column's mask must be as long as the column")
    try:
        put(&buffer, b"[", 1)
        for index in range(count):
            charge(&pending, 1, spend)
            if present is not None and present[index] is None:
                continue
            entry = column[index]
            if not first:
                put(&buffer, b",", 1)
            first = False
            if entry is None:
                put(&buffer, b"null", 4)
                continue
            if integers and small_int(entry, &small):
                put_integer(&buffer, small)
                continue
            if entry is last:  # runs of one object (a bound's name, a shared value)
                written = last_written
            else:
                written = written_once(entry, seen, write)
                last, last_written = entry, written
            put(&buffer, PyBytes_AS_STRING(written), PyBytes_GET_SIZE(written))
        put(&buffer, b"]", 1)
        if pending:
            spend(pending)
        return finish(&buffer), list(seen)
    finally:
        release(&buffer)


cdef struct Spans:
    int64_t* data  # start, stop, start, stop ...: runs of consecutive indices
    Py_ssize_t size  # integers used (twice the number of runs)
    Py_ssize_t capacity


cdef int add_span(Spans* spans, Py_ssize_t start, Py_ssize_t stop) except -1:
    """Append the indices ``[start, stop)``, joining them to the last run when they follow it."""
    cdef int64_t* grown
    if spans.size and spans.data[spans.size - 1] == start:
        spans.data[spans.size - 1] = stop
        return 0
    if spans.size + 2 > spans.capacity:
        spans.capacity = spans.capacity * 2 if spans.capacity else 256
        grown = <int64_t*>realloc(spans.data, spans.capacity * sizeof(int64_t))
        if grown == NULL:
            raise MemoryError()
        spans.data = grown
    spans.data[spans.size] = start
    spans.data[spans.size + 1] = stop
    spans.size += 2
    return 0


cdef bytes runs_json(Spans* spans):
    """The runs as the JSON array ``[[start, stop], ...]``."""
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef Py_ssize_t k
    try:
        put(&buffer, b"[", 1)
        for k in range(0, spans.size, 2):
            put(&buffer, b"[" if k == 0 else b",[", 1 if k == 0 else 2)
            put_integer(&buffer, spans.data[k])
            put(&buffer, b",", 1)
            put_integer(&buffer, spans.data[k + 1])
            put(&buffer, b"]", 1)
        put(&buffer, b"]", 1)
        return finish(&buffer)
    finally:
        release(&buffer)


cdef int put_coded_columns(
    Buffer* numbers,
    Buffer* names,
    Spans* spans,
    const long long[:] column,
    const unsigned char* codes,
    list bound_json,
    object spend,
) except -1:
    """The entries of :func:`present_columns_bytes`'s lists for value columns: the runs of
    the nodes whose code is not 0, their machine integers (comma separated) into
    ``numbers`` and their bounds (``bound_json[code & 3]``) into ``names``, each written
    through one pointer with room made once a node. A unit of ``spend`` a node."""
    cdef Py_ssize_t index, pending = 0, count = column.shape[0], following = 0
    cdef CodeTexts bound
    cdef unsigned char code
    cdef long long small
    cdef char* out
    cdef bint first = True
    code_texts(&bound, bound_json)
    while following < count:
        index = next_visited(codes, following, count, &pending, spend)
        if index == count:
            break
        following = index + 1
        charge(&pending, 1, spend)
        code = codes[index] & 3
        if not code:
            continue
        small = machine_integer(column, index)
        add_span(spans, index, index + 1)
        if numbers.size + 22 > numbers.capacity:  # a comma and at most 21 characters
            grow(numbers, 22)
        if names.size + 1 + bound.size[code] > names.capacity:
            grow(names, 1 + bound.size[code])
        out = numbers.data + numbers.size
        if not first:
            out[0] = b","
            out += 1
        numbers.size = write_integer(out, small) - numbers.data
        out = names.data + names.size
        if not first:
            out[0] = b","
            out += 1
        memcpy(out, bound.data[code], bound.size[code])
        names.size = out + bound.size[code] - names.data
        first = False
    if pending:
        spend(pending)
    return 0


def present_columns_bytes(
    object values,
    object bounds,
    object write_value,
    object write_bound,
    object spend,
    bytes codes=None,
):
    """In one pass over the nodes, the columns layout's lists: ``(node, value, others,
    bound)``, the runs (see :func:`runs_bytes`) of the nodes
    whose value is not None, then their values (integers of at most 62 bits as themselves,
    any other value as ``write_value`` gives it, asked once per distinct value), the distinct
    values given to ``write_value``, and their bounds as ``write_bound`` gives them (None
    when ``bounds`` is None). Each node costs one unit of ``spend``.

    ``values`` and ``bounds`` are lists; or with ``codes`` (a search's value columns, see
    :func:`alpha_beta_walk`) ``values`` is an ``array('q')`` of machine integers read only
    where a node's code is not 0, and ``bounds`` the tuple of four bound names that
    ``code & 3`` picks from."""
    cdef Buffer numbers = Buffer(NULL, 0, 0, NULL), names = Buffer(NULL, 0, 0, NULL)
    cdef Spans spans = Spans(NULL, 0, 0)
    cdef Py_ssize_t index, count = len(values), pending = 0
    cdef long long small
    cdef bint first = True, bounded = bounds is not None, coded = codes is not None
    cdef object entry, written, last = None, last_written = None
    cdef object bound, last_bound = None, bound_written = None
    cdef dict seen = {}, bound_seen = {}
    cdef list value_list = None, bound_list = None
    cdef tuple bound_names = None
    cdef const long long[:] column
    cdef const unsigned char* code_data = NULL
    if coded:
        if not isinstance(values, array) or type(bounds) is not tuple or len(bounds) != 4:
            raise ValueError("codes go with a column of machine integers and four bound names")
        if len(codes) != count:
            raise ValueError("values and codes differ in length")
        column = values
        bound_names = bounds
        code_data = <const unsigned char*>PyBytes_AS_STRING(codes)
    else:
        value_list = values
        bound_list = bounds
        if bounded and len(bound_list) != count:
            raise ValueError("values and bounds differ in length")
    try:
        put(&numbers, b"[", 1)
        put(&names, b"[", 1)
        if coded:
            put_coded_columns(
                &numbers,
                &names,
                &spans,
                column,
                code_data,
                [None] + [write_bound(name) for name in bound_names[1:]],
                spend,
            )
            count = 0  # (written)
        for index in range(count):
            charge(&pending, 1, spend)
            entry = value_list[index]
            if entry is None:
                continue
            add_span(&spans, index, index + 1)
            if not first:
                put(&numbers, b",", 1)
                put(&names, b",", 1)
            first = False
            if small_int(entry, &small):
                put_integer(&numbers, small)
            else:
                if entry is last:
                    written = last_written
                else:
                    written = written_once(entry, seen, write_value)
                    last, last_written = entry, written
                put(&numbers, PyBytes_AS_STRING(written), PyBytes_GET_SIZE(written))
            if bounded:
                bound = bound_list[index]
                if bound is not last_bound:
                    bound_written = written_once(bound, bound_seen, write_bound)
                    last_bound = bound
                put(&names, PyBytes_AS_STRING(bound_written), PyBytes_GET_SIZE(bound_written))
        put(&numbers, b"]", 1)
        put(&names, b"]", 1)
        if pending:
            spend(pending)
        return (
            runs_json(&spans),
            finish(&numbers),
            list(seen),
            finish(&names) if bounded else None,
        )
    finally:
        release(&numbers)
        release(&names)
        free(spans.data)


def runs_bytes(object indices, object spend):
    """The JSON array of the runs ``[start, stop]`` of ``indices``: each run is a maximal stretch
    of consecutive increasing indices (``stop`` is one past its last), in the order given; a
    unit of ``spend`` per index."""
    cdef Spans spans = Spans(NULL, 0, 0)
    cdef Py_ssize_t index, pending = 0, k
    cdef const long long[:] column
    try:
        if isinstance(indices, array) and (<array>indices).ob_descr.typecode == b"q":
            # an IntColumn (alpha-beta's evaluated leaves, Star1's pruned nodes): read as is
            column = indices
            for k in range(column.shape[0]):
                charge(&pending, 1, spend)
                add_span(&spans, column[k], column[k] + 1)
        else:
            for item in indices:
                index = item
                charge(&pending, 1, spend)
                add_span(&spans, index, index + 1)
        if pending:
            spend(pending)
        return runs_json(&spans)
    finally:
        free(spans.data)


cdef inline bint ascending(object kids) except -1:
    """Whether ``kids`` is a range counting up by one (as a parsed tree's children are)."""
    return type(kids) is range and kids.step == 1


cdef Py_ssize_t leaf_spans(
    object children, ChildColumns* columns, Py_ssize_t top, list stack, Spans* spans
) except -1:
    """Add the leaves (nodes without ``children``) of the subtree under ``top``, left to right,
    to ``spans``; return the number of nodes looked at (``Tree.leaves_below``, compiled).

    Children are numbered breadth-first, so a subtree's nodes at each depth are consecutive:
    while every node of a level has children the next level is the span from the first one's
    first child to the last one's last child, and a level of leaves only is one span. A
    subtree whose leaves lie at several depths, or whose children are reordered, is walked
    node by node instead."""
    cdef Py_ssize_t low = top, high = top, node, leaves, k, size, looked = 0
    cdef object kids, first
    cdef const long long* counts = columns.counts
    while True:
        leaves = 0
        for node in range(low, high + 1):
            if (counts[node] if counts != NULL else len(<object>(<list>children)[node])) == 0:
                leaves += 1
        looked += high - low + 1
        if leaves == high - low + 1:
            add_span(spans, low, high + 1)
            return looked
        if leaves != 0:
            break  # leaves at several depths
        if counts != NULL:
            low, high = columns.starts[low], columns.starts[high] + counts[high] - 1
            continue
        first = (<list>children)[low]
        kids = (<list>children)[high]
        if not (ascending(first) and ascending(kids)):
            break  # children reordered (say, reversed)
        low = first[0]
        high = kids[len(kids) - 1]
    # walk the subtree in preorder
    stack.append(top)
    while stack:
        node = stack.pop()
        looked += 1
        if counts != NULL:
            size = counts[node]
            for k in range(size - 1, -1, -1):
                stack.append(columns.starts[node] + k)
            if size == 0:
                add_span(spans, node, node + 1)
            continue
        kids = (<list>children)[node]
        size = len(kids)
        if size:
            for k in range(size - 1, -1, -1):
                stack.append(kids[k])
        else:
            add_span(spans, node, node + 1)
    return looked


cdef Py_ssize_t last_level_span(
    object children, ChildColumns* columns, Py_ssize_t top, Spans* spans
) except -1:
    """:func:`leaf_spans` of a tree whose leaves all lie on its last level, with ascending
    children: the span is the first child's first child ... down to the leaves, to the last
    child's last child; two ranges read per level. Returns the levels walked."""
    cdef Py_ssize_t low = top, high = top, levels = 1
    cdef const long long* counts = columns.counts
    cdef object kids
    if counts != NULL:
        while counts[low]:
            low, high = columns.starts[low], columns.starts[high] + counts[high] - 1
            levels += 1
        add_span(spans, low, high + 1)
        return levels
    kids = (<list>children)[low]
    while range_length(kids):
        low = range_start(kids)
        kids = (<list>children)[high]
        high = range_start(kids) + range_length(kids) - 1
        kids = (<list>children)[low]
        levels += 1
    add_span(spans, low, high + 1)
    return levels


cdef int pruned_leaf_spans(
    object children, object tops, Spans* spans, object spend, bint last_level
) except -1:
    """:func:`leaf_spans` of every subtree under ``tops``, in order, charging ``spend``; with
    ``last_level`` (every leaf on the last level, children ascending ranges) by
    :func:`last_level_span`. ``children`` is a list or a :class:`ChildRanges`."""
    cdef Py_ssize_t pending = 0
    cdef list stack = []
    cdef ChildColumns columns
    child_columns(&columns, children)
    if (
        last_level
        and columns.counts == NULL
        and not (type(children[0]) is range and children[0].step == 1)
    ):
        last_level = False
    for top in tops:
        if last_level:
            pending += last_level_span(children, &columns, top, spans)
        else:
            pending += leaf_spans(children, &columns, top, stack, spans)
        if pending >= BATCH:
            spend(pending)
            pending = 0
    if pending:
        spend(pending)
    return 0


def leaf_runs_bytes(object children, object tops, object spend, bint last_level=False):
    """:func:`runs_bytes` of the leaves of the subtrees under ``tops``, left to right
    (``leaves_below_all``): one unit of ``spend`` per node looked at."""
    cdef Spans spans = Spans(NULL, 0, 0)
    try:
        pruned_leaf_spans(children, tops, &spans, spend, last_level)
        return runs_json(&spans)
    finally:
        free(spans.data)


def id_array_bytes(object ids, object indices, object dumps, object spend):
    """The JSON array of ``ids[i]`` for each ``i`` of ``indices``; a unit of ``spend`` each."""
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t pending = 0, k, count
    cdef bint first = True
    cdef const long long* words
    try:
        put(&buffer, b"[", 1)
        if isinstance(indices, array) and (<array>indices).ob_descr.typecode == b"q":
            # (an ``IntColumn``: read as machine integers, no int object each)
            words = (<array>indices).data.as_longlongs
            count = len(indices)
            for k in range(count):
                charge(&pending, 1, spend)
                if k:
                    put(&buffer, b",", 1)
                names.put(&buffer, words[k], dumps)
        else:
            for index in indices:
                charge(&pending, 1, spend)
                if not first:
                    put(&buffer, b",", 1)
                first = False
                names.put(&buffer, index, dumps)
        put(&buffer, b"]", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        release(&buffer)


def leaves_bytes(
    object ids, object children, object tops, object dumps, object spend, bint last_level=False
):
    """The JSON array of the ids of the leaves (nodes without ``children``) of the subtrees
    under ``tops``, left to right: ``leaves_below_all`` written out, one unit of ``spend``
    per node looked at and per id written."""
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef Spans spans = Spans(NULL, 0, 0)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t k, node, pending = 0
    cdef bint first = True
    try:
        pruned_leaf_spans(children, tops, &spans, spend, last_level)
        put(&buffer, b"[", 1)
        for k in range(0, spans.size, 2):
            names.put_span(&buffer, spans.data[k], spans.data[k + 1], first, dumps)
            first = first and spans.data[k + 1] <= spans.data[k]
            charge(&pending, spans.data[k + 1] - spans.data[k], spend)
        put(&buffer, b"]", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        release(&buffer)
        free(spans.data)


cdef int put_member(
    Buffer* buffer, const char* head, str name, object value, dict seen, object number,
    bint integers,
) except -1:
    """One number member of a cutoff record (``head`` is ``,"name":``): a machine integer
    with ``integers`` as ``number`` would write it, else ``number(name, value)``'s bytes,
    asked once per distinct value (a window's only floats are the infinities, which equal no
    exact number, so a value is its own key)."""
    cdef long long small
    cdef object member
    if integers and small_int(value, &small):
        put(buffer, head, strlen(head))
        return put_integer(buffer, small)
    member = seen.get(value)
    if member is None:
        member = seen[value] = number(name, value)
    put(buffer, b",", 1)
    return put(buffer, PyBytes_AS_STRING(member), PyBytes_GET_SIZE(member))


def cutoffs_bytes(
    object ids, list cutoffs, object number, object dumps, object spend, bint integers=True
):
    """The JSON array of the cutoff records ``{"node", "alpha", "beta", "value", "after",
    "cut"}``; ``number(name, value)`` gives the bytes of one number's members (``"alpha":3``,
    with ``alpha_exact`` where it is not exact), asked once per distinct name and value, but
    for machine integers with ``integers``, written here as ``number`` would (without, the
    records hold keys that ``number`` turns into numbers). A record's ``cut`` is a tuple or a
    ``range``."""
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t pending = 0, k, start, step, length
    cdef bint first = True
    cdef object cut
    cdef dict alphas = {}, betas = {}, values = {}
    try:
        put(&buffer, b"[", 1)
        for record in cutoffs:
            cut = record[5]
            charge(&pending, 4 + len(cut), spend)
            put(&buffer, b"{\"node\":" if first else b",{\"node\":", 8 if first else 9)
            first = False
            names.put(&buffer, record[0], dumps)
            put_member(&buffer, b",\"alpha\":", "alpha", record[1], alphas, number, integers)
            put_member(&buffer, b",\"beta\":", "beta", record[2], betas, number, integers)
            put_member(&buffer, b",\"value\":", "value", record[3], values, number, integers)
            put(&buffer, b",\"after\":", 9)
            names.put(&buffer, record[4], dumps)
            put(&buffer, b",\"cut\":[", 8)
            if type(cut) is range:
                start, step, length = range_start(cut), range_step(cut), range_length(cut)
                for k in range(length):
                    if k:
                        put(&buffer, b",", 1)
                    names.put(&buffer, start + k * step, dumps)
            else:
                for k in range(len(cut)):
                    if k:
                        put(&buffer, b",", 1)
                    names.put(&buffer, (<tuple>cut)[k], dumps)
            put(&buffer, b"]}", 2)
        put(&buffer, b"]", 1)
        if pending:
            spend(pending)
        return finish(&buffer)
    finally:
        release(&buffer)


def decisions_bytes(
    object ids,
    object best_child,
    list kinds,
    object values,
    object chance_kind,
    object dumps,
    object spend,
):
    """The JSON object ``{ids[node]: ids[best_child[node]]}`` of every node with a best child
    (``>= 0``) that is not a chance node and has a value, in index order: the ``decisions``
    of an expectimax or Star1 answer. ``values`` is the list of values (None: no value), or
    the code bytes of :func:`scaled_node_map_bytes`. Each node costs one unit of ``spend``."""
    cdef Buffer buffer = Buffer(NULL, 0, 0, NULL)
    cdef Ids names = Ids(ids)
    cdef Py_ssize_t index, child, count = len(best_child), pending = 0
    cdef bint first = True, listed = type(best_child) is list, coded = type(values) is bytes
    cdef object kind
    cdef const int64_t[:] column
    cdef list value_list
    cdef const unsigned char* code = NULL
    if not listed:
        column = best_child
    if coded:
        code = <const unsigned char*>PyBytes_AS_STRING(values)
    else:
        value_list = values
    if len(values) != count:
        raise ValueError("best_child and values differ in length")
    try:
        put(&buffer, b"{", 1)
        for index in range(count):
            charge(&pending, 1, spend)
            child = best_child[index] if listed else column[index]
            if child < 0:
                continue
            kind = kinds[index]
            if kind is chance_kind or kind == chance_kind:
                continue
            if (code[index] == 0) if coded else (value_list[index] is None):
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
        release(&buffer)
