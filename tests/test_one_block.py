"""The one-kernel path for streams of one block: it decodes exactly the
streams it takes, and declines everything else, every corrupt stream
included, so that the general reader raises the error."""
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest

import gagebpe
from gagebpe.format import container as _container, fast as _one_block
from gagebpe.sample import sample

from conftest import (as_version, block_layout, block_spans, without_lz,
                      one_block_payload, payload_spans, unprimed)

DATA = Path(__file__).parent / "data"
BIG = 1 << 40


def coding_of(blob):
    """The coding of the single block of stream ``blob``, in any layout."""
    parser, view = _container.Parser(), memoryview(blob)
    unit, n = parser.parse(view)
    while not isinstance(unit, _container.BlockHeader):
        view = view[n:]
        unit, n = parser.parse(view)
    return unit.coding


def both_layouts(blob):
    """A one-block stream as written (the short layout, version 11 or 10),
    in version 10's and 9's short layout, in the one-block layouts of
    versions 8 and 6, and in the block layout."""
    return [blob, as_version(blob, _container.TAGGED_VERSION),
            as_version(blob, _container.SHORT_VERSION),
            as_version(blob, _container.MIXED_VERSION),
            as_version(blob, _container.LZ_VERSION), block_layout(blob)]


@pytest.mark.parametrize("data, level", [
    (sample(4096), 6), (sample(60_000), 6), (b"x", 6),
    (bytes(np.random.default_rng(7).integers(0, 256, 3000, dtype=np.uint8)), 6),
    (sample(4096), 9), (sample(20_000), 7), (sample(30_000), 9)])
def test_takes_one_block_streams_and_gives_their_bytes(data, level):
    for blob in both_layouts(unprimed(data, level)):
        assert coding_of(blob) in _one_block.TAKEN
        assert _one_block.decode(blob, BIG) == data
        out = np.zeros(len(data), np.uint8)
        assert _one_block.decode_into(blob, out)
        assert out.tobytes() == data


def as_version_2(blob):
    blob = bytearray(block_layout(blob))
    blob[4] = 2
    blob[12:16] = struct.pack("<I", zlib.crc32(blob[:12]))
    return bytes(blob)


def test_a_version_2_stream_is_taken_but_not_with_a_version_3_coding():
    data = sample(5000)
    assert _one_block.decode(as_version_2(without_lz(data)), BIG) == data
    folded = without_lz(data, 9)  # level 9's grammar by count, case-folded
    assert coding_of(folded) == _container.FOLDED
    folded = as_version_2(folded)
    assert _one_block.decode(folded, BIG) is None
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(folded)
    context = unprimed(sample(20_000), 7)
    assert coding_of(context) == _container.CONTEXT
    context = as_version_2(context)
    assert _one_block.decode(context, BIG) is None
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(context)


@pytest.mark.parametrize("blob", [
    gagebpe.compress(sample(20_000), block_size=8192),    # three blocks
    gagebpe.compress(sample(4096)) * 2,                    # two streams
    gagebpe.compress(sample(4096)) + b"\0",                # trailing byte
    without_lz(b"ab" * 100),                               # PACKED
    gagebpe.compress(np.arange(20_000, dtype="<i4").tobytes()),  # FILTERED
    gagebpe.compress(b""),                                 # no block
    (DATA / "v0.1-level6.gbpe").read_bytes(),              # version 1
], ids=["blocks", "streams", "trailing", "packed", "filtered", "empty", "version 1"])
def test_declines_what_it_does_not_take(blob):
    assert _one_block.decode(blob, BIG) is None


def _still_valid(bad, blob):
    """Whether corrupting ``blob`` into ``bad`` gave another valid stream:
    a one-block stream of version 4 or 5 made a later one of the same
    layout (4 to 6, or 7 to 8), which holds every block the earlier one
    does."""
    if blob[:4] != _container.MAGIC:
        return False
    same_layout = (bad[4] in _container.COMPACT_VERSIONS) == (blob[4] in _container.COMPACT_VERSIONS)
    return (blob[4] < bad[4] <= _container.MIXED_VERSION and blob[5] == _container.ONE_BLOCK
            and same_layout and bad[:4] + bad[5:] == blob[:4] + blob[5:])


@pytest.mark.parametrize("size, level, coding", [(3000, 6, _container.SORTED),
                                                  (3000, 9, _container.FOLDED),
                                                  (15_000, 7, _container.CONTEXT)])
def test_declines_every_single_byte_corruption(size, level, coding):
    for blob in both_layouts(without_lz(sample(size), level)):
        assert coding_of(blob) == coding
        rng = np.random.default_rng(1)
        for pos in range(len(blob)):
            for flip in (0x01, 0x80, int(rng.integers(1, 256))):
                bad = bytearray(blob)
                bad[pos] ^= flip
                if _still_valid(bad, blob):
                    continue
                assert _one_block.decode(bytes(bad), BIG) is None, (pos, flip)


