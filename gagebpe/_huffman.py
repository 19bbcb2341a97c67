"""Length-limited canonical Huffman codes over large alphabets.

A BPE sequence runs over bytes plus every merge, so its alphabet has tens of
thousands of symbols.  Codes are at most ``MAX_LENGTH`` bits, canonical
(shorter codes first, then by symbol), and written most significant bit
first, so that a decoder reads a code by comparing the next bits, as a
left-aligned integer, with each length's limit.  A ``FAST_BITS``-bit table
decodes the common short codes in one lookup.
"""
import numpy as np
from numba import njit

from ._memory import load8_be

MAX_LENGTH = 24
FAST_BITS = 12


# -- code lengths ------------------------------------------------------------

@njit(cache=True, nogil=True)
def code_lengths(freqs, max_length):
    """Huffman code lengths for ``freqs`` (0 for unused symbols), limited to
    ``max_length`` bits.  At least two symbols get codes, so that every code
    has a length of at least one bit."""
    used = np.flatnonzero(freqs > 0)
    lengths = np.zeros(freqs.shape[0], np.uint8)
    m = used.shape[0]
    if m == 0:
        return lengths
    if m == 1:
        lengths[used[0]] = 1
        return lengths
    # Two-queue Huffman over the sorted leaves: internal nodes are made in
    # non-decreasing weight order, so no heap is needed.
    order = used[np.argsort(freqs[used], kind="mergesort")]
    weight = np.empty(2 * m, np.int64)
    parent = np.zeros(2 * m, np.int64)
    weight[:m] = freqs[order]
    leaf = 0
    node = m
    for made in range(m, 2 * m - 1):
        weight[made] = 0
        for _ in range(2):
            if leaf < m and (node >= made or weight[leaf] <= weight[node]):
                child = leaf
                leaf += 1
            else:
                child = node
                node += 1
            weight[made] += weight[child]
            parent[child] = made
    depth = np.zeros(2 * m - 1, np.int64)
    for v in range(2 * m - 3, -1, -1):
        depth[v] = depth[parent[v]] + 1
    # Count codes per length, then limit them (JPEG, Annex K.3): a pair of
    # too-long codes becomes one code a level up, and a shorter code splits.
    per_length = np.zeros(max(96, max_length + 2), np.int64)
    for v in range(m):
        per_length[depth[v]] += 1
    for i in range(per_length.shape[0] - 1, max_length, -1):
        while per_length[i] > 0:
            j = i - 2
            while per_length[j] == 0:
                j -= 1
            per_length[i] -= 2
            per_length[i - 1] += 1
            per_length[j + 1] += 2
            per_length[j] -= 1
    # The most frequent symbols take the shortest codes.
    v = m - 1
    for length in range(1, max_length + 1):
        for _ in range(per_length[length]):
            lengths[order[v]] = length
            v -= 1
    return lengths


# -- canonical codes ---------------------------------------------------------------

@njit(cache=True, nogil=True)
def _canonical(lengths):
    """``(codes, first, limit, sorted_symbols, index)``: each symbol's code;
    per length the first code and the left-aligned (32-bit) limit below
    which a code of at most that length lies; the symbols in code order and
    the position of each length's first symbol in it."""
    per_length = np.zeros(MAX_LENGTH + 1, np.int64)
    for n in lengths:
        per_length[n] += 1
    per_length[0] = 0
    first = np.zeros(MAX_LENGTH + 2, np.int64)
    index = np.zeros(MAX_LENGTH + 2, np.int64)
    limit = np.zeros(MAX_LENGTH + 2, np.int64)
    code = 0
    position = 0
    for n in range(1, MAX_LENGTH + 1):
        first[n] = code
        index[n] = position
        code += per_length[n]
        position += per_length[n]
        limit[n] = code << (32 - n)
        code <<= 1
    sorted_symbols = np.empty(position, np.int32)
    codes = np.zeros(lengths.shape[0], np.int64)
    fill = index.copy()
    for s in range(lengths.shape[0]):
        n = lengths[s]
        if n:
            codes[s] = first[n] + (fill[n] - index[n])
            sorted_symbols[fill[n]] = s
            fill[n] += 1
    return codes, first, limit, sorted_symbols, index


