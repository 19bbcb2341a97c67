"""The merge table in compact form (the SORTED coding's): merges grouped by
depth, sorted, Rice-coded; and the table of long rules in the same form
(SORTED_LONG's, below ``pack_long``).

A merge's depth is one more than the deeper of its two halves (terminals have
depth 0).  Merges of one depth refer only to shallower symbols, so they may be
numbered in any order after those: numbering them by (left, right) makes
their keys ``left * limit + right`` increasing (``limit`` is the number of
symbols defined before that depth), and the gaps between keys are small.
The merge order carries no information the decoder needs, which is what
this saves: about log2(m!) bits for a depth of m merges.

Bits are written least significant first (as in ``kernels.bits``).  A depth is
``m`` (Elias gamma), a Rice parameter ``k`` (6 bits), then m gaps, each in
unary (q zeros, a one) and k low bits; docs/FORMAT.md has the exact layout.
"""
import numpy as np
from .._jit import njit

from .bits import bit_length, _put, lowest_bit
from .unaligned import copy_bytes, load8

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
    return min(2 * bit_length(limit - 1), (1 << K_BITS) - 2)


@njit(cache=True, nogil=True)
def _put_gamma(out, acc, nbits, pos, m):
    acc, nbits, pos = _put_unary(out, acc, nbits, pos, bit_length(m) - 1)
    return _put(out, acc, nbits, pos, m & ((1 << (bit_length(m) - 1)) - 1),
                bit_length(m) - 1)


