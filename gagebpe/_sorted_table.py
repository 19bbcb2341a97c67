"""The merge table in compact form (the SORTED coding's): merges grouped by
depth, sorted, Rice-coded.

A merge's depth is one more than the deeper of its two halves (terminals have
depth 0).  Merges of one depth refer only to shallower symbols, so they may be
numbered in any order after those: numbering them by (left, right) makes
their keys ``left * limit + right`` increasing (``limit`` is the number of
symbols defined before that depth), and the gaps between keys are small.
The merge order carries no information the decoder needs, which is what
this saves: about log2(m!) bits for a depth of m merges.

Bits are written least significant first (as in ``_bits``).  A depth is
``m`` (Elias gamma), a Rice parameter ``k`` (6 bits), then m gaps, each in
unary (q zeros, a one) and k low bits; docs/FORMAT.md has the exact layout.

Imports ``_jit``, ``_bits`` and ``_unaligned``.
"""
import numpy as np
from ._jit import njit

from ._bits import _bit_length, _put, lowest_bit
from ._unaligned import load8

K_BITS = 6


@njit(cache=True, nogil=True)
def canonical(merges, n_terminals):
    """``(order, sizes)``: ``order[s]`` is symbol s's new number (terminals
    keep theirs), ``sizes[j]`` the number of merges of depth j + 1.  New
    numbers follow depth, then (left, right) in new numbers."""
    d = merges.shape[0]
    depth = np.zeros(n_terminals + d, np.int64)
    for k in range(d):
        depth[n_terminals + k] = 1 + max(depth[merges[k, 0]], depth[merges[k, 1]])
    n_levels = depth.max() if d else 0
    sizes = np.zeros(n_levels + 1, np.int64)
    for k in range(d):
        sizes[depth[n_terminals + k]] += 1
    starts = np.zeros(n_levels + 2, np.int64)
    for j in range(n_levels + 1):
        starts[j + 1] = starts[j] + sizes[j]
    by_depth = np.empty(d, np.int64)  # merges, grouped by depth
    fill = starts.copy()
    for k in range(d):
        j = depth[n_terminals + k]
        by_depth[fill[j]] = k
        fill[j] += 1
    order = np.empty(n_terminals + d, np.int32)
    order[:n_terminals] = np.arange(n_terminals)
    limit = n_terminals
    for j in range(1, n_levels + 1):
        level = by_depth[starts[j]:starts[j + 1]]
        keys = np.empty(level.shape[0], np.int64)
        for i in range(level.shape[0]):
            k = level[i]
            keys[i] = np.int64(order[merges[k, 0]]) * limit + order[merges[k, 1]]
        ranked = level[np.argsort(keys, kind="mergesort")]
        for i in range(ranked.shape[0]):
            order[n_terminals + ranked[i]] = limit + i
        limit += ranked.shape[0]
    return order, sizes[1:]


@njit(cache=True, nogil=True)
def _rice_parameter(gaps, max_k):
    """The k in 0..max_k that codes ``gaps`` in the fewest bits."""
    best_k = 0
    best = np.int64(-1)
    for k in range(max_k + 1):
        bits = np.int64(gaps.shape[0]) * (k + 1)
        for g in gaps:
            bits += g >> k
        if best < 0 or bits < best:
            best, best_k = bits, k
    return best_k


@njit(cache=True, nogil=True)
def _put_unary(out, acc, nbits, pos, q):
    while q >= 32:
        acc, nbits, pos = _put(out, acc, nbits, pos, 0, 32)
        q -= 32
    return _put(out, acc, nbits, pos, 1 << q, q + 1)


@njit(cache=True, nogil=True)
def _max_k(limit):
    return min(2 * _bit_length(limit - 1), (1 << K_BITS) - 2)


