"""MIXED_PRIMED (docs/FORMAT.md section 4.13 and Appendix A): a block of
up to 4 KiB coded by a model that has first learnt the priming text."""
import io
import re
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe import GageBPEError
from gagebpe.encoder import block as _block
from gagebpe.format.codings import mixed as _coding_mixed
from gagebpe.format import container as _container
from gagebpe.decoder import fast as _fast
from gagebpe.format.codings import registry
from gagebpe.kernels import mixing as _mixing
from gagebpe.kernels.xxh64 import block_check
from gagebpe.encoder.levels import MIXED_MAX
from gagebpe.plain.priming_text import PRIMING_TEXT
from gagebpe.sample import sample

from conftest import (byte_strings, canterbury_files, check_every_reader, check_readers_agree,
                      coding_of)
from reference import mixed_decode

FORMAT = Path(__file__).parents[2] / "docs" / "FORMAT.md"
PRIMED = registry.MIXED_PRIMED
LARGEST = _mixing.PRIMED_MAX_SIZE
# A single stream's framing beyond zlib's (magic, descriptor, coding, two
# varints and the check: 12 bytes for a block under 128, zlib's 6)
FRAMING_BEYOND_ZLIB = 6
# text that the old model learnt too late: deflate codes the run as one copy
RUNS = [b":\n" + b" " * 20 + word for word in (b"ab", b"def", b"ghij", b"klmno", b"pqrstu")]


def documented_text():
    """The priming text as FORMAT.md's Appendix A prints it, and the CRC32
    it states."""
    appendix = FORMAT.read_text().split("## Appendix A.")[1]
    crc = re.search(r"Its CRC32 is `([0-9a-f]{8})`", appendix).group(1)
    return appendix.split("```\n")[1].encode("ascii"), int(crc, 16)


def primed_payload(data):
    """The kernel's MIXED_PRIMED payload for ``data``, however large."""
    out = np.empty(len(data) + 16, np.uint8)
    n = _mixing.encode_primed(np.frombuffer(data, np.uint8), out, *_coding_mixed.primed_model())
    assert n > 0
    return out[:n].tobytes()


def primed_decoded(payload, size):
    """``(problem, bytes, where the payload ended)``."""
    block = np.empty(size, np.uint8)
    problem, end = _mixing.decode_primed(np.frombuffer(payload, np.uint8), block,
                                         *_coding_mixed.primed_model())
    return problem, block.tobytes(), end


def stream(data, payload):
    """A single stream of ``data`` coded MIXED_PRIMED as ``payload``."""
    return _container.single_stream(_container.block(PRIMED, payload, data))


def test_the_priming_text_is_the_documented_one():
    text, crc = documented_text()
    assert text == PRIMING_TEXT and zlib.crc32(text) == crc
    assert len(text) == 1871 and "1,871 bytes" in FORMAT.read_text()
    assert b"\t" not in text and b" \n" not in text and text.isascii()
    assert LARGEST == _mixing.PRIMED_MAX_SIZE


@given(byte_strings(LARGEST).filter(len), st.binary(min_size=1, max_size=8))
def test_the_kernel_decodes_what_it_codes_and_nothing_longer_or_shorter(data, after):
    payload = primed_payload(data)
    assert primed_decoded(payload, len(data)) == (0, data, len(payload))
    # a block has one payload (another may decode, to other bytes, which
    # the block check refuses)
    assert primed_decoded(payload + after, len(data))[:2] != (0, data)
    assert primed_decoded(payload[:-1], len(data))[:2] != (0, data)


@pytest.mark.parametrize("data", [sample(300), bytes(range(200)), RUNS[0], b"x",
                                  b"abracadabra " * 20])
def test_a_decoder_written_from_the_format_text_agrees(data):
    text, _ = documented_text()
    payload = primed_payload(data)
    assert mixed_decode(payload, len(data), text=text) == data
    # the same payload without the priming text decodes to other bytes
    assert mixed_decode(payload, len(data)) != data


def test_the_primed_model_codes_small_text_smaller():
    # the head start counts for less as the block grows
    for n, most in ((16, 0.65), (64, 0.8), (256, 0.9), (1024, 0.95), (4096, 1.0)):
        data = sample(n)
        assert len(primed_payload(data)) < most * len(_coding_mixed.encode(data))


def test_a_primed_stream_is_a_single_stream():
    data = sample(100)
    blob = gagebpe.compress(data)
    assert coding_of(blob) == PRIMED
    payload = _block.encode_primed(data)
    assert blob == (_container.MAGIC + bytes([0, PRIMED, 100]) + _container.varint(len(payload))
                    + block_check(data).to_bytes(4, "little") + payload)
    (info,) = gagebpe.describe(io.BytesIO(blob))
    assert (info.version, info.blocks, info.size, info.stream_bytes) == ("1.0", 1, 100,
                                                                        len(blob))
    assert gagebpe.decompress(blob) == data
    # levels 1 to 5 do not code context mixing
    assert coding_of(gagebpe.compress(data, 5)) != PRIMED
    with pytest.raises(GageBPEError):  # a payload size that disagrees
        gagebpe.decompress(_container.MAGIC + bytes([0, PRIMED, 100])
                           + _container.varint(len(payload) + 1)
                           + block_check(data).to_bytes(4, "little") + payload + b"\0")


