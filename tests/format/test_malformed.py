"""Malformed, truncated and hostile streams raise the documented errors."""
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe import GageBPEError
from gagebpe.decoder import blocks
from gagebpe.format.codings.registry import PACKED
from gagebpe.format import container as _container
from gagebpe.kernels.xxh64 import block_check
from conftest import block_spans

SAMPLES = {
    "empty": b"",
    "text": b"It was the best of times, it was the worst of times. " * 12,
    "multiblock": bytes(np.random.default_rng(3).integers(0, 6, 2500, dtype=np.uint8)),
    "stored": bytes(np.random.default_rng(4).integers(0, 256, 300, dtype=np.uint8)),
}
BLOCK = {"empty": None, "text": None, "multiblock": 600, "stored": None}


def stream(name):
    return gagebpe.compress(SAMPLES[name], block_size=BLOCK[name])


def outcome(blob):
    """What decompressing ``blob`` gives: data or a documented error."""
    try:
        return gagebpe.decompress(blob)
    except (GageBPEError, EOFError) as e:
        return type(e)


@pytest.mark.parametrize("name", SAMPLES)
def test_every_truncation_is_detected(name):
    blob = stream(name)
    for cut in range(len(blob)):
        assert outcome(blob[:cut]) in (EOFError, GageBPEError), cut
    # and through the file reader
    import io
    for cut in range(0, len(blob), 7):
        with pytest.raises((EOFError, GageBPEError)):
            gagebpe.GageBPEFile(io.BytesIO(blob[:cut])).read()


@pytest.mark.parametrize("name", SAMPLES)
def test_single_byte_corruptions(name):
    blob = stream(name)
    rng = np.random.default_rng(len(blob))
    positions = rng.integers(0, len(blob), 150)
    for pos in positions:
        for flip in (0x01, 0x80, int(rng.integers(1, 256))):
            bad = bytearray(blob)
            bad[pos] ^= flip
            result = outcome(bytes(bad))
            # Every byte is covered by a check, so no corruption decodes.
            assert result in (GageBPEError, EOFError), (pos, flip)


def _mutate(blob, kind, where, value, other):
    """``blob`` changed as the fuzzing campaign changes streams."""
    at = where % max(1, len(blob))
    if kind == "byte":
        return blob[:at] + bytes([blob[at] ^ (value or 1)]) + blob[at + 1:] if blob else blob
    if kind == "bit":
        return blob[:at] + bytes([blob[at] ^ (1 << (value % 8))]) + blob[at + 1:] if blob else blob
    if kind == "truncate":
        return blob[:at]
    if kind == "splice":
        return blob[:at] + other[(value * 7) % max(1, len(other)):]
    if kind == "duplicate":  # a stretch repeated, as a duplicated block is
        return blob[:at] + blob[at:at + value + 1] + blob[at:]
    return blob[:at] + blob[at + value + 1:]  # "drop"


@settings(max_examples=400)  # cheap cases: a larger fixed budget
@given(st.sampled_from(list(SAMPLES)), st.sampled_from(list(SAMPLES)),
       st.sampled_from(["byte", "bit", "truncate", "splice", "duplicate", "drop"]),
       st.integers(0, 1 << 16), st.integers(0, 255))
def test_mutated_streams_decode_exactly_or_raise_a_documented_error(
        name, other, kind, where, value):
    """The fuzzing campaign's mutations (benchmarks/fuzz.py runs them in a
    worker process, at scale), on a fixed budget: whatever the change, the
    result is an original's bytes or GageBPEError / EOFError."""
    blob = _mutate(stream(name), kind, where, value, stream(other))
    result = outcome(blob)
    a, b = SAMPLES[name], SAMPLES[other]
    # A cut between whole streams can join them: the only bytes allowed.
    originals = {a, b, a + b, a + a}
    assert result in (GageBPEError, EOFError) or result in originals


def test_trailing_garbage_is_an_error():
    with pytest.raises(GageBPEError):
        gagebpe.decompress(stream("text") + b"junk")


