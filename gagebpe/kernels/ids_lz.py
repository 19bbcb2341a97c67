"""The kernels of the DICTIONARY_IDS_LZ coding (docs/FORMAT.md, section
4.18): a record as the dictionary's ids and copies, the copies reaching
back into its content as DICTIONARY_LZ's do.

A grammar of ids codes what recurs in short pieces (a field name, a word)
and a copy what recurs whole (a line the samples held once); a record
has both, and each coding alone pays for the other's pieces in its own
small units: bytes for LZ, ids for the grammar.  The code of this coding's
first symbols is made from the two codes the dictionary already has, so
that a dictionary holds nothing more for it (``code_lengths``).
"""
import numpy as np

from .._jit import njit
from . import huffman as _huffman, lz as _lz
from .expand import copy_within, phrase_length, phrase_offset
from .repeats import move
from .unaligned import load8, load8_be, store8
from .shortest_parse import _ROOT, _NONE, _child, path

SLOTS = _lz.SLOTS
REPS = _lz.REPS
# The ids take ID_SHARE parts of the code's weight, the copies' length
# slots one (docs/notes/2026-12-06-ids-and-copies.md measures others).
ID_SHARE = 3


@njit(cache=True, nogil=True)
def code_lengths(id_lengths, literal_lengths, share=ID_SHARE):
    """The lengths of the block code of a dictionary whose ids have the
    code ``id_lengths`` and whose content the literal/length code
    ``literal_lengths`` (section 4.16): Huffman's over the ids, then the
    SLOTS length slots, ``share`` times each id's weight 2^-length to the
    slots' together, the slots shared by their own 2^-length; empty where
    no slot has a code, or the symbols are too many for MAX_LENGTH bits.
    The format's share is ID_SHARE; another makes a code only to measure
    (``benchmarks/dictionary_share.py``)."""
    n = id_lengths.shape[0]
    slot_total = np.int64(0)
    for t in range(SLOTS):
        m = literal_lengths[_lz.LITERALS + t]
        if m:
            slot_total += np.int64(1) << (_lz.MAX_CODE - m)
    weights = np.zeros(n + SLOTS, np.int64)
    used = 0
    for s in range(n):
        if id_lengths[s]:
            weights[s] = share * slot_total << (_huffman.MAX_LENGTH - id_lengths[s])
            used += 1
    for t in range(SLOTS):
        m = literal_lengths[_lz.LITERALS + t]
        if m:
            weights[n + t] = np.int64(1) << (_huffman.MAX_LENGTH + _lz.MAX_CODE - m)
            used += 1
    if slot_total == 0 or used > 1 << _huffman.MAX_LENGTH:
        return np.zeros(0, np.uint8)
    return _huffman.code_lengths(weights, _huffman.MAX_LENGTH)


# -- encoding -----------------------------------------------------------------------

@njit(cache=True, nogil=True)
def parse(data, c, found, sizes, edges, symbols, price, distance_price):
    """The cheapest tokens of the record ``data[c:]`` after the content
    ``data[:c]``, given its matches ``found``
    (``kernels.primed_lz.content_matches``), at these prices (``price`` of
    the ids then the length slots, ``distance_price`` of the distance
    symbols; extra bits added here): ``(lengths, distances, ids)`` per
    token, distance 0 for an id."""
    return _parse(data, c, found, sizes, edges, symbols, price, distance_price, _NO_BITS,
                  False)[0]


@njit(cache=True, nogil=True)
def parse_both(data, c, found, sizes, edges, symbols, price, distance_price, bits):
    """``(parse's tokens, DICTIONARY_IDS's symbols)``: the record's
    DICTIONARY_IDS parse (``kernels.shortest_parse.shortest``, by the trie's
    ``bits``) made on the same walk of the trie as this coding's, which is
    what both cost most."""
    return _parse(data, c, found, sizes, edges, symbols, price, distance_price, bits, True)


_NO_BITS = np.zeros(0, np.int64)


