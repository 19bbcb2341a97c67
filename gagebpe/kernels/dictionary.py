"""Kernels of trained dictionaries (docs/FORMAT.md, sections 4.15 and 10):
records merged by rank with a dictionary's merges, parsed anew where
that codes shorter (``kernels.shortest_parse``) and coded in its one
static code, and decoded from tables built once per dictionary, many
records to a call, so that a small record costs its bytes, not a setup.

A dictionary's symbols are the 256 byte values, then its merges (merge k
is symbol 256 + k).  Not every symbol need have a code (training gives
none to a merge whose phrase would not fit a decoder's table unless a
sample used it); a record's token without a code is written as its two
halves, recursively (the phrase is the same).
"""
import numpy as np

from .._jit import njit
from .expand import PHRASE_SHIFT, copy_within, phrase_length, phrase_offset, phrase_table
from .expand import symbol_lengths
from .shortest_parse import MAX_DEPTH, shortest, trie
from .packed import int64s, pack, uint8s
from .unaligned import copy_bytes, load8_be
from .huffman import decode_table, peek_in, read
from .rank_merge import encode_pieces

N_BYTES = 256
# Zero bytes a payload needs after it: ``decode_record`` reads codes 8
# bytes at a time.
PADDING = 16
_BYTES = np.arange(N_BYTES, dtype=np.uint8)


@njit(cache=True, nogil=True)
def phrases(merges, lengths, cap):
    """``(table, phrases, entries)`` for decoding: the two-level decoding
    table of the code ``lengths`` (which must be complete), whose entries
    are phrase entries (``kernels.expand.phrase``) into ``phrases``, the
    expansion of every coded symbol, and each symbol's phrase entry (0 for
    none); an empty table if those would pass ``cap`` bytes."""
    sizes = symbol_lengths(merges, N_BYTES, cap)
    used = lengths > 0
    offsets, table = phrase_table(merges, N_BYTES, _BYTES, sizes, used, cap)
    entries = np.zeros(lengths.shape[0], np.int64)
    if table.shape[0] == 0:
        return np.empty(0, np.int64), table, entries
    for s in range(lengths.shape[0]):
        if used[s]:
            entries[s] = (np.int64(offsets[s]) << PHRASE_SHIFT) | sizes[s]
    return decode_table(lengths, entries), table, entries


def decoder(head, table, phrases, literal, distance, content, ids_lz, ids_lz_distance):
    """One array (``kernels.packed``'s) holding ``head`` (the bytes each
    record's stream begins with), the decoding ``table`` and the
    ``phrases``, as ``unpacked`` reads them, the content's LZ decoding
    tables ``literal`` and ``distance`` (``kernels.lz.decoding_tables``'s)
    and the ``content``, as ``lz_unpacked`` reads them, and
    DICTIONARY_IDS_LZ's two tables (``kernels.ids_lz.decoding_tables``), as
    ``ids_lz_unpacked`` reads them (empty where there is no content): a
    kernel then takes one argument for all, and each argument costs a call
    to it as much as decoding a few tokens."""
    return pack((head, table, phrases, literal, distance, content, ids_lz, ids_lz_distance))


_HEAD, _TABLE, _PHRASES, _LITERAL, _DISTANCE, _CONTENT, _IDS_LZ, _IDS_LZ_DISTANCE = range(8)


@njit(cache=True, nogil=True, inline='always')
def unpacked(decoder):
    """``(head, table, phrases)``: the arrays ``decoder`` holds for
    DICTIONARY_IDS records, and their streams' head."""
    return uint8s(decoder, _HEAD), int64s(decoder, _TABLE), uint8s(decoder, _PHRASES)


@njit(cache=True, nogil=True, inline='always')
def lz_unpacked(decoder):
    """``(literal, distance, content)``: the arrays ``decoder`` holds for
    DICTIONARY_LZ records (empty where the dictionary has no content)."""
    return int64s(decoder, _LITERAL), int64s(decoder, _DISTANCE), uint8s(decoder, _CONTENT)


