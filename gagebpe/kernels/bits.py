"""Bit packing, least significant bit first, in byte-aligned sections.

A merge table packs merge k's two symbols in ``bit_length(n_terminals + k -
1)`` bits each, since they lie below ``n_terminals + k``; a sequence packs
every id in one fixed width.  Section sizes are computed and checked by the
caller; the unpackers read exactly ``ceil(bits / 8)`` bytes.
"""
import numpy as np
from .._jit import PURE_PYTHON, njit

from .unaligned import load8, store8


if PURE_PYTHON:
    # De Bruijn multiplication: the top 6 bits of (lowest set bit) *
    # _DE_BRUIJN are different for each of the 64 bits.
    _DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
    _BIT_INDEX = np.zeros(64, np.int64)
    for _bit in range(64):
        _BIT_INDEX[((1 << _bit) * 0x03F79D71B4CB0A89 >> 58) & 63] = _bit

    def lowest_bit(word):
        """Index of the lowest set bit of a non-zero uint64."""
        low = word & (~word + np.uint64(1))
        return _BIT_INDEX[(low * _DE_BRUIJN) >> np.uint64(58)]

    def highest_bit(word):
        """Index of the highest set bit of a non-zero uint64."""
        return int(word).bit_length() - 1
else:
    # The processor's own instructions (LLVM's cttz and ctlz): a Rice
    # code's unary part is read with one.
    from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

    @njit(cache=True, nogil=True, inline='always')
    def lowest_bit(word):
        """Index of the lowest set bit of a non-zero uint64."""
        return np.int64(trailing_zeros(word))

    @njit(cache=True, nogil=True, inline='always')
    def highest_bit(word):
        """Index of the highest set bit of a non-zero uint64."""
        return np.int64(63 - leading_zeros(word))


@njit(cache=True, nogil=True)
def bit_length(v):
    n = 0
    while v > 0:
        v >>= 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def merge_table_bits(n_terminals, n_merges):
    """Bits taken by a packed table of ``n_merges`` merges."""
    total = 0
    for k in range(n_merges):
        total += 2 * bit_length(n_terminals + k - 1)
    return total


@njit(cache=True, nogil=True)
def _put(out, acc, nbits, pos, value, width):
    """Append ``value`` in ``width`` bits; write out whole bytes."""
    acc |= np.uint64(value) << np.uint64(nbits)
    nbits += width
    while nbits >= 8:
        out[pos] = np.uint8(acc & np.uint64(0xFF))
        acc >>= np.uint64(8)
        nbits -= 8
        pos += 1
    return acc, nbits, pos


@njit(cache=True, nogil=True)
def pack_merges(merges, n_terminals, out):
    """Pack the (d, 2) table ``merges`` into the zeroed buffer ``out``."""
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    for k in range(merges.shape[0]):
        w = bit_length(n_terminals + k - 1)
        acc, nbits, pos = _put(out, acc, nbits, pos, merges[k, 0], w)
        acc, nbits, pos = _put(out, acc, nbits, pos, merges[k, 1], w)
    if nbits > 0:
        out[pos] = np.uint8(acc & np.uint64(0xFF))


@njit(cache=True, nogil=True)
def unpack_merges(buf, n_terminals, merges):
    """Fill the (d, 2) table ``merges`` from ``buf``; return False if a merge
    refers to a symbol not defined before it (which its width allows when
    ``n_terminals + k`` is not a power of two)."""
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    for k in range(merges.shape[0]):
        w = bit_length(n_terminals + k - 1)
        mask = (np.uint64(1) << np.uint64(w)) - np.uint64(1)
        for side in range(2):
            while nbits < w:
                acc |= np.uint64(buf[pos]) << np.uint64(nbits)
                pos += 1
                nbits += 8
            merges[k, side] = np.int32(acc & mask)
            acc >>= np.uint64(w)
            nbits -= w
            if merges[k, side] >= n_terminals + k:
                return False
    return True


@njit(cache=True, nogil=True)
def pack_fixed(values, width, out):
    """Pack ``values`` in ``width`` bits each into the zeroed buffer ``out``."""
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    for v in values:
        acc, nbits, pos = _put(out, acc, nbits, pos, v, width)
    if nbits > 0:
        out[pos] = np.uint8(acc & np.uint64(0xFF))


