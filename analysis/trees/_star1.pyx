# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False
"""The compiled kernels of Star1 (:mod:`analysis.trees.star1`) and expectimax
(:mod:`analysis.trees.expectimax`) on integers.

``scaled_star1`` is the textbook Star1 search step for step, on 64-bit integers instead of
fractions: values are the exact values times a common scale ``G`` (see
:class:`analysis.trees.expectimax.CommonScale`: every value a search returns, bounds
included, is then an integer), a chance node's running ``sum(p v)`` is kept times ``Q``
(probabilities are ``w / Q``), and the windows ``A_i`` and ``B_i`` are exact ratios
``num / den`` of 64-bit integers, compared by 128-bit cross products. So it makes the
same comparisons, in the same order, with the same outcomes: the same values, bounds,
best children, evaluated leaves, cutoffs and pruned nodes. A number that would leave
64 bits makes it give up (``None``), and the caller runs the search in fractions.

``scaled_back_up`` values every node as the textbook expectimax does, bottom up on the same
scale. Both read a node's children ``range`` through its public attributes, and the caller
makes the numbers it returns into the search's result.
"""

from array import array
from fractions import Fraction

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.object cimport PyObject
from libc.stdint cimport int64_t, INT64_MAX
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

from analysis.trees.alpha_beta import NEG_INF, POS_INF

cdef extern from *:
    ctypedef long long int128 "__int128"

cdef enum:
    EXACT = 0
    LOWER = 1
    UPPER = 2
    MAX_NODE = 0
    MIN_NODE = 1
    CHANCE_NODE = 2
    SPEND_EVERY = 4096
    BOUND_BITS = 3  # a node's code: 1 + its bound (0: the search gave it no value) ...
    STATIC_LEAF = 4  # ... with this bit where its value is its static value
    CHANCE_VALUE = 8  # ... or this one where it is a chance node's expectation


cdef struct Ratio:  # num / den with den > 0, or an infinity (inf = -1 or +1)
    int64_t num
    int64_t den
    int inf


cdef struct Frame:
    int64_t node
    int kind
    Ratio alpha
    Ratio beta
    int64_t v  # MAX/MIN: the value so far (v_inf: none yet); chance: sum(w * value)
    int v_inf
    int64_t slot
    int64_t best
    int best_bound
    int64_t rest  # chance: Q times the probability not yet searched
    int64_t weight  # chance: Q times the probability of the outcome being searched
    int64_t likeliest  # chance: the leftmost most likely outcome so far, and its weight
    int64_t likeliest_weight
    Ratio fail_low
    Ratio fail_high
    int64_t start  # the children: start, start + step, ... (count of them)
    int64_t step
    int64_t count


cdef inline bint fits(int128 x) noexcept:
    return -INT64_MAX <= x <= INT64_MAX


cdef inline Ratio ratio(int64_t x) noexcept:
    cdef Ratio r
    r.num = x
    r.den = 1
    r.inf = 0
    return r


cdef inline Ratio infinite(int sign) noexcept:
    cdef Ratio r
    r.num = 0
    r.den = 1
    r.inf = sign
    return r


cdef inline int compare(Ratio a, Ratio b) noexcept:
    """-1, 0 or 1 as a is below, equal to or above b (infinities equal themselves)."""
    cdef int128 left, right
    if a.inf or b.inf:
        if a.inf == b.inf:
            return 0
        return -1 if a.inf < b.inf else 1
    left = <int128>a.num * b.den
    right = <int128>b.num * a.den
    return (left > right) - (left < right)


cdef inline int compare_int(int64_t x, Ratio b) noexcept:
    cdef int128 left, right
    if b.inf:
        return -b.inf
    left = <int128>x * b.den
    right = <int128>b.num
    return (left > right) - (left < right)


cdef inline int64_t gcd64(int64_t a, int64_t b) noexcept:
    if a < 0:
        a = -a
    while b:
        a, b = b, a % b
    return a


cdef inline bint window(Ratio edge, int64_t common, int64_t total, int64_t weight, Ratio* out) noexcept:
    """(edge * Q - total) / weight into ``out``; False when a number leaves 64 bits."""
    cdef int128 num, den
    cdef int64_t shared
    if edge.inf:
        out[0] = infinite(edge.inf)
        return True
    num = <int128>edge.num * common - <int128>edge.den * total
    den = <int128>edge.den * weight
    if not fits(num) or not fits(den):
        return False
    out.num = <int64_t>num
    out.den = <int64_t>den
    out.inf = 0
    if out.den > 1 << 30:
        shared = gcd64(out.num, out.den)
        if shared > 1:
            out.num //= shared
            out.den //= shared
    return True