@njit(cache=True, nogil=True)
def is_complete(lengths):
    """Do the lengths (1..MAX_LENGTH, or 0) form a complete prefix code, or
    a single one-bit code?  Anything else cannot be decoded unambiguously."""
    total = np.int64(0)
    used = 0
    for n in lengths:
        if n > MAX_LENGTH:
            return False
        if n:
            total += np.int64(1) << (MAX_LENGTH - n)
            used += 1
    if used == 1:
        return total == np.int64(1) << (MAX_LENGTH - 1)
    return total == np.int64(1) << MAX_LENGTH


# -- encoding ------------------------------------------------------------------------

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
    codes, _, _, _, _ = _canonical(lengths)
    acc = np.uint64(0)
    nbits = 0
    pos = 0
    for s in symbols:
        n = int(lengths[s])
        acc = (acc << np.uint64(n)) | np.uint64(codes[s])
        nbits += n
        while nbits >= 8:
            nbits -= 8
            out[pos] = np.uint8((acc >> np.uint64(nbits)) & np.uint64(0xFF))
            pos += 1
    if nbits:
        out[pos] = np.uint8((acc << np.uint64(8 - nbits)) & np.uint64(0xFF))


# -- decoding ------------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _fast_table(lengths, codes, limit):
    """For each value v of the next FAST_BITS bits: ``symbol << 5 | length``
    if a code of at most FAST_BITS bits starts there, else the shortest
    length a longer code starting there can have (for a short search)."""
    fast = np.zeros(1 << FAST_BITS, np.int32)
    for s in range(lengths.shape[0]):
        n = int(lengths[s])
        if 0 < n <= FAST_BITS:
            start = codes[s] << (FAST_BITS - n)
            for v in range(start, start + (1 << (FAST_BITS - n))):
                fast[v] = (s << 5) | n
    n = FAST_BITS + 1
    for v in range(1 << FAST_BITS):
        if fast[v] == 0:
            top = np.int64(v) << (32 - FAST_BITS)
            while n < MAX_LENGTH and top >= limit[n]:
                n += 1
            fast[v] = n
    return fast


@njit(cache=True, nogil=True)
def decode(buf, lengths, out):
    """Decode ``len(out)`` symbols from ``buf``.  ``lengths`` must pass
    ``is_complete``.  Returns the number of bits read, or -1 if the codes
    run past the end of ``buf``."""
    codes, first, limit, sorted_symbols, index = _canonical(lengths)
    fast = _fast_table(lengths, codes, limit)
    # Each code is read from an 8-byte load at its bit position (at least
    # 57 bits ahead), so the buffer gets 8 bytes of zero padding.
    padded = np.zeros(buf.shape[0] + 8, np.uint8)
    padded[:buf.shape[0]] = buf
    total_bits = np.uint64(buf.shape[0]) * np.uint64(8)
    bitpos = np.uint64(0)
    seven = np.uint64(7)
    three = np.uint64(3)
    for i in range(out.shape[0]):
        if bitpos > total_bits:
            return -1
        word = load8_be(padded, bitpos >> three) << (bitpos & seven)
        entry = fast[word >> np.uint64(64 - FAST_BITS)]
        n = entry & 31
        if n <= FAST_BITS:
            out[i] = entry >> 5
        else:
            top = np.int64(word >> np.uint64(32))
            while n <= MAX_LENGTH and top >= limit[n]:
                n += 1
            if n > MAX_LENGTH:
                return -1
            out[i] = sorted_symbols[index[n] + (top >> (32 - n)) - first[n]]
        bitpos += np.uint64(n)
    if bitpos > total_bits:
        return -1
    return np.int64(bitpos)
