"""Length-limited canonical Huffman codes over large alphabets.

A BPE sequence runs over bytes plus every merge, so its alphabet has tens of
thousands of symbols.  Codes are at most ``MAX_LENGTH`` bits, canonical
(shorter codes first, then by symbol), and written most significant bit
first.  The decoder looks the next ``FAST_BITS`` bits up in a table; a code
longer than that continues in a second-level table for its prefix, of at
most ``2 ** (MAX_LENGTH - FAST_BITS)`` entries.
"""
import numpy as np

from .._jit import njit
from ..plain import huffman as plain_huffman
from .unaligned import copy_bytes, load8_be

MAX_LENGTH = 20
FAST_BITS = 12

# A decoding-table entry is either a code's payload and length,
#     payload << LENGTH_BITS | length                  (length 1..MAX_LENGTH),
# or, for a prefix of longer codes, where its second-level table starts and
# how many more bits that table takes, marked by POINTER in the length field:
#     offset << OFFSET_SHIFT | width << LENGTH_BITS | POINTER.
LENGTH_BITS = 5
LENGTH_MASK = (1 << LENGTH_BITS) - 1
POINTER = LENGTH_MASK
OFFSET_SHIFT = 2 * LENGTH_BITS


# -- code lengths ------------------------------------------------------------

@njit(cache=True, nogil=True)
def code_lengths(freqs, max_length):
    """Huffman code lengths for ``freqs`` (0 for unused symbols), limited to
    ``max_length`` bits.  At least two symbols get codes, so that every code
    has a length of at least one bit."""
    used = np.flatnonzero(freqs > 0)
    lengths = np.zeros(freqs.shape[0], np.uint8)
    order = used[np.argsort(freqs[used], kind="mergesort")]
    m = order.shape[0]
    weight = np.zeros(2 * m, np.int64)
    weight[:m] = freqs[order]
    _assign_lengths(order, weight, np.zeros(2 * m, np.int64), np.zeros(2 * m, np.int64),
                    np.zeros(max(96, max_length + 2), np.int64), lengths, max_length)
    return lengths


# The plain path's function, compiled: one algorithm, so that both paths
# give the same lengths for the same counts.
_assign_lengths = njit(cache=True, nogil=True)(plain_huffman.assign_lengths)


# -- canonical codes ---------------------------------------------------------------

@njit(cache=True, nogil=True)
def canonical_codes(lengths):
    """Each symbol's code: codes are assigned in order of length, then of
    symbol."""
    per_length = np.zeros(MAX_LENGTH + 1, np.int64)
    for n in lengths:
        per_length[n] += 1
    per_length[0] = 0
    next_code = np.zeros(MAX_LENGTH + 1, np.int64)
    code = 0
    for n in range(1, MAX_LENGTH + 1):
        code = (code + per_length[n - 1]) << 1
        next_code[n] = code
    codes = np.zeros(lengths.shape[0], np.int64)
    for s in range(lengths.shape[0]):
        n = lengths[s]
        if n:
            codes[s] = next_code[n]
            next_code[n] += 1
    return codes


@njit(cache=True, nogil=True)
def is_complete(lengths):
    """Do the lengths (1..MAX_LENGTH, or 0) form a complete prefix code, or
    a single one-bit code?  Anything else cannot be decoded unambiguously."""
    if lengths.shape[0] and lengths.max() > MAX_LENGTH:
        return False
    per_length = length_counts(lengths)  # counted four ways: no chain of adds
    total = np.int64(0)
    used = 0
    for n in range(1, MAX_LENGTH + 1):
        total += per_length[n] << (MAX_LENGTH - n)
        used += per_length[n]
    if used == 1:
        return total == np.int64(1) << (MAX_LENGTH - 1)
    return total == np.int64(1) << MAX_LENGTH


# -- encoding ------------------------------------------------------------------------

def prepared(*codes):
    """``(canonical codes, lengths, prices)`` of each code's lengths in
    ``codes`` in turn, one flat tuple: what an encoder takes of its codes,
    made once per code, not per call (a price is a symbol's bits,
    infinite where it has no code, so that a parse never takes it)."""
    out: tuple = ()
    for lengths in codes:
        out += (canonical_codes(lengths), lengths,
                np.where(lengths > 0, lengths.astype(np.float64), np.inf))
    return out


@njit(cache=True, nogil=True)
def encoded_bits(symbols, lengths):
    total = np.int64(0)
    for s in symbols:
        total += lengths[s]
    return total


