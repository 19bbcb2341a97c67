"""The short layout (format versions 9 and 10, docs/FORMAT.md section
3.6): every stream of one block or none, and the layouts it replaced,
still read."""
import io
from pathlib import Path

import numpy as np
import pytest

import gagebpe
from gagebpe import GageBPEError, _container, _one_block
from gagebpe._checksum import block_check
from gagebpe.sample import sample

from conftest import as_version, coding_of

SHORT = _container.SHORT_MAGIC  # version 9's
STORED_STREAMS = Path(__file__).parent / "data" / "v0.13-short.gbpe"


def head(coding):
    """The first two bytes of a version 10 short stream of ``coding``."""
    return bytes([_container.SHORT_MARK, _container.TAGGED + coding])


def test_the_empty_stream_takes_two_bytes():
    empty = head(_container.END_OF_BLOCKS)
    assert gagebpe.compress(b"") == empty == b"\xfb\x50"
    c = gagebpe.Compressor()
    assert c.compress(b"") + c.flush() == empty
    assert gagebpe.decompress(empty) == b""
    (info,) = gagebpe.describe(io.BytesIO(empty))
    assert (info.version, info.blocks, info.size, info.stream_bytes) == (10, 0, 0, 2)
    # and version 9's, three bytes
    assert gagebpe.decompress(SHORT + b"\x00") == b""
    (info,) = gagebpe.describe(io.BytesIO(SHORT + b"\x00"))
    assert (info.version, info.blocks, info.size, info.stream_bytes) == (9, 0, 0, 3)


def test_a_stored_block_sends_no_payload_size():
    data = bytes(np.random.default_rng(5).integers(0, 256, 200, dtype=np.uint8))
    blob = gagebpe.compress(data)
    assert coding_of(blob) == _container.STORED
    check = block_check(data).to_bytes(4, "little")
    assert blob == head(_container.STORED) + _container.varint(200) + check + data
    assert gagebpe.decompress(blob) == data
    assert _one_block.decode(blob, 1000) == data


def mixed_streams():
    """Short streams of each kind, and one of the block layout, with what
    they hold."""
    pieces = [b"", b"x", sample(1500), bytes(np.random.default_rng(2).bytes(700)),
              sample(9000), b"", sample(5000)]
    streams = [gagebpe.compress(p, block_size=4096 if i == 4 else None)
               for i, p in enumerate(pieces)]
    return streams, pieces


def test_concatenated_short_streams_decode_by_every_reader():
    streams, pieces = mixed_streams()
    assert [s[:1] for s in streams].count(b"\xfb") == len(streams) - 1
    blob, data = b"".join(streams), b"".join(pieces)
    assert gagebpe.decompress(blob) == data
    # a byte at a time, a Decompressor a stream, as lzma's take them
    d, out = gagebpe.Decompressor(), []
    for i in range(len(blob)):
        if d.eof:
            assert d.unused_data == b""
            d = gagebpe.Decompressor()
        out.append(d.decompress(blob[i:i + 1]))
    assert d.eof and b"".join(out) == data
    assert gagebpe.GageBPEFile(io.BytesIO(blob)).read() == data
    infos = gagebpe.describe(io.BytesIO(blob))
    assert [i.size for i in infos] == [len(p) for p in pieces]
    assert [i.stream_bytes for i in infos] == [len(s) for s in streams]


