"""Plain Python twins of the kernels that small inputs use, so that a
small job needs neither Numba nor NumPy (docs/DESIGN.md, "Small inputs").
Each module computes exactly what its kernel computes; the tests hold the
two to the same bytes."""
import sys


def kernels_loaded():
    """Whether Numba is loaded in this process: where it is, the kernels
    are the faster way to do what this package also does."""
    return "numba" in sys.modules