@njit(cache=True, nogil=True, inline='always')
def _parse(data, c, found, sizes, edges, symbols, price, distance_price, bits, with_ids):
    """``parse``, and where ``with_ids``, ``shortest``'s parse of the record
    too: each position's walk of the trie feeds both (a position inside
    a long copy, which this coding does not leave from, still feeds
    ``shortest``'s)."""
    n = data.shape[0] - c
    n_ids = price.shape[0] - SLOTS
    starts, lengths, distances = found
    cost = np.full(n + 1, np.inf)
    cost[0] = 0.0
    step = np.zeros(n + 1, np.int32)
    source = np.zeros(n + 1, np.int32)
    came_by = np.zeros(n + 1, np.int32)
    path_reps = np.empty((n + 1, REPS), np.int32)
    path_reps[0, 0], path_reps[0, 1], path_reps[0, 2] = _lz.FIRST_REPS
    m = n + 1 if with_ids else 1
    id_cost = np.full(m, np.int64(1) << 62, np.int64)
    id_cost[0] = 0
    id_came_by = np.zeros(m, np.int32)
    # The length slots' prices where ``kernels.lz``'s offers look for them.
    slot_price = np.zeros(_lz.LITERALS + SLOTS)
    slot_price[_lz.LITERALS:] = price[n_ids:]
    length_price = _lz.length_prices(price[n_ids:], n)
    resume = 0  # past a long match, positions inside it are not left from
    for i in range(n):
        leaves = i >= resume
        if not leaves and not with_ids:
            continue
        here = cost[i]
        if leaves and i:
            back = i - step[i]
            r0, r1, r2 = path_reps[back, 0], path_reps[back, 1], path_reps[back, 2]
            if source[i]:
                r0, r1, r2 = _lz._moved(r0, r1, r2, source[i])
            path_reps[i, 0], path_reps[i, 1], path_reps[i, 2] = r0, r1, r2
        node = _ROOT
        for j in range(c + i, c + n):  # the ids whose phrases start here
            node = _child(edges, symbols, node, data[j])
            if node == _NONE:
                break
            s = symbols[node]
            if s != _NONE:
                at = j + 1 - c
                if leaves and here + price[s] < cost[at]:
                    cost[at], step[at], source[at], came_by[at] = here + price[s], at - i, 0, s
                if with_ids and id_cost[i] + bits[node] < id_cost[at]:
                    id_cost[at], id_came_by[at] = id_cost[i] + bits[node], s
        if not leaves or n - i < _lz.MIN_COPY:
            continue
        longest = 0
        for r in range(REPS):
            d = path_reps[i, r]
            if d <= c + i:
                length = _lz._match_length(data, c + i, c + i - d, n - i)
                _lz._offer(cost, step, source, i, _lz.MIN_COPY, length, d,
                           here + distance_price[r], slot_price, length_price)
                longest = max(longest, length)
        shorter = _lz.MIN_COPY - 1
        for k in range(starts[i], starts[i + 1]):
            d = distances[k]
            ds = _lz.slot(d - 1)
            _lz._offer(cost, step, source, i, shorter + 1, lengths[k], d,
                       here + distance_price[REPS + ds] + _lz.slot_extra(ds), slot_price,
                       length_price)
            shorter = lengths[k]
            longest = max(longest, shorter)
        # Past a long match, positions inside it are not tried (as in
        # ``kernels.lz.parse``): its end is reached from here or not at all.
        if longest >= _lz.NICE:
            resume = i + longest
    count, at = 0, n
    while at > 0:
        at -= step[at]
        count += 1
    token_lengths = np.empty(count, np.int32)
    token_distances = np.empty(count, np.int32)
    token_ids = np.empty(count, np.int32)
    at = n
    for t in range(count - 1, -1, -1):
        token_lengths[t], token_distances[t], token_ids[t] = step[at], source[at], came_by[at]
        at -= step[at]
    ids = path(id_came_by, sizes, n) if with_ids else np.empty(0, np.int32)
    return (token_lengths, token_distances, token_ids), ids


