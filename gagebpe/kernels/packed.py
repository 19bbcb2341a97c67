"""Several arrays in one int64 array, so that a kernel called once per
small record takes them all as one int, that array's address (``at``):
handing a kernel an array costs the call about 45 ns, an int 10, and a
record's kernel takes twenty tables.  Word 0 is the packed array's length,
word 1 how many arrays it holds, then each array's first word and number of
elements; each array starts at a word of its own, read back as the dtype it
was packed from (``int64s``, ``int32s``, ``uint8s``, ``float64s``).
"""
import numpy as np

from .._jit import njit
from .unaligned import int64s_at


def pack(arrays):
    """One int64 array holding ``arrays`` (of any shape; read back flat)."""
    arrays = [np.ascontiguousarray(array) for array in arrays]
    header = 2 + 2 * len(arrays)
    words = np.cumsum([header] + [(array.nbytes + 7) // 8 for array in arrays])
    packed = np.zeros(words[-1], np.int64)
    packed[:2] = len(packed), len(arrays)
    for k, array in enumerate(arrays):
        packed[2 + 2 * k:4 + 2 * k] = words[k], array.size
        packed[words[k]:words[k + 1]].view(np.uint8)[:array.nbytes] = array.reshape(-1).view(
            np.uint8)
    return packed


@njit(cache=True, nogil=True, inline='always')
def at(address):
    """The packed array whose first word lies at ``address``, which its
    owner keeps alive."""
    return int64s_at(address, int64s_at(address, 1)[0])


@njit(cache=True, nogil=True, inline='always')
def _words(packed, k, size):
    """The words of array ``k``, elements of ``size`` bytes, and their
    number."""
    first, n = packed[2 + 2 * k], packed[3 + 2 * k]
    return packed[first:first + (n * size + 7) // 8], n


@njit(cache=True, nogil=True, inline='always')
def int64s(packed, k):
    words, n = _words(packed, k, 8)
    return words


@njit(cache=True, nogil=True, inline='always')
def float64s(packed, k):
    words, n = _words(packed, k, 8)
    return words.view(np.float64)


@njit(cache=True, nogil=True, inline='always')
def int32s(packed, k):
    words, n = _words(packed, k, 4)
    return words.view(np.int32)[:n]


@njit(cache=True, nogil=True, inline='always')
def uint8s(packed, k):
    words, n = _words(packed, k, 1)
    return words.view(np.uint8)[:n]
