"""The recursion the textbook searches are written in: any depth, return values sent back,
one deadline unit a call."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from analysis.trees.recursion import run
from games.compiled import PURE_PYTHON, kernel
from games.errors import TimeLimitError
from games.limits import Limits, current_deadline, limited


def depth(n: int) -> Generator[Any, Any, int]:
    if n == 0:
        return 0
    below = yield depth(n - 1)
    return below + 1


def fibonacci(n: int) -> Generator[Any, Any, int]:
    """Two calls a step: each gets its own value back."""
    if n < 2:
        return n
    first = yield fibonacci(n - 1)
    second = yield fibonacci(n - 2)
    return first + second


def test_calls_far_deeper_than_python_s_stack_return_their_values() -> None:
    assert run(depth(200_000)) == 200_000
    assert [run(fibonacci(n)) for n in range(12)] == [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89]


def test_each_call_costs_a_unit_of_the_deadline() -> None:
    spent: list[int] = []
    assert run(fibonacci(5), spent.append) == 5
    assert sum(spent) == 14  # fib(5) makes 14 calls besides the first
    with limited(Limits(time_limit=1e-6)), pytest.raises(TimeLimitError):
        run(depth(100_000), current_deadline().spend)


def test_the_switch_gives_a_built_module_or_none() -> None:
    assert kernel("analysis.trees.no_such_kernel") is None
    found = kernel("analysis.trees._kernels")
    assert (found is None) if PURE_PYTHON else (found is not None)