def header(magic=_container.MAGIC, descriptor=1, max_block=1 << 20, crc=None):
    """A stream header of the block layout."""
    head = magic + bytes([descriptor]) + struct.pack("<I", max_block)
    return head + struct.pack("<I", zlib.crc32(head) if crc is None else crc)


@pytest.mark.parametrize("head, message", [
    (header(magic=b"GZIP"), "bad magic"),
    (b"GBPE\x0e\x00\x00\x00" + bytes(8), "bad magic"),  # a stream of gagebpe before 1.0
    (header(crc=0), "header check"),
    (header(descriptor=0x05), "reserved descriptor bit 2"),
    (header(descriptor=0x09), "reserved descriptor bit 3"),
    (header(descriptor=0x11), "revision 1"),
    (header(descriptor=0xF1), "revision 15"),
    (header(descriptor=0x03), "dictionary 0x00100000"),  # its max block size read as the id
    (header(max_block=0), "out of range"),
    (header(max_block=1 << 31), "out of range"),
])
def test_bad_headers(head, message):
    with pytest.raises(GageBPEError, match=message):
        gagebpe.decompress(head + _container.trailer([]))


def block(coding, size, payload, data_crc=0, crc=None):
    head = struct.pack("<BIII", coding, size, len(payload), data_crc)
    return head + struct.pack("<I", zlib.crc32(head) if crc is None else crc) + payload


@pytest.mark.parametrize("blk, message", [
    (block(18, 4, b"abcd"), "block coding 18 is not one of format 1.0's"),
    (block(255, 4, b"abcd"), "block coding 255"),
    (block(1, 4, b"abcd", crc=1), "block header check"),
    (block(1, 4, b"abcd", data_crc=1), "block check failed"),
    (block(1, (1 << 20) + 1, b"abcd"), "out of range"),
    (block(1, 3, b"abcd"), "larger than its contents"),
    (block(1, 5, b"abcd"), "STORED block length"),
])
def test_bad_blocks(blk, message):
    size = struct.unpack_from("<I", blk, 1)[0]  # the trailer agrees with the block
    blob = header() + blk + _container.trailer([(len(blk), size)])
    with pytest.raises(GageBPEError, match=message):
        gagebpe.decompress(blob)


def packed(n_merges, n_ids, terminals, table_bits, id_bits):
    bitmap = np.zeros(256, np.uint8)
    bitmap[list(terminals)] = 1
    sections = [np.packbits(np.array(bits, np.uint8), bitorder="little").tobytes()
                for bits in (table_bits, id_bits)]
    return (struct.pack("<II", n_merges, n_ids)
            + np.packbits(bitmap, bitorder="little").tobytes() + b"".join(sections))


@pytest.mark.parametrize("payload, size, message", [
    # terminals {a, b, c}, 2-bit codes: merge 0 = (3, 0) refers to itself
    (packed(1, 1, b"abc", [1, 1, 0, 0], [1, 1]), 3, "undefined symbol"),
    # two merges, so ids take 3 bits: id 5 is undefined
    (packed(2, 1, b"abc", [0, 0, 1, 0, 0, 0, 1, 0], [1, 0, 1]), 5, "undefined symbol"),
    # merge 0 = (a, b) expands to 2 bytes, the header says 3
    (packed(1, 1, b"abc", [0, 0, 1, 0], [1, 1]), 3, "declared size"),
    # an expansion longer than the header says
    (packed(1, 2, b"abc", [0, 0, 1, 0], [1, 1, 1, 1]), 3, "past the declared size"),
    # more ids than bytes
    (packed(0, 5, b"ab", [], [0] * 5), 4, "counts disagree"),
    # bytes beyond what the counts need
    (packed(0, 2, b"ab", [], [0, 1]) + b"\0", 2, "length disagrees"),
    (packed(0, 2, b"ab", [], [0, 1])[:10], 2, "shorter than its header"),
    (packed(0, 2, b"", [], [0, 1]), 2, "counts disagree"),
    (packed(0, 2, b"ab", [], [0, 1, 0, 0, 0, 0, 0, 1]), 2, "padding"),
])
def test_bad_packed_payloads(payload, size, message):
    with pytest.raises(GageBPEError, match=message):
        blocks.decode(PACKED, payload, size, np.empty(size, np.uint8))