@njit(cache=True, nogil=True, inline='always')
def ids_lz_unpacked(decoder):
    """``(table, distance table, phrases, content)``: the arrays
    ``decoder`` holds for DICTIONARY_IDS_LZ records (the tables empty where
    the dictionary takes none)."""
    return (int64s(decoder, _IDS_LZ), int64s(decoder, _IDS_LZ_DISTANCE),
            uint8s(decoder, _PHRASES), uint8s(decoder, _CONTENT))


@njit(cache=True, nogil=True)
def tokens(data, starts, keys, vals, ranks, results, n_merges):
    """``(ids, id_starts)``: each record ``data[starts[i]:starts[i + 1]]``
    merged by rank with the first ``n_merges`` merges."""
    limits = np.full(starts.shape[0] - 1, np.int64(n_merges), np.int64)
    return encode_pieces(data.astype(np.int32), starts, keys, vals, ranks, results, limits)


@njit(cache=True, nogil=True)
def parse_tables(merges, lengths, cap):
    """``(sizes, edges, symbols, bits)``: every symbol's phrase
    length and the trie of the coded phrases (``shortest_parse.trie``), as
    ``kernels.dictionary_records`` takes them; the trie is empty where those phrases
    would pass ``cap`` bytes."""
    sizes = symbol_lengths(merges, N_BYTES, cap)
    used = (lengths > 0) & (sizes <= MAX_DEPTH)
    offsets, table = phrase_table(merges, N_BYTES, _BYTES, sizes, used, cap)
    if table.shape[0] == 0:
        used[:] = False
    prefixes = np.full(sizes.shape[0], -1, np.int64)  # each merge's left half
    prefixes[N_BYTES:] = merges[:, 0]
    return (sizes, *trie(table, offsets, sizes, lengths * used, prefixes))


@njit(cache=True, nogil=True)
def parse_counts(data, starts, lengths, sizes, trie_edges, trie_symbols, trie_bits):
    """How often each symbol is in the records' shortest parses under the
    code ``lengths`` (DICTIONARY_IDS's parse, ``kernels.dictionary_records``,
    without its coding)."""
    counts = np.zeros(lengths.shape[0], np.int64)
    for i in range(starts.shape[0] - 1):
        for s in shortest(data[starts[i]:starts[i + 1]], sizes, lengths, trie_edges,
                          trie_symbols, trie_bits):
            counts[s] += 1
    return counts


@njit(cache=True, nogil=True)
def decode_record(padded, first, last, out, pos, size, table, phrases):
    """Decode the payload ``padded[first:last]`` (``padded`` holding
    PADDING zero bytes past the last payload) into ``out[pos:pos + size]``;
    whether it is exactly that many bytes' codes and zero padding."""
    bit = np.uint64(first) * np.uint64(8)
    pos = np.uint64(pos)
    return _decode_rest(padded, bit, last, out, pos, pos + np.uint64(size), table, phrases)


@njit(cache=True, nogil=True, inline='always')
def _step(padded, bit, end_bit, out, pos, end, table, phrases):
    """One token of a record: ``(bit, pos)`` after it, or bit 0 where the
    codes there do not fit the record."""
    entry, n = read(padded, bit, table)
    bit += np.uint64(n)
    length = phrase_length(entry)
    if n == 0 or bit > end_bit or pos + length > end:
        return np.uint64(0), pos
    copy_within(out, pos, phrases, phrase_offset(entry), length, end)
    return bit, pos + length


@njit(cache=True, nogil=True)
def _decode_rest(padded, bit, last, out, pos, end, table, phrases):
    """``decode_record`` from code ``bit`` and output ``pos`` on."""
    end_bit = np.uint64(last) * np.uint64(8)
    while pos < end:
        bit, pos = _step(padded, bit, end_bit, out, pos, end, table, phrases)
        if bit == 0:
            return False
    spare = end_bit - bit
    return spare < np.uint64(8) and not (spare and padded[last - 1] & ((1 << spare) - 1))


