"""The fewest bytes an LZ payload of a block can take, found in one pass
and without parsing: where a block beside a dictionary already takes
fewer, its level's LZ try cannot win and is not made.

A copy is at least MIN_COPY bytes long, so a byte can be in a copy only if
some MIN_COPY-byte string that holds it occurred earlier in the block
(overlapping or not); every other byte is a literal in any parse.  Those
bytes, and a symbol at least for each run of the others (a copy, or its
first byte as a literal), are symbols of one literal/length code; whatever
the code, n symbols with these frequencies take at least n times their
entropy in bits (Gibbs' inequality), and the runs' symbols are counted
where that entropy is least, all in the most frequent literal.  The
code-length table's fixed part and the payload's head come on top.
"""
import numpy as np

from .._jit import njit
from . import lz as _lz

# Bytes of an LZ payload before its tokens: the count of slots of each code.
HEAD = 2
_TABLE_BITS = _lz.TABLE_SYMBOLS * _lz.TABLE_CODE_BITS  # a code-length table's fixed part
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True)
def payload_floor(data, shortest):
    """The fewest bytes of an LZ payload (``format.codings.lz``, in one
    part) of block ``data``, its copies ``shortest`` bytes long at least:
    with MIN_COPY, no parse of it codes smaller; longer (at most 7), an
    estimate of what copies that short would not gain
    (``benchmarks/lz_floor.py``)."""
    n = data.shape[0]
    bits = 4  # of the table of the strings seen: at least 2n entries
    while 1 << bits < 2 * n:
        bits += 1
    mask = (1 << bits) - 1
    seen = np.zeros(mask + 1, np.int64)  # the strings, each + 1
    counts = np.zeros(_lz.LITERALS, np.int64)  # of the bytes no copy can hold
    runs = 0
    covered = 0  # the end of the bytes an earlier string may cover
    for p in range(n):
        if p + shortest <= n:
            key = np.int64(0)
            for k in range(p, p + shortest):
                key = key << 8 | np.int64(data[k])
            h = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(64 - bits))
            while seen[h] != 0 and seen[h] != key + 1:
                h = (h + 1) & mask
            if seen[h]:
                if covered < p:  # a run begins
                    runs += 1
                covered = p + shortest
            else:
                seen[h] = key + 1
        if p >= covered:
            counts[data[p]] += 1
    counts[np.argmax(counts)] += runs
    total = counts.sum()
    bits = np.float64(_TABLE_BITS)
    for c in counts:
        if c:
            bits += c * np.log2(total / c)
    return HEAD + int(bits // 8)
