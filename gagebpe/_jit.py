"""``njit`` for the kernels: Numba's, or none at all.

With ``NUMBA_DISABLE_JIT=1`` (Numba's own switch) the kernels run as plain
Python over NumPy arrays and Numba is not even imported; the command line
does this for jobs so small that loading Numba would take longer than the
work.  The kernels are written so that both ways give the same bytes.
"""
import os

PURE_PYTHON = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")

if PURE_PYTHON:
    def njit(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda function: function
else:
    from numba import njit  # noqa: F401
