"""Fixed-width bit packing, least significant bit first."""
import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def pack(values, widths, out):
    """Append ``values[i]`` in ``widths[i]`` bits each to the zeroed buffer
    ``out``, which holds at least ``ceil(sum(widths) / 8)`` bytes."""
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    for i in range(values.shape[0]):
        acc |= np.uint64(values[i]) << np.uint64(nbits)
        nbits += widths[i]
        while nbits >= 8:
            out[pos] = np.uint8(acc & np.uint64(0xFF))
            acc >>= np.uint64(8)
            nbits -= 8
            pos += 1
    if nbits > 0:
        out[pos] = np.uint8(acc & np.uint64(0xFF))


@njit(cache=True, nogil=True)
def unpack(buf, widths, out):
    """Read ``len(out)`` values of ``widths[i]`` bits each from ``buf``, which
    holds at least ``ceil(sum(widths) / 8)`` bytes."""
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    for i in range(out.shape[0]):
        w = widths[i]
        while nbits < w:
            acc |= np.uint64(buf[pos]) << np.uint64(nbits)
            pos += 1
            nbits += 8
        out[i] = np.int32(acc & ((np.uint64(1) << np.uint64(w)) - np.uint64(1)))
        acc >>= np.uint64(w)
        nbits -= w
