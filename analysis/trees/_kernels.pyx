# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled kernels of minimax and alpha-beta over explicit trees.

Each is its Python search (:mod:`analysis.trees.minimax`, :mod:`analysis.trees.alpha_beta`)
made step for step in a C loop, with the same comparisons of the same exact numbers
(Python's ints and fractions, compared as Python compares them), so the answers are the
same objects in the same places; the tests hold each to its Python search. They take the
tree's columns as plain lists, read a node's children ``range`` through its public
attributes, and fill plain lists.
"""

from cpython.list cimport PyList_GET_ITEM
from cpython.object cimport Py_EQ, Py_GT, Py_LT, PyObject_RichCompareBool
from libc.stdlib cimport free, realloc

cdef enum:
    SPEND_EVERY = 4096  # units of work between two charges of the deadline
    EXACT = 0
    LOWER = 1
    UPPER = 2


cdef struct Children:  # a node's children: start, start + step, ... (count of them), or a list
    Py_ssize_t start
    Py_ssize_t step
    Py_ssize_t count
    bint listed


cdef inline int read_children(Children* out, object kids) except -1:
    if type(kids) is range:
        out.start = kids.start
        out.step = kids.step
        out.listed = False
    else:
        out.start = 0
        out.step = 1
        out.listed = True
    out.count = len(kids)
    return 0


cdef inline Py_ssize_t child_at(Children* children, object kids, Py_ssize_t slot) except? -1:
    if children.listed:
        return kids[slot]
    return children.start + children.step * slot


def minimax(
    list children,
    list static,
    list kinds,
    str max_kind,
    Py_ssize_t covered,
    list values,
    list best_child,
    object spend,
):
    """Back the minimax value of each of the first ``covered`` nodes up into ``values`` and
    its leftmost optimal child into ``best_child`` (both as long as the tree, filled in
    place; the other nodes lie below the depth cutoff and keep None and -1).

    ``children[i]`` lists node ``i``'s children (empty where the search scores it
    statically, ``static[i]``). Nodes are numbered breadth-first, so a child's number is
    above its parent's: walking the numbers down values every child before its parent.
    """
    cdef Py_ssize_t node, slot, child, best, pending = 0
    cdef Children kids
    cdef object listed, v, value
    cdef int better
    for node in range(covered - 1, -1, -1):
        listed = <object>PyList_GET_ITEM(children, node)
        read_children(&kids, listed)
        if kids.count == 0:
            values[node] = static[node]
            continue
        better = Py_GT if kinds[node] == max_kind else Py_LT
        best = child_at(&kids, listed, 0)
        v = <object>PyList_GET_ITEM(values, best)
        for slot in range(1, kids.count):
            child = child_at(&kids, listed, slot)
            value = <object>PyList_GET_ITEM(values, child)
            if PyObject_RichCompareBool(value, v, better):
                v, best = value, child
        values[node] = v
        best_child[node] = best
        pending += kids.count
        if pending >= SPEND_EVERY:
            spend(pending)
            pending = 0
    spend(pending)


cdef struct Frame:
    Py_ssize_t node
    Children kids
    Py_ssize_t slot
    Py_ssize_t best
    int best_bound
    bint is_max


def alpha_beta(
    object children,
    list static,
    list kinds,
    str max_kind,
    bint strict,
    tuple bound_names,
    list values,
    list bounds,
    list best_child,
    list evaluated,
    list cutoffs,
    object spend,
):
    """Alpha-beta from the root, children left to right, as
    :class:`analysis.trees.alpha_beta.AlphaBetaSearch` searches (without its trace), filling
    ``values``, ``bounds`` (the names of ``bound_names``: exact, lower, upper),
    ``best_child``, ``evaluated`` (static nodes in the order read) and ``cutoffs`` (one
    ``(node, alpha, beta, v, after, cut)`` tuple a cut). ``strict`` cuts only when ``v``
    passes the window (CS188), else also when it reaches it (AIMA). Returns the number of
    internal nodes entered.

    The recursion is a stack of frames, one a level: C structs, and the window, ``v`` and
    the children of each level in lists.
    """
    cdef Frame* stack = NULL
    cdef Frame* frame
    cdef Py_ssize_t capacity = 0, top = -1, child, descend, entered = 0, pending = 0
    cdef list alphas = [], betas = [], vs = [], kid_lists = []
    cdef object alpha, beta, v, value = None, kids, neg_inf = float("-inf")
    cdef object pos_inf = float("inf")
    cdef int bound = EXACT
    cdef bint cuts, folded = False
    try:
        kids = children[0]
        if not kids:
            values[0], bounds[0] = static[0], bound_names[EXACT]
            evaluated.append(0)
            spend(1)
            return 0
        descend = 0
        alpha, beta = neg_inf, pos_inf
        while True:
            if descend >= 0:
                # enter the child (or the root) with the window of the node above it
                top += 1
                if top == capacity:
                    capacity = 2 * capacity + 64
                    frame = <Frame*>realloc(stack, capacity * sizeof(Frame))
                    if frame == NULL:
                        raise MemoryError()
                    stack = frame
                    alphas.extend([None] * (capacity - len(alphas)))
                    betas.extend([None] * (capacity - len(betas)))
                    vs.extend([None] * (capacity - len(vs)))
                    kid_lists.extend([None] * (capacity - len(kid_lists)))
                frame = &stack[top]
                frame.node = descend
                kids = children[descend]
                read_children(&frame.kids, kids)
                kid_lists[top] = kids
                frame.slot = 0
                frame.best = -1
                frame.best_bound = EXACT
                frame.is_max = kinds[descend] == max_kind
                alphas[top], betas[top] = alpha, beta
                vs[top] = neg_inf if frame.is_max else pos_inf
                entered += 1
                descend = -1
            frame = &stack[top]
            kids = kid_lists[top]
            alpha, beta, v = alphas[top], betas[top], vs[top]
            cuts = False
            while True:
                if folded:
                    # fold the child's value into v and the window
                    folded = False
                    if frame.is_max:
                        if PyObject_RichCompareBool(value, v, Py_GT) or (
                            bound == EXACT and frame.best_bound != EXACT
                            and PyObject_RichCompareBool(value, v, Py_EQ)
                        ):
                            v, frame.best, frame.best_bound = value, child, bound
                        if PyObject_RichCompareBool(v, beta, Py_GT) or (
                            not strict and PyObject_RichCompareBool(v, beta, Py_EQ)
                        ):
                            cuts = frame.slot < frame.kids.count
                        elif PyObject_RichCompareBool(v, alpha, Py_GT):
                            alpha = v
                    else:
                        if PyObject_RichCompareBool(value, v, Py_LT) or (
                            bound == EXACT and frame.best_bound != EXACT
                            and PyObject_RichCompareBool(value, v, Py_EQ)
                        ):
                            v, frame.best, frame.best_bound = value, child, bound
                        if PyObject_RichCompareBool(v, alpha, Py_LT) or (
                            not strict and PyObject_RichCompareBool(v, alpha, Py_EQ)
                        ):
                            cuts = frame.slot < frame.kids.count
                        elif PyObject_RichCompareBool(v, beta, Py_LT):
                            beta = v
                    if cuts:
                        break
                if frame.slot == frame.kids.count:
                    break
                child = child_at(&frame.kids, kids, frame.slot)
                frame.slot += 1
                pending += 1
                if children[child]:
                    descend = child
                    break
                # a static child: read it, then fold it in
                value = static[child]
                values[child] = value
                bounds[child] = bound_names[EXACT]
                evaluated.append(child)
                bound = EXACT
                folded = True
            if pending >= SPEND_EVERY:
                spend(pending)
                pending = 0
            if descend >= 0:
                alphas[top], betas[top], vs[top] = alpha, beta, v
                continue  # (the child is entered with this node's window)
            if cuts:
                cutoffs.append((frame.node, alpha, beta, v, child, tuple(kids[frame.slot:])))
                bound = LOWER if frame.is_max else UPPER
            else:
                bound = frame.best_bound
            values[frame.node] = v
            bounds[frame.node] = bound_names[bound]
            best_child[frame.node] = frame.best
            alphas[top] = betas[top] = vs[top] = kid_lists[top] = None
            value, child, folded = v, frame.node, True
            top -= 1
            if top < 0:
                break
            alpha, beta = alphas[top], betas[top]
        spend(pending)
        return entered
    finally:
        free(stack)


def static_below(object children, object tops, list found):
    """Append the static nodes (those without children) of the subtrees under ``tops`` to
    ``found``, left to right (a walk in preorder, on a stack of C integers): the pruned
    leaves of an alpha-beta search, as :func:`games.trees.model.leaves_below_all` lists
    them. Returns the number of nodes walked."""
    cdef Py_ssize_t* stack = NULL
    cdef Py_ssize_t* grown
    cdef Py_ssize_t size = 0, capacity = 0, walked = 0, node, slot
    cdef Children kids
    cdef object listed
    try:
        for node in reversed(tops):
            if size == capacity:
                capacity = 2 * capacity + 256
                grown = <Py_ssize_t*>realloc(stack, capacity * sizeof(Py_ssize_t))
                if grown == NULL:
                    raise MemoryError()
                stack = grown
            stack[size] = node
            size += 1
        while size:
            size -= 1
            node = stack[size]
            walked += 1
            listed = children[node]
            read_children(&kids, listed)
            if kids.count == 0:
                found.append(node)
                continue
            if size + kids.count > capacity:
                capacity = 2 * capacity + kids.count
                grown = <Py_ssize_t*>realloc(stack, capacity * sizeof(Py_ssize_t))
                if grown == NULL:
                    raise MemoryError()
                stack = grown
            for slot in range(kids.count - 1, -1, -1):
                stack[size] = child_at(&kids, listed, slot)
                size += 1
        return walked
    finally:
        free(stack)