@njit(cache=True, nogil=True)
def unpack_fixed(buf, width, out):
    """Fill ``out`` with values of ``width`` (<= 32) bits each from ``buf``.

    Each value is cut from an unaligned 8-byte load at its bit position, so
    values do not wait on one another; the last few, whose load would run
    past the buffer, take the byte-by-byte path.
    """
    mask = (np.uint64(1) << np.uint64(width)) - np.uint64(1)
    n = out.shape[0]
    i = 0
    bitpos = np.uint64(0)
    fast_end = np.uint64(max(0, buf.shape[0] - 8)) * np.uint64(8)
    w = np.uint64(width)
    while i < n and bitpos < fast_end:
        word = load8(buf, bitpos >> np.uint64(3))
        out[i] = np.int32((word >> (bitpos & np.uint64(7))) & mask)
        bitpos += w
        i += 1
    byte = bitpos >> np.uint64(3)
    acc = np.uint64(0)
    nbits = 0
    if i < n and bitpos & np.uint64(7):
        acc = np.uint64(buf[byte]) >> (bitpos & np.uint64(7))
        nbits = 8 - int(bitpos & np.uint64(7))
        byte += np.uint64(1)
    while i < n:
        while nbits < width:
            acc |= np.uint64(buf[byte]) << np.uint64(nbits)
            byte += np.uint64(1)
            nbits += 8
        out[i] = np.int32(acc & mask)
        acc >>= w
        nbits -= width
        i += 1


@njit(cache=True, nogil=True)
def unpack_bytes(buf, width, terminals, out):
    """Decode a sequence of terminals in one pass: ``out[i]`` is
    ``terminals[v_i]`` for the ``len(out)`` values of ``width`` (<= 8) bits
    in ``buf``.  Returns False if a value is not below ``len(terminals)``."""
    if width == 0:  # a single terminal
        out[:] = terminals[0]
        return True
    lookup = np.zeros(1 << width, np.uint8)
    valid = np.zeros(1 << width, np.uint8)
    lookup[:terminals.shape[0]] = terminals
    valid[:terminals.shape[0]] = 1
    mask = np.uint64((1 << width) - 1)
    w = np.uint64(width)
    n = out.shape[0]
    ok = np.uint8(1)
    if 8 % width == 0 and width < 8:
        # Widths 1, 2, 4 (two to four symbols: DNA, say): each input byte
        # holds whole values; one table lookup gives its 8 // width bytes.
        per = 8 // width
        bytes_of, bytes_ok = _byte_table(lookup, valid, width)
        n_bytes = max(0, (n - 8) // per + 1)
        for i in range(n_bytes):
            b = buf[i]
            ok &= bytes_ok[b]
            store8(out, i * per, bytes_of[b])
        n_fast = n_bytes * per
    else:
        # Eight values (``width`` bytes) from each 8-byte load while the
        # loads stay inside buf.
        n_fast = 0
        if buf.shape[0] >= 8:
            n_fast = 8 * min(n // 8, (buf.shape[0] - 8) // width + 1)
        for g in range(n_fast // 8):
            word = load8(buf, np.uint64(g) * w)
            for j in range(8):
                v = (word >> (np.uint64(j) * w)) & mask
                ok &= valid[v]
                out[8 * g + j] = lookup[v]
    if n_fast < n:
        byte = n_fast * width // 8
        skip = n_fast * width % 8
        rest = np.zeros(buf.shape[0] - byte + 8, np.uint8)
        rest[:buf.shape[0] - byte] = buf[byte:]
        bitpos = np.uint64(skip)
        for i in range(n - n_fast):
            v = (load8(rest, bitpos >> np.uint64(3)) >> (bitpos & np.uint64(7))) & mask
            ok &= valid[v]
            out[n_fast + i] = lookup[v]
            bitpos += w
    return ok == 1


@njit(cache=True, nogil=True)
def _byte_table(lookup, valid, width):
    """For each byte of values of ``width`` bits (dividing 8): its decoded
    bytes, first value lowest, and whether every value is valid."""
    per = 8 // width
    mask = (1 << width) - 1
    bytes_of = np.zeros(256, np.uint64)
    bytes_ok = np.ones(256, np.uint8)
    for b in range(256):
        for j in range(per):
            v = (b >> (j * width)) & mask
            bytes_of[b] |= np.uint64(lookup[v]) << np.uint64(8 * j)
            bytes_ok[b] &= valid[v]
    return bytes_of, bytes_ok
