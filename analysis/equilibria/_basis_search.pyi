# The compiled basis search's interface (analysis/equilibria/_basis_search.pyx), for type checkers.
import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

@disjoint_base
class CompiledBasisSearch:
    pivots: int
    overflowed: bool
    def __init__(self, matrix: npt.NDArray[np.int64], own_first: bool) -> None: ...
    def advance(self, max_pivots: int) -> bool: ...
    def vertices(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...

@disjoint_base
class CompiledFloatSearch:
    nodes: int
    degenerate: bool
    def __init__(
        self, payoff: npt.NDArray[np.float64], own_first: bool, tolerance: float
    ) -> None: ...
    def advance(self, max_nodes: int) -> bool: ...
    def vertices(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]: ...
