"""A sketch, not a coding of the format: how fast would LZ tokens decode
as zstd decodes them -- literals first, from four interleaved Huffman
streams, then sequences (literal run, length, distance) that copy runs
of them -- against today's LZ token loop, on the same parse?  (Issue 55,
target 5; docs/notes/2026-12-05-sequences-sketch.md.)

    python benchmarks/sequences_sketch.py [--rounds 7] [--chunk 4096]

Chunks of the six Canterbury text files (the built-in sample where the
corpus is absent) are parsed once, as level 6 parses an LZ block; the
same tokens are coded both ways, their code-length tables written by the
LZ coding's table writer.  Each way's decoding (tables, then tokens or
literals and sequences) runs in one compiled loop over every chunk,
checked against the chunk; medians of rounds, microseconds per chunk.
"""
import argparse

import numpy as np
from numba import njit

from gagebpe.format.codings import lz as lz_coding
from gagebpe.kernels import huffman, lz
from gagebpe.kernels.unaligned import load8, store8
from gagebpe.encoder.levels import FULL

from chunk_stages import chunks, per_chunk as median_time

LITERALS, SLOTS, MAX_CODE, MIN_COPY = lz.LITERALS, lz.SLOTS, lz.MAX_CODE, lz.MIN_COPY
STREAMS = 4


def parsed(chunk):
    """The tokens of the smallest of FULL's passes, as ``lz_coding._encode_small`` finds."""
    array = np.frombuffer(chunk, np.uint8)
    head, chain = lz.finder(len(array), False)
    found = lz.matches(array, 0, len(array), head, chain, FULL.candidates, False)
    prices = lz_coding.first_prices(array, 1)
    best = None
    for _ in range(FULL.passes):
        tokens = lz.parse(array, 0, len(array), *found, lz_coding._first_reps(), 1, *prices)
        stream, literal_lengths, distance_lengths = lz_coding._pack(
            *lz.symbols(array, 0, lz_coding._first_reps(), 1, *tokens), 1)
        if best is None or len(stream) < best[0]:
            best = len(stream), tokens, stream
        prices = lz_coding._prices(literal_lengths, distance_lengths, 1)
    return best[1], best[2]


@njit(cache=False)
def sequences_of(data, token_lengths, token_distances):
    """``(literals, runs, copy lengths, distances)``: the tokens as
    sequences, the literals after the last copy left in ``literals``."""
    count = 0
    for d in token_distances:
        count += d != 0
    runs = np.empty(count, np.int64)
    lengths = np.empty(count, np.int64)
    distances = np.empty(count, np.int64)
    literals = np.empty(token_lengths.shape[0], np.uint8)
    pos = run = k = n_literals = 0
    for t in range(token_lengths.shape[0]):
        if token_distances[t] == 0:
            literals[n_literals] = data[pos]
            n_literals += 1
            run += 1
        else:
            runs[k], lengths[k], distances[k] = run, token_lengths[t], token_distances[t]
            k += 1
            run = 0
        pos += token_lengths[t]
    return literals[:n_literals], runs, lengths, distances


@njit(cache=False)
def _slots(values):
    symbols = np.empty(values.shape[0], np.int64)
    extra = np.empty(values.shape[0], np.int64)
    for i in range(values.shape[0]):
        s = lz.slot(values[i])
        symbols[i], extra[i] = s, values[i] - lz.slot_base(s)
    return symbols, extra


@njit(cache=False)
def _distance_symbols(distances):
    reps = np.array(lz.FIRST_REPS, np.int32)
    symbols = np.empty(distances.shape[0], np.int64)
    extra = np.zeros(distances.shape[0], np.int64)
    for i in range(distances.shape[0]):
        d = distances[i]
        if reps[0] == d:
            symbols[i] = 0
        else:
            s = lz.slot(d - 1)
            symbols[i], extra[i] = 1 + s, d - 1 - lz.slot_base(s)
        lz.move_to_front(reps, d)
    return symbols, extra


def _lengths(symbols, size):
    freq = np.bincount(symbols, minlength=size)[:max(size, 1)]
    used = max(int(np.flatnonzero(freq).max()) + 1 if freq.any() else 1, 2)
    return huffman.code_lengths(freq[:used], MAX_CODE) if freq.any() else np.zeros(2, np.uint8)