@pytest.mark.parametrize("blob, error, message", [
    (b"\xfb", EOFError, "ended before"),
    (SHORT, EOFError, "ended before"),
    (b"\xfbH\x00", GageBPEError, "bad magic"),
    (b"\xfb\x4f\x00", GageBPEError, "bad magic"),  # under the tags
    (b"\xfb\x60\x00", GageBPEError, "bad magic"),  # over them
    (b"\xfaG\x00", GageBPEError, "bad magic"),
    (b"\xfa\x51\x00", GageBPEError, "bad magic"),
    (SHORT + b"\x0c\x01\x01\x00\x00\x00\x00\x00", GageBPEError, "coding 12"),
    (head(12) + b"\x01\x01\x00\x00\x00\x00\x00", GageBPEError, "coding 12"),
    (head(15) + b"\x01\x01\x00\x00\x00\x00\x00", GageBPEError, "coding 15"),
    (SHORT + b"\x00\x00", GageBPEError, "bad magic"),  # a byte after the empty stream
    (head(0) + b"\x00", GageBPEError, "bad magic"),
    (head(0) + b"\xfb", EOFError, "ended before"),
    (SHORT + b"\x01\x80\x00\x00\x00\x00\x00", GageBPEError, "shortest form"),
    (head(1) + b"\x80\x00\x00\x00\x00\x00", GageBPEError, "shortest form"),
    (SHORT + b"\x01\x03\x00\x00\x00\x00abc", GageBPEError, "block check failed"),
    (head(1) + b"\x03\x00\x00\x00\x00abc", GageBPEError, "block check failed"),
    (head(1) + b"\x03\x00\x00\x00\x00ab", EOFError, "ended before"),
    # version 9 has no one-block preamble: its one-block streams are short
    (b"GBPE\x09\x01\x01\x01" + bytes(12), GageBPEError, "header check failed"),
    (_container.stream_header(1 << 20, 10) + _container.trailer([]), GageBPEError,
     "unsupported format version 10"),
])
def test_malformed_short_streams_are_refused(blob, error, message):
    with pytest.raises(error, match=message):
        gagebpe.decompress(blob)
    assert _one_block.decode(blob, 1000) is None


@pytest.mark.parametrize("level", [1, 6, 9])
def test_one_block_layouts_of_versions_4_to_8_stay_readable(level):
    for data in (b"x", sample(1500), sample(9000)):
        blob = gagebpe.compress(data, level)
        coding = coding_of(blob)
        # versions 7 and 8 framed it in 5 bytes more, and a STORED block's
        # payload size too
        extra = 5 + (len(_container.varint(len(data))) if coding == _container.STORED else 0)
        for version in range(_container.ONE_BLOCK_VERSION, _container.MIXED_VERSION + 1):
            if version < _container.SINCE.get(coding, 0):
                continue
            old = as_version(blob, version)
            assert gagebpe.decompress(old) == data
            assert _one_block.decode(old, len(data)) == data
            (info,) = gagebpe.describe(io.BytesIO(old))
            assert (info.version, info.size, info.stream_bytes) == (version, len(data), len(old))
            if version >= _container.COMPACT_VERSION:
                assert len(old) == len(blob) + extra


def test_the_empty_stream_of_the_block_layout_stays_readable():
    # what gagebpe 0.12 and earlier wrote for no bytes: header and trailer
    blob = _container.stream_header(1 << 22) + _container.trailer([])
    assert len(blob) == 37 and gagebpe.decompress(blob) == b""


@pytest.mark.parametrize("level", [1, 6, 9])
def test_the_short_layout_of_version_9_stays_readable(level):
    for data in (b"x", sample(1500), sample(9000)):
        blob = gagebpe.compress(data, level)
        old = as_version(blob, _container.SHORT_VERSION)
        assert len(old) == len(blob) + 1  # its magic's second byte
        assert gagebpe.decompress(old) == data
        assert _one_block.decode(old, len(data)) == data
        assert gagebpe.decompress(old + blob + old) == data * 3
        (info, _, _) = gagebpe.describe(io.BytesIO(old + blob + old))
        assert (info.version, info.stream_bytes) == (9, len(old))


def test_short_streams_written_by_gagebpe_0_13_stay_readable():
    # empty, STORED, MIXED_MATCH, MIXED_MATCH, STORED and SORTED, level 9
    blob = STORED_STREAMS.read_bytes()
    pieces = [b"", b"x", sample(100), sample(1500),
              bytes(np.random.default_rng(13).bytes(300)), sample(5000)]
    assert gagebpe.decompress(blob) == b"".join(pieces)
    infos = gagebpe.describe(io.BytesIO(blob))
    assert [(i.version, i.size) for i in infos] == [(9, len(p)) for p in pieces]
    assert [blob[sum(i.stream_bytes for i in infos[:k]):][:3].hex()
            for k in range(len(infos))] == ["fb4700", "fb4701", "fb470b", "fb470b",
                                            "fb4701", "fb4704"]
