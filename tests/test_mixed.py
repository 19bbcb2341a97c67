"""The MIXED, MIXED_MATCH and MIXED_DELIMITED codings (format versions 8, 9
and 12): small blocks coded bit by bit by a context-mixing model,
MIXED_MATCH's and MIXED_DELIMITED's with a match model, at levels 6 to 9;
MIXED_DELIMITED's payload ends itself."""
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.plain import tables
from gagebpe.encoder import block as _block
from gagebpe.format.codings import mixed as _coding_mixed
from gagebpe.format import container as _container, fast as _one_block
from gagebpe.kernels import mixing as _mixing
from gagebpe.sample import sample

from conftest import (CANTERBURY, as_version, block_layout, byte_strings, coding_of,
                      one_block_payload, unprimed)
from reference import mixed_decode

BIG = 1 << 30
STORED_STREAM = Path(__file__).parent / "data" / "v0.11-level9.gbpe"


def coded(data, match=True, delimited=False):
    """The kernel's payload for ``data``, however large."""
    out = np.empty(2 * len(data) + 16, np.uint8)
    n = _mixing.encode(np.frombuffer(data, np.uint8), out, match, delimited)
    assert n > 0
    return out[:n].tobytes()


def decoded(payload, size, match=True, delimited=False):
    """``(problem, bytes)``, and with ``delimited`` where the payload ended."""
    out = np.empty(size, np.uint8)
    problem, end = _mixing.decode(np.frombuffer(payload, np.uint8), out, match, delimited)
    return (problem, out.tobytes(), end) if delimited else (problem, out.tobytes())


@given(byte_strings(3000).filter(len), st.booleans())
def test_the_kernel_decodes_what_it_codes(data, match):
    assert decoded(coded(data, match), len(data), match) == (0, data)


@given(st.binary(min_size=1, max_size=300), st.booleans(), st.data())
def test_the_kernel_refuses_a_payload_that_ends_elsewhere(data, match, draw):
    payload = coded(data, match)
    # a block has one payload (another may decode, to other bytes, which
    # the block check refuses)
    longer = payload + bytes([draw.draw(st.integers(0, 255))])
    assert decoded(longer, len(data), match) != (0, data)
    assert decoded(payload[:-1], len(data), match) != (0, data)


def test_the_kernel_refuses_a_block_over_its_largest():
    for match in (False, True):
        block = np.empty(_mixing.MAX_SIZE + 1, np.uint8)
        assert _mixing.decode(np.zeros(4, np.uint8), block, match, False) == (2, 0)


@given(byte_strings(300).filter(len), st.binary(max_size=8))
def test_a_delimited_payload_decodes_the_same_whatever_follows(data, after):
    payload = coded(data, delimited=True)
    assert decoded(payload + after, len(data), delimited=True) == (0, data, len(payload))
    # its last bytes are the fewest that do: one fewer leaves it short
    assert decoded(payload[:-1], len(data), delimited=True)[0] != 0
    # a payload longer than its block, which no stream holds, is refused
    expected = (data, len(payload)) if len(payload) <= len(data) else None
    assert mixed_decode(payload + after, len(data), delimited=True) == expected


def test_a_delimited_payload_ends_in_one_or_two_bytes_after_the_shifts():
    # where MIXED_MATCH ends in one byte and sends the payload's size
    lengths = [len(coded(sample(n), delimited=True)) - len(coded(sample(n))) + 1
               for n in range(1, 65)]
    assert set(lengths) <= {1, 2, 3, 4} and lengths.count(1) > len(lengths) // 2


def test_a_delimited_payload_is_refused_where_it_would_run_past_the_bytes_given():
    data = sample(50)
    payload = coded(data, delimited=True)
    for cut in range(len(payload)):
        problem = decoded(payload[:cut], len(data), delimited=True)[0]
        assert problem in (1, _mixing.RUNS_PAST)
    with pytest.raises(gagebpe.GageBPEError, match="larger than its contents"):
        noise = np.random.default_rng(3).bytes(10)  # whose payload is longer
        _coding_mixed.delimited_size(coded(noise, delimited=True), 10)
    assert _coding_mixed.delimited_size(payload[:-1], len(data)) is None