@njit(cache=True, nogil=True)
def pack(merges, sizes, n_terminals):
    """The table of ``merges`` (distinct merges in canonical numbering, depth
    sizes ``sizes``) as bytes."""
    d = merges.shape[0]
    # A depth costs at most 2*32+1 bits for m, K_BITS for k, and each merge at
    # most 2*w+1 bits (what k = max_k would cost).
    bound = sizes.shape[0] * (65 + K_BITS) + d * (2 * _bit_length(n_terminals + d) + 1)
    out = np.zeros(bound // 8 + 9, np.uint8)
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    first = 0
    limit = n_terminals
    for m in sizes:
        acc, nbits, pos = _put_unary(out, acc, nbits, pos, _bit_length(m) - 1)
        acc, nbits, pos = _put(out, acc, nbits, pos, m & ((1 << (_bit_length(m) - 1)) - 1),
                               _bit_length(m) - 1)
        gaps = np.empty(m, np.int64)
        previous = np.int64(-1)
        for i in range(m):
            key = np.int64(merges[first + i, 0]) * limit + merges[first + i, 1]
            if key <= previous:
                raise ValueError("merge table is not in canonical order")
            gaps[i] = key - previous - 1
            previous = key
        k = _rice_parameter(gaps, _max_k(limit))
        acc, nbits, pos = _put(out, acc, nbits, pos, k, K_BITS)
        for g in gaps:
            acc, nbits, pos = _put_unary(out, acc, nbits, pos, g >> k)
            acc, nbits, pos = _put(out, acc, nbits, pos, g & ((1 << k) - 1), k)
        first += m
        limit += m
    if nbits > 0:
        out[pos] = np.uint8(acc & np.uint64(0xFF))
        pos += 1
    return out[:pos]


# The decoder reads a copy of the table with this much zero padding, 57 bits
# at a time from unaligned 8-byte loads, and checks each field's end.
_PADDING = 16
_WINDOW = 57
_WINDOW_MASK = np.uint64((1 << _WINDOW) - 1)


@njit(cache=True, nogil=True, inline='always')
def _peek(padded, bitpos):
    """The _WINDOW bits at ``bitpos``, first bit lowest."""
    return (load8(padded, np.uint64(bitpos >> 3)) >> np.uint64(bitpos & 7)) & _WINDOW_MASK


@njit(cache=True, nogil=True, inline='always')
def _rice(padded, end, bitpos, most, k):
    """``(q << k | r, bitpos after it)`` for the unary q (at most ``most``)
    and the k (<= _WINDOW) bits r at ``bitpos``, or ``(-1, bitpos)`` if the
    code is malformed or runs past bit ``end``."""
    q = 0
    word = _peek(padded, bitpos)
    while word == 0:  # a run of _WINDOW zeros or more: rare
        q += _WINDOW
        if q > most or bitpos + q > end:
            return -1, bitpos
        word = _peek(padded, bitpos + q)
    zeros = lowest_bit(word)
    q += zeros
    after = bitpos + q + 1 + k
    if q > most or after > end:
        return -1, bitpos
    if q == zeros and zeros + 1 + k <= _WINDOW:  # r is in the word read: most codes
        r = word >> np.uint64(zeros + 1)
    else:
        r = _peek(padded, bitpos + q + 1)
    return (np.int64(q) << k) | np.int64(r & ((np.uint64(1) << np.uint64(k)) - np.uint64(1))), after


@njit(cache=True, nogil=True)
def unpack(buf, n_terminals, merges):
    """Fill the (d, 2) table ``merges`` from ``buf``, which must hold it
    exactly (zero padding bits in its last byte).  Returns False if it does
    not: a depth larger than the merges left, a key out of range, a field
    past the end, or bytes to spare."""
    d = merges.shape[0]
    padded = np.zeros(buf.shape[0] + _PADDING, np.uint8)
    padded[:buf.shape[0]] = buf
    end = np.int64(buf.shape[0]) * 8
    bitpos = np.int64(0)
    done = 0
    limit = n_terminals
    while done < d:
        n, bitpos = _rice(padded, end, bitpos, 32, 0)  # gamma: n, then n low bits
        if n < 0 or bitpos + n + K_BITS > end:
            return False
        low = np.int64(_peek(padded, bitpos) & ((np.uint64(1) << np.uint64(n)) - np.uint64(1)))
        k = np.int64(_peek(padded, bitpos + n) & np.uint64((1 << K_BITS) - 1))
        if k > _max_k(limit) or (1 << n) + low > d - done:
            return False
        m = (1 << n) + low
        bitpos += n + K_BITS
        keys_end = np.int64(limit) * limit  # keys lie below limit * limit
        inverse = 1.0 / limit
        key = np.int64(-1)
        for i in range(m):
            gap, bitpos = _rice(padded, end, bitpos, (keys_end - key - 1) >> k, k)
            if gap < 0:
                return False
            key += 1 + gap
            if key >= keys_end:
                return False
            # key // limit without a 64-bit division; the estimate from
            # the reciprocal is off by at most one.
            left = np.int64(key * inverse)
            right = key - left * limit
            if right < 0:
                left -= 1
                right += limit
            elif right >= limit:
                left += 1
                right -= limit
            merges[done + i, 0] = left
            merges[done + i, 1] = right
        done += m
        limit += m
    nbytes = (bitpos + 7) >> 3
    if nbytes != buf.shape[0]:
        return False
    return bitpos & 7 == 0 or (buf[nbytes - 1] >> (bitpos & 7)) == 0
