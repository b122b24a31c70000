# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled kernels of minimax and alpha-beta over explicit trees.

Each is its Python search (:mod:`analysis.trees.minimax`, :mod:`analysis.trees.alpha_beta`)
made step for step in a C loop, with the same comparisons of the same exact numbers
(Python's ints and fractions, compared as Python compares them), so the answers are the
same objects in the same places; the tests hold each to its Python search. They take the
tree's columns as plain lists and fill plain lists.
"""

from cpython.list cimport PyList_GET_ITEM

cdef enum:
    SPEND_EVERY = 4096  # units of work between two charges of the deadline


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
    cdef Py_ssize_t node, child, best, pending = 0
    cdef object kids, v = None, value
    cdef bint is_max, first
    for node in range(covered - 1, -1, -1):
        kids = children[node]
        if not kids:
            values[node] = static[node]
            continue
        is_max = kinds[node] == max_kind
        first = True
        best = -1
        for child in kids:
            value = <object>PyList_GET_ITEM(values, child)
            if first or (value > v if is_max else value < v):
                v, best, first = value, child, False
        values[node] = v
        best_child[node] = best
        pending += len(kids)
        if pending >= SPEND_EVERY:
            spend(pending)
            pending = 0
    spend(pending)


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
    list pruned_leaves,
    object spend,
):
    """Alpha-beta from the root, children left to right, as
    :class:`analysis.trees.alpha_beta._AlphaBeta` searches (without its trace), filling
    ``values``, ``bounds`` (the names of ``bound_names``: exact, lower, upper),
    ``best_child``, ``evaluated`` (static nodes in the order read), ``cutoffs`` (one
    ``(node, alpha, beta, v, after, cut)`` tuple a cut) and ``pruned_leaves`` (the static
    nodes below the cut children, left to right). ``strict`` cuts only when ``v`` passes the
    window (CS188), else also when it reaches it (AIMA). Returns the number of internal
    nodes entered.

    The recursion is a stack of frames in lists, one entry a level.
    """
    cdef object exact = bound_names[0], lower = bound_names[1], upper = bound_names[2]
    cdef object neg_inf = float("-inf"), pos_inf = float("inf")
    cdef list nodes = [], slots = [], alphas = [], betas = [], vs = [], bests = [], best_bounds = []
    cdef object kids, alpha, beta, v, value, bound, best_bound, cut
    cdef Py_ssize_t node, child, slot, best, descend, entered = 0, pending = 0, top
    cdef bint is_max, cuts

    kids = children[0]
    if not kids:
        values[0], bounds[0] = static[0], exact
        evaluated.append(0)
        spend(1)
        return 0
    nodes.append(0)
    slots.append(0)
    alphas.append(neg_inf)
    betas.append(pos_inf)
    vs.append(neg_inf if kinds[0] == max_kind else pos_inf)
    bests.append(-1)
    best_bounds.append(exact)
    entered = 1
    value = None  # the value of the child just searched, to fold in
    bound = exact
    child = -1
    while True:
        top = len(nodes) - 1
        node = nodes[top]
        slot = slots[top]
        alpha, beta, v = alphas[top], betas[top], vs[top]
        best, best_bound = bests[top], best_bounds[top]
        kids = children[node]
        is_max = kinds[node] == max_kind
        cuts = False
        descend = -1
        while True:
            if value is not None:
                # fold the child's value into v and the window
                if is_max:
                    if value > v or (value == v and bound is exact and best_bound is not exact):
                        v, best, best_bound = value, child, bound
                    if v > beta or (v == beta and not strict):
                        cuts = slot < len(kids)
                    elif v > alpha:
                        alpha = v
                else:
                    if value < v or (value == v and bound is exact and best_bound is not exact):
                        v, best, best_bound = value, child, bound
                    if v < alpha or (v == alpha and not strict):
                        cuts = slot < len(kids)
                    elif v < beta:
                        beta = v
                value = None
                if cuts:
                    break
            if slot == len(kids):
                break
            child = kids[slot]
            slot += 1
            pending += 1
            if children[child]:
                descend = child
                break
            # a static child: read it, then fold it in
            value = static[child]
            values[child] = value
            bounds[child] = exact
            evaluated.append(child)
            bound = exact
        if pending >= SPEND_EVERY:
            spend(pending)
            pending = 0
        if descend >= 0:
            slots[top], alphas[top], betas[top], vs[top] = slot, alpha, beta, v
            bests[top], best_bounds[top] = best, best_bound
            nodes.append(descend)
            slots.append(0)
            alphas.append(alpha)
            betas.append(beta)
            vs.append(neg_inf if kinds[descend] == max_kind else pos_inf)
            bests.append(-1)
            best_bounds.append(exact)
            entered += 1
            continue
        if cuts:
            cut = tuple(kids[slot:])
            cutoffs.append((node, alpha, beta, v, child, cut))
            pending += static_below(children, cut, pruned_leaves)
            bound = lower if is_max else upper
        else:
            bound = best_bound
        values[node] = v
        bounds[node] = bound
        best_child[node] = best
        nodes.pop()
        slots.pop()
        alphas.pop()
        betas.pop()
        vs.pop()
        bests.pop()
        best_bounds.pop()
        if not nodes:
            break
        value, child = v, node
    spend(pending)
    return entered


cdef Py_ssize_t static_below(object children, tuple tops, list found) except -1:
    """Append the static nodes of the subtrees under ``tops`` to ``found``, left to right
    (a walk in preorder); returns the number of nodes walked."""
    cdef list stack = list(reversed(tops))
    cdef Py_ssize_t walked = 0
    cdef object node, kids
    while stack:
        node = stack.pop()
        walked += 1
        kids = children[node]
        if kids:
            stack.extend(reversed(kids))
        else:
            found.append(node)
    return walked
