"""Hash tables of symbol pairs for the kernels: open addressing over two
arrays, ``keys`` (the pair ``a << 31 | b``, or EMPTY) and ``vals`` (what the
pair maps to), a multiplicative hash and linear probing.  A table's size is
a power of two and it is kept at most half full.

The tokenizers' kernels (``tokenizers.kernels.word_merges``,
``kernels.rank_merge``) share these; the compression engine
(``kernels.re_pair``) shares only ``pair_key``, its queue's order.
"""
import numpy as np

from .._jit import njit

EMPTY = -1
MULT = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64


@njit(cache=True, nogil=True, inline='always')
def pair_key(a, b):
    return (np.int64(a) << 31) | np.int64(b)


@njit(cache=True, nogil=True, leaf=True)
def slot(keys, key):
    """Where ``key`` is, or the empty slot where it would go."""
    mask = keys.shape[0] - 1
    h = ((key * MULT) >> np.int64(32)) & mask
    while keys[h] != key and keys[h] != EMPTY:
        h = (h + 1) & mask
    return h


@njit(cache=True, nogil=True)
def new_table(entries):
    """Empty ``(keys, vals)`` with room for ``entries`` pairs."""
    size = 16
    while size < 2 * entries:
        size *= 2
    return np.full(size, EMPTY, np.int64), np.full(size, EMPTY, np.int64)


@njit(cache=True, nogil=True, leaf=True)
def lookup(keys, vals, a, b):
    """What (a, b) maps to, or EMPTY."""
    return vals[slot(keys, pair_key(a, b))]


@njit(cache=True, nogil=True)
def grown(keys, vals):
    """The table rehashed into twice the room."""
    bigger_keys = np.full(2 * keys.shape[0], EMPTY, np.int64)
    bigger_vals = np.full(2 * keys.shape[0], EMPTY, np.int64)
    for i in range(keys.shape[0]):
        if keys[i] != EMPTY:
            h = slot(bigger_keys, keys[i])
            bigger_keys[h] = keys[i]
            bigger_vals[h] = vals[i]
    return bigger_keys, bigger_vals