@njit(cache=True, nogil=True)
def write(out, token_lengths, token_distances, token_ids, codes, lengths, distance_codes,
           distance_lengths):
    """The tokens in these codes into ``out``, byte-padded."""
    n_ids = codes.shape[0] - SLOTS
    reps = np.array(_lz.FIRST_REPS, np.int64)
    acc, nbits, pos = np.uint64(0), np.int64(0), 0
    for t in range(token_lengths.shape[0]):
        if token_distances[t] == 0:
            s = token_ids[t]
            acc, nbits, pos = _lz._put(out, acc, nbits, pos, codes[s], lengths[s])
            continue
        symbol, length_extra, d, distance_extra = _lz.copy_symbols(
            token_lengths[t], token_distances[t], reps, REPS)
        s = n_ids + symbol - _lz.LITERALS
        acc, nbits, pos = _lz._put(out, acc, nbits, pos, codes[s], lengths[s])
        acc, nbits, pos = _lz._put(out, acc, nbits, pos, length_extra,
                                   _lz.slot_extra(symbol - _lz.LITERALS))
        acc, nbits, pos = _lz._put(out, acc, nbits, pos, distance_codes[d], distance_lengths[d])
        if d >= REPS:
            acc, nbits, pos = _lz._put(out, acc, nbits, pos, distance_extra,
                                       _lz.slot_extra(d - REPS))
    _lz._flush(out, acc, nbits, pos)


@njit(cache=True, nogil=True)
def written_bits(token_lengths, token_distances, token_ids, lengths, distance_lengths):
    """The bits ``write`` writes for these tokens."""
    n_ids = lengths.shape[0] - SLOTS
    reps = np.array(_lz.FIRST_REPS, np.int64)
    bits = np.int64(0)
    for t in range(token_lengths.shape[0]):
        if token_distances[t] == 0:
            bits += lengths[token_ids[t]]
            continue
        symbol, _, d, _ = _lz.copy_symbols(token_lengths[t], token_distances[t], reps, REPS)
        bits += lengths[n_ids + symbol - _lz.LITERALS] + _lz.slot_extra(symbol - _lz.LITERALS)
        bits += distance_lengths[d] + (_lz.slot_extra(d - REPS) if d >= REPS else 0)
    return bits


# -- decoding -----------------------------------------------------------------------

def decoding_tables(lengths, distance_lengths, phrase_entries):
    """``(table, distance table)``: the two-level decoding tables
    (``kernels.huffman.decode_table``) of the block code, whose id ``s``
    decodes to ``phrase_entries[s] << 1`` and slot ``t`` to ``t << 1 | 1``,
    and of the distance code, each symbol to itself."""
    n_ids = lengths.shape[0] - SLOTS
    payloads = np.concatenate((phrase_entries[:n_ids] << 1,
                               np.arange(SLOTS, dtype=np.int64) << 1 | 1))
    return (_huffman.decode_table(lengths, payloads),
            _huffman.decode_table(distance_lengths,
                                  np.arange(distance_lengths.shape[0], dtype=np.int64)))


@njit(cache=True, nogil=True, inline='always')
def _refill(data, at, word, valid):
    """``(word, valid, at)``: the bit window ``word`` (its ``valid`` top
    bits read, the next byte of ``data`` at ``at``) topped up to at least
    56 bits; zeros past the end of ``data``, whose last 8 bytes are read
    a byte at a time."""
    if at + 8 <= data.shape[0]:
        word |= load8_be(data, at) >> np.uint64(valid)
    else:
        last = np.uint64(0)
        for k in range(at, at + 8):
            last = (last << np.uint64(8)) | np.uint64(data[k] if k < data.shape[0] else 0)
        word |= last >> np.uint64(valid)
    return word, valid | 56, at + ((63 - valid) >> 3)


@njit(cache=True, nogil=True, inline='always')
def _take(word, valid, n):
    """``(the top n bits of word, word, valid)`` after they are read."""
    return _lz._top(word, n), word << np.uint64(n), valid - n