@njit(cache=False)
def _write(symbols, extra, codes, lengths, extra_bits, total):
    """One stream of ``symbols`` in ``codes``, each followed by its
    ``extra`` value in ``extra_bits[symbol]`` bits (none where
    ``extra_bits`` is empty)."""
    out = np.zeros((total + 7) // 8 + 8, np.uint8)
    acc, nbits, pos = np.uint64(0), 0, 0
    for i in range(symbols.shape[0]):
        s = symbols[i]
        acc, nbits, pos = lz._put(out, acc, nbits, pos, codes[s], lengths[s])
        if extra_bits.shape[0]:
            acc, nbits, pos = lz._put(out, acc, nbits, pos, extra[i], extra_bits[s])
    lz._flush(out, acc, nbits, pos)
    return out[:(total + 7) // 8]


def encode(chunk, tokens, joint=False):
    """The sketch's streams of ``chunk``: the code-length table, the four
    literal streams, the sequence stream (each padded for whole-word
    reads), and the counts the decoder is given.  ``joint``: a sequence's
    run and length are one symbol of a code over both slots, as brotli's
    insert-and-copy commands are."""
    array = np.frombuffer(chunk, np.uint8)
    literals, runs, lengths, distances = sequences_of(array, *tokens)
    run_symbols, run_extra = _slots(runs)
    length_symbols, length_extra = _slots(lengths - MIN_COPY)
    distance_symbols, distance_extra = _distance_symbols(distances)
    literal_lengths = _lengths(literals.astype(np.int64), LITERALS)
    literal_lengths = np.concatenate([literal_lengths,
                                      np.zeros(LITERALS - len(literal_lengths), np.uint8)])
    if joint:
        run_symbols = run_symbols * JOINT + length_symbols
        run_extra = run_extra << JOINT_EXTRA[length_symbols] | length_extra
        length_symbols = length_symbols[:0]
    run_lengths = _lengths(run_symbols, JOINT * JOINT if joint else SLOTS)
    length_lengths = _lengths(length_symbols, SLOTS) if not joint else np.zeros(0, np.uint8)
    distance_lengths = _lengths(distance_symbols, 1 + SLOTS)
    all_lengths = np.concatenate([literal_lengths, run_lengths, length_lengths, distance_lengths])
    out, acc, nbits, pos = lz._start(all_lengths, 0)
    lz._flush(out, np.uint64(acc), nbits, pos)
    table = lz.with_padding(out)
    slot_extra = np.array([lz.slot_extra(s) for s in range(SLOTS)], np.int64)
    distance_extra_bits = np.concatenate([[0], slot_extra])
    literal_codes = huffman.canonical_codes(literal_lengths)
    quarter = -(-len(literals) // STREAMS)
    streams = []
    for k in range(STREAMS):
        part = literals[k * quarter:(k + 1) * quarter].astype(np.int64)
        bits = int(literal_lengths[part].sum())
        streams.append(_write(part, part, literal_codes, literal_lengths,
                              np.zeros(0, np.int64), bits))
    starts = np.cumsum([0] + [len(s) + lz.PADDING for s in streams])
    literal_streams = np.concatenate([lz.with_padding(s) for s in streams])
    # a sequence's codes in turn (run, length, distance; or run and length
    # as one, then distance), in one stream: each code's symbols numbered
    # after the one's before, so that one alphabet holds them all
    n = len(runs)
    codes = ([(run_symbols, run_extra, run_lengths,
               JOINT_RUN_EXTRA if joint else slot_extra, JOINT * JOINT if joint else SLOTS)]
             + ([] if joint else [(length_symbols, length_extra, length_lengths, slot_extra,
                                   SLOTS)])
             + [(distance_symbols, distance_extra, distance_lengths, distance_extra_bits,
                 1 + SLOTS)])
    symbols = np.empty(len(codes) * n, np.int64)
    extra = np.empty(len(codes) * n, np.int64)
    all_code_lengths, all_codes, all_extra, base = [], [], [], 0
    for k, (symbol, value, code_lengths, extra_bits, size) in enumerate(codes):
        symbols[k::len(codes)], extra[k::len(codes)] = base + symbol, value
        padded = np.zeros(size, np.uint8)
        padded[:len(code_lengths)] = code_lengths
        all_code_lengths.append(padded)
        all_codes.append(huffman.canonical_codes(padded))
        all_extra.append(extra_bits)
        base += size
    joint_lengths, joint_codes = np.concatenate(all_code_lengths), np.concatenate(all_codes)
    joint_extra = np.concatenate(all_extra)
    bits = int((joint_lengths[symbols].astype(np.int64) + joint_extra[symbols]).sum())
    sequence_stream = lz.with_padding(_write(symbols, extra, joint_codes, joint_lengths,
                                             joint_extra, bits))
    counts = np.array([len(literals), quarter, n, len(run_lengths), len(length_lengths),
                       len(distance_lengths), len(chunk), 8 * len(out), joint], np.int64)
    size = len(out) + sum(len(s) for s in streams) + (bits + 7) // 8
    return table, literal_streams, starts, sequence_stream, counts, size


def _payloads():
    run = np.array([lz.slot_base(s) << 5 | lz.slot_extra(s) for s in range(SLOTS)], np.int64)
    length = np.array([(lz.slot_base(s) + MIN_COPY) << 5 | lz.slot_extra(s)
                       for s in range(SLOTS)], np.int64)
    return run, length


RUN_PAYLOADS, LENGTH_PAYLOADS = _payloads()
# The joint code: a run's slot and a length's, JOINT of each (runs and
# lengths below 16 KiB); an entry holds both extra bit counts and bases.
JOINT = 28
JOINT_EXTRA = np.array([lz.slot_extra(s) for s in range(JOINT)], np.int64)
JOINT_RUN_EXTRA = np.add.outer(JOINT_EXTRA, JOINT_EXTRA).ravel()
JOINT_PAYLOADS = np.array([lz.slot_extra(r) | lz.slot_extra(m) << 4 | lz.slot_base(r) << 8
                           | (lz.slot_base(m) + MIN_COPY) << 24
                           for r in range(JOINT) for m in range(JOINT)], np.int64)
LITERAL_PAYLOADS = np.arange(LITERALS, dtype=np.int64)
DISTANCE_PAYLOADS = lz._DISTANCE_PAYLOADS[1]


@njit(cache=False, inline='always')
def _value(table, shift, window, avail, bitpos, padded):
    """A slot's value: its code's entry, then its extra bits."""
    if avail < MAX_CODE + 25:
        window, avail = lz._window(padded, bitpos)
    entry = table[window >> shift]
    # the extra bits from the same window, and one skip over code and extra
    n = entry & 15
    p = entry >> 4
    extra = p & 31
    value = (p >> 5) + lz._top(window << np.uint64(n), extra)
    window, avail, bitpos = lz._skip(window, avail, bitpos, n + extra)
    return value, window, avail, bitpos


@njit(cache=False)
def decode(table_stream, literal_streams, starts, sequences, counts, out, literals, stages=3):
    """The chunk from the sketch's streams into ``out``: 0, or 1 where a
    code is bad."""
    n_literals, quarter, n, run_slots, length_slots, distance_slots, size, table_end, joint = counts
    lengths = np.empty(LITERALS + run_slots + length_slots + distance_slots, np.uint8)
    problem, _ = lz._read_table(table_stream, np.uint64(0), np.uint64(table_end), lengths)
    if problem:
        return 1
    literal = lz._code_table(lengths[:LITERALS], LITERAL_PAYLOADS)
    run = lz._code_table(lengths[LITERALS:LITERALS + run_slots],
                         JOINT_PAYLOADS if joint else RUN_PAYLOADS)
    at = LITERALS + run_slots
    length = run
    if not joint:
        length = lz._code_table(lengths[at:at + length_slots], LENGTH_PAYLOADS)
    distance = lz._code_table(lengths[at + length_slots:], DISTANCE_PAYLOADS)
    if literal[-1] == 0 or (n and (run[-1] == 0 or length[-1] == 0 or distance[-1] == 0)):
        return 1
    if stages < 2:
        return 0
    # Literals: four streams in step, each look-up independent of the others.
    shift = np.uint64(64 - literal[-1])
    p0, p1 = np.uint64(8 * starts[0]), np.uint64(8 * starts[1])
    p2, p3 = np.uint64(8 * starts[2]), np.uint64(8 * starts[3])
    w0, a0 = lz._window(literal_streams, p0)
    w1, a1 = lz._window(literal_streams, p1)
    w2, a2 = lz._window(literal_streams, p2)
    w3, a3 = lz._window(literal_streams, p3)
    last = n_literals - 3 * quarter  # the fourth stream's literals
    for i in range(quarter):
        if a0 < MAX_CODE:
            w0, a0 = lz._window(literal_streams, p0)
        if a1 < MAX_CODE:
            w1, a1 = lz._window(literal_streams, p1)
        if a2 < MAX_CODE:
            w2, a2 = lz._window(literal_streams, p2)
        if a3 < MAX_CODE:
            w3, a3 = lz._window(literal_streams, p3)
        e0 = literal[w0 >> shift]
        e1 = literal[w1 >> shift]
        e2 = literal[w2 >> shift]
        e3 = literal[w3 >> shift]
        literals[i] = e0 >> 4
        literals[quarter + i] = e1 >> 4
        literals[2 * quarter + i] = e2 >> 4
        w0, a0, p0 = lz._skip(w0, a0, p0, e0 & 15)
        w1, a1, p1 = lz._skip(w1, a1, p1, e1 & 15)
        w2, a2, p2 = lz._skip(w2, a2, p2, e2 & 15)
        if i < last:
            literals[3 * quarter + i] = e3 >> 4
            w3, a3, p3 = lz._skip(w3, a3, p3, e3 & 15)
    if stages < 3:
        return 0
    # Sequences: a run of literals, then a copy; no literal-or-copy choice.
    run_shift = np.uint64(64 - run[-1])
    length_shift = np.uint64(64 - length[-1])
    distance_shift = np.uint64(64 - distance[-1])
    bitpos = np.uint64(0)
    window, avail = lz._window(sequences, bitpos)
    pos = li = 0
    r0 = np.int64(lz.FIRST_REPS[0])
    for _ in range(n):
        # a reload at each sequence: a branch taken every other time costs
        # more than the load
        window, avail = lz._window(sequences, bitpos)
        if joint:
            # one look-up for both, their extra bits read together
            entry = run[window >> run_shift]
            n_bits = entry & 15
            p = entry >> 4
            run_extra, length_extra = p & 15, (p >> 4) & 15
            v = lz._top(window << np.uint64(n_bits), run_extra + length_extra)
            count = ((p >> 8) & 0xFFFF) + (v >> length_extra)
            copy = (p >> 24) + (v & ((1 << length_extra) - 1))
            window, avail, bitpos = lz._skip(window, avail, bitpos,
                                             n_bits + run_extra + length_extra)
        else:
            count, window, avail, bitpos = _value(run, run_shift, window, avail, bitpos,
                                                  sequences)
            copy, window, avail, bitpos = _value(length, length_shift, window, avail, bitpos,
                                                 sequences)
        if avail < MAX_CODE + 25:
            window, avail = lz._window(sequences, bitpos)
        entry = distance[window >> distance_shift]
        window, avail, bitpos = lz._skip(window, avail, bitpos, entry & 15)
        p = entry >> 4
        if p & lz.DISTANCE_FLAG:
            extra = (p >> 1) & 31
            r0 = (p >> 6) + lz._top(window, extra)
            window, avail, bitpos = lz._skip(window, avail, bitpos, extra)
        if count > size - pos or count > n_literals - li or copy > size - pos - count:
            return 1
        # the run, 16 bytes at a time where both sides have room past it
        if pos + count + 16 <= size:
            store8(out, pos, load8(literals, li))
            store8(out, pos + 8, load8(literals, li + 8))
            k = 16
            while k < count:
                store8(out, pos + k, load8(literals, li + k))
                k += 8
        else:
            out[pos:pos + count] = literals[li:li + count]
        pos += count
        li += count
        if r0 > pos:
            return 1
        if r0 >= 8 and pos + copy + 16 <= size:
            store8(out, pos, load8(out, pos - r0))
            store8(out, pos + 8, load8(out, pos - r0 + 8))
            k = 16
            while k < copy:
                store8(out, pos + k, load8(out, pos - r0 + k))
                k += 8
        else:
            for k in range(copy):
                out[pos + k] = out[pos + k - r0]
        pos += copy
    rest = n_literals - li
    if rest != size - pos:
        return 1
    out[pos:size] = literals[li:n_literals]
    return 0


@njit(cache=False)
def decode_all(tables, streams, starts, sequences, counts, offsets, out, literals, stages=3):
    bad = 0
    for k in range(counts.shape[0]):
        # copied, as a decoder copies its payload to pad it
        t = tables[offsets[k, 0]:offsets[k + 1, 0]].copy()
        s = streams[offsets[k, 1]:offsets[k + 1, 1]].copy()
        q = sequences[offsets[k, 2]:offsets[k + 1, 2]].copy()
        bad += decode(t, s, starts[k], q, counts[k], out[k], literals, stages)
    return bad


@njit(cache=False)
def decode_lz_all(payloads, offsets, out):
    """Today's LZ decoding of each chunk: code-length table, tables, tokens."""
    bad = 0
    for k in range(offsets.shape[0] - 1):
        payload = payloads[offsets[k]:offsets[k + 1]]
        end = 8 * (payload.shape[0] - lz.HEAD)
        buffer = lz.with_padding(payload[lz.HEAD:])
        reps = np.array(lz.FIRST_REPS, np.int64)
        bad += lz.decode(buffer, 0, end, np.int64(payload[0]), np.int64(payload[1]), 1,
                         out[k], 0, out.shape[1], reps)[0] != 0
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--chunk", type=int, default=4096)
    args = parser.parse_args()
    pieces = chunks(args.chunk)
    tokens = [parsed(p)[0] for p in pieces]
    lz_payloads = [lz_coding.encode(p, FULL)[1] for p in pieces]
    rows = []
    for joint in (False, True):
        rows.append(sketch([encode(p, t, joint) for p, t in zip(pieces, tokens)], pieces,
                           args))
    lz_offsets = np.cumsum([0] + [len(p) for p in lz_payloads])
    lz_all = np.frombuffer(b"".join(lz_payloads), np.uint8)
    lz_out = np.zeros((len(pieces), args.chunk), np.uint8)
    if decode_lz_all(lz_all, lz_offsets, lz_out) or any(
            lz_out[k].tobytes() != p for k, p in enumerate(pieces)):
        raise SystemExit("LZ failed to decode a chunk")
    today = median_time(lambda: decode_lz_all(lz_all, lz_offsets, lz_out), len(pieces),
                        args.rounds)
    print(f"{len(pieces)} chunks of {args.chunk} bytes, median of {args.rounds} rounds")
    print("| decoding (tables and tokens) | µs per chunk | copies and tables | literals "
          "| sequences | bytes of all chunks |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| LZ today (padding copy included) | {today:.2f} | | | | {len(lz_all):,} |")
    for name, (times, size) in zip(("run, length, distance codes", "joint run-and-length code"),
                                   rows):
        print(f"| sketch, {name} | {times[2]:.2f} | {times[0]:.2f} | {times[1] - times[0]:.2f} "
              f"| {times[2] - times[1]:.2f} | {size:,} |")


def sketch(coded, pieces, args):
    """``((µs up to tables, up to literals, in all), bytes)`` of decoding
    the sketch's streams ``coded`` of ``pieces``, checked."""
    tables = np.concatenate([c[0] for c in coded])
    streams = np.concatenate([c[1] for c in coded])
    sequences = np.concatenate([c[3] for c in coded])
    offsets = np.cumsum([[0, 0, 0]] + [[len(c[0]), len(c[1]), len(c[3])] for c in coded], axis=0)
    starts = np.array([c[2][:STREAMS] for c in coded], np.int64)
    counts = np.array([c[4] for c in coded], np.int64)
    out = np.zeros((len(pieces), args.chunk), np.uint8)
    literals = np.zeros(args.chunk + 32, np.uint8)
    if decode_all(tables, streams, starts, sequences, counts, offsets, out, literals):
        raise SystemExit("a sketch stream failed to decode")
    if any(out[k].tobytes() != p for k, p in enumerate(pieces)):
        raise SystemExit("the sketch decoded a chunk wrongly")
    times = [median_time(lambda: decode_all(tables, streams, starts, sequences, counts, offsets,
                                            out, literals, stages), len(pieces), args.rounds)
             for stages in (1, 2, 3)]
    return times, sum(c[5] for c in coded)


if __name__ == "__main__":
    main()