def scaled_star1(
    list children,
    list kinds,
    list probabilities,
    dict shares,
    list static,
    int64_t low,
    int64_t high,
    int64_t common,
    int64_t factor,
    bint strict,
    int depth,
    object spend,
    str chance_kind,
    str max_kind,
):
    """Star1 over the nodes of ``children`` (ranges): static values (ints) in ``static``,
    probabilities in ``probabilities`` with ``shares`` giving ``common`` times each (by the
    ``id`` of the probability object), the bounds ``low`` and ``high`` and every value the
    search returns times ``factor``. The caller makes sure that the scaled static values
    and bounds, times ``common``, fit 63 bits.

    Returns ``(numbers, codes, best_child, evaluated, cutoffs, pruned, visited)``: per node
    its value times ``factor`` (an ``array('q')``; a key on the scale, see ``key_of``) and a
    code byte (0: the search gave it no value; else 1 + its bound, 0 exact, 1 lower, 2 upper,
    plus 4 where its value is its static value and 8 where it is a chance node's
    expectation); then as the textbook search finds them, best children (an ``array('q')``),
    evaluated leaves and pruned nodes (lists), and each cutoff's record ``(node, alpha, beta,
    value, after, cut)`` with its numbers as keys on the scale (``analysis.trees.star1``
    makes the numbers) and ``cut`` a ``range``. None when a number would leave 64 bits, or
    a node's children are not a range.
    """
    cdef Py_ssize_t count = len(children)
    cdef Frame* stack = <Frame*>malloc((depth + 2) * sizeof(Frame))
    cdef int64_t* numbers = <int64_t*>malloc(count * sizeof(int64_t))
    cdef unsigned char* codes = <unsigned char*>calloc(count, 1)
    cdef dict table = {}
    try:
        if stack == NULL or numbers == NULL or codes == NULL:
            raise MemoryError()
        return _search(
            stack, numbers, codes, table, count, children, kinds, probabilities, shares,
            static, low, high, common, factor, strict, spend, chance_kind,
            max_kind,
        )
    finally:
        free(stack)
        free(numbers)
        free(codes)


cdef object as_exact(int64_t num, int64_t den, int64_t factor, dict known):
    """num / (den * factor) as the fractions search writes it (an int when integral);
    values repeat, so each is made once (``known`` by num and den)."""
    cdef object key = (num, den)
    cdef object value = known.get(key)
    if value is None:
        value = Fraction(num, den * <object>factor)
        if value.denominator == 1:
            value = value.numerator
        known[key] = value
    return value


cdef object key_of(Ratio r):
    """A window's end as a key on the scale: ±infinity, ``num`` or ``(num, den)`` (the
    value is the key over ``factor``, see :func:`analysis.trees.star1.value_of_key`)."""
    if r.inf:
        return NEG_INF if r.inf < 0 else POS_INF
    if r.den == 1:
        return r.num
    return (r.num, r.den)


cdef inline int64_t share(list probabilities, dict shares, int64_t node):
    return <int64_t>shares[id(probabilities[node])]


cdef inline int enter(Frame* frame, list children, list kinds, int64_t node, Ratio alpha,
                      Ratio beta, int64_t common, str chance_kind, str max_kind) except -1:
    kids = children[node]
    kind = kinds[node]
    frame.node = node
    frame.kind = CHANCE_NODE if kind == chance_kind else MAX_NODE if kind == max_kind else MIN_NODE
    frame.alpha = alpha
    frame.beta = beta
    frame.v = 0
    frame.v_inf = -1 if frame.kind == MAX_NODE else 1 if frame.kind == MIN_NODE else 0
    frame.slot = 0
    frame.best = -1
    frame.best_bound = EXACT
    frame.rest = common
    frame.weight = 0
    frame.likeliest = -1
    frame.likeliest_weight = -1
    frame.fail_low = infinite(-1)
    frame.fail_high = infinite(1)
    frame.start = kids.start
    frame.step = kids.step
    frame.count = len(kids)
    return 0