@njit(cache=True, nogil=True)
def decode_two(padded, first, last, pos, size, out, table, phrases):
    """``decode_record`` of two records at once, record k's payload
    ``padded[first[k]:last[k]]`` into ``out[pos[k]:pos[k] + size[k]]``:
    their tokens taken in turn, so that one's table reads overlap the
    other's (each token waits on the one before it: a record alone keeps
    the core idle).  Whether each decoded exactly."""
    bit0 = np.uint64(first[0]) * np.uint64(8)
    bit1 = np.uint64(first[1]) * np.uint64(8)
    end_bit0 = np.uint64(last[0]) * np.uint64(8)
    end_bit1 = np.uint64(last[1]) * np.uint64(8)
    pos0, pos1 = np.uint64(pos[0]), np.uint64(pos[1])
    end0, end1 = pos0 + np.uint64(size[0]), pos1 + np.uint64(size[1])
    ok0 = ok1 = True
    while ok0 and ok1 and pos0 < end0 and pos1 < end1:
        bit0, pos0 = _step(padded, bit0, end_bit0, out, pos0, end0, table, phrases)
        bit1, pos1 = _step(padded, bit1, end_bit1, out, pos1, end1, table, phrases)
        ok0, ok1 = bit0 != 0, bit1 != 0
    ok0 = ok0 and _decode_rest(padded, bit0, last[0], out, pos0, end0, table, phrases)
    ok1 = ok1 and _decode_rest(padded, bit1, last[1], out, pos1, end1, table, phrases)
    return ok0, ok1


@njit(cache=True, nogil=True)
def decode_unpadded(data, first, out, table, phrases):
    """``decode_record`` of the payload ``data[first:]``, which nothing need
    follow, into all of ``out``.  One record alone: its bits are kept in a
    word refilled every two tokens (56 bits hold two codes), so that a
    token's table read waits on a shift, not on a load from the payload as
    well; the last words are read a byte at a time."""
    n = len(data)
    end_bit = np.int64(8) * n
    size = np.uint64(len(out))
    at, word, valid, pos = np.int64(first), np.uint64(0), np.int64(0), np.uint64(0)
    while pos < size:
        if 8 * at - valid > end_bit:  # the codes so far have run past the payload
            return False
        if at + 8 <= n:
            word |= load8_be(data, at) >> np.uint64(valid)
        else:
            last = np.uint64(0)
            for k in range(at, at + 8):
                last = (last << np.uint64(8)) | np.uint64(data[k] if k < n else 0)
            word |= last >> np.uint64(valid)
        at += (63 - valid) >> 3
        valid |= 56
        for _ in range(2):
            entry, bits = peek_in(word, table, np.int64(0))
            length = phrase_length(entry)
            if bits == 0 or pos + length > size:
                return False
            word <<= np.uint64(bits)
            valid -= bits
            copy_within(out, pos, phrases, phrase_offset(entry), length, size)
            pos += length
            if pos == size:
                break
    spare = end_bit - (8 * at - valid)
    return 0 <= spare < 8 and not (spare and data[n - 1] & ((1 << spare) - 1))


@njit(cache=True, nogil=True)
def padded(data):
    """``data`` with PADDING zero bytes after it, as ``decode_record`` reads
    it."""
    out = np.zeros(data.shape[0] + PADDING, np.uint8)
    copy_bytes(out, 0, data, 0, data.shape[0])
    return out


@njit(cache=True, nogil=True)
def token_counts(data, starts, keys, vals, ranks, results, merges, n_merges):
    """How often each symbol of the first ``n_merges`` merges' grammar is a
    token of the records (``tokens``): a dictionary's code is built on it."""
    ids, _ = tokens(data, starts, keys, vals, ranks, results, n_merges)
    return np.bincount(ids, minlength=N_BYTES + n_merges).astype(np.int64)


@njit(cache=True, nogil=True)
def counts_below(counts, merges, n_merges):
    """``token_counts`` for the first ``n_merges`` merges, from ``counts``,
    the token counts for all of ``merges``: merging by rank, a merge never
    makes a pair of lower rank, so the tokens with fewer merges are those
    with all of them, each later merge's token split into its halves."""
    out = counts.copy()
    for k in range(merges.shape[0] - 1, n_merges - 1, -1):
        s = N_BYTES + k
        out[merges[k, 0]] += out[s]
        out[merges[k, 1]] += out[s]
    return out[:N_BYTES + n_merges]
