"""The SEQUENCES block coding: LZ_PARTS's parts as literals and
sequences, put back exactly by the kernel and by the plain decoder,
written where a level parses in segments, and malformed blocks refused."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe.encoder import levels
from gagebpe.format.codings import lz as _coding_lz, sequences as _coding_sequences
from gagebpe.format.codings.registry import LZ_PARTS, SEQUENCES
from gagebpe.kernels import sequences as _sequences
from gagebpe.plain import sequences as plain_sequences
from gagebpe.sample import sample

from conftest import (assert_corruptions_refused, assert_truncations_refused, byte_strings,
                      coding_of, repetitive)


def parts(data, segment=4096):
    return _coding_lz.parts(data, levels.PARTS._replace(segment=segment))


def kernel_decode(payload, size):
    """``(problem, bytes)`` of the kernel's decoding of a SEQUENCES payload."""
    out = np.zeros(size, np.uint8)
    problem = _sequences.decode_payload(np.frombuffer(payload, np.uint8), out)
    return problem, out.tobytes() if problem == 0 else b""


def records(n, width=13, seed=0):
    """Rows that repeat the one before but for a counter: copies follow
    copies, at repeat distances."""
    rng = np.random.default_rng(seed)
    rows = np.tile(rng.integers(0, 256, width, dtype=np.uint8), (n, 1))
    rows[:, :2] = np.arange(n, dtype="<u2").view(np.uint8).reshape(n, 2)
    return rows.tobytes()


@settings(deadline=None, max_examples=60)
@given(st.one_of(byte_strings(3000), repetitive()), st.sampled_from([256, 1024, 1 << 16]))
def test_kernel_and_plain_decoders_give_back_the_block(data, segment):
    if not data:
        return
    payload = _coding_sequences.encode(parts(data, segment))
    assert kernel_decode(payload, len(data)) == (0, data)
    assert plain_sequences.decode(payload, len(data)) == (0, data)


@pytest.mark.parametrize("data", [
    b"a" * 5000,                    # one literal, then copies: no runs at all
    bytes(range(256)) * 2,          # literals, one copy
    np.random.default_rng(1).integers(0, 256, 3000, dtype=np.uint8).tobytes(),  # no copies
    records(400),                   # copies after copies, repeat distances
], ids=["run", "one-copy", "no-copies", "records"])
def test_parts_with_empty_codes_decode(data):
    payload = _coding_sequences.encode(parts(data))
    assert kernel_decode(payload, len(data)) == (0, data)
    assert plain_sequences.decode(payload, len(data)) == (0, data)


@pytest.mark.parametrize("data", [records(3000), sample(200_000)], ids=["records", "text"])
def test_sequences_code_as_small_as_tokens(data):
    """Within 1% of LZ_PARTS on the same parts: the length symbol saying
    whether a run comes first keeps copies after copies cheap (a run code
    for every sequence made records 19% larger)."""
    coded = parts(data, 1 << 16)
    sequences, tokens = _coding_sequences.encode(coded), _coding_lz.payload_of(coded)
    assert len(sequences) <= 1.01 * len(tokens)


def copies_data():
    """Text and records whose block level 6 codes as copies."""
    return (sample(100_000) + records(3000)) * 2


def test_blocks_parsed_in_segments_are_coded_as_sequences():
    data = copies_data()
    blob = gagebpe.compress(data, 6, block_size=len(data))
    assert coding_of(blob) == SEQUENCES
    assert gagebpe.decompress(blob) == data


def test_lz_parts_stay_where_sequences_would_be_larger(monkeypatch):
    from gagebpe.encoder import levels
    def slack(row):  # SEQUENCES only where it is half LZ_PARTS's size
        return row.parse._replace(slack=-0.5) if row.parse and row.parse.segment else row.parse
    monkeypatch.setitem(levels.LEVELS, 6, levels.LEVELS[6].each_row(parse=slack))
    data = copies_data()
    blob = gagebpe.compress(data, 6, block_size=len(data))
    assert coding_of(blob) == LZ_PARTS
    assert gagebpe.decompress(blob) == data


@settings(deadline=None, max_examples=200)
@given(st.data())
def test_mutated_payloads_decode_exactly_or_are_refused(data):
    """Whatever a mutated payload holds, the kernel gives the block, or a
    problem; the plain decoder gives the same bytes or a problem too."""
    source = data.draw(st.sampled_from([sample(3000), records(200), b"xy" * 700]))
    payload = bytearray(_coding_sequences.encode(parts(source, 1024)))
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(payload) - 1))
        payload[at] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(payload)))
    payload = bytes(payload[:cut])
    problem, out = kernel_decode(payload, len(source))
    plain_problem, plain_out = plain_sequences.decode(payload, len(source))
    if problem == 0:
        assert plain_problem == 0 and plain_out == out
    else:
        assert plain_problem != 0


