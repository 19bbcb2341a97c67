"""Case folding: text with its capital letters written as a marker byte and
the small letter, so that "The" and "the" share their merges.

Two byte values the block does not hold are the markers: ``single`` puts
the next letter in capitals, ``word`` the whole run of small letters that
follows.  A run of two or more capitals that no small letter follows
("NASA", "THE ") takes ``word``; every other capital ("The", "McD") takes
``single``.  Unfolding is one sequential pass.
"""
import numpy as np

from .bits import lowest_bit
from .._jit import njit
from .unaligned import load8, store8

A, Z, LOWER = 65, 90, 32  # 'A', 'Z', and 'a' - 'A'


@njit(cache=True, nogil=True)
def _small(c):
    return 97 <= c <= 122


@njit(cache=True, nogil=True)
def fold(data, single, word):
    """``data`` (uint8) folded with markers ``single`` and ``word``, which
    it must not hold."""
    n = data.shape[0]
    out = np.empty(2 * n, np.uint8)
    o = 0
    i = 0
    while i < n:
        if not A <= data[i] <= Z:
            out[o] = data[i]
            o += 1
            i += 1
            continue
        j = i
        while j < n and A <= data[j] <= Z:
            j += 1
        if j - i >= 2 and not (j < n and _small(data[j])):
            out[o] = word
            o += 1
            for k in range(i, j):
                out[o] = data[k] + LOWER
                o += 1
        else:
            for k in range(i, j):
                out[o] = single
                out[o + 1] = data[k] + LOWER
                o += 2
        i = j
    return out[:o]


ONES = np.uint64(0x0101010101010101)
HIGHS = np.uint64(0x8080808080808080)


@njit(cache=True, nogil=True, inline='always')
def _zero_bytes(v):
    """A mask whose lowest set bit is the high bit of ``v``'s first zero
    byte (0 if it has none)."""
    return (v - ONES) & ~v & HIGHS


@njit(cache=True, nogil=True)
def unfold(folded, single, word, out):
    """Write ``folded`` unfolded into ``out``; the bytes written, or -1 if
    a marker is not followed by a small letter or ``out`` would overflow.
    Markers are a few percent of text, so the bytes between them move
    eight at a time, up to the first marker of each eight."""
    n = folded.shape[0]
    m = out.shape[0]
    singles = np.uint64(single) * ONES
    words = np.uint64(word) * ONES
    o = 0
    i = 0
    while i < n:
        if i + 8 <= n and o + 8 <= m:
            x = load8(folded, np.uint64(i))
            found = _zero_bytes(x ^ singles) | _zero_bytes(x ^ words)
            store8(out, np.uint64(o), x)  # bytes past a marker are written again
            if not found:
                i += 8
                o += 8
                continue
            plain = lowest_bit(found) >> 3
            i += plain
            o += plain
        c = folded[i]
        if c == single:
            if i + 1 >= n or not _small(folded[i + 1]) or o >= m:
                return -1
            out[o] = folded[i + 1] - LOWER
            o += 1
            i += 2
        elif c == word:
            i += 1
            if i >= n or not _small(folded[i]):
                return -1
            while i < n and _small(folded[i]):
                if o >= m:
                    return -1
                out[o] = folded[i] - LOWER
                o += 1
                i += 1
        else:
            if o >= m:
                return -1
            out[o] = c
            o += 1
            i += 1
    return o


def markers(hist):
    """``(single, word)``: the two smallest byte values absent from a block
    with byte histogram ``hist``, or None if it has no capitals or fewer
    than two absent values."""
    absent = np.flatnonzero(hist == 0)
    if len(absent) < 2 or not hist[A:Z + 1].any():
        return None
    return int(absent[0]), int(absent[1])