@njit(cache=True, nogil=True)
def encode(symbols, lengths, out):
    """Write the codes of ``symbols`` MSB first into the zeroed buffer
    ``out`` of ``ceil(encoded_bits / 8)`` bytes."""
    write_codes(symbols, np.zeros(lengths.shape[0], np.uint8),
                canonical_codes(lengths).reshape(1, lengths.shape[0]),
                lengths.reshape(1, lengths.shape[0]), out, 0)


@njit(cache=True, nogil=True)
def contextual_bits(symbols, classes, lengths):
    """``encoded_bits`` where symbol i is coded with the code
    ``lengths[classes[symbols[i - 1]]]`` (the first with ``lengths[0]``)."""
    total = np.int64(0)
    context = 0
    for s in symbols:
        total += lengths[context, s]
        context = classes[s]
    return total


@njit(cache=True, nogil=True)
def encode_contextual(symbols, classes, lengths, out):
    """``encode`` with the codes ``contextual_bits`` counts."""
    codes = np.empty(lengths.shape, np.int64)
    for c in range(lengths.shape[0]):
        codes[c] = canonical_codes(lengths[c])
    write_codes(symbols, classes, codes, lengths, out, 0)


@njit(cache=True, nogil=True)
def write_codes(symbols, classes, codes, lengths, out, pos):
    """Write the codes of ``symbols`` MSB first into the zeroed ``out`` from
    byte ``pos`` on, symbol i in the code of context ``classes[symbols[i -
    1]]`` (``codes[c]``, the canonical codes of ``lengths[c]``; the first in
    context 0); returns where the last code's byte ends.  A caller coding
    many sequences in one code computes its codes once."""
    acc = np.uint64(0)
    nbits = 0
    context = 0
    for s in symbols:
        n = int(lengths[context, s])
        acc = (acc << np.uint64(n)) | np.uint64(codes[context, s])
        context = classes[s]
        nbits += n
        while nbits >= 8:
            nbits -= 8
            out[pos] = np.uint8((acc >> np.uint64(nbits)) & np.uint64(0xFF))
            pos += 1
    if nbits:
        out[pos] = np.uint8((acc << np.uint64(8 - nbits)) & np.uint64(0xFF))
        pos += 1
    return pos


# -- decoding ------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _canonical_order(lengths):
    """``(order, first)``: the coded symbols sorted by (length, symbol),
    which is the order of their codes, and where each length's run starts
    in it (``first[n]``, for n in 0..MAX_LENGTH + 1)."""
    first = np.zeros(MAX_LENGTH + 2, np.int64)
    for n in lengths:
        first[n + 1] += 1
    first[1] = 0  # uncoded symbols take no place
    for n in range(1, MAX_LENGTH + 1):
        first[n + 1] += first[n]
    used = first[MAX_LENGTH + 1]
    order = np.empty(used, np.int64)
    fill = first.copy()
    for s in range(lengths.shape[0]):
        n = lengths[s]
        if n:  # a branch, not a write: most symbols of a context have no code
            order[fill[n]] = s
            fill[n] += 1
    return order, first


@njit(cache=True, nogil=True)
def length_counts(lengths):
    """How many symbols have each length 0..MAX_LENGTH (which ``lengths``
    must not pass), counted four ways at once: runs of one length would
    otherwise wait on their own increments."""
    counts = np.zeros((4, MAX_LENGTH + 1), np.int64)
    n = lengths.shape[0]
    i = 0
    while i + 4 <= n:
        counts[0, lengths[i]] += 1
        counts[1, lengths[i + 1]] += 1
        counts[2, lengths[i + 2]] += 1
        counts[3, lengths[i + 3]] += 1
        i += 4
    for j in range(i, n):
        counts[0, lengths[j]] += 1
    return counts[0] + counts[1] + counts[2] + counts[3]


