"""LZ tokens as sequences: the kernels of the SEQUENCES coding
(``format.codings.sequences``, docs/FORMAT.md section 4.17).

The LZ token loop (``kernels.lz.tokens``) asks at every token whether it
is a literal or a copy, a branch the processor mispredicts often, and
decodes each literal as a link of one serial chain of look-ups.  A
SEQUENCES part holds the same tokens in two sections, as zstd does:

- its **literals**, in four bit streams of one Huffman code, decoded
  first, four independent look-ups in step;
- its **sequences**: a copy's length, how many literals come before it
  (the *run*), and its distance, each code in a bit stream of its own,
  so that a sequence's three look-ups do not wait on each other for
  where their codes start; a sequence moves a run of literals and then
  copies, with no choice per byte.

A length symbol also says whether a run comes before the copy (``2 *
slot + 1``) or none (``2 * slot``), and the run code codes ``run - 1``:
after a copy, the next token is often another copy (a spreadsheet's cells,
a table's rows), and a run code of its own would spend at least a bit on
each such run of nothing, where the length code spends a fraction.  (On
kennedy.xls, whose copies follow copies nine times in ten, a run code
for every sequence coded 19% larger than LZ_PARTS.)

Runs, lengths and distances are coded by slots as LZ's (``kernels.lz``:
``slot``, extra bits after the code), distances with LZ_PARTS's three
repeat distances, so that a parse for LZ_PARTS (``kernels.lz.symbols``)
is a parse for this coding too.
"""
import numpy as np

from . import huffman as _huffman
from .._jit import njit
from .lz import (FIRST_REPS, LITERALS, MAX_CODE, MIN_COPY, PADDING, REPS, SLOTS, _DISTANCE_PAYLOADS,
                 _code_table, _flush, _put, _read_table, _skip, _start, _top, _used, _window,
                 DISTANCE_FLAG, slot, slot_base, slot_extra, with_padding)
from .bits import highest_bit
from .repeats import move
from .unaligned import copy_bytes, load8, store8
from .varint import varint_at

STREAMS = 4  # literal streams a part has
# A part's bit streams: lengths, runs, distances, then the literals in
# STREAMS.
SECTIONS = 3 + STREAMS
LENGTHS, RUNS, DISTANCES, LITERAL_STREAMS = 0, 1, 2, 3
PROBLEMS = (None,
            "SEQUENCES block's parts are malformed or disagree with its size",
            "SEQUENCES block's code-length table is malformed",
            "SEQUENCES block's codes are not complete prefix codes, or not empty where unused",
            "SEQUENCES block's literals disagree with their code or overrun their stream",
            "SEQUENCES block's sequences disagree with their codes or overrun their streams",
            "SEQUENCES block's sequence takes more literals than it has, or passes its part",
            "SEQUENCES block's copy reaches outside it",
            "SEQUENCES block has bits after the last of a stream's codes")
(BAD_PART, BAD_TABLE, BAD_CODE, BAD_LITERALS, BAD_SEQUENCE, BAD_RUN, BAD_COPY,
 BAD_END) = range(1, len(PROBLEMS))


def _payloads(first, flags):
    """The run's or the length's decoding payloads: each symbol's smallest
    value (its slot's, plus ``first``) from bit 6, whether a run comes
    before the copy at bit 5 (if ``flags``: symbols in pairs, the second
    with it), its extra bits below."""
    return np.array([(slot_base(s >> flags) + first) << 6 | (s & flags) << 5
                     | slot_extra(s >> flags) for s in range(SLOTS << flags)], np.int64)


_LITERAL_PAYLOADS = np.arange(LITERALS, dtype=np.int64)
_RUN_PAYLOADS = _payloads(1, 0)
_LENGTH_PAYLOADS = _payloads(MIN_COPY, 1)
LENGTH_SYMBOLS = 2 * SLOTS
# The longest run, length and distance code an encoder writes (the format
# allows MAX_CODE): the sequences' three tables of 2^11 entries of 8 bytes
# took 48 KB, more than a 32 KB L1 cache, and 6,144 entries to fill a
# part.  With 10 bits, the other data's parts decode 2% faster (kernel
# alone) for 0.02% more bytes; 9 bits, 4% for 0.09%
# (benchmarks/sequences.py --longest, docs/notes/2026-12-06-trial-gap-and-tables.md).
SEQUENCE_CODE = 10


