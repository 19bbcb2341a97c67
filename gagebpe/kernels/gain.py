"""The bits a merge saves: the order-0 entropy arithmetic shared by the
merge engines that choose pairs by gain (``kernels.pairs``, ``kernels.re_pair``) and by the
estimate of a grammar's coded size (``kernels.cutoff``).

Coded order-0, a sequence of n symbols, symbol x occurring f_x times,
takes ``n log2 n - sum of f_x log2 f_x`` bits.  A merge changes only the
terms of its two symbols, of the symbol it makes and of n, so its effect
costs constant time.
"""
import numpy as np
from .._jit import njit

GAIN_SCALE = 64  # gains are integers, in 1/64 bit


@njit(cache=True, nogil=True, inline='always')
def flog(f):
    """``f log2 f``, 0 for 0."""
    return f * np.log2(f) if f > 0 else 0.0


@njit(cache=True, nogil=True, leaf=True)
def merge_gain(freq, n, a, b, count, new_id):
    """GAIN_SCALE times the bits that replacing ``count`` occurrences of
    (a, b) by symbol ``new_id`` saves in the sequence coded order-0 (``n``
    symbols, ``freq`` per symbol), less ``log2(new_id + 1)`` for the
    merge's entry in the table, rounded down."""
    fa = freq[a]
    before = flog(n) - flog(fa)
    if a == b:
        after = flog(n - count) - flog(fa - 2 * count) - flog(count)
    else:
        fb = freq[b]
        before -= flog(fb)
        after = flog(n - count) - flog(fa - count) - flog(fb - count) - flog(count)
    return np.int64(np.floor(GAIN_SCALE * (before - after - np.log2(new_id + 1))))