def test_corrupt_sequences_streams_are_refused():
    data = copies_data()
    blob = gagebpe.compress(data, 6, block_size=len(data))
    assert coding_of(blob) == SEQUENCES
    assert_corruptions_refused(blob, 211, 0x41)
    assert_truncations_refused(blob, 9001)


def test_a_1_0_decoder_from_before_sequences_would_refuse_them_by_number():
    """Section 6: the number is new, so an older decoder names it."""
    from gagebpe.format.codings import registry
    assert SEQUENCES == 16 and registry.name(SEQUENCES) == "SEQUENCES"
    unknown = max(registry.CODINGS) + 1
    with pytest.raises(gagebpe.GageBPEError, match=f"block coding {unknown} is not one of"):
        registry.check_coding(unknown)


def part_heads(payload):
    """Each part's literal count, slot counts (runs, length symbols,
    distances), SECTIONS stream sizes and where its streams begin, read
    from the parts' heads in Python."""
    from gagebpe.plain.varint import varint_at
    heads, at = [], 0
    while at < len(payload):
        _, at = varint_at(payload, at)  # the part's size
        n_literals, at = varint_at(payload, at)
        _, at = varint_at(payload, at)  # its sequences
        slots, at = tuple(payload[at:at + 3]), at + 3
        sizes = []
        for _ in range(_sequences.SECTIONS):
            size, at = varint_at(payload, at)
            sizes.append(size)
        heads.append((n_literals, slots, sizes, at))
        at += sum(sizes)
    return heads


def literal_counts(payload):
    """Each part's literal count, read from the parts' heads in Python."""
    return [n_literals for n_literals, _, _, _ in part_heads(payload)]


def test_literals_take_a_buffer_of_the_largest_part_not_of_the_block():
    """The literals' buffer holds the most literals a part declares (a
    block-sized one mapped its pages anew at every call); a part that
    declares more than its buffer holds is refused, not written past it."""
    data = copies_data()
    payload = _coding_sequences.encode(parts(data, 1 << 16))
    counts = literal_counts(payload)
    array = np.frombuffer(payload, np.uint8)
    assert len(counts) > 1 and max(counts) < len(data) // 4
    assert _sequences._most_literals(array, len(data)) == max(counts)
    assert _sequences._most_literals(array, 10) == 10  # never more than the block
    buffer = _sequences.with_padding(array)
    out = np.zeros(len(data), np.uint8)
    reps = np.array(_sequences.FIRST_REPS, np.int64)
    small = np.empty(counts[0] + _sequences.PADDING - 1, np.uint8)
    problem, _, _ = _sequences._part(array, buffer, 0, out, 0, reps, small)
    assert problem == _sequences.BAD_PART
    enough = np.empty(counts[0] + _sequences.PADDING, np.uint8)
    problem, _, _ = _sequences._part(array, buffer, 0, out, 0, reps, enough)
    assert problem == 0


def sequence_code_lengths(payload):
    """Each part's run, length and distance code lengths, as its head and
    code-length table give them."""
    buffer = _sequences.with_padding(np.frombuffer(payload, np.uint8))
    found = []
    for _, slots, sizes, streams_at in part_heads(payload):
        lengths = np.empty(_sequences.LITERALS + _sequences.REPS + sum(slots), np.uint8)
        problem, _ = _sequences._read_table(buffer, np.uint64(8 * streams_at),
                                            np.uint64(8 * (streams_at + sizes[0])), lengths)
        assert problem == 0
        found.append(lengths[_sequences.LITERALS:])
    return found


def test_sequence_codes_keep_to_their_longest():
    """Runs, lengths and distances are coded in at most SEQUENCE_CODE bits,
    so that their three tables fit a core's L1 cache; the limit binds
    (these parts would take longer codes without it)."""
    coded = parts(copies_data(), 1 << 16)
    kept = sequence_code_lengths(_coding_sequences.encode(coded))
    assert max(int(lengths.max()) for lengths in kept) == _sequences.SEQUENCE_CODE
    free = sequence_code_lengths(_coding_sequences.encode(coded, _sequences.MAX_CODE))
    assert max(int(lengths.max()) for lengths in free) > _sequences.SEQUENCE_CODE
