"""How much a block could gain at most, found in one cheap pass: what
lets random, compressed and encrypted data be stored at once instead of
spending every try on it (docs/DESIGN.md, "Levels", the stored gate).

Two bounds, each a share of the block's size: what coding each byte by
its frequency saves (its order-0 entropy below 8 bits), and how much of
the block repeats 8 bytes it already held (hashed, every fourth position
remembered and every position looked up, so a repeat at any distance
shows; a share above 1 counts a byte once per repeat that covers it).
A block where both are small holds nothing a grammar or LZ could use;
one whose bytes' frequencies are even but which repeats itself holds
nothing but its repeats (``kernels.greedy``); one whose frequencies are
nearly even holds little else.
"""
import math

import numpy as np

from .._jit import njit
from .unaligned import load8

HASH_BITS = 16  # a table that stays in the cache: 256 KiB
_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def order0_saving(data):
    """The share of ``data``'s size (not empty) that coding each byte in
    its order-0 entropy would save."""
    counts = np.zeros(256, np.int64)
    for i in range(data.shape[0]):
        counts[data[i]] += 1
    n = data.shape[0]
    bits = 0.0
    for c in counts:
        if c:
            bits -= c * math.log2(c / n)
    return 1.0 - bits / (8.0 * n)


@njit(cache=True, nogil=True)
def repeated_share(data):
    """About the share of ``data``'s positions whose next 8 bytes it held
    before: the positions found repeating, times 4 (one in four earlier
    positions is remembered)."""
    n = data.shape[0]
    table = np.full(1 << HASH_BITS, -1, np.int64)
    hits = 0
    for i in range(n - 7):
        word = load8(data, i)
        slot = np.int64((word * _MULTIPLIER) >> np.uint64(64 - HASH_BITS))
        j = table[slot]
        if j >= 0 and load8(data, j) == word:
            hits += 1
        if i & 3 == 0:
            table[slot] = i
    return 4.0 * hits / max(n, 1)


# Numbers: a block whose bytes at each offset in LANES-byte words have
# frequencies of their own, saving LANE_GAIN of its size more than its
# bytes' frequencies together, holds numbers (an array of floats or
# integers), which grammars and filters code smaller: it is tried even
# where its bytes' frequencies save little.  Raw float32 and float64
# arrays gain 6-9% by lanes; PNG, GIF, PDF and JPEG files nothing.
LANES = 8
LANE_GAIN = 0.02


@njit(cache=True, nogil=True)
def _bits(counts):
    """The bits of the symbols counted by their order-0 entropy, with the
    Miller-Madow correction for the sample's size: without it, a small
    sample's lanes would seem to gain by chance."""
    n = counts.sum()
    bits = 0.0
    used = 0
    for c in counts:
        if c:
            bits -= c * math.log2(c / n)
            used += 1
    return bits + (used - 1) / (2.0 * math.log(2.0))


@njit(cache=True, nogil=True)
def lane_gain(data):
    """The share of ``data``'s size that coding the bytes at each offset
    in LANES-byte words by their own frequencies would save beyond coding
    all bytes by theirs."""
    counts = np.zeros((LANES, 256), np.int64)
    for i in range(data.shape[0]):
        counts[i & (LANES - 1), data[i]] += 1
    lanes = 0.0
    for j in range(LANES):
        lanes += _bits(counts[j])
    return (_bits(counts.sum(axis=0)) - lanes) / (8.0 * data.shape[0])


def holds_numbers(data):
    """Whether block ``data`` (a uint8 array, not empty) holds numbers:
    its bytes gain at least LANE_GAIN by lanes."""
    return lane_gain(data) >= LANE_GAIN


def gains(data, share, slight=0.0):
    """What block ``data`` (a uint8 array, not empty) could save at least
    ``share`` of its size by: FREQUENCIES (and maybe repeats too), or
    where its bytes' frequencies save less than ``slight`` of it and it
    holds no numbers, SLIGHTLY by them; REPEATS alone, or NOTHING.  Each
    pass after the first runs only where the one before leaves it open."""
    saving = order0_saving(data)
    if saving >= share:
        if saving >= slight or holds_numbers(data):
            return FREQUENCIES
        return SLIGHTLY
    return REPEATS if repeated_share(data) >= share else NOTHING


FREQUENCIES, SLIGHTLY, REPEATS, NOTHING = "frequencies", "slightly", "repeats", "nothing"
