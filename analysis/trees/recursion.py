"""Recursion without Python's recursion limit, for searches written as the textbook writes them.

The tree searches are written in the shape of AIMA's figures: ``max_value`` and
``min_value`` call each other once per child. A posted tree may be 100,000 plies deep (the
flat form), far past Python's stack, so each of those functions is a generator, and a call
is written ``value = yield min_value(child, alpha, beta)``: the generator hands the call to
:func:`run`, which keeps the stack of calls in a list, runs the callee, and sends its
return value back as the value of the ``yield``.

>>> def count_down(n):
...     if n == 0:
...         return 0
...     below = yield count_down(n - 1)
...     return below + 1
>>> run(count_down(100_000))
100000
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, TypeAlias

Call: TypeAlias = Generator[Any, Any, Any]
"""A call of a search function: a generator that yields the calls it makes and returns its
value."""


def run(call: Call, spend: Callable[[int], None] | None = None) -> Any:
    """The return value of ``call``, each call it makes run in turn on a stack of its own.

    ``spend`` (a deadline's) is charged a unit for every call, so a search stops at its
    computation's deadline.
    """
    stack = [call]
    returned: Any = None
    while True:
        try:
            inner = stack[-1].send(returned)
        except StopIteration as finished:
            stack.pop()
            if not stack:
                return finished.value
            returned = finished.value
        else:
            if spend is not None:
                spend(1)
            stack.append(inner)
            returned = None