def test_primed_streams_are_written_where_they_are_shortest(monkeypatch):
    rng = np.random.default_rng(13)
    chosen = []
    for size in list(range(1, 140)) + [1000, MIXED_MAX, MIXED_MAX + 1]:
        for data in (rng.bytes(size), sample(size)):
            blob = gagebpe.compress(data)
            assert gagebpe.decompress(blob) == data
            assert _fast.decode(blob, size) == data
            with monkeypatch.context() as m:
                m.setattr(_block, "encode_primed", lambda data: None)
                old = gagebpe.compress(data)
            if coding_of(blob) == PRIMED:
                assert len(blob) < len(old) and size <= MIXED_MAX
                chosen.append(size)
            else:
                assert blob == old
    # written up to where MIXED is, for its decoding time
    assert MIXED_MAX in chosen and MIXED_MAX + 1 not in chosen and min(chosen) <= 8
    assert len(chosen) >= 130  # text, nearly always; random bytes, never


def test_runs_that_lost_to_zlib_code_within_the_framing_of_it():
    for data in RUNS:
        assert len(gagebpe.compress(data)) <= len(zlib.compress(data, 9)) + FRAMING_BEYOND_ZLIB


@pytest.mark.parametrize("path", canterbury_files(), ids=lambda p: getattr(p, "name", "none"))
def test_no_tiny_piece_codes_larger_than_zlib_9_but_by_the_framing(path):
    """Issue 16's small inputs at every size from 1 to 128 bytes, as the
    small-inputs benchmark cuts them (5 pieces of each size here): format
    1.0's framing costs 6 bytes more than zlib's, and no more."""
    data = path.read_bytes()
    step = len(data) // 5
    pieces = [data[i:i + size] for size in range(1, 129) for i in range(0, 5 * step, step)]
    larger = [p for p in pieces
              if len(gagebpe.compress(p)) > len(zlib.compress(p, 9)) + FRAMING_BEYOND_ZLIB]
    assert not larger, larger[:3]


@given(st.binary(max_size=80), st.integers(0, 140))
def test_every_reader_agrees_on_a_forged_primed_stream(tail, size):
    blob = _container.MAGIC + bytes([0, PRIMED]) + _container.varint(size) + tail
    out = check_readers_agree(blob)
    assert out is None or len(out) == size


def test_malformed_primed_streams_are_refused():
    data = sample(50)
    payload = _block.encode_primed(data)
    good = stream(data, payload)
    assert gagebpe.decompress(good) == data
    head = _container.MAGIC + bytes([0, PRIMED])
    cases = [(head, EOFError, "ended before"),
             (head + b"\x00" + bytes(8), GageBPEError, "size 0 out of range"),
             (head + b"\x81\x20\x01" + bytes(5), GageBPEError, "MIXED_PRIMED block larger"),
             (head + b"\xb2\x80\x00" + bytes(8), GageBPEError, "shortest form"),
             (good[:-1], EOFError, "ended before"),
             (good + b"\x00", GageBPEError, "bad magic"),
             (good[:8] + b"\0\0\0\0" + payload, GageBPEError, "block check failed")]
    for blob, error, message in cases:
        with pytest.raises(error, match=message):
            gagebpe.decompress(blob)
        assert _fast.decode(blob, 1000) is None
    # what the encoder never writes: a payload longer than its block
    noise = np.random.default_rng(3).bytes(10)
    longer = primed_payload(noise)
    assert len(longer) > len(noise)
    with pytest.raises(GageBPEError, match="larger than its contents"):
        gagebpe.decompress(stream(noise, longer))


def test_every_corruption_of_a_primed_stream_is_refused():
    data = sample(120)
    blob = gagebpe.compress(data)
    assert coding_of(blob) == PRIMED
    for i in range(len(blob)):
        for flip in (1, 0x80):
            bad = bytearray(blob)
            bad[i] ^= flip
            with pytest.raises((GageBPEError, EOFError)):
                gagebpe.decompress(bytes(bad))
    for cut in range(len(blob)):
        with pytest.raises(EOFError):
            gagebpe.decompress(blob[:cut])


def test_concatenated_primed_streams_decode_by_every_reader():
    pieces = [sample(40), b"", bytes(np.random.default_rng(1).bytes(30)), sample(2000),
              RUNS[2], sample(9000), sample(64)]
    streams = [gagebpe.compress(p) for p in pieces]
    assert [coding_of(s) if p else 0 for s, p in zip(streams, pieces)].count(PRIMED) == 4
    check_every_reader(streams, pieces)
