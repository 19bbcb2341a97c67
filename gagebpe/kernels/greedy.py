"""Greedy copies for blocks of high entropy, in one pass at hundreds of
megabytes a second: the copies of the REPEATS coding (``kernels.repeats``)
for blocks whose bytes' frequencies gain nothing, and of the greedy LZ
parse (``format.codings.lz.encode_greedy``) for those whose frequencies
gain a little.

Zip archives, PNG images and concatenated gzip files code no smaller by
their bytes' frequencies, and what they repeat, they repeat long: a
file's name in an archive's two directories, an image's rows, a member
stored twice.  An optimal parse over binary trees spends on them what it
spends on text (1-6 MB/s).  Here each position is looked up once in a
hash table of the block's last position with the same ``width`` bytes; a
match found is extended both ways and taken whole; and a run of
positions without one is crossed in growing steps, as LZ4's parser
crosses it, so that a block holding nothing costs little more than a
pass over it (a repeat is then found late, and extended back to where
it begins).
"""
import numpy as np

from .._jit import njit
from .lz import _match_length
from .unaligned import load8

# The bytes hashed and checked before a match is extended, for the
# REPEATS coding's copies (of ENTROPIC_COPY bytes or more).
REPEATS_WIDTH = 6
HASH_BITS = 16  # 256 KiB of int32 positions: a table that stays in the cache
_MULTIPLIER = np.uint64(0xCF1BBCDCB7A56463)
# Positions without a match before the step grows by one (LZ4's is 64).
# Against 32, the wheels and the gzip files of benchmarks/incompressible.py
# code 0.1-0.2% of their size smaller, at two thirds of the speed (220-660
# MB/s); beyond, the step hardly matters.
SKIP_AFTER = 256


@njit(cache=True, nogil=True, inline='always')
def _slot(word):
    return np.int64((word * _MULTIPLIER) >> np.uint64(64 - HASH_BITS))


@njit(cache=True, nogil=True)
def copies(data, shortest, width):
    """The greedy copies of ``data`` (uint8) of at least ``shortest``
    (>= ``width``) bytes, found by hashing ``width`` (1 to 7) bytes: an
    ``(n, 3)`` int64 array of ``(gap, distance, length)``, as
    ``kernels.repeats.find`` gives them."""
    low_bytes = (np.uint64(1) << np.uint64(8 * width)) - np.uint64(1)
    n = data.shape[0]
    found = np.empty((n // shortest + 1, 3), np.int64)
    count = 0
    positions = np.full(1 << HASH_BITS, -1, np.int32)
    literals_from = 0  # the first position no copy covers since the last
    i = 0
    misses = 0
    last = n - 8  # the last position an 8-byte load may start at
    while i <= last:
        word = load8(data, i) & low_bytes
        slot = _slot(word)
        j = np.int64(positions[slot])
        positions[slot] = i
        if j < 0 or load8(data, j) & low_bytes != word:
            misses += 1
            i += 1 + misses // SKIP_AFTER
            continue
        length = width + _match_length(data, i + width, j + width, n - i - width)
        start = i
        while start > literals_from and j > 0 and data[start - 1] == data[j - 1]:
            start -= 1
            j -= 1
            length += 1
        if length < shortest:
            i += 1
            continue
        found[count, 0] = start - literals_from
        found[count, 1] = start - j
        found[count, 2] = length
        count += 1
        i = literals_from = start + length
        misses = 0
        if i - 2 <= last:  # the copy's end, for a repeat that follows it
            positions[_slot(load8(data, i - 2) & low_bytes)] = i - 2
    return found[:count]