def test_hostile_sizes_are_rejected_before_allocating():
    # A block claiming the largest size must still fit the stream's limit.
    blk = block(2, 0xFFFFFFFF, b"")
    with pytest.raises(GageBPEError, match="out of range"):
        gagebpe.decompress(header() + blk)
    # A trailer claiming 2**32 - 1 blocks does not make the reader wait.
    forged = header() + b"\0" + struct.pack("<IQI4s", 2**32 - 1, 2**60, 0,
                                            _container.FOOTER_MAGIC)
    with pytest.raises(GageBPEError, match="index"):
        gagebpe.decompress(forged)
    with pytest.raises(GageBPEError, match="index"):
        gagebpe.Decompressor().decompress(forged)


def test_a_block_is_self_contained_given_the_stream_header():
    data = SAMPLES["multiblock"]
    blob = stream("multiblock")
    spans = block_spans(blob)
    assert [size for _, _, size in spans] == [600, 600, 600, 600, 100]
    offset, nbytes, size = spans[2]
    d = gagebpe.Decompressor()
    head = _container.SINGLE_AT + 8  # the magic, the descriptor, max block size, its check
    out = d.decompress(blob[:head] + blob[offset:offset + nbytes])
    assert out == data[1200:1800]


def single_stream(coding, size, payload, check=None, payload_size=None):
    """A single stream; ``size`` and ``payload_size`` are ints (written as
    varints) or their bytes as written."""
    def field(value):
        return value if isinstance(value, bytes) else _container.varint(value)
    if check is None:
        check = block_check(payload) if coding == 1 else 0
    sizes = field(size) + (b"" if coding == 1 else field(
        len(payload) if payload_size is None else payload_size))
    return _container.MAGIC + bytes([0, coding]) + sizes + struct.pack("<I", check) + payload


def test_a_single_stream_is_read():
    assert gagebpe.decompress(single_stream(1, 4, b"abcd")) == b"abcd"
    assert gagebpe.decompress(single_stream(1, 200, b"x" * 200)) == b"x" * 200
    assert gagebpe.decompress(_container.MAGIC + b"\0\0") == b""


@pytest.mark.parametrize("blob, error, message", [
    (single_stream(18, 4, b"abcd"), GageBPEError, "block coding 18"),
    (single_stream(1, 0, b""), GageBPEError, "out of range"),
    (single_stream(1, (1 << 26) + 1, b"abcd"), GageBPEError, "out of range"),
    (single_stream(1, b"\x84\x00", b"abcd"), GageBPEError, "shortest form"),
    (single_stream(2, 4, b"abcd", payload_size=b"\x84\x80\x80\x80\x00"), GageBPEError,
     "longer than 4 bytes"),
    (single_stream(2, 4, b"abcde"), GageBPEError, "larger than its contents"),
    (single_stream(1, 4, b"abcd", check=1), GageBPEError, "block check failed"),
    (single_stream(1, 4, b"abcd")[:-1], EOFError, "ended before"),
    (single_stream(1, 300, b"x" * 300)[:8], EOFError, "ended before"),
    (_container.MAGIC[:3], EOFError, "ended before"),
    (_container.MAGIC + b"\x04\x00", GageBPEError, "reserved descriptor bit 2"),
    (_container.MAGIC + b"\x02\x00\x00\x00\x01\x00", GageBPEError, "dictionary 0x01000000"),
])
def test_bad_single_streams(blob, error, message):
    with pytest.raises(error, match=message):
        gagebpe.decompress(blob)
    d = gagebpe.Decompressor()
    with pytest.raises(error, match=message):
        d.decompress(blob)
        if not d.eof:
            raise EOFError("ended before")


def test_bytes_after_a_single_stream_are_refused():
    with pytest.raises(GageBPEError, match="bad magic"):
        gagebpe.decompress(gagebpe.compress(b"abcd") + b"\0")
    d = gagebpe.Decompressor()
    assert d.decompress(gagebpe.compress(b"abcd") + b"\0") == b"abcd"
    assert d.eof and d.unused_data == b"\0"
