"""The MIXED coding (docs/FORMAT.md, section 4.12): small blocks coded bit
by bit by a context-mixing model with a match model, at levels 6 to 9."""
import zlib

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.plain import tables
from gagebpe.encoder import levels
from gagebpe.format import container as _container
from gagebpe.decoder import blocks, fast as _fast
from gagebpe.format.codings import registry
from gagebpe.kernels import mixing as _mixing
from gagebpe.sample import sample

from conftest import CANTERBURY, block_layout, byte_strings, coding_of, one_block_payload, unprimed
from reference import mixed_decode

BIG = 1 << 30
MIXED = registry.MIXED


def coded(data):
    """The kernel's payload for ``data``, however large."""
    out = np.empty(2 * len(data) + 16, np.uint8)
    n = _mixing.encode(np.frombuffer(data, np.uint8), out)
    assert n > 0
    return out[:n].tobytes()


def decoded(payload, size):
    """``(problem, bytes)``."""
    out = np.empty(size, np.uint8)
    problem, _ = _mixing.decode(np.frombuffer(payload, np.uint8), out)
    return problem, out.tobytes()


@given(byte_strings(3000).filter(len))
def test_the_kernel_decodes_what_it_codes(data):
    assert decoded(coded(data), len(data)) == (0, data)


@given(st.binary(min_size=1, max_size=300), st.data())
def test_the_kernel_refuses_a_payload_that_ends_elsewhere(data, draw):
    payload = coded(data)
    # a block has one payload (another may decode, to other bytes, which
    # the block check refuses)
    longer = payload + bytes([draw.draw(st.integers(0, 255))])
    assert decoded(longer, len(data)) != (0, data)
    assert decoded(payload[:-1], len(data)) != (0, data)


def test_the_kernel_refuses_a_block_over_its_largest():
    block = np.empty(_mixing.MAX_SIZE + 1, np.uint8)
    assert _mixing.decode(np.zeros(4, np.uint8), block) == (2, 0)


# with repeats at a distance, as the match model finds them
HEADERS = (b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x03\x00>\x00" + bytes(range(40)) * 3
           + b"\0" * 200 + bytes(range(40)) + b"\x01\x02\x03" * 20)


@pytest.mark.parametrize("data", [sample(700), b"abracadabra " * 30, bytes(range(256)),
                                  b"\0" * 500 + b"\1", HEADERS])
def test_a_decoder_written_from_the_format_text_agrees(data):
    payload = coded(data)
    assert mixed_decode(payload, len(data)) == data
    assert mixed_decode(payload + b"\0", len(data)) != data


def test_the_match_model_codes_repeats_smaller():
    # text said twice: its 3-byte contexts are ambiguous, the match is not
    twice = sample(600) * 2
    assert len(coded(twice)) < 0.8 * 2 * len(coded(sample(600)))


def test_the_model_is_exactly_the_documented_one():
    # FORMAT.md section 4.12 lists these numbers: the code must match them.
    assert SQUASH_POINTS_DOC == list(tables.SQUASH_POINTS)
    assert _mixing.SQUASH[0] == 1 and _mixing.SQUASH[-1] == 4095
    assert _mixing.STRETCH[2048] == 0 and _mixing.STRETCH[0] == -2047
    assert [_mixing.slot_bits(n) for n in (1, 31, 32, 2048, 65536)] == [10, 10, 11, 17, 22]


SQUASH_POINTS_DOC = [1, 2, 4, 6, 10, 17, 27, 45, 74, 120, 194, 311, 488, 747, 1102, 1546, 2048,
                     2550, 2994, 3349, 3608, 3785, 3902, 3976, 4022, 4051, 4069, 4079, 4086,
                     4090, 4092, 4094, 4095]


def test_levels_6_to_9_code_a_small_block_mixed():
    data = sample(1500)
    blob = unprimed(data, 9)  # text takes MIXED_PRIMED (test_primed.py)
    assert coding_of(blob) == MIXED
    assert len(blob) < 0.95 * len(gagebpe.compress(data, 5))
    for level in (6, 7, 8):
        assert coding_of(unprimed(data, level)) == MIXED
        assert coding_of(gagebpe.compress(data, level)) == registry.MIXED_PRIMED
    assert gagebpe.decompress(blob) == data
    assert _fast.decode(blob, BIG) == data
    # the same block in the block layout, through the general reader
    assert _fast.decode(block_layout(blob), BIG) is None
    assert gagebpe.decompress(block_layout(blob)) == data
    d = gagebpe.Decompressor()
    assert b"".join(d.decompress(blob[i:i + 7]) for i in range(0, len(blob), 7)) == data


def test_levels_1_to_5_and_large_blocks_are_not_mixed():
    data = sample(1500)
    for level in range(1, 6):
        assert coding_of(gagebpe.compress(data, level)) != MIXED
    big = sample(levels.MIXED_MAX + 1)
    assert coding_of(gagebpe.compress(big, 9)) != MIXED


def test_incompressible_small_blocks_stay_stored():
    noise = bytes(np.random.default_rng(3).integers(0, 256, 1000, dtype=np.uint8))
    blob = gagebpe.compress(noise, 9)
    assert coding_of(blob) == registry.STORED and gagebpe.decompress(blob) == noise


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
def test_small_inputs_code_no_larger_than_zlib_9_but_by_the_framing(level):
    """Issue 16's small inputs: at the default level and level 9 every piece
    of 64 bytes to 2 KB of the corpus is at most 6 bytes larger than zlib
    -9 makes it (format 1.0's framing takes 6 bytes more than zlib's)."""
    pieces = list(small_pieces())
    larger = [len(gagebpe.compress(p, level)) - len(zlib.compress(p, 9)) for p in pieces]
    assert max(larger) <= 6, [p[:20] for p, excess in zip(pieces, larger) if excess > 6]


def test_a_large_mixed_block_is_refused_before_it_is_decoded():
    # 1 MiB declared, 2 bytes of payload: refused by size, not ground through.
    size = 1 << 20
    blob = (_container.MAGIC + bytes([0, MIXED]) + _container.varint(size) + _container.varint(2)
            + bytes(4) + b"\x00\x00")
    assert _fast.decode(blob, BIG) is None
    with pytest.raises(gagebpe.GageBPEError, match="larger than"):
        gagebpe.decompress(blob)


def test_every_corruption_and_cut_of_a_mixed_stream_is_refused():
    data = sample(600)
    blob = unprimed(data, 9)
    assert coding_of(blob) == MIXED
    rng = np.random.default_rng(8)
    for pos in range(len(blob)):
        for flip in (0x01, 0x80, int(rng.integers(1, 256))):
            bad = bytearray(blob)
            bad[pos] ^= flip
            with pytest.raises((gagebpe.GageBPEError, EOFError)):
                gagebpe.decompress(bytes(bad))
            assert _fast.decode(bytes(bad), BIG) is None
    for cut in range(len(blob)):
        with pytest.raises((gagebpe.GageBPEError, EOFError)):
            gagebpe.decompress(blob[:cut])


def test_the_payload_alone_decodes():
    data = sample(900)
    payload = one_block_payload(unprimed(data, 9))
    out = np.empty(len(data), np.uint8)
    assert blocks.decode(registry.MIXED, payload, len(data), out).tobytes() == data
    with pytest.raises(gagebpe.GageBPEError, match="do not end"):
        blocks.decode(registry.MIXED, payload + b"\0", len(data), out)