@njit(cache=True, nogil=True)
def decode_table(lengths, payloads):
    """The two-level decoding table of a code whose symbol s decodes to
    ``payloads[s]`` (below 2^58): an entry (see above) for each value of
    the next FAST_BITS bits, then the second-level tables.  ``lengths``
    must form a complete code or have at most one code; entries no code
    reaches (only a code of one has them) are 0.  The codes longer than
    FAST_BITS are the last ones, so their prefixes are the top ones, from
    ``top`` on, and only those are looked at twice (a small block's table
    costs its entries, not a pass over every prefix); symbols are then
    visited in their own order, each taking the next code of its length."""
    per_length = length_counts(lengths)
    size = 1 << FAST_BITS
    top = size
    longest = np.zeros(0, np.int64)  # longest code under each prefix from top on
    next_code = np.zeros(MAX_LENGTH + 1, np.int64)
    code = 0
    for n in range(1, MAX_LENGTH + 1):
        count = per_length[n]
        next_code[n] = code
        if n > FAST_BITS and count:
            if top == size:
                top = code >> (n - FAST_BITS)
                longest = np.zeros(size - top, np.int64)
            for j in range(count):
                longest[((code + j) >> (n - FAST_BITS)) - top] = n  # lengths only grow
        code = (code + count) << 1
    offsets = np.zeros(size - top, np.int64)
    total = size
    for p in range(size - top):
        if longest[p]:
            offsets[p] = total
            total += 1 << (longest[p] - FAST_BITS)
    # A complete code writes every entry: only a code of one needs zeros.
    used = lengths.shape[0] - per_length[0]
    table = np.empty(total, np.int64) if used > 1 else np.zeros(total, np.int64)
    for p in range(size - top):
        if longest[p]:
            table[top + p] = ((offsets[p] << OFFSET_SHIFT)
                              | ((longest[p] - FAST_BITS) << LENGTH_BITS) | POINTER)
    for s in range(lengths.shape[0]):
        n = np.int64(lengths[s])
        if n == 0:
            continue
        c = next_code[n]
        next_code[n] = c + 1
        entry = (np.int64(payloads[s]) << LENGTH_BITS) | n
        if n <= FAST_BITS:
            start = c << (FAST_BITS - n)
            count = 1 << (FAST_BITS - n)
        else:
            p = (c >> (n - FAST_BITS)) - top
            spare = longest[p] - n  # bits the sub-table reads past this code
            start = offsets[p] + ((c & ((1 << (n - FAST_BITS)) - 1)) << spare)
            count = 1 << spare
        for v in range(np.uint64(start), np.uint64(start + count)):  # unsigned: no wraparound
            table[v] = entry
    return table


# Codes are read from 8-byte loads; the streams are copied into a buffer with
# this much zero padding after them, and each is checked for overrun every
# CHECK_EVERY symbols (which read at most CHECK_EVERY * MAX_LENGTH bits).
CHECK_EVERY = 1024
PADDING = CHECK_EVERY * MAX_LENGTH // 8 + 16
# The sequence is split round-robin over this many streams, so that a
# decoder follows four independent chains of bit positions at once.
STREAMS = 4


@njit(cache=True, nogil=True, inline='always')
def read(padded, bitpos, table):
    """``(payload, length)`` of the code at ``bitpos``; length 0 if none."""
    return read_in(padded, bitpos, table, np.int64(0))


@njit(cache=True, nogil=True, inline='always')
def read_in(padded, bitpos, tables, base):
    """``read`` with the decoding table that starts at ``tables[base]``
    (several tables laid end to end, as context coding keeps them)."""
    word = load8_be(padded, bitpos >> np.uint64(3)) << (bitpos & np.uint64(7))
    return peek_in(word, tables, base)


@njit(cache=True, nogil=True, inline='always')
def peek_in(word, tables, base):
    """``read_in`` of the code at the top of ``word`` (a uint64 holding at
    least MAX_LENGTH of the stream's bits, MSB first)."""
    # Unsigned indices: Numba tests a signed one for a negative value, on
    # the path from one code's look-up to the next.
    base = np.uint64(base)
    prefix = word >> np.uint64(64 - FAST_BITS)
    entry = np.int64(tables[base + prefix])
    # Both levels are read every time, with no branch to mispredict: a
    # short code's second read is its own entry again.
    width = (entry >> LENGTH_BITS) & LENGTH_MASK
    low = ((word << np.uint64(FAST_BITS)) >> np.uint64(1)) >> np.uint64(63 - width)
    index = (np.uint64(entry >> OFFSET_SHIFT) + low if (entry & LENGTH_MASK) == POINTER
             else prefix)
    entry = np.int64(tables[base + index])
    return entry >> LENGTH_BITS, entry & LENGTH_MASK


@njit(cache=True, nogil=True, inline='always')
def read_abreast(padded, p0, p1, p2, p3, tables, t0, t1, t2, t3):
    """``read_in`` of four streams at once, at bit positions ``p0..p3`` with
    the tables at ``t0..t3``: ``(ok, payloads, positions after)``; ok is
    False if one of them has no code there."""
    e0, n0 = read_in(padded, p0, tables, t0)
    e1, n1 = read_in(padded, p1, tables, t1)
    e2, n2 = read_in(padded, p2, tables, t2)
    e3, n3 = read_in(padded, p3, tables, t3)
    ok = n0 != 0 and n1 != 0 and n2 != 0 and n3 != 0
    return (ok, (e0, e1, e2, e3),
            (p0 + np.uint64(n0), p1 + np.uint64(n1), p2 + np.uint64(n2), p3 + np.uint64(n3)))