def _repeats_stream(inner):
    """A level 9 stream of one REPEATS block whose literals take ``inner``."""
    from test_repeats import repeated
    data = {_container.STORED: repeated(1), _container.CONTEXT: sample(20_000) + repeated(7),
            _container.FOLDED: sample(3000).upper() + sample(9000) + sample(3000).upper(),
            _container.PACKED: bytes(np.random.default_rng(2).integers(0, 4, 3000,
                                                                        dtype=np.uint8)) * 2}
    blob = without_lz(data[inner], 9)
    assert coding_of(blob) == _container.REPEATS
    payload = one_block_payload(blob)
    assert payload[0] == inner
    return data[inner], blob


@pytest.mark.parametrize("inner", [_container.STORED, _container.CONTEXT, _container.FOLDED])
def test_takes_repeats_over_what_it_takes(inner):
    data, blob = _repeats_stream(inner)
    for layout in both_layouts(blob):
        assert _one_block.decode(layout, BIG) == data
    packed_data, packed = _repeats_stream(_container.PACKED)
    assert _one_block.decode(packed, BIG) is None
    assert gagebpe.decompress(packed) == packed_data
    assert _one_block.decode(as_version(blob, _container.ONE_BLOCK_VERSION), BIG) is None


def test_declines_every_single_byte_corruption_of_repeats():
    _, blob = _repeats_stream(_container.FOLDED)
    rng = np.random.default_rng(2)
    for pos in range(len(blob)):
        flip = int(rng.integers(1, 256))
        bad = bytearray(blob)
        bad[pos] ^= flip
        assert _one_block.decode(bytes(bad), BIG) is None, (pos, flip)


def test_a_version_5_stream_of_a_version_4_block_is_taken():
    data = sample(3000)
    blob = as_version(without_lz(data), _container.REPEATS_VERSION)
    assert _one_block.decode(blob, BIG) == data == gagebpe.decompress(blob)


def test_declines_every_truncation():
    for blob in both_layouts(unprimed(sample(3000))):
        for cut in range(len(blob)):
            assert _one_block.decode(blob[:cut], BIG) is None, cut


def test_declines_a_block_past_the_limit():
    data = sample(4096)
    blob = unprimed(data)
    assert _one_block.decode(blob, len(data) - 1) is None
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(blob, limit=len(data) - 1)


def test_decode_into_declines_another_size():
    blob = unprimed(sample(4096))
    assert not _one_block.decode_into(blob, np.zeros(4095, np.uint8))
    assert not _one_block.decode_into(blob, np.zeros(4097, np.uint8))


def test_a_forged_size_allocates_nothing_past_a_block():
    compact = unprimed(sample(4096))
    for stream, size_at in ((compact, 2),  # after fb and the tagged coding byte
                            (as_version(compact, _container.MIXED_VERSION),
                             _container.PREAMBLE.size + 1)):
        assert stream[size_at:size_at + 2] == _container.varint(4096)
        for forged in (_container.MAX_BLOCK_SIZE + 1, (1 << 28) - 1, (1 << 32) - 1):
            blob = stream[:size_at] + _container.varint(forged) + stream[size_at + 2:]
            assert _one_block._declared(blob) == (0, 0)
            assert _one_block.decode(blob, BIG) is None
            with pytest.raises(gagebpe.GageBPEError):
                gagebpe.decompress(blob, limit=None)
    for blob in both_layouts(compact)[4:]:  # sizes of 4 bytes
        blob = bytearray(blob)
        (start, _, _), = block_spans(blob)
        for forged in (_container.MAX_BLOCK_SIZE + 1, (1 << 32) - 1):
            blob[start + 1:start + 5] = struct.pack("<I", forged)
            assert _one_block._declared(bytes(blob)) == (0, 0)
            assert _one_block.decode(bytes(blob), BIG) is None
            with pytest.raises(gagebpe.GageBPEError):
                gagebpe.decompress(bytes(blob), limit=None)


def test_a_one_block_stream_of_version_3_stays_readable():
    # Written by gagebpe 0.6.0 (format version 3, the block layout) from
    # gagebpe.sample.sample(30000) at level 9: FOLDED over CONTEXT.
    blob = (DATA / "v0.6-level9.gbpe").read_bytes()
    assert blob[4] == 3 and coding_of(blob) == _container.FOLDED
    assert _one_block.decode(blob, BIG) == sample(30_000)
    assert gagebpe.decompress(blob) == sample(30_000)
    (start, end, _), = payload_spans(blob)
    # level 9 as 0.6 built it: by count only (it now also builds by gain,
    # and codes this text smaller so)
    assert one_block_payload(without_lz(sample(30_000), 9)) == blob[start:end]
    assert len(gagebpe.compress(sample(30_000), 9)) < end - start