cdef object _search(
    Frame* stack,
    int64_t* numbers,
    unsigned char* codes,
    dict table,
    Py_ssize_t count,
    list children,
    list kinds,
    list probabilities,
    dict shares,
    list static,
    int64_t low,
    int64_t high,
    int64_t common,
    int64_t factor,
    bint strict,
    object spend,
    str chance_kind,
    str max_kind,
):
    cdef object best_column = array("q", [-1]) * count
    cdef int64_t[:] best_child = best_column
    cdef list evaluated = []
    cdef list cutoffs = []
    cdef list pruned = []
    cdef int64_t first, last, cut
    cdef Py_ssize_t top = 0
    cdef Frame* frame
    cdef int64_t visited = 1, node, child = -1, weight, score, descend
    cdef int64_t returned = 0, value
    cdef int returned_bound = EXACT, result_bound, bound
    cdef bint has_returned = False, stop, exact_end, better
    cdef int128 wide
    cdef Ratio low_ratio = ratio(low), high_ratio = ratio(high), window_low, window_high
    cdef Ratio fail_low, fail_high
    cdef Py_ssize_t steps = 0
    cdef Py_ssize_t index
    if type(children[0]) is not range:
        return None
    enter(&stack[0], children, kinds, 0, infinite(-1), infinite(1), common, chance_kind, max_kind)
    while top >= 0:
        frame = &stack[top]
        node = frame.node
        stop = False
        result_bound = EXACT
        steps += 1
        if steps == SPEND_EVERY:
            spend(3 * SPEND_EVERY)
            steps = 0
        if has_returned:
            if frame.kind == CHANCE_NODE:
                if returned_bound == LOWER and returned >= high:
                    returned_bound = EXACT
                elif returned_bound == UPPER and returned <= low:
                    returned_bound = EXACT
                wide = <int128>frame.v + <int128>frame.weight * returned
                if not fits(wide):
                    return None
                frame.v = <int64_t>wide
                exact_end = frame.rest == 0 and returned_bound == EXACT
                if returned_bound == UPPER or (
                    compare_int(returned, frame.fail_low) < 0
                    if strict else compare_int(returned, frame.fail_low) <= 0
                ):
                    if not exact_end:
                        wide = <int128>frame.v + <int128>high * frame.rest
                        if not fits(wide):
                            return None
                        stop, frame.v, result_bound = True, <int64_t>wide, UPPER
                elif returned_bound == LOWER or (
                    compare_int(returned, frame.fail_high) > 0
                    if strict else compare_int(returned, frame.fail_high) >= 0
                ):
                    if not exact_end:
                        wide = <int128>frame.v + <int128>low * frame.rest
                        if not fits(wide):
                            return None
                        stop, frame.v, result_bound = True, <int64_t>wide, LOWER
            else:
                if frame.v_inf:
                    better = True  # anything beats the start at -inf (MAX) or +inf (MIN)
                else:
                    better = returned > frame.v if frame.kind == MAX_NODE else returned < frame.v
                if better or (
                    not frame.v_inf and returned == frame.v and returned_bound == EXACT
                    and frame.best_bound != EXACT
                ):
                    frame.v, frame.v_inf = returned, 0
                    frame.best, frame.best_bound = child, returned_bound
                if frame.kind == MAX_NODE:
                    if (compare_int(frame.v, frame.beta) > 0) if strict else (
                        compare_int(frame.v, frame.beta) >= 0
                    ):
                        stop, result_bound = True, LOWER
                    elif compare_int(frame.v, frame.alpha) > 0:
                        frame.alpha = ratio(frame.v)
                else:
                    if (compare_int(frame.v, frame.alpha) < 0) if strict else (
                        compare_int(frame.v, frame.alpha) <= 0
                    ):
                        stop, result_bound = True, UPPER
                    elif compare_int(frame.v, frame.beta) < 0:
                        frame.beta = ratio(frame.v)
                if stop and frame.slot >= frame.count:
                    stop = False  # every child was searched: nothing is cut
            has_returned = False
        descend = -1
        while not stop and frame.slot < frame.count:
            child = frame.start + frame.step * frame.slot
            frame.slot += 1
            if frame.kind == CHANCE_NODE:
                weight = share(probabilities, shares, child)
                frame.weight = weight
                if weight > frame.likeliest_weight:
                    frame.likeliest, frame.likeliest_weight = child, weight
                if weight == 0:
                    pruned.append(child)  # cannot change the expectation
                    continue
                frame.rest -= weight
                wide = <int128>frame.v + <int128>high * frame.rest
                if not fits(wide):
                    return None
                if not window(frame.alpha, common, <int64_t>wide, weight, &frame.fail_low):
                    return None
                wide = <int128>frame.v + <int128>low * frame.rest
                if not fits(wide):
                    return None
                if not window(frame.beta, common, <int64_t>wide, weight, &frame.fail_high):
                    return None
                if (compare(frame.fail_low, high_ratio) > 0) if strict else (
                    compare(frame.fail_low, high_ratio) >= 0
                ):
                    stop, result_bound = True, UPPER
                elif (compare(frame.fail_high, low_ratio) < 0) if strict else (
                    compare(frame.fail_high, low_ratio) <= 0
                ):
                    stop, result_bound = True, LOWER
                if stop:
                    frame.slot -= 1
                    frame.rest += weight
                    wide = <int128>frame.v + <int128>(
                        high if result_bound == UPPER else low
                    ) * frame.rest
                    if not fits(wide):
                        return None
                    frame.v = <int64_t>wide
                    child = frame.start + frame.step * (frame.slot - 1) if frame.slot else node
                    break
                window_low = frame.fail_low if compare(frame.fail_low, low_ratio) > 0 else low_ratio
                window_high = (
                    frame.fail_high if compare(frame.fail_high, high_ratio) < 0 else high_ratio
                )
            else:
                window_low, window_high = frame.alpha, frame.beta
            # a node the search scores has a static value, and only such a node has one
            leaf = static[child]
            if leaf is None:
                descend = child
                break
            score = <int64_t>leaf * factor
            numbers[child] = score
            codes[child] = STATIC_LEAF | (1 + EXACT)
            evaluated.append(child)
            visited += 1
            returned, returned_bound, has_returned = score, EXACT, True
            break
        if descend != -1:
            if type(children[descend]) is not range:
                return None  # (the caller runs the fraction search)
            visited += 1
            top += 1
            enter(&stack[top], children, kinds, descend, window_low, window_high, common,
                  chance_kind, max_kind)
            continue
        if has_returned:
            continue  # fold the static child just read
        # the node is done: its value, times factor (a chance node's sum is times common)
        if frame.kind == CHANCE_NODE:
            value = frame.v // common
            if value * common != frame.v:
                return None  # (cannot happen: the scale makes every value an integer)
        else:
            value = frame.v
        if stop:
            if frame.slot < frame.count:
                first = frame.start + frame.step * frame.slot
                last = frame.start + frame.step * frame.count
                # the numbers as keys, the cut as a range (``CutoffRows`` makes the record)
                cutoffs.append(
                    (node, key_of(frame.alpha), key_of(frame.beta), table.setdefault(value, value),
                     child, range(first, last, frame.step))
                )
                for cut in range(frame.slot, frame.count):
                    pruned.append(frame.start + frame.step * cut)
            bound = result_bound
        elif frame.kind == CHANCE_NODE:
            bound = EXACT
            frame.best = frame.likeliest  # (every outcome was read, so this is the likeliest)
        else:
            bound = frame.best_bound
        numbers[node] = value
        codes[node] = (CHANCE_VALUE if frame.kind == CHANCE_NODE else 0) | (1 + bound)
        best_child[node] = frame.best
        top -= 1
        returned, returned_bound, child, has_returned = value, bound, node, True
    spend(3 * steps)
    return (
        array_from(numbers, count),
        PyBytes_FromStringAndSize(<char*>codes, count),
        best_column,
        evaluated,
        cutoffs,
        pruned,
        visited,
    )


