"""Long repeats (the REPEATS coding, level 9): copies found and put back
exactly, written where they make the block smaller, and malformed REPEATS
blocks refused."""
import io
import struct

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe.encoder import block as _block, levels
from gagebpe.decoder import blocks
from gagebpe.format.codings import repeats as _coding_repeats
from gagebpe.kernels import repeats as _repeats
from gagebpe.format.codings.registry import (CONTEXT, CONTEXT_LONG, REPEATS, SORTED, SORTED_LONG,
                                             STORED)

from conftest import (assert_corruptions_refused, assert_truncations_refused, byte_strings,
                      coding_of, one_block_payload, trying, unprimed, without_lz)


def noise(n, seed):
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8).tobytes()


def repeated(seed=0):
    """Random bytes whose long stretches recur at a distance: nothing for
    pair merges, everything for copies."""
    rng = np.random.default_rng(seed)
    parts = [noise(3000, seed)]
    for _ in range(12):
        parts.append(noise(int(rng.integers(1, 400)), int(rng.integers(1 << 30))))
        start = int(rng.integers(0, 2000))
        parts.append(parts[0][start:start + int(rng.integers(40, 900))])
    return b"".join(parts)


def round_trip(data):
    array = np.frombuffer(data, np.uint8)
    copies = _repeats.find(array, _repeats.MIN_REPEAT, _repeats.hash_bits(len(array)))
    literals = _repeats.literals(array, copies)
    out = np.empty(len(array), np.uint8)
    out[len(out) - len(literals):] = literals
    assert _repeats.restore(out, len(literals), _repeats.pack(copies), len(copies)) == 0
    return copies, literals, out.tobytes()


@settings(deadline=None)
@given(st.one_of(byte_strings(5000), st.integers(0, 1000).map(repeated)))
def test_copies_put_back_give_the_block(data):
    copies, literals, back = round_trip(data)
    assert back == data
    assert (copies[:, 2] >= _repeats.MIN_REPEAT).all()
    assert (copies[:, 1] >= 1).all()
    assert len(literals) + copies[:, 2].sum() == len(data)


@st.composite
def copies_and_literals(draw):
    """Literals and well-formed copies of any distance (runs of one byte,
    sources a few bytes back, overlapping or not) and length."""
    literals = draw(st.binary(min_size=1, max_size=300))
    copies, pos, lit = [], 0, 0
    for _ in range(draw(st.integers(1, 12))):
        gap = draw(st.integers(1 if pos == 0 else 0, len(literals) - lit))
        pos, lit = pos + gap, lit + gap
        if pos == 0:
            break
        copy = (gap, draw(st.integers(1, pos)), draw(st.integers(1, 100)))
        copies.append(copy)
        pos += copy[2]
    return literals, copies


@settings(deadline=None)
@given(copies_and_literals())
def test_restore_copies_as_written_front_to_back(case):
    literals, copies = case
    want, lit = bytearray(), 0
    for gap, distance, length in copies:
        want += literals[lit:lit + gap]
        lit += gap
        for _ in range(length):
            want.append(want[-distance])
    want += literals[lit:]
    out = np.zeros(len(want), np.uint8)
    out[len(want) - len(literals):] = np.frombuffer(literals, np.uint8)
    packed = _repeats.pack(np.array(copies, np.int64).reshape(-1, 3))
    assert _repeats.restore(out, len(literals), packed, len(copies)) == 0
    assert out.tobytes() == bytes(want)


def test_copies_take_the_repeats_and_runs():
    copies, literals, _ = round_trip(repeated(1))
    assert len(copies) >= 12 and len(literals) < 0.75 * len(repeated(1))
    # a run is a copy of itself, one byte back
    copies, literals, _ = round_trip(b"x" + b"a" * 1000 + b"y")
    assert copies.tolist() == [[2, 1, 999]] and literals.tobytes() == b"xay"


def test_level_9_writes_repeats_where_they_pay():
    data = repeated(2)
    # Its bytes' frequencies gain a little, so every level codes it by its
    # greedy copies (tests/encoder/test_incompressible.py); the tries
    # without that gate take REPEATS.
    coding, payload = _block.encode(data, levels.settings(9).each_row(greedy_below=0.0))
    assert coding == REPEATS
    assert len(payload) < 0.8 * len(without_lz(data, 8))
    assert gagebpe.decompress(gagebpe.compress(data, 9)) == data
    # in the block layout too, from either writer
    blob = unprimed(data * 3, 9, block_size=len(data))
    assert gagebpe.decompress(blob) == data * 3
    c = gagebpe.Compressor(9, block_size=len(data))
    blob = c.compress(data * 2) + c.compress(b"tail" * 100) + c.flush()
    assert gagebpe.decompress(blob) == data * 2 + b"tail" * 100