@njit(cache=True, nogil=True, inline='always')
def _copy_ahead(out, pos, source, at, length):
    """``out[pos:pos + length] = source[at:at + length]``, 16 bytes and
    then 8 at a time, reading and writing up to 15 bytes past both ends
    (the caller leaves that room; the tokens after it write those bytes
    again); where ``source`` is ``out``, ``at`` lies at least 8 bytes
    before ``pos``.  A loop that stops at the exact length exits at a
    count that varies, a branch mispredicted on most short copies; and a
    copy from the content is too short for a call to ``memcpy`` to pay.
    (``kernels.lz`` and ``kernels.sequences`` write the same copy out:
    inlined there, it decoded their blocks slower.)"""
    store8(out, pos, load8(source, at))
    store8(out, pos + 8, load8(source, at + 8))
    k = 16
    while k < length:
        store8(out, pos + k, load8(source, at + k))
        k += 8


@njit(cache=True, nogil=True)
def decode(data, first, last, out, pos, size, table, distance_table, phrases, content):
    """Decode the payload ``data[first:last]`` into ``out[pos:pos + size]``;
    whether it is exactly that many bytes' tokens and zero padding.  Its
    bits are kept in a word topped up where a code might not fit what is
    left (twice more in a copy, for its extra bits), so that a code's
    look-up mostly waits on a shift, not a load; nothing need follow the
    payload."""
    end_bit = np.int64(8) * last
    start, end = np.int64(pos), np.int64(pos) + np.int64(size)
    before = content.shape[0]
    r0, r1, r2 = np.int64(1), np.int64(2), np.int64(3)
    at, word, valid = np.int64(first), np.uint64(0), np.int64(0)
    while pos < end:
        if valid < _huffman.MAX_LENGTH:
            word, valid, at = _refill(data, at, word, valid)
        entry, n = _huffman.peek_in(word, table, np.int64(0))
        if n == 0:
            return False
        word, valid = word << np.uint64(n), valid - n
        if 8 * at - valid > end_bit:
            return False
        if not entry & 1:  # an id: its phrase
            length = phrase_length(entry >> 1)
            if length > np.uint64(end - pos):
                return False
            copy_within(out, np.uint64(pos), phrases, phrase_offset(entry >> 1), length,
                        np.uint64(end))
            pos += np.int64(length)
            continue
        s = entry >> 1  # a copy
        word, valid, at = _refill(data, at, word, valid)
        extra, word, valid = _take(word, valid, _lz.slot_extra(s))
        length = _lz.MIN_COPY + _lz.slot_base(s) + extra
        word, valid, at = _refill(data, at, word, valid)
        # A distance code has at most 11 bits (section 10): the table's
        # first level holds them all, one look-up.
        entry = distance_table[word >> np.uint64(64 - _huffman.FAST_BITS)]
        symbol, n = entry >> _huffman.LENGTH_BITS, entry & _huffman.LENGTH_MASK
        if n == 0 or n > _lz.MAX_CODE:
            return False
        word, valid = word << np.uint64(n), valid - n
        if symbol >= REPS:
            extra, word, valid = _take(word, valid, _lz.slot_extra(symbol - REPS))
            r0, r1, r2 = _lz.slot_base(symbol - REPS) + 1 + extra, r0, r1
        elif symbol == 1:
            r0, r1 = r1, r0
        elif symbol == 2:
            r0, r1, r2 = r2, r0, r1
        if 8 * at - valid > end_bit or length > end - pos or r0 > pos - start + before:
            return False
        if r0 > pos - start:
            source = before - (r0 - (pos - start))
            if source + length + 16 <= before and pos + length + 16 <= end:
                _copy_ahead(out, pos, content, source, length)
            else:
                _lz._copy_from_content(out, start, pos, r0, length, content)
        elif r0 >= 8 and pos + length + 16 <= end:
            _copy_ahead(out, pos, out, pos - r0, length)
        else:
            move(out, pos, pos - r0, length)
        pos += length
    spare = end_bit - (8 * at - valid)
    return spare < 8 and not (spare and data[last - 1] & ((1 << spare) - 1))
