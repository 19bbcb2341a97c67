"""Growing buffers for kernels that cannot know their output's size.
"""
import numpy as np

from ..._jit import njit


@njit(cache=True, nogil=True)
def with_room(a, n):
    """``a``, or a copy of it with room for at least ``n`` entries (twice
    the room, so that filling a buffer one entry at a time copies each
    entry a constant number of times on average)."""
    if n <= a.shape[0]:
        return a
    b = np.empty(max(n, 2 * a.shape[0]), a.dtype)
    b[:a.shape[0]] = a
    return b
