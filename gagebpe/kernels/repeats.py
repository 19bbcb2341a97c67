"""Long repeats at a distance: found in a block, taken out as copies, and
put back.

BPE merges adjacent pairs, so a long string seen only twice pays nothing
at the usual smallest pair counts, and would cost a merge per byte at a
count of 2; a copy (how many literal bytes come before it, how far back
its source is, how long it is) costs a few bytes whatever its length.
Genomes (E.coli: 1.9% of its bases lie in repeats of 24 or more), binaries
and logs repeat long stretches a few times; text mostly does not.

A block with copies taken out is its **literals**: the bytes no copy
covers, in order.  Copies are found greedily, front to back: at each
position not yet covered, the last earlier position whose MIN_REPEAT
bytes hash the same (a rolling hash) is checked, and a match of at least
MIN_REPEAT bytes is extended forwards and backwards (into the literals
since the last copy) and taken.  A copy's source may overlap it (a run).

Copies are stored as three LEB128 numbers each: gap (literals before it,
since the previous copy), distance and length (docs/FORMAT.md, REPEATS).
"""
import numpy as np

from .._jit import njit
from .unaligned import copy_bytes, load8, store8
from ..plain.varint import VARINT_BYTES
from .varint import varint_at

MIN_REPEAT = 32
# Hash table: one int32 per slot, at most 2^MAX_HASH_BITS slots (16 MiB).
MAX_HASH_BITS = 22
_PRIME = (1 << 31) - 1
_BASE = 263
# restore's problem numbers
BAD_COPIES, BAD_LITERALS = 1, 2


def hash_bits(n):
    """Slots of the hash table for a block of ``n`` bytes: about one per byte."""
    return min(MAX_HASH_BITS, max(10, int(n).bit_length()))


@njit(cache=True, nogil=True)
def find(data, min_repeat, bits):
    """The copies of ``data`` (uint8): an ``(n, 3)`` int64 array of
    ``(gap, distance, length)``, each at least ``min_repeat`` long."""
    n = data.shape[0]
    copies = np.empty((n // min_repeat + 1, 3), np.int64)
    found = 0
    if n < 2 * min_repeat:
        return copies[:0]
    mask = (1 << bits) - 1
    table = np.full(1 << bits, -1, np.int32)
    top = 1  # _BASE ** (min_repeat - 1) mod _PRIME: the weight of a window's first byte
    for _ in range(min_repeat - 1):
        top = top * _BASE % _PRIME
    h = np.int64(0)
    for k in range(min_repeat):
        h = (h * _BASE + np.int64(data[k])) % _PRIME
    literals_from = 0  # where the literals since the last copy start
    covered_to = 0  # positions below this are inside a copy
    last = n - min_repeat
    for i in range(last + 1):
        slot = h & mask
        if i >= covered_to:
            p = table[slot]
            if p >= 0 and _same(data, p, i, min_repeat):
                length = min_repeat
                while i + length < n and data[p + length] == data[i + length]:
                    length += 1
                start, source = i, p
                while start > literals_from and source > 0 and data[source - 1] == data[start - 1]:
                    start -= 1
                    source -= 1
                copies[found, 0] = start - literals_from
                copies[found, 1] = start - source
                copies[found, 2] = i + length - start
                found += 1
                covered_to = literals_from = i + length
        table[slot] = i
        if i < last:
            # int64 throughout: as plain Python, uint8 arithmetic would overflow
            h = ((h - np.int64(data[i]) * top % _PRIME + _PRIME) * _BASE
                 + np.int64(data[i + min_repeat])) % _PRIME
    return copies[:found]


@njit(cache=True, nogil=True)
def _same(data, a, b, length):
    for k in range(length):
        if data[a + k] != data[b + k]:
            return False
    return True


@njit(cache=True, nogil=True)
def literals(data, copies):
    """The bytes of ``data`` that ``copies`` do not cover, in order."""
    out = np.empty(data.shape[0], np.uint8)
    pos = written = 0
    for c in range(copies.shape[0]):
        gap, length = copies[c, 0], copies[c, 2]
        copy_bytes(out, written, data, pos, gap)
        written += gap
        pos += gap + length
    rest = data.shape[0] - pos
    copy_bytes(out, written, data, pos, rest)
    return out[:written + rest]


@njit(cache=True, nogil=True)
def pack(copies):
    """``copies`` as LEB128 numbers, gap, distance and length of each in turn."""
    out = np.empty(copies.shape[0] * 3 * VARINT_BYTES, np.uint8)
    at = 0
    for c in range(copies.shape[0]):
        for f in range(3):
            value = copies[c, f]
            while value >= 0x80:
                out[at] = (value & 0x7F) | 0x80
                value >>= 7
                at += 1
            out[at] = value
            at += 1
    return out[:at]


@njit(cache=True, nogil=True)
def move(out, to, frm, n):
    """``out[to:to + n] = out[frm:frm + n]``, front to back; 8 bytes at a
    time where that gives the same bytes: a source ahead (each load comes
    before the store that may overlap it) or at least 8 bytes behind (it
    was written before it is read).  Nothing past ``to + n`` is written."""
    k = 0
    if to <= frm or to - frm >= 8:
        while k + 8 <= n:
            store8(out, to + k, load8(out, frm + k))
            k += 8
    while k < n:
        out[to + k] = out[frm + k]
        k += 1


@njit(cache=True, nogil=True)
def restore(out, literal_size, packed, n_copies):
    """Rebuild the block in ``out`` from its ``literal_size`` literals,
    which fill the end of ``out``, and its ``n_copies`` copies, ``packed``
    by ``pack``, in place: 0, or BAD_COPIES where a copy is malformed (a
    field past ``packed``, bytes to spare, a distance of 0 or reaching
    before the block, a length of 0 or past its end), or BAD_LITERALS where
    the literals do not fill the rest exactly.  The bytes written never
    pass the literals not yet read: the copies cover ``size -
    literal_size`` bytes in all."""
    size = out.shape[0]
    base = size - literal_size
    pos = lit = at = 0
    for _ in range(n_copies):
        gap, at = varint_at(packed, at, False)
        if gap < 0:
            return BAD_COPIES
        distance, at = varint_at(packed, at, False)
        if distance < 0:
            return BAD_COPIES
        length, at = varint_at(packed, at, False)
        if length < 0:
            return BAD_COPIES
        if gap > literal_size - lit:
            return BAD_LITERALS
        move(out, pos, base + lit, gap)
        pos += gap
        lit += gap
        # Past the literals still to read would overwrite them.
        if distance == 0 or distance > pos or length == 0 or length > base + lit - pos:
            return BAD_COPIES
        # A source that overlaps its copy repeats what was just written,
        # as a run needs.
        move(out, pos, pos - distance, length)
        pos += length
    if at != packed.shape[0]:
        return BAD_COPIES
    if literal_size - lit != size - pos:
        return BAD_LITERALS
    move(out, pos, base + lit, literal_size - lit)
    return 0