# with repeats at a distance, as the match model finds them
HEADERS = (b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x03\x00>\x00" + bytes(range(40)) * 3
           + b"\0" * 200 + bytes(range(40)) + b"\x01\x02\x03" * 20)


@pytest.mark.parametrize("match", [False, True])
@pytest.mark.parametrize("data", [sample(700), b"abracadabra " * 30, bytes(range(256)),
                                  b"\0" * 500 + b"\1", HEADERS])
def test_a_decoder_written_from_the_format_text_agrees(data, match):
    payload = coded(data, match)
    assert mixed_decode(payload, len(data), match) == data
    assert mixed_decode(payload + b"\0", len(data), match) != data


def test_the_match_model_codes_repeats_smaller_and_nothing_else_differently():
    # text said twice: its 3-byte contexts are ambiguous, the match is not
    twice = sample(600) * 2
    assert len(coded(twice)) < 0.8 * len(coded(twice, False))
    assert len(coded(HEADERS)) < len(coded(HEADERS, False))
    # no 3 bytes repeated: no match, the same model
    assert coded(bytes(range(256))) == coded(bytes(range(256)), False)


def test_the_model_is_exactly_the_documented_one():
    # FORMAT.md section 4.12 lists these numbers: the code must match them.
    assert SQUASH_POINTS_DOC == list(tables.SQUASH_POINTS)
    assert _mixing.SQUASH[0] == 1 and _mixing.SQUASH[-1] == 4095
    assert _mixing.STRETCH[2048] == 0 and _mixing.STRETCH[0] == -2047
    assert [_mixing.slot_bits(n) for n in (1, 31, 32, 2048, 65536)] == [10, 10, 11, 17, 22]


SQUASH_POINTS_DOC = [1, 2, 4, 6, 10, 17, 27, 45, 74, 120, 194, 311, 488, 747, 1102, 1546, 2048,
                     2550, 2994, 3349, 3608, 3785, 3902, 3976, 4022, 4051, 4069, 4079, 4086,
                     4090, 4092, 4094, 4095]


def test_levels_6_to_9_code_a_small_text_mixed():
    data = sample(1500)
    blob = unprimed(data, 9)  # the whole input: MIXED_PRIMED (test_primed.py)
    assert coding_of(blob) == _container.MIXED_MATCH
    assert len(blob) < 0.95 * len(gagebpe.compress(data, 5))
    for level in (6, 7, 8):
        assert coding_of(unprimed(data, level)) == _container.MIXED_MATCH
        assert coding_of(gagebpe.compress(data, level)) == _container.MIXED_PRIMED
    assert gagebpe.decompress(blob) == data
    assert _one_block.decode(blob, BIG) == data
    # the same block in the block layout, through the general reader
    assert _one_block.decode(block_layout(blob), BIG) == data
    assert gagebpe.decompress(block_layout(blob)) == data
    d = gagebpe.Decompressor()
    assert b"".join(d.decompress(blob[i:i + 7]) for i in range(0, len(blob), 7)) == data


def test_levels_1_to_5_and_large_blocks_are_not_mixed():
    data = sample(1500)
    for level in range(1, 6):
        assert coding_of(gagebpe.compress(data, level)) != _container.MIXED_MATCH
    big = sample(_block.MIXED_MAX + 1)
    assert coding_of(gagebpe.compress(big, 9)) != _container.MIXED_MATCH


def test_incompressible_small_blocks_stay_stored():
    noise = bytes(np.random.default_rng(3).integers(0, 256, 1000, dtype=np.uint8))
    blob = gagebpe.compress(noise, 9)
    assert coding_of(blob) == _container.STORED and gagebpe.decompress(blob) == noise


