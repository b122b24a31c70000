# The compiled simplex's interface (analysis/equilibria/_maxmin_simplex.pyx), for type checkers.
import numpy as np
import numpy.typing as npt

def compiled_maxmin(
    values: npt.NDArray[np.float64], max_pivots: int
) -> tuple[int, float, tuple[float, ...], tuple[float, ...], int, float]: ...