cdef object array_from(int64_t* data, Py_ssize_t size):
    """An ``array('q')`` of ``data[:size]`` (unset entries are whatever they hold)."""
    cdef object column = array("q", bytes(size * sizeof(int64_t)))
    cdef int64_t[:] view = column
    if size:
        memcpy(&view[0], data, size * sizeof(int64_t))
    return column


# -- expectimax's back-up on the same scale ----------------------------------------------------

cdef extern from *:
    bint mul_overflow "__builtin_mul_overflow" (int64_t a, int64_t b, int64_t* out)
    bint add_overflow "__builtin_add_overflow" (int64_t a, int64_t b, int64_t* out)

cdef enum:
    SHARE_CACHE = 64  # distinct probability objects remembered by address


cdef struct Nodes:
    int64_t* scaled  # value times the scale
    int64_t* start  # children: a range
    int64_t* step
    int64_t* count
    int64_t* weight  # Q times the node's probability (0 where it has none)
    int64_t* best  # best child (MAX, MIN) or likeliest outcome (chance)
    unsigned char* kind


def scaled_back_up(
    list children,
    list kinds,
    list probabilities,
    dict shares,
    object static,
    list values,
    list best_child,
    Py_ssize_t covered,
    int64_t common,
    int64_t factor,
    object spend,
    str chance_kind,
    str max_kind,
):
    """The textbook expectimax's values, bottom up in 64-bit integers, in place.

    ``values`` holds each reachable node's static value on entry (and None beyond);
    ``children`` are ranges; a chance outcome's probability times ``common`` is
    ``shares[id(probability)]``. Fills ``values`` (a MAX or MIN node takes its best
    child's value object, a chance node a fraction made once per distinct value) and
    ``best_child``, and returns True; or returns None, with ``values`` and ``best_child``
    untouched, when a child list is not a range, a static value is not an integer or a
    number would leave 64 bits (the textbook search then answers in fractions). Each child
    read costs a unit of ``spend``, two at chance nodes.
    """
    cdef Nodes n
    cdef Py_ssize_t i, k, kid, pending = 0, cached = 0, c
    cdef int64_t value, sum_, product, best, best_weight
    cdef int overflow = 0
    cdef object kids, kind, chance, made
    cdef PyObject* seen_address[SHARE_CACHE]
    cdef int64_t seen_share[SHARE_CACHE]
    cdef dict known = {}
    if covered == 0 or common <= 0:
        return None
    n.scaled = <int64_t*>malloc(covered * sizeof(int64_t))
    n.start = <int64_t*>malloc(covered * sizeof(int64_t))
    n.step = <int64_t*>malloc(covered * sizeof(int64_t))
    n.count = <int64_t*>malloc(covered * sizeof(int64_t))
    n.weight = <int64_t*>malloc(covered * sizeof(int64_t))
    n.best = <int64_t*>malloc(covered * sizeof(int64_t))
    n.kind = <unsigned char*>malloc(covered)
    try:
        if (n.scaled == NULL or n.start == NULL or n.step == NULL or n.count == NULL
                or n.weight == NULL or n.best == NULL or n.kind == NULL):
            raise MemoryError()
        # the tree as C arrays: shapes, kinds, weights and scaled static values
        for i in range(covered):
            kids = children[i]
            if type(kids) is not range:
                return None
            n.count[i] = len(kids)
            n.best[i] = -1
            if n.count[i]:
                n.start[i] = kids.start
                n.step[i] = kids.step
                kind = kinds[i]
                if kind is chance_kind or kind == chance_kind:
                    n.kind[i] = CHANCE_NODE
                elif kind is max_kind or kind == max_kind:
                    n.kind[i] = MAX_NODE
                else:
                    n.kind[i] = MIN_NODE
            else:
                made = static[i]
                if type(made) is not int:
                    return None
                value = PyLong_AsLongLongAndOverflow(made, &overflow)
                if overflow or mul_overflow(value, factor, &n.scaled[i]):
                    return None
            chance = probabilities[i]
            if chance is None:
                n.weight[i] = 0
                continue
            for c in range(cached):
                if seen_address[c] == <PyObject*>chance:
                    n.weight[i] = seen_share[c]
                    break
            else:
                made = shares.get(id(chance))
                if made is None:
                    return None
                value = PyLong_AsLongLongAndOverflow(made, &overflow)
                if overflow:
                    return None
                n.weight[i] = value
                if cached < SHARE_CACHE:
                    seen_address[cached] = <PyObject*>chance
                    seen_share[cached] = value
                    cached += 1
        # bottom up (every child comes after its parent): the numbers only
        for i in range(covered - 1, -1, -1):
            if not n.count[i]:
                continue
            kid = n.start[i]
            best = kid
            if n.kind[i] == CHANCE_NODE:
                sum_ = 0
                best_weight = -1
                for k in range(n.count[i]):
                    if mul_overflow(n.weight[kid], n.scaled[kid], &product):
                        return None
                    if add_overflow(sum_, product, &sum_):
                        return None
                    if n.weight[kid] > best_weight:  # the leftmost likeliest
                        best_weight = n.weight[kid]
                        best = kid
                    kid += n.step[i]
                # floor division, as Python's (the sum is a multiple of Q in any case)
                value = sum_ // common
                if value * common > sum_:
                    value -= 1
                pending += 2 * n.count[i]
            else:
                value = n.scaled[kid]
                for k in range(1, n.count[i]):
                    kid += n.step[i]
                    if (n.scaled[kid] > value) if n.kind[i] == MAX_NODE else (n.scaled[kid] < value):
                        value = n.scaled[kid]
                        best = kid
                pending += n.count[i]
            n.scaled[i] = value
            n.best[i] = best
            if pending >= SPEND_EVERY:
                spend(pending)
                pending = 0
        if pending:
            spend(pending)
        # the value objects, bottom up again: a MAX or MIN node takes its best child's
        for i in range(covered - 1, -1, -1):
            if not n.count[i]:
                continue
            if n.kind[i] == CHANCE_NODE:
                values[i] = as_exact(n.scaled[i], 1, factor, known)
            else:
                values[i] = values[n.best[i]]
            best_child[i] = n.best[i]
        return True
    finally:
        free(n.scaled)
        free(n.start)
        free(n.step)
        free(n.count)
        free(n.weight)
        free(n.best)
        free(n.kind)
