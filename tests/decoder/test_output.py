"""One-shot ``decompress`` decodes each block straight into the bytes it
returns: block decoders write exactly their block and nothing past it, the
layout is parsed whole before decoding, and other Pythons fall back to a
copy."""
import io

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

import gagebpe
from gagebpe.format import container as _container
from gagebpe.format.codings import registry
from gagebpe.decoder import blocks
from gagebpe import _inplace_bytes
from gagebpe.sample import sample
from conftest import block_spans, byte_strings, payload_spans

GUARD = 64


def blocks_of(blob):
    """``(coding, size, check, payload)`` of each block of one stream."""
    for start, end, block in payload_spans(blob):
        yield block.coding, block.size, block.data_check, blob[start:end]


def decode_between_guards(data, level, block_size):
    blob = gagebpe.compress(data, level, block_size=block_size)
    pos = 0
    for coding, size, check, payload in blocks_of(blob):
        area = np.full(size + 2 * GUARD, 0xA5, np.uint8)
        blocks.decode(coding, payload, size, area[GUARD:GUARD + size])
        _container.check_data(area[GUARD:GUARD + size], check)
        assert bytes(area[GUARD:GUARD + size]) == data[pos:pos + size]
        assert (area[:GUARD] == 0xA5).all() and (area[GUARD + size:] == 0xA5).all()
        pos += size
    assert pos == len(data)


@given(byte_strings(), st.integers(1, 9), st.integers(1, 4000))
def test_block_decoders_write_exactly_their_block(data, level, block_size):
    decode_between_guards(data, level, block_size)


@pytest.mark.parametrize("level", [1, 6, 9])
def test_entropy_coded_blocks_write_exactly_their_block(level):
    # Big enough for SORTED blocks, whose phrase copies run 16 bytes wide.
    data = sample(150_000) + bytes(range(256)) * 40
    decode_between_guards(data, level, 70_001)


@given(st.lists(byte_strings(max_size=600), min_size=1, max_size=3), st.integers(1, 40))
def test_the_layout_is_checked_whole_before_decoding(parts, cut):
    blob = b"".join(gagebpe.compress(p, block_size=101) for p in parts)
    streams = gagebpe.describe(io.BytesIO(blob))
    assert [s.size for s in streams] == list(map(len, parts))
    assert sum(s.stream_bytes for s in streams) == len(blob)
    assume(cut < streams[-1].stream_bytes)  # else what is left is whole streams
    with pytest.raises(EOFError):
        gagebpe.decompress(blob[:-cut])  # cut short
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(blob + bytes(cut))  # trailing bytes


def test_results_are_ordinary_bytes():
    data = b"the bytes a decoder writes in place " * 1000
    out = gagebpe.decompress(gagebpe.compress(data), threads=2)
    assert type(out) is bytes and out == data
    assert hash(out) == hash(bytes(data)) and {out: 1}[data] == 1


def test_fallback_where_bytes_cannot_be_written(monkeypatch):
    monkeypatch.setattr(_inplace_bytes, "_new_bytes", None)
    data = b"elsewhere a bytearray is filled and copied " * 500
    out = gagebpe.decompress(gagebpe.compress(data, 1))
    assert type(out) is bytes and out == data


def test_a_failed_block_returns_nothing():
    data = b"a stream whose second block is corrupt " * 300
    blob = bytearray(gagebpe.compress(data, 1, block_size=4000))
    offset, nbytes, _ = block_spans(bytes(blob))[1]
    blob[offset + nbytes - 1] ^= 0xFF
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(bytes(blob))
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(bytes(blob), threads=2)


def test_wrong_size_for_out_is_refused():
    with pytest.raises(ValueError):
        blocks.decode(registry.PACKED, b"", 5, np.empty(4, np.uint8))
