"""The SEQUENCES coding's decoder in plain Python (docs/FORMAT.md, section
4.17): what ``kernels.sequences`` decodes, read one step at a time, for
the command line's small jobs and as the readable reference.  It refuses
whatever the kernel refuses (a problem number, not necessarily the
kernel's), so that the plain path never returns bytes the kernels would
not.
"""
from . import huffman
from .bits import BitReader
from .lz import FIRST_REPS, LITERALS, MAX_CODE, MIN_COPY, REPS, SLOTS, _read_table, payloads
from .lz import slot_base, slot_extra
from .varint import varint_at

STREAMS = 4
SECTIONS = 3 + STREAMS  # lengths, runs, distances, literals
BAD = 1  # any problem: the kernel names it


def decode(payload, size):
    """``(problem, bytes)``: the SEQUENCES payload decoded (problem 0 and
    ``size`` bytes, or a problem)."""
    out = bytearray()
    reps = list(FIRST_REPS)
    at = 0
    while len(out) < size:
        at = _part(payload, at, out, size, reps)
        if at < 0:
            return BAD, b""
    return (0, bytes(out)) if at == len(payload) else (BAD, b"")


def _part(payload, at, out, size, reps):
    """Where the next part begins after the part at ``payload[at:]``,
    appended to ``out``; -1 if it is faulty."""
    values = []
    for _ in range(3 + 3 + SECTIONS):
        if len(values) in (3, 4, 5):  # the slot counts, a byte each
            if at >= len(payload):
                return -1
            value, at = payload[at], at + 1
        else:
            value, at = varint_at(payload, at)
            if value < 0:
                return -1
        values.append(value)
    part, n_literals, n_sequences, run_slots, length_symbols, distance_slots = values[:6]
    sizes = values[6:]
    if (part == 0 or part > size - len(out) or n_literals + MIN_COPY * n_sequences > part
            or run_slots > SLOTS or length_symbols > 2 * SLOTS or distance_slots > SLOTS
            or sum(sizes) > len(payload) - at):
        return -1
    streams = []
    for n in sizes:
        streams.append(BitReader(payload[at:at + n]))
        at += n
    problem, lengths = _read_table(streams[0], LITERALS + run_slots + length_symbols + REPS
                                   + distance_slots)
    if problem:
        return -1
    codes = []
    for count, payload_of, needed in (
            (LITERALS, list(range(LITERALS)), n_literals > 0),
            (run_slots, list(range(run_slots)), False),
            (length_symbols, list(range(length_symbols)), n_sequences > 0),
            (REPS + distance_slots, payloads(0, distance_slots, REPS)[1], n_sequences > 0)):
        code_lengths, lengths = lengths[:count], lengths[count:]
        code = _code(code_lengths, payload_of, needed)
        if code is None:
            return -1
        codes.append(code)
    literals = _literals(streams[3:], n_literals, codes[0])
    if literals is None:
        return -1
    if not _sequences(streams[:3], n_sequences, codes[1:], literals, out, len(out) + part,
                      reps):
        return -1
    return at


def _code(lengths, payloads, needed):
    """``(decoding table, its bits)`` of a code, ``(None, 0)`` for one
    without codes where not ``needed``; None if it is neither complete
    nor, where allowed, empty."""
    if not any(lengths):
        return None if needed else (None, 0)
    if not huffman.is_complete(lengths, MAX_CODE):
        return None
    bits = max(lengths)
    return huffman.decoding_table(lengths, payloads, bits), bits


def _symbol(reader, code):
    """The payload of the next symbol in ``code``, or None without one."""
    table, bits = code
    entry = table[reader.peek(bits)] if table else 0
    if entry == 0:
        return None
    reader.skip(entry & 15)
    return entry >> 4


def _literals(streams, n, code):
    """The ``n`` literals of the four streams, each read to its end; None
    if they do not decode so."""
    quarter = (n + STREAMS - 1) // STREAMS
    literals = bytearray()
    for reader, k in zip(streams, range(STREAMS)):
        for _ in range(min(quarter, max(0, n - k * quarter))):
            b = _symbol(reader, code)
            if b is None or reader.overrun():
                return None
            literals.append(b)
        if not _ended(reader):
            return None
    return literals


def _ended(reader):
    """Whether a stream's reader stands at its end: fewer than 8 bits
    left, all zero."""
    spare = reader.end - reader.pos
    return 0 <= spare < 8 and reader.peek(spare) == 0


def _sequences(streams, n, codes, literals, out, end, reps):
    """Whether ``n`` sequences from the length, run and distance streams
    and the literals after them fill ``out`` up to ``end``; ``reps``
    become the repeat distances after."""
    run_code, length_code, distance_code = codes
    length_reader, run_reader, distance_reader = streams
    used = 0
    for _ in range(n):
        if any(reader.overrun() for reader in streams):
            return False
        symbol = _symbol(length_reader, length_code)
        if symbol is None:
            return False
        copy = MIN_COPY + slot_base(symbol >> 1) + length_reader.read(slot_extra(symbol >> 1))
        count = 0
        if symbol & 1:  # a run of literals comes first
            s = _symbol(run_reader, run_code)
            if s is None:
                return False
            count = 1 + slot_base(s) + run_reader.read(slot_extra(s))
        d = _symbol(distance_reader, distance_code)
        if d is None:
            return False
        if d & 1:  # a new distance, pushed in front
            reps[:] = (d >> 6) + distance_reader.read((d >> 1) & 31), reps[0], reps[1]
        elif d:  # a repeat moved to the front
            r = d >> 1
            reps[:] = [reps[r]] + [x for i, x in enumerate(reps) if i != r]
        here = len(out)
        if count > len(literals) - used or count + copy > end - here:
            return False
        out += literals[used:used + count]
        used += count
        here += count
        distance = reps[0]
        if distance > here:
            return False
        for i in range(copy):
            out.append(out[here - distance + i])
    if len(literals) - used != end - len(out):
        return False
    out += literals[used:]
    return all(_ended(reader) for reader in streams)