def test_repeats_are_kept_only_where_smaller():
    from gagebpe.sample import sample
    text = sample(20_000)
    # a log: its repeats recur so often that merges code them better
    log = "".join(f"2026-12-01 12:{i % 60:02d}:{i % 7} status installed libfoo{i % 13}:amd64"
                  f" 1.2.{i % 5}\n" for i in range(800)).encode()
    kept = set()
    share = levels.settings(9).rows[0].repeats
    for data in (repeated(8), log):
        plain = _block.encode(data, trying(4, fold=True))
        wrapped = _block.encode_repeats(
            data, lambda part: _block.encode(part, trying(4, fold=True)), share)
        chosen = _block.encode(data, trying(4, ("grammar", "repeats"), fold=True, repeats=share))
        assert chosen == min(plain, wrapped, key=lambda coded: len(coded[1]))
        kept.add(chosen[0])
    assert REPEATS in kept and len(kept) == 2
    assert _block.encode_repeats(text, None, share) is None  # nothing long repeats
    # a repeat too short a share of its block to be worth coding it twice
    assert _block.encode_repeats(text + text[5000:5100], None, share) is None
    assert _block.encode_repeats(text + text[5000:5400], lambda part: (STORED, part), share)


def _payload(seed=4):
    data = repeated(seed)
    coding, payload = _block.encode(data, trying(4, ("grammar", "repeats")))
    assert coding == REPEATS
    return data, payload


def _decode(payload, size):
    return blocks.decode(REPEATS, payload, size, np.empty(size, np.uint8)).tobytes()


@pytest.mark.parametrize("field, value, message", [
    (0, REPEATS, "holds coding"), (0, 0, "holds coding"), (0, 3 + 6, "holds coding"),
    (1, 0, "literal size"), (1, 10**9, "literal size"),
    (2, 0, "copy count"), (2, 10**9, "copy count"),
    (3, 0, "disagree with their count"), (3, 10**8, "disagree with their count|overrun"),
])
def test_malformed_repeats_headers_are_refused(field, value, message):
    data, payload = _payload()
    fields = list(_coding_repeats.HEAD.unpack_from(payload))
    fields[field] = value
    bad = _coding_repeats.HEAD.pack(*fields) + payload[_coding_repeats.HEAD.size:]
    with pytest.raises(gagebpe.GageBPEError, match=message):
        _decode(bad, len(data))


def _with_copies(copies, literals):
    """A REPEATS payload of STORED ``literals`` and these copies, whatever
    they say."""
    packed = _repeats.pack(np.array(copies, np.int64).reshape(-1, 3)).tobytes()
    return (_coding_repeats.HEAD.pack(STORED, len(literals), len(copies), len(packed))
            + literals + packed)


@pytest.mark.parametrize("copies, size, message", [
    ([(4, 0, 10)], 20, "copies are malformed"),  # distance 0
    ([(4, 5, 10)], 20, "copies are malformed"),  # reaches before the block
    ([(4, 2, 30)], 20, "copies are malformed"),  # runs past its end
    ([(4, 2, 0)], 14, "copies are malformed"),  # length 0
    ([(11, 2, 5)], 20, "literals do not fill"),  # more literals than there are
    ([(4, 2, 5)], 20, "literals do not fill"),  # literals left over
])
def test_malformed_copies_are_refused(copies, size, message):
    with pytest.raises(gagebpe.GageBPEError, match=message):
        _decode(_with_copies(copies, b"0123456789"), size)


def test_malformed_numbers_are_refused():
    good = _with_copies([(4, 2, 10)], b"0123456789")
    assert _decode(good, 20) == b"0123" + b"23" * 5 + b"456789"
    head = _coding_repeats.HEAD.pack(STORED, 10, 1, 6)
    overlong = head + b"0123456789" + bytes([4, 2, 0x80, 0x80, 0x80, 0x80])
    with pytest.raises(gagebpe.GageBPEError, match="copies are malformed"):
        _decode(overlong, 20)
    spare = _coding_repeats.HEAD.pack(STORED, 10, 1, 4) + b"0123456789" + bytes([4, 2, 10, 0])
    with pytest.raises(gagebpe.GageBPEError, match="copies are malformed"):
        _decode(spare, 20)
    short = _coding_repeats.HEAD.pack(STORED, 10, 1, 3) + b"0123456789" + bytes([4, 2, 0x8A])
    with pytest.raises(gagebpe.GageBPEError, match="copies are malformed"):
        _decode(short, 20)


def test_corrupt_repeats_streams_are_refused():
    blob = gagebpe.compress(repeated(6), 9)
    assert_corruptions_refused(blob, 5, 0x24)
    assert_truncations_refused(blob, 97)


def test_describe_counts_the_merges_inside():
    from gagebpe.sample import sample
    data = sample(20_000) + repeated(7)
    blob = gagebpe.compress(data, 9)
    assert coding_of(blob) == REPEATS
    info, = gagebpe.describe(io.BytesIO(blob))
    payload = one_block_payload(blob)
    coding, inner = payload[0], payload[_coding_repeats.HEAD_SIZE:]
    assert coding in (SORTED, CONTEXT, SORTED_LONG, CONTEXT_LONG)  # their rule count comes first
    assert info.version == "1.0"
    assert info.merges == struct.unpack_from("<I", inner)[0] > 0
