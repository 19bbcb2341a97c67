"""The short layout (format versions 9 to 12, docs/FORMAT.md section
3.6): every stream of one block or none, and the layouts it replaced,
still read."""
import io
from pathlib import Path

import numpy as np
import pytest

from hypothesis import given, strategies as st

import gagebpe
from gagebpe import GageBPEError
from gagebpe.encoder import block as _block
from gagebpe.format import container as _container, fast as _one_block
from gagebpe.kernels import mixing as _mixing
from gagebpe.kernels.xxh64 import block_check
from gagebpe.sample import sample

from conftest import (as_version, check_every_reader, check_readers_agree, coding_of,
                      unprimed)

SHORT = _container.SHORT_MAGIC  # version 9's
STORED_STREAMS = Path(__file__).parent / "data" / "v0.13-short.gbpe"
TAGGED_STREAMS = Path(__file__).parent / "data" / "v0.14-tagged.gbpe"
SIZED_STREAMS = Path(__file__).parent / "data" / "v0.15-sized.gbpe"
DELIMITED = _container.MIXED_DELIMITED


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


def without_delimited(data, monkeypatch):
    """``data`` compressed as gagebpe 0.15 did: no MIXED_DELIMITED."""
    with monkeypatch.context() as m:
        m.setattr(_block, "encode_delimited", lambda data: None)
        return unprimed(data)


def test_a_small_block_names_its_coding_and_size_in_one_byte(monkeypatch):
    sizes = {_container.STORED: [], _container.MIXED_MATCH: [], DELIMITED: []}
    rng = np.random.default_rng(11)
    for size in range(1, 140):
        for data in (rng.bytes(size), sample(size)):
            blob = unprimed(data)  # as 0.16 wrote it (MIXED_PRIMED: test_primed.py)
            coding, check = coding_of(blob), block_check(data).to_bytes(4, "little")
            first, largest = _container.SIZED.get(coding, (0, 0))
            (info,) = gagebpe.describe(io.BytesIO(blob))
            if size <= largest:  # versions 11 and 12
                assert blob[1] == first + size - 1
                # only MIXED_MATCH sends its payload's size
                assert blob[2 + (coding == _container.MIXED_MATCH):][:4] == check
                sizes[coding].append(size)
                assert info.version == (12 if coding == DELIMITED else 11)
            else:  # version 10: the tagged coding byte, then the size
                assert blob[1] == _container.TAGGED + coding
                assert blob[2:2 + len(_container.varint(size))] == _container.varint(size)
                assert info.version == 10
            assert (info.size, info.stream_bytes) == (size, len(blob))
            assert gagebpe.decompress(blob) == data
            assert _one_block.decode(blob, size) == data
            old = without_delimited(data, monkeypatch)  # versions 10 and 11
            if coding == DELIMITED:
                assert len(blob) < len(old)
                continue
            assert blob == old
            # less than version 10 spends on the same block, by its size
            saved = len(_container.varint(size)) if size <= largest else 0
            assert len(as_version(blob, _container.TAGGED_VERSION)) == len(blob) + saved
    assert set(sizes[_container.STORED]) == set(range(1, 33))
    assert max(sizes[_container.MIXED_MATCH]) == 128
    assert max(sizes[DELIMITED]) == 64 and len(sizes[DELIMITED]) >= 40


def test_a_delimited_block_costs_zlibs_framing():
    data = sample(40)
    blob = unprimed(data)
    payload = _block.encode_delimited(data)
    assert blob == b"\xfb\x27" + block_check(data).to_bytes(4, "little") + payload
    assert len(blob) == 6 + len(payload)  # zlib's 2-byte header and 4-byte check
    assert coding_of(blob) == DELIMITED
    # levels 1 to 5 do not code context mixing
    assert gagebpe.compress(data, 5)[1] not in range(0x40)


@given(st.binary(max_size=80), st.integers(0, 0x3f))
def test_every_reader_agrees_on_a_forged_delimited_block(tail, byte):
    out = check_readers_agree(bytes([_container.SHORT_MARK, byte]) + tail, 12)
    assert out is None or len(out) == byte + 1


@pytest.mark.parametrize("blob, error, message", [
    (b"\xfb\x60", EOFError, "ended before"),
    (b"\xfb\x60\x00\x00\x00\x00", EOFError, "ended before"),  # no byte after the check
    (b"\xfb\x61" + block_check(b"ab").to_bytes(4, "little") + b"ab", None, b"ab"),
    (b"\xfb\x61" + block_check(b"ab").to_bytes(4, "little") + b"ac", GageBPEError,
     "block check failed"),
    (b"\xfb\x83\x05\x00\x00\x00\x00abcde", GageBPEError, "larger than its contents"),
    (b"\xfb\x83\x80\x00", GageBPEError, "shortest form"),
    (b"\xfb\x83\x03\x00\x00\x00\x00abc", GageBPEError, "MIXED|check failed"),
    (b"\xfb\x83\x03\x00\x00\x00\x00ab", EOFError, "ended before"),
    (b"\xfb\x27", EOFError, "ended before"),
    (b"\xfb\x27\x00\x00\x00", EOFError, "ended before"),  # no payload
    (b"\xfb\x27\x00\x00\x00\x00", EOFError, "ended before"),
    (b"\xfb\x00\x00\x00\x00\x00\xff\xff", GageBPEError, "MIXED"),
])
def test_sized_blocks_are_checked(blob, error, message):
    if error is None:
        assert gagebpe.decompress(blob) == message == _one_block.decode(blob, 10)
        return
    with pytest.raises(error, match=message):
        gagebpe.decompress(blob)
    assert _one_block.decode(blob, 1000) is None