@njit(cache=True, nogil=True)
def pack(merges, sizes, n_terminals):
    """The table of ``merges`` (distinct merges in canonical numbering, depth
    sizes ``sizes``) as bytes."""
    d = merges.shape[0]
    # A depth costs at most 2*32+1 bits for m, K_BITS for k, and each merge at
    # most 2*w+1 bits (what k = max_k would cost).
    bound = sizes.shape[0] * (65 + K_BITS) + d * (2 * bit_length(n_terminals + d) + 1)
    out = np.zeros(bound // 8 + 9, np.uint8)
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    first = 0
    limit = n_terminals
    for m in sizes:
        acc, nbits, pos = _put_gamma(out, acc, nbits, pos, m)
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
def _gamma(padded, end, bitpos):
    """``(m, bitpos after it)`` for the gamma code at ``bitpos``, or ``(-1,
    bitpos)`` if it is malformed or runs past bit ``end``."""
    n, bitpos = _rice(padded, end, bitpos, 32, 0)
    if n < 0 or bitpos + n > end:
        return -1, bitpos
    low = np.int64(_peek(padded, bitpos) & ((np.uint64(1) << np.uint64(n)) - np.uint64(1)))
    return (np.int64(1) << n) + low, bitpos + n


@njit(cache=True, nogil=True, inline='always')
def _split_key(key, limit, inverse):
    """``(key // limit, key % limit)`` without a 64-bit division: the
    estimate from the reciprocal ``inverse`` is off by at most one."""
    left = np.int64(key * inverse)
    right = key - left * limit
    if right < 0:
        left -= 1
        right += limit
    elif right >= limit:
        left += 1
        right -= limit
    return left, right


@njit(cache=True, nogil=True)
def _padded(buf):
    """``buf`` followed by _PADDING zero bytes, and its length in bits."""
    padded = np.zeros(buf.shape[0] + _PADDING, np.uint8)
    copy_bytes(padded, 0, buf, 0, buf.shape[0])
    return padded, np.int64(buf.shape[0]) * 8


@njit(cache=True, nogil=True)
def _ends_at(buf, bitpos):
    """Whether a table read to ``bitpos`` fills ``buf`` exactly: no byte
    to spare, and zero padding bits in its last byte."""
    nbytes = (bitpos + 7) >> 3
    if nbytes != buf.shape[0]:
        return False
    return bitpos & 7 == 0 or (buf[nbytes - 1] >> (bitpos & 7)) == 0


@njit(cache=True, nogil=True)
def unpack(buf, n_terminals, merges):
    """Fill the (d, 2) table ``merges`` from ``buf``, which must hold it
    exactly (zero padding bits in its last byte).  Returns False if it does
    not: a depth larger than the merges left, a key out of range, a field
    past the end, or bytes to spare."""
    d = merges.shape[0]
    padded, end = _padded(buf)
    bitpos = np.int64(0)
    done = 0
    limit = n_terminals
    while done < d:
        m, bitpos = _gamma(padded, end, bitpos)
        if m < 0 or m > d - done or bitpos + K_BITS > end:
            return False
        k = np.int64(_peek(padded, bitpos) & np.uint64((1 << K_BITS) - 1))
        if k > _max_k(limit):
            return False
        bitpos += K_BITS
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
            left, right = _split_key(key, limit, inverse)
            merges[done + i, 0] = left
            merges[done + i, 1] = right
        done += m
        limit += m
    return _ends_at(buf, bitpos)


# -- long rules -----------------------------------------------------------------
# A depth of long rules (``kernels.long_rules``) holds rules of several lengths:
# ``c`` (gamma), then each length's class, lengths increasing: the length
# less the one before (gamma; the first's less 1), ``m`` (gamma), ``k``
# (K_BITS), then m rules.  A rule's first two parts make its key, Rice-coded
# as a gap from the previous key as in the merge table; a pair's keys
# increase, a longer rule's may repeat, its other parts telling them apart.
# Those other parts take ``_width(limit)`` bits each: a rule of three or
# more parts is rare enough that a plain field costs little more.

@njit(cache=True, nogil=True)
def _width(limit):
    """Bits of a long rule's part past its second: at least one, so that a
    table's bits bound how many parts it holds."""
    return max(1, bit_length(limit - 1))


@njit(cache=True, nogil=True)
def pack_long(starts, parts, classes, n_terminals):
    """The table of long rules (rule i's parts ``parts[starts[i]:starts[i
    + 1]]``, in canonical numbering) whose classes ``classes`` (rows
    depth, length, count) list them, as bytes."""
    n = starts.shape[0] - 1
    n_classes = classes.shape[0]
    bound = n_classes * (3 * 65 + K_BITS) + (starts[n] + n) * (2 * bit_length(n_terminals + n) + 1)
    out = np.zeros(bound // 8 + 9, np.uint8)
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    first = 0
    c = 0
    limit = n_terminals
    while c < n_classes:
        depth = classes[c, 0]
        last = c
        while last < n_classes and classes[last, 0] == depth:
            last += 1
        acc, nbits, pos = _put_gamma(out, acc, nbits, pos, last - c)
        previous_length = 1
        added = 0
        for j in range(c, last):
            length, m = classes[j, 1], classes[j, 2]
            acc, nbits, pos = _put_gamma(out, acc, nbits, pos, length - previous_length)
            acc, nbits, pos = _put_gamma(out, acc, nbits, pos, m)
            previous_length = length
            step = 1 if length == 2 else 0
            gaps = np.empty(m, np.int64)
            previous = np.int64(-step)
            for i in range(m):
                at = starts[first + i]
                key = np.int64(parts[at]) * limit + parts[at + 1]
                if key - previous - step < 0:
                    raise ValueError("rule table is not in canonical order")
                gaps[i] = key - previous - step
                previous = key
            k = _rice_parameter(gaps, _max_k(limit))
            acc, nbits, pos = _put(out, acc, nbits, pos, k, K_BITS)
            width = _width(limit)
            for i in range(m):
                g = gaps[i]
                acc, nbits, pos = _put_unary(out, acc, nbits, pos, g >> k)
                acc, nbits, pos = _put(out, acc, nbits, pos, g & ((1 << k) - 1), k)
                for at in range(starts[first + i] + 2, starts[first + i + 1]):
                    acc, nbits, pos = _put(out, acc, nbits, pos, parts[at], width)
            first += m
            added += m
        limit += added
        c = last
    if nbits > 0:
        out[pos] = np.uint8(acc & np.uint64(0xFF))
        pos += 1
    return out[:pos]


@njit(cache=True, nogil=True)
def unpack_long(buf, n_terminals, n_rules):
    """``(ok, merges, internal)`` from the table of ``n_rules`` long rules
    that ``buf`` must hold exactly: the rules as merges, each rule of L
    parts L - 1 merges folding its parts from the left (merge k is symbol
    ``n_terminals + k``), and ``internal[s]``, the merge that rule symbol
    s became (terminals stay).  ``ok`` is False if ``buf`` does not hold
    such a table: lengths not increasing within a depth, a count, key or
    part out of range, a field past the end, or bytes to spare.  A part
    past a rule's second takes at least one bit, so the merges are at most
    ``n_rules`` plus the table's bits: allocated before it is read."""
    merges = np.empty((n_rules + 8 * buf.shape[0], 2), np.int32)
    internal = np.empty(n_terminals + n_rules, np.int32)
    made = _unpack_long(buf, n_terminals, merges, internal)
    return made >= 0, merges[:max(made, 0)], internal


@njit(cache=True, nogil=True)
def _unpack_long(buf, n_terminals, merges, internal):
    """``unpack_long`` into ``merges`` and ``internal``; the number of
    merges made, or -1."""
    n = internal.shape[0] - n_terminals
    room = merges.shape[0]
    for s in range(n_terminals):
        internal[s] = s
    padded, end = _padded(buf)
    bitpos = np.int64(0)
    done = 0
    made = 0
    limit = n_terminals
    while done < n:
        n_classes, bitpos = _gamma(padded, end, bitpos)
        if n_classes < 0 or n_classes > n - done:
            return -1
        keys_end = np.int64(limit) * limit
        inverse = 1.0 / limit
        width = _width(limit)
        length = np.int64(1)
        added = 0
        for _ in range(n_classes):
            more, bitpos = _gamma(padded, end, bitpos)
            if more < 0:
                return -1
            m, bitpos = _gamma(padded, end, bitpos)
            length += more
            if m < 0 or m > n - done - added or bitpos + K_BITS > end:
                return -1
            if length > room or (length - 1) * m > room - made:
                return -1
            k = np.int64(_peek(padded, bitpos) & np.uint64((1 << K_BITS) - 1))
            bitpos += K_BITS
            if k > _max_k(limit):
                return -1
            step = 1 if length == 2 else 0
            key = np.int64(-step)
            for i in range(m):
                gap, bitpos = _rice(padded, end, bitpos, (keys_end - key - 1) >> k, k)
                if gap < 0:
                    return -1
                key += step + gap
                if key >= keys_end:
                    return -1
                first, second = _split_key(key, limit, inverse)
                if bitpos + (length - 2) * width > end:
                    return -1
                merges[made, 0] = internal[first]
                merges[made, 1] = internal[second]
                made += 1
                for j in range(2, length):
                    part = np.int64(_peek(padded, bitpos) & np.uint64((1 << width) - 1))
                    bitpos += width
                    if part >= limit:
                        return -1
                    merges[made, 0] = n_terminals + made - 1
                    merges[made, 1] = internal[part]
                    made += 1
                internal[n_terminals + done + added + i] = n_terminals + made - 1
            added += m
        done += added
        limit += added
    return made if _ends_at(buf, bitpos) else -1