@njit(cache=True, nogil=True)
def decode(section, sizes, lengths, out):
    """Decode ``len(out)`` symbols from ``section``, which holds
    ``len(sizes)`` (1 or STREAMS) streams of ``sizes[k]`` bytes each; symbol
    i is in stream ``i % len(sizes)``.  This serves the code-length
    sections, whose codes are at most 15 bits: one table of 2^(longest
    code) entries, one lookup per symbol (the sequence is read in
    ``kernels.expand``, four streams abreast, through the two-level tables).
    ``lengths`` must pass ``is_complete``.  Returns False unless every
    stream holds exactly its symbols' codes followed by zero padding bits."""
    bits = 1
    for n in lengths:
        if n > 15:
            return False
        bits = max(bits, np.int64(n))
    order, first = _canonical_order(lengths)
    table = np.zeros(1 << bits, np.int64)  # symbol << LENGTH_BITS | length; 0: no code
    code = 0
    for n in range(1, bits + 1):
        for j in range(first[n + 1] - first[n]):
            start = (code + j) << (bits - n)
            for v in range(start, start + (1 << (bits - n))):
                table[v] = (order[first[n] + j] << LENGTH_BITS) | n
        code = (code + first[n + 1] - first[n]) << 1
    m = sizes.shape[0]
    padded, base, bitpos = streams(section, sizes, (out.shape[0] + m - 1) // m)
    shift = np.uint64(64 - bits)
    k = 0
    for i in range(out.shape[0]):
        if i % CHECK_EVERY == 0:
            for j in range(m):
                if not within(bitpos[j], base, sizes, j):
                    return False
        pos = bitpos[k]
        word = load8_be(padded, pos >> np.uint64(3)) << (pos & np.uint64(7))
        entry = table[np.int64(word >> shift)]
        if entry & LENGTH_MASK == 0:
            return False
        out[i] = entry >> LENGTH_BITS
        bitpos[k] = pos + np.uint64(entry & LENGTH_MASK)
        k = k + 1 if k + 1 < m else 0
    return ends_cleanly(padded, base, sizes, bitpos)


@njit(cache=True, nogil=True)
def read_payloads(padded, base, sizes, bitpos, table, first, out):
    """The payloads of symbols ``first, first + 1, ...`` into ``out``, each
    from its stream (round-robin), whose bit position moves past it.
    Returns False if a stream has no code where one is due or runs past
    its end (checked every CHECK_EVERY symbols)."""
    m = sizes.shape[0]
    k = first % m
    for j in range(out.shape[0]):
        i = first + j
        if i % CHECK_EVERY == 0 and not within(bitpos[k], base, sizes, k):
            return False
        payload, length = read(padded, bitpos[k], table)
        if length == 0:
            return False
        out[j] = payload
        bitpos[k] += np.uint64(length)
        k = k + 1 if k + 1 < m else 0
    return True


@njit(cache=True, nogil=True)
def streams(section, sizes, most):
    """``(padded, base, pos)``: the ``len(sizes)`` streams of ``section``
    copied with zero padding after the last, where each starts, and each
    one's bit position (at its start).  ``most`` bounds the codes read from
    any one stream: the padding covers what they and an 8-byte load can
    reach past its end, up to PADDING (between two checks)."""
    m = sizes.shape[0]
    pad = min(PADDING, (max(most, 0) * MAX_LENGTH + 7) // 8 + 16)
    base = np.zeros(m + 1, np.int64)
    for k in range(m):
        base[k + 1] = base[k] + sizes[k]
    # One copy, the padding after the last stream: a stream read past its
    # end reads the streams after it, which are checked for before its
    # bits are trusted.  Not np.zeros: fresh zeroed pages cost more than
    # writing the padding.
    padded = np.empty(base[m] + pad, np.uint8)
    copy_bytes(padded, 0, section, 0, base[m])
    padded[base[m]:] = 0
    pos = np.empty(m, np.uint64)
    for k in range(m):
        pos[k] = np.uint64(base[k]) * np.uint64(8)
    return padded, base, pos


@njit(cache=True, nogil=True)
def ends_cleanly(padded, base, sizes, pos):
    """Did each stream end on its last byte, with zero padding bits?"""
    for k in range(sizes.shape[0]):
        bits = np.int64(pos[k]) - base[k] * 8
        if (bits + 7) // 8 != sizes[k]:
            return False
        if bits % 8 and padded[base[k] + bits // 8] & ((1 << (8 - bits % 8)) - 1):
            return False
    return True


@njit(cache=True, nogil=True)
def within(bitpos, base, sizes, k):
    return np.int64(bitpos) <= (base[k] + sizes[k]) * 8