def small_pieces():
    """Pieces of 64 bytes to 2 KB of the Canterbury files, or of the sample
    text where the corpus is absent."""
    if CANTERBURY.is_dir():
        texts = [p.read_bytes() for p in sorted(CANTERBURY.iterdir()) if p.name != "SHA256SUMS"]
    else:
        texts = [sample(100_000)]
    for text in texts:
        for size in (64, 256, 1024, 2048):
            for start in range(0, len(text) - size, max(size, len(text) // 3)):
                yield text[start:start + size]


@pytest.mark.parametrize("level", [None, 9])
def test_small_inputs_code_no_larger_than_zlib_9(level):
    """Issue 16's small inputs: at the default level and level 9 every piece
    of 64 bytes to 2 KB of the corpus is at most as large as zlib -9 makes
    it (MIXED_MATCH, and the short layout's 8 to 11 bytes of framing)."""
    pieces = list(small_pieces())
    larger = [len(gagebpe.compress(p, level)) - len(zlib.compress(p, 9)) for p in pieces]
    assert max(larger) <= 0, [p[:20] for p, excess in zip(pieces, larger) if excess > 0]


def test_a_mixed_block_needs_version_8_and_a_mixed_match_block_9():
    data = sample(1000)
    blob = unprimed(data, 9)
    assert coding_of(blob) == _container.MIXED_MATCH
    mixed = _container.one_block_stream(_container.block(
        _container.MIXED, _coding_mixed.encode(data, match=False), data))
    for blob, since in ((blob, _container.MATCH_VERSION), (mixed, _container.MIXED_VERSION)):
        assert gagebpe.decompress(blob) == data
        for version in (_container.COMPACT_VERSION, _container.MIXED_VERSION):
            old = as_version(blob, version)
            if version >= since:
                assert gagebpe.decompress(old) == _one_block.decode(old, BIG) == data
                continue
            assert _one_block.decode(old, BIG) is None
            with pytest.raises(gagebpe.GageBPEError, match="coding"):
                gagebpe.decompress(old)
        # and in the block layout, whose version the coding sets
        assert gagebpe.decompress(block_layout(blob)) == data
        assert block_layout(blob)[4] == since


def test_a_large_mixed_block_is_refused_before_it_is_decoded():
    # 1 MiB declared, 2 bytes of payload: refused by size, not ground through.
    size = 1 << 20
    blob = (_container.PREAMBLE.pack(_container.MAGIC, _container.MIXED_VERSION,
                                     _container.ONE_BLOCK)
            + bytes([_container.MIXED]) + _container.varint(size) + _container.varint(2)
            + struct.pack("<I", 0) + b"\x00\x00")
    assert _one_block.decode(blob, BIG) is None
    with pytest.raises(gagebpe.GageBPEError, match="larger than"):
        gagebpe.decompress(blob)


def test_every_corruption_and_cut_of_a_mixed_stream_is_refused():
    data = sample(600)
    blob = unprimed(data, 9)
    assert coding_of(blob) == _container.MIXED_MATCH
    rng = np.random.default_rng(8)
    for pos in range(len(blob)):
        for flip in (0x01, 0x80, int(rng.integers(1, 256))):
            bad = bytearray(blob)
            bad[pos] ^= flip
            with pytest.raises((gagebpe.GageBPEError, EOFError)):
                gagebpe.decompress(bytes(bad))
            assert _one_block.decode(bytes(bad), BIG) is None
    for cut in range(len(blob)):
        with pytest.raises((gagebpe.GageBPEError, EOFError)):
            gagebpe.decompress(blob[:cut])


def test_the_payload_alone_decodes():
    data = sample(900)
    payload = one_block_payload(unprimed(data, 9))
    out = np.empty(len(data), np.uint8)
    assert _coding_mixed.decode_matched(payload, len(data), out).tobytes() == data
    with pytest.raises(gagebpe.GageBPEError, match="do not end"):
        _coding_mixed.decode_matched(payload + b"\0", len(data), out)


def test_a_stored_version_8_stream_still_decodes():
    """Written by gagebpe 0.11 at level 9: a MIXED block (``sample(1200)``)."""
    assert gagebpe.decompress(STORED_STREAM.read_bytes()) == sample(1200)
