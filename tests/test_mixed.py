"""The MIXED coding (format version 8): small blocks coded bit by bit by a
context-mixing model, at level 9."""
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe import _block, _coding_mixed, _container, _mixing, _one_block
from gagebpe.sample import sample

from conftest import (CANTERBURY, as_version, block_layout, byte_strings, coding_of,
                      one_block_payload)
from reference import mixed_decode

BIG = 1 << 30
STORED_STREAM = Path(__file__).parent / "data" / "v0.11-level9.gbpe"


def coded(data):
    """The kernel's payload for ``data``, however large."""
    out = np.empty(2 * len(data) + 16, np.uint8)
    n = _mixing.encode(np.frombuffer(data, np.uint8), out)
    assert n > 0
    return out[:n].tobytes()


def decoded(payload, size):
    out = np.empty(size, np.uint8)
    problem = _mixing.decode(np.frombuffer(payload, np.uint8), out)
    return problem, out.tobytes()


@given(byte_strings(3000).filter(len))
def test_the_kernel_decodes_what_it_codes(data):
    assert decoded(coded(data), len(data)) == (0, data)


@given(st.binary(min_size=1, max_size=300), st.data())
def test_the_kernel_refuses_a_payload_that_ends_elsewhere(data, draw):
    payload = coded(data)
    longer = payload + bytes([draw.draw(st.integers(0, 255))])
    assert decoded(longer, len(data))[0] != 0
    assert decoded(payload[:-1], len(data)) != (0, data)


def test_the_kernel_refuses_a_block_over_its_largest():
    assert _mixing.decode(np.zeros(4, np.uint8), np.empty(_mixing.MAX_SIZE + 1, np.uint8)) == 2


@pytest.mark.parametrize("data", [sample(700), b"abracadabra " * 30, bytes(range(256)),
                                  b"\0" * 500 + b"\1"])
def test_a_decoder_written_from_the_format_text_agrees(data):
    payload = coded(data)
    assert mixed_decode(payload, len(data)) == data
    assert mixed_decode(payload + b"\0", len(data)) is None


def test_the_model_is_exactly_the_documented_one():
    # FORMAT.md section 4.12 lists these numbers: the code must match them.
    assert SQUASH_POINTS_DOC == _mixing.SQUASH_POINTS.tolist()
    assert _mixing.SQUASH[0] == 1 and _mixing.SQUASH[-1] == 4095
    assert _mixing.STRETCH[2048] == 0 and _mixing.STRETCH[0] == -2047
    assert [_mixing.slot_bits(n) for n in (1, 31, 32, 2048, 65536)] == [10, 10, 11, 17, 22]


SQUASH_POINTS_DOC = [1, 2, 4, 6, 10, 17, 27, 45, 74, 120, 194, 311, 488, 747, 1102, 1546, 2048,
                     2550, 2994, 3349, 3608, 3785, 3902, 3976, 4022, 4051, 4069, 4079, 4086,
                     4090, 4092, 4094, 4095]


def test_levels_6_to_9_code_a_small_text_mixed():
    data = sample(1500)
    blob = gagebpe.compress(data, 9)
    assert coding_of(blob) == _container.MIXED
    assert len(blob) < 0.95 * len(gagebpe.compress(data, 5))
    for level in (6, 7, 8):
        assert coding_of(gagebpe.compress(data, level)) == _container.MIXED
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
        assert coding_of(gagebpe.compress(data, level)) != _container.MIXED
    big = sample(_block.MIXED_MAX + 1)
    assert coding_of(gagebpe.compress(big, 9)) != _container.MIXED


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
    it (MIXED, and the short layout's 8 to 11 bytes of framing)."""
    pieces = list(small_pieces())
    larger = [len(gagebpe.compress(p, level)) - len(zlib.compress(p, 9)) for p in pieces]
    assert max(larger) <= 0, [p[:20] for p, excess in zip(pieces, larger) if excess > 0]


def test_a_mixed_block_needs_version_8():
    blob = gagebpe.compress(sample(1000), 9)
    assert coding_of(blob) == _container.MIXED
    blob = as_version(blob, _container.COMPACT_VERSION)
    assert _one_block.decode(bytes(blob), BIG) is None
    with pytest.raises(gagebpe.GageBPEError, match="coding"):
        gagebpe.decompress(bytes(blob))


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
    blob = gagebpe.compress(data, 9)
    assert coding_of(blob) == _container.MIXED
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
    payload = one_block_payload(gagebpe.compress(data, 9))
    out = np.empty(len(data), np.uint8)
    assert _coding_mixed.decode(payload, len(data), out).tobytes() == data
    with pytest.raises(gagebpe.GageBPEError, match="do not end"):
        _coding_mixed.decode(payload + b"\0", len(data), out)


def test_a_stored_version_8_stream_still_decodes():
    """Written by gagebpe 0.11 at level 9: a MIXED block (``sample(1200)``)."""
    assert gagebpe.decompress(STORED_STREAM.read_bytes()) == sample(1200)