# -- encoding -------------------------------------------------------------------

@njit(cache=True, nogil=True)
def pack(literal_symbols, distance_symbols, length_extra, distance_extra, longest):
    """A part from its tokens (``kernels.lz.symbols`` with REPS repeat
    distances), its run, length and distance codes at most ``longest``
    bits (SEQUENCE_CODE): ``(streams, their SECTIONS sizes, literal count,
    sequence count, run slots, length symbols, distance slots)``, the
    streams one after another: the code-length table and the lengths, the
    runs, the distances, the literals in STREAMS."""
    count = literal_symbols.shape[0]
    n_literals = 0
    for t in range(count):
        n_literals += literal_symbols[t] < LITERALS
    n = count - n_literals
    literals = np.empty(n_literals, np.uint8)
    lengths = np.empty(n, np.int64)  # each sequence's length symbol
    runs = np.empty(n, np.int64)
    copies = np.empty(n, np.int64)  # the token of each sequence's copy
    literal_freq = np.zeros(LITERALS, np.int64)
    run_freq = np.zeros(SLOTS, np.int64)
    length_freq = np.zeros(LENGTH_SYMBOLS, np.int64)
    distance_freq = np.zeros(REPS + SLOTS, np.int64)
    li = k = run = 0
    for t in range(count):
        s = literal_symbols[t]
        if s < LITERALS:
            literals[li] = s
            literal_freq[s] += 1
            li += 1
            run += 1
            continue
        runs[k], copies[k] = run, t
        lengths[k] = 2 * (s - LITERALS) + (run > 0)
        if run:
            run_freq[slot(run - 1)] += 1
        length_freq[lengths[k]] += 1
        distance_freq[distance_symbols[t]] += 1
        k += 1
        run = 0
    literal_lengths = _lengths(literal_freq, LITERALS, n_literals, MAX_CODE)
    run_lengths = _lengths(run_freq, 0, run_freq.sum(), longest)
    length_lengths = _lengths(length_freq, 0, n, longest)
    distance_lengths = _lengths(distance_freq, REPS, n, longest)
    # Each sequence's three values as (symbol, extra value, extra bits);
    # a symbol of -1 (a sequence without a run) writes nothing.
    values = np.empty((3, n, 3), np.int64)
    for k in range(n):
        t, m, d = copies[k], lengths[k], distance_symbols[copies[k]]
        _set(values[0, k], m, length_extra[t], slot_extra(m >> 1))
        r = slot(runs[k] - 1)
        if runs[k]:
            _set(values[1, k], r, runs[k] - 1 - slot_base(r), slot_extra(r))
        else:
            _set(values[1, k], -1, 0, 0)
        _set(values[2, k], d, distance_extra[t], slot_extra(d - REPS) if d >= REPS else 0)
    sizes = np.empty(SECTIONS, np.int64)
    pieces = []
    for c, code_lengths in enumerate((length_lengths, run_lengths, distance_lengths)):
        table = np.concatenate((literal_lengths, run_lengths, length_lengths,
                                distance_lengths)) if c == 0 else np.zeros(0, np.uint8)
        pieces.append(_stream(values[c], code_lengths, table))
        sizes[c] = pieces[-1].shape[0]
    literal_streams, sizes[LITERAL_STREAMS:] = _literal_streams(literals, literal_lengths)
    pieces.append(literal_streams)
    streams = np.empty(sizes.sum(), np.uint8)
    at = 0
    for piece in pieces:
        streams[at:at + piece.shape[0]] = piece
        at += piece.shape[0]
    return (streams, sizes, n_literals, n, run_lengths.shape[0], length_lengths.shape[0],
            distance_lengths.shape[0] - REPS)


@njit(cache=True, nogil=True, inline='always')
def _set(row, symbol, extra, extra_bits):
    row[0], row[1], row[2] = symbol, extra, extra_bits