def mixed_streams():
    """Short streams of each kind, and one of the block layout, with what
    they hold."""
    pieces = [b"", b"x", sample(1500), bytes(np.random.default_rng(2).bytes(700)),
              sample(9000), b"", sample(64), sample(100), b":\n" + b" " * 30, sample(5000)]
    streams = [unprimed(p, block_size=4096 if i == 4 else None) for i, p in enumerate(pieces)]
    return streams, pieces


def test_concatenated_short_streams_decode_by_every_reader():
    streams, pieces = mixed_streams()
    assert [s[:1] for s in streams].count(b"\xfb") == len(streams) - 1
    # two MIXED_DELIMITED, found where they end only by decoding
    assert [s[1] < 0x40 for s in streams if s[:1] == b"\xfb"].count(True) == 2
    check_every_reader(streams, pieces)


@pytest.mark.parametrize("blob, error, message", [
    (b"\xfb", EOFError, "ended before"),
    (SHORT, EOFError, "ended before"),
    (b"\xfbH\x00", GageBPEError, "bad magic"),
    (b"\xfb\x4f\x00", GageBPEError, "bad magic"),  # under the tags
    (b"\xfb\x40\x00", GageBPEError, "bad magic"),  # between 12's and 9's
    (b"\xfaG\x00", GageBPEError, "bad magic"),
    (b"\xfa\x51\x00", GageBPEError, "bad magic"),
    (SHORT + b"\x0c\x01\x01\x00\x00\x00\x00\x00", GageBPEError, "coding 12"),
    (head(12) + b"\x01\x01\x00\x00\x00\x00\x00", GageBPEError, "coding 12"),
    (head(13) + b"\x01\x01\x00\x00\x00\x00\x00", GageBPEError, "coding 13"),
    (SHORT + b"\x0e\x01\x01\x00\x00\x00\x00\x00", GageBPEError, "coding 14"),  # version 14's
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
        blob = unprimed(data, level)
        coding = coding_of(blob)
        # versions 7 and 8 framed it in 5 bytes more, and a STORED block's
        # payload size too
        tagged = as_version(blob, _container.TAGGED_VERSION)
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
                assert len(old) == len(tagged) + extra


def test_the_empty_stream_of_the_block_layout_stays_readable():
    # what gagebpe 0.12 and earlier wrote for no bytes: header and trailer
    blob = _container.stream_header(1 << 22) + _container.trailer([])
    assert len(blob) == 37 and gagebpe.decompress(blob) == b""


@pytest.mark.parametrize("level", [1, 6, 9])
def test_the_short_layout_of_version_9_stays_readable(level):
    for data in (b"x", sample(1500), sample(9000)):
        blob = unprimed(data, level)
        old = as_version(blob, _container.SHORT_VERSION)
        assert len(old) == len(as_version(blob, _container.TAGGED_VERSION)) + 1  # G
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


def test_short_streams_written_by_gagebpe_0_14_stay_readable():
    # version 10: empty, STORED, MIXED_MATCH x 3, STORED and SORTED at level
    # 9, and LZ at level 1
    blob = TAGGED_STREAMS.read_bytes()
    pieces = [b"", b"x", sample(20), sample(100), sample(1500),
              bytes(np.random.default_rng(13).bytes(30)), sample(5000), sample(64)]
    assert gagebpe.decompress(blob) == b"".join(pieces)
    infos = gagebpe.describe(io.BytesIO(blob))
    assert [(i.version, i.size) for i in infos] == [(10, len(p)) for p in pieces]
    starts = [sum(i.stream_bytes for i in infos[:k]) for k in range(len(infos))]
    assert [blob[k + 1] - _container.TAGGED for k in starts] == [0, 1, 11, 11, 11, 1, 4, 9]
    for k, info, data in zip(starts, infos, pieces):
        if data:
            assert _one_block.decode(blob[k:k + info.stream_bytes], len(data)) == data


def test_short_streams_written_by_gagebpe_0_15_stay_readable():
    # version 11 at level 6: STORED, MIXED_MATCH x 2, STORED, MIXED_MATCH x 3
    blob = SIZED_STREAMS.read_bytes()
    pieces = [b"x", sample(20), sample(64), bytes(np.random.default_rng(15).bytes(30)),
              sample(100), sample(128), b"\0" * 40]
    assert gagebpe.decompress(blob) == b"".join(pieces)
    infos = gagebpe.describe(io.BytesIO(blob))
    assert [(i.version, i.size) for i in infos] == [(11, len(p)) for p in pieces]
    starts = [sum(i.stream_bytes for i in infos[:k]) for k in range(len(infos))]
    assert [blob[k + 1] for k in starts] == [0x60, 0x93, 0xbf, 0x7d, 0xe3, 0xff, 0xa7]
    for k, info, data in zip(starts, infos, pieces):
        assert _one_block.decode(blob[k:k + info.stream_bytes], len(data)) == data


def test_a_delimited_payload_longer_than_its_block_is_refused():
    # what the encoder never writes: it would store these 10 bytes
    noise = np.random.default_rng(3).bytes(10)
    out = np.empty(64, np.uint8)
    n = _mixing.encode(np.frombuffer(noise, np.uint8), out, True, True)
    assert n > len(noise)
    blob = b"\xfb\x09" + block_check(noise).to_bytes(4, "little") + out[:n].tobytes()
    with pytest.raises(GageBPEError, match="larger than its contents"):
        gagebpe.decompress(blob)
    assert _one_block.decode(blob, 1000) is None