@njit(cache=True, nogil=True)
def _stream(values, lengths, table):
    """The bit stream of ``values`` (rows of symbol, extra value, extra
    bits) in the code of ``lengths``, after the code-length table of
    ``table`` (none if it is empty)."""
    bits = np.int64(0)
    for k in range(values.shape[0]):
        if values[k, 0] >= 0:
            bits += lengths[values[k, 0]] + values[k, 2]
    if table.shape[0]:
        out, acc, nbits, pos = _start(table, bits)
    else:
        out, acc, nbits, pos = np.zeros((bits + 7) // 8, np.uint8), np.uint64(0), 0, 0
    codes = _huffman.canonical_codes(lengths)
    for k in range(values.shape[0]):
        s = values[k, 0]
        if s >= 0:
            acc, nbits, pos = _put(out, acc, nbits, pos, codes[s], lengths[s])
            acc, nbits, pos = _put(out, acc, nbits, pos, values[k, 1], values[k, 2])
    _flush(out, acc, nbits, pos)
    return out


@njit(cache=True, nogil=True)
def _lengths(freq, least, count, most):
    """Code lengths, none longer than ``most``, for ``count`` symbols of
    these frequencies, over the symbols up to the largest used (``least``
    at least, and two, as a code has two codes at least), none past
    ``least`` where ``count`` is 0.

    A decoder fills a table of 2^(longest code) entries for each code:
    for a small part, filling four tables of 2,048 took as long as
    decoding its sequences.  So the longest code is kept to about half
    as many entries as the code has symbols to decode (and to as many as
    it has symbols), which costs a few bytes where a code has few
    symbols to decode and none where it has many."""
    if count == 0:
        return np.zeros(least, np.uint8)
    freq = freq[:_used(freq, max(least, 2))]
    used = 0
    for f in freq:
        used += f > 0
    longest = max(highest_bit(max(count, 1)), highest_bit(max(used - 1, 1)) + 1)
    return _huffman.code_lengths(freq, min(most, longest))


@njit(cache=True, nogil=True)
def _literal_streams(literals, lengths):
    """``(bytes, sizes)``: ``literals`` in the code of ``lengths``, in
    STREAMS streams of ``quarters(len(literals))`` literals, one after
    another, each padded with zero bits to a byte."""
    counts = quarters(literals.shape[0])
    sizes = np.zeros(STREAMS, np.int64)
    first = 0
    for k in range(STREAMS):
        bits = np.int64(0)
        for i in range(first, first + counts[k]):
            bits += lengths[literals[i]]
        sizes[k] = (bits + 7) // 8
        first += counts[k]
    codes = _huffman.canonical_codes(lengths)
    out = np.zeros(sizes.sum(), np.uint8)
    first = at = 0
    for k in range(STREAMS):
        stream = out[at:at + sizes[k]]
        acc, nbits, pos = np.uint64(0), 0, 0
        for i in range(first, first + counts[k]):
            b = literals[i]
            acc, nbits, pos = _put(stream, acc, nbits, pos, codes[b], lengths[b])
        _flush(stream, acc, nbits, pos)
        first += counts[k]
        at += sizes[k]
    return out, sizes


@njit(cache=True, nogil=True, inline='always')
def quarters(n):
    """How many of ``n`` literals each stream holds: a quarter, rounded
    up, in each until they run out."""
    quarter = (n + STREAMS - 1) // STREAMS
    counts = np.empty(STREAMS, np.int64)
    for k in range(STREAMS):
        counts[k] = min(quarter, max(0, n - k * quarter))
    return counts


# -- decoding -------------------------------------------------------------------

@njit(cache=True, nogil=True)
def decode_payload(payload, out):
    """Decode the SEQUENCES payload ``payload`` into ``out``, which it
    must fill exactly; 0 or a problem number (PROBLEMS)."""
    n = payload.shape[0]
    buffer = with_padding(payload)
    literals = np.empty(_most_literals(payload, out.shape[0]) + PADDING, np.uint8)
    reps = np.array(FIRST_REPS, np.int64)
    at = pos = 0
    while pos < out.shape[0]:
        problem, at, pos = _part(payload, buffer, at, out, pos, reps, literals)
        if problem:
            return problem
    return BAD_PART if at != n else 0


@njit(cache=True, nogil=True)
def _head(payload, at):
    """The head of the part at ``payload[at:]``: ``(its size, literal and
    sequence counts; where its three slot counts lie; its SECTIONS stream
    sizes; where its streams begin)``, a count or size -1 where cut short
    or not in its shortest form."""
    counts, at = _varints(payload, at, 3)
    sizes, streams_at = _varints(payload, at + 3, SECTIONS)
    return counts, at, sizes, streams_at


@njit(cache=True, nogil=True)
def _most_literals(payload, size):
    """The most literals a part of ``payload`` declares (at most ``size``),
    as far as its heads can be read.  Each part reuses the literals'
    buffer from its start, so this is all it needs; one as large as the
    block (4 MiB) cost that much memory, and decoding one file again and
    again mapped its pages anew at every call (stdlib.py: 896 page faults,
    a third of the call; docs/notes/2026-12-06-gates-and-buffers.md)."""
    n = payload.shape[0]
    most = at = 0
    while at < n:
        counts, _, sizes, at = _head(payload, at)
        if counts.min() < 0 or sizes.min() < 0 or sizes.max() > n:
            break
        most = max(most, min(counts[1], size))
        at += sizes.sum()
    return most


@njit(cache=True, nogil=True)
def _part(payload, buffer, at, out, pos, reps, literals):
    """The part at ``payload[at:]`` decoded into ``out[pos:]``: ``(0 or a
    problem, where the next part begins, where its bytes end)``."""
    n, size = payload.shape[0], out.shape[0]
    counts, slots_at, sizes, at = _head(payload, at)
    if slots_at + 3 > n:
        return BAD_PART, at, pos
    run_slots = payload[slots_at]
    length_symbols, distance_slots = payload[slots_at + 1], payload[slots_at + 2]
    part, n_literals, n_sequences = counts[0], counts[1], counts[2]
    if (counts.min() < 0 or sizes.min() < 0 or part == 0 or part > size - pos
            or n_literals + MIN_COPY * n_sequences > part
            or n_literals + PADDING > literals.shape[0] or run_slots > SLOTS
            or length_symbols > LENGTH_SYMBOLS or distance_slots > SLOTS
            or sizes.sum() > n - at):
        return BAD_PART, at, pos
    # Where each stream begins and ends, in bits.
    bounds = np.empty(SECTIONS + 1, np.uint64)
    bounds[0] = 8 * at
    for k in range(SECTIONS):
        bounds[k + 1] = bounds[k] + np.uint64(8 * sizes[k])
    lengths = np.empty(LITERALS + run_slots + length_symbols + REPS + distance_slots, np.uint8)
    problem, bitpos = _read_table(buffer, bounds[0], bounds[1], lengths)
    if problem:
        return BAD_TABLE, at, pos
    a, b = LITERALS, LITERALS + run_slots
    c = b + length_symbols
    literal = _table(lengths[:a], _LITERAL_PAYLOADS, n_literals > 0)
    run = _table(lengths[a:b], _RUN_PAYLOADS, False)
    length = _table(lengths[b:c], _LENGTH_PAYLOADS, n_sequences > 0)
    distance = _table(lengths[c:], _DISTANCE_PAYLOADS[REPS], n_sequences > 0)
    if literal[-1] < 0 or run[-1] < 0 or length[-1] < 0 or distance[-1] < 0:
        return BAD_CODE, at, pos
    if not _literals(buffer, bounds[LITERAL_STREAMS:], n_literals, literal, literals):
        return BAD_LITERALS, at, pos
    bounds[0] = bitpos  # the lengths follow the code-length table
    problem = _sequences(buffer, bounds, n_sequences, run, length, distance, literals,
                         n_literals, out, pos, pos + part, reps)
    return problem, at + sizes.sum(), pos + part


@njit(cache=True, nogil=True)
def _varints(payload, at, count):
    """``(values, where they end)``: ``count`` varints from ``payload[at:]``,
    a value -1 where one is cut short or not in its shortest form."""
    values = np.full(count, -1, np.int64)
    for f in range(count):
        value, after = varint_at(payload, at)
        if value < 0:
            break
        values[f], at = value, after
    return values, at


@njit(cache=True, nogil=True)
def _table(lengths, payloads, needed):
    """The decoding table of the code of ``lengths`` (``kernels.lz``'s
    ``_code_table``), its last entry -1 unless the code is complete or,
    where not ``needed``, has no codes: then two entries without a code,
    so that a look-up finds none."""
    empty = True
    for n in lengths:
        empty &= n == 0
    if empty:
        return np.array([0, 0, -1 if needed else 1], np.int64)
    table = _code_table(lengths, payloads)
    if table[-1] == 0:
        table[-1] = -1
    return table


@njit(cache=True, nogil=True)
def _literals(buffer, bounds, n_literals, table, literals):
    """Whether the literal streams between bits ``bounds`` of ``buffer``
    decode, each to its end, into ``literals[:n_literals]``."""
    if n_literals == 0:
        return bounds[0] == bounds[STREAMS]
    counts = quarters(n_literals)
    shift = np.uint64(64 - table[-1])
    starts, ends = bounds[:STREAMS], bounds[1:]
    # Four streams in step, each look-up independent of the other three's;
    # a stream is checked against its end where its window is reloaded,
    # so that an overrun stops within its padding.
    quarter, last = counts[0], counts[3]
    p0, p1, p2, p3 = starts[0], starts[1], starts[2], starts[3]
    w0, a0 = _window(buffer, p0)
    w1, a1 = _window(buffer, p1)
    w2, a2 = _window(buffer, p2)
    w3, a3 = _window(buffer, p3)
    missing = np.int64(0)  # any entry without a code: 0 throughout if none
    for i in range(last):
        if a0 < MAX_CODE:
            if p0 > ends[0]:
                return False
            w0, a0 = _window(buffer, p0)
        if a1 < MAX_CODE:
            if p1 > ends[1]:
                return False
            w1, a1 = _window(buffer, p1)
        if a2 < MAX_CODE:
            if p2 > ends[2]:
                return False
            w2, a2 = _window(buffer, p2)
        if a3 < MAX_CODE:
            if p3 > ends[3]:
                return False
            w3, a3 = _window(buffer, p3)
        e0 = table[w0 >> shift]
        e1 = table[w1 >> shift]
        e2 = table[w2 >> shift]
        e3 = table[w3 >> shift]
        missing |= (e0 == 0) | (e1 == 0) | (e2 == 0) | (e3 == 0)
        literals[i] = e0 >> 4
        literals[quarter + i] = e1 >> 4
        literals[2 * quarter + i] = e2 >> 4
        literals[3 * quarter + i] = e3 >> 4
        w0, a0, p0 = _skip(w0, a0, p0, e0 & 15)
        w1, a1, p1 = _skip(w1, a1, p1, e1 & 15)
        w2, a2, p2 = _skip(w2, a2, p2, e2 & 15)
        w3, a3, p3 = _skip(w3, a3, p3, e3 & 15)
    # The first three streams' literals past the fourth's, one stream at a time.
    positions = np.array([p0, p1, p2, p3], np.uint64)
    for k in range(STREAMS - 1):
        p = positions[k]
        w, a = _window(buffer, p)
        for i in range(last, counts[k]):
            if a < MAX_CODE:
                if p > ends[k]:
                    return False
                w, a = _window(buffer, p)
            e = table[w >> shift]
            missing |= e == 0
            literals[k * quarter + i] = e >> 4
            w, a, p = _skip(w, a, p, e & 15)
        positions[k] = p
    if missing:
        return False
    for k in range(STREAMS):
        if not _ends(buffer, positions[k], ends[k]):
            return False
    return True


@njit(cache=True, nogil=True, inline='always')
def _ends(buffer, bitpos, end):
    """Whether a stream read up to ``bitpos`` ends at ``end``: fewer than
    8 bits left, all zero."""
    if bitpos > end:
        return False
    spare = end - bitpos
    return spare < np.uint64(8) and _top(_window(buffer, bitpos)[0], np.int64(spare)) == 0


RUN_FLAG = 1 << 9  # in a length's entry: a run comes before the copy


@njit(cache=True, nogil=True, inline='always')
def _value(entry, window, bitpos):
    """A length's or a run's value from its code's ``entry`` and the
    ``window`` at its code, and the bit position after its extra bits."""
    n = entry & 15
    extra = (entry >> 4) & 31
    return (entry >> 10) + _top(window << np.uint64(n), extra), bitpos + np.uint64(n + extra)


@njit(cache=True, nogil=True)
def _sequences(buffer, bounds, n_sequences, run, length, distance, literals, n_literals, out,
               pos, part_end, reps):
    """The sequences in the length, run and distance streams between bits
    ``bounds`` of ``buffer``, each a run of ``literals`` and a copy, then
    the literals left, into ``out[pos:part_end]``, which they must fill;
    copies reach back to ``out[0]``.  ``reps`` become the repeat distances
    after."""
    size = out.shape[0]
    length_shift = np.uint64(64 - length[-1])
    run_shift = np.uint64(64 - run[-1])
    distance_shift = np.uint64(64 - distance[-1])
    length_at, run_at, distance_at = bounds[LENGTHS], bounds[RUNS], bounds[DISTANCES]
    length_end, run_end, distance_end = bounds[RUNS], bounds[DISTANCES], bounds[LITERAL_STREAMS]
    r0, r1, r2 = np.int64(reps[0]), np.int64(reps[1]), np.int64(reps[2])
    li = 0
    for _ in range(n_sequences):
        # A sequence reads at most 35 bits of each stream: an overrun shows
        # here, before the padding runs out.
        if length_at > length_end or run_at > run_end or distance_at > distance_end:
            return BAD_SEQUENCE
        length_window = _window(buffer, length_at)[0]
        run_window = _window(buffer, run_at)[0]
        distance_window = _window(buffer, distance_at)[0]
        entry = length[length_window >> length_shift]
        run_entry = run[run_window >> run_shift]
        distance_entry = distance[distance_window >> distance_shift]
        if entry == 0 or distance_entry == 0:
            return BAD_SEQUENCE
        copy, length_at = _value(entry, length_window, length_at)
        count = 0
        if entry & RUN_FLAG:
            if run_entry == 0:
                return BAD_SEQUENCE
            count, run_at = _value(run_entry, run_window, run_at)
        n = distance_entry & 15
        distance_at += np.uint64(n)
        p = distance_entry >> 4
        if p & DISTANCE_FLAG:
            extra = (p >> 1) & 31
            r2 = r1
            r1 = r0
            r0 = (p >> 6) + _top(distance_window << np.uint64(n), extra)
            distance_at += np.uint64(extra)
        elif p:  # a repeat other than the latest, moved to the front
            d = r1
            if p == 4:
                d = r2
                r2 = r1
            r1 = r0
            r0 = d
        if count > n_literals - li or count + copy > part_end - pos:
            return BAD_RUN
        # The run, then the copy, 16 bytes at a time where both have room
        # past their ends (what is written there is written again after).
        if pos + count + 16 <= size:
            store8(out, pos, load8(literals, li))
            store8(out, pos + 8, load8(literals, li + 8))
            k = 16
            while k < count:
                store8(out, pos + k, load8(literals, li + k))
                k += 8
        else:
            copy_bytes(out, pos, literals, li, count)
        pos += count
        li += count
        if r0 > pos:
            return BAD_COPY
        # written out as ``kernels.lz.tokens`` writes it: the same code
        # as an inlined function decoded 9% slower
        if r0 >= 8 and pos + copy + 16 <= size:
            store8(out, pos, load8(out, pos - r0))
            store8(out, pos + 8, load8(out, pos - r0 + 8))
            k = 16
            while k < copy:
                store8(out, pos + k, load8(out, pos - r0 + k))
                k += 8
        else:
            move(out, pos, pos - r0, copy)
        pos += copy
    reps[0], reps[1], reps[2] = r0, r1, r2
    if n_literals - li != part_end - pos:
        return BAD_RUN
    copy_bytes(out, pos, literals, li, n_literals - li)
    if not (_ends(buffer, length_at, length_end) and _ends(buffer, run_at, run_end)
            and _ends(buffer, distance_at, distance_end)):
        return BAD_END
    return 0
