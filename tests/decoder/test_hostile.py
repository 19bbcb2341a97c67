"""Hostile input and concurrent use: the decoder's guarantees under stress."""
import io
import struct
import subprocess
import sys
import tracemalloc
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import gagebpe
from gagebpe import GageBPEError
from gagebpe.format import container as _container
from gagebpe.sample import sample

from conftest import block_layout, unprimed

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_fuzz_campaign_with_a_fixed_budget():
    """The campaign script (benchmarks/fuzz.py), on a budget CI can afford:
    every case exact or a documented error, no crash, no hang."""
    result = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fuzz.py"),
                             "--cases", "3000", "--seed", "7"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "wrong output: 0" in result.stdout and "crash: 0" in result.stdout
    assert "hang: 0" in result.stdout


# A block-layout stream's header: magic, descriptor, max block size, its check.
HEADER_BYTES = _container.SINGLE_AT + 8

def with_total(stream, total):
    """``stream`` with its footer declaring ``total`` original bytes and its
    index check recomputed, so that only the size is wrong."""
    blob = bytearray(stream)
    footer = len(blob) - _container.FOOTER.size
    n_blocks = struct.unpack_from("<I", blob, footer)[0]
    start = len(blob) - _container.trailer_size(n_blocks)
    struct.pack_into("<Q", blob, footer + 4, total)
    crc = zlib.crc32(bytes(blob[start:footer + 12]))
    struct.pack_into("<I", blob, footer + 12, crc)
    return bytes(blob)


def test_a_header_declaring_2_to_the_60_bytes_allocates_nothing():
    hostile = with_total(block_layout(unprimed(b"tiny")), 1 << 60)
    tracemalloc.start()
    try:
        with pytest.raises(GageBPEError):
            gagebpe.describe(io.BytesIO(hostile))
        with pytest.raises(GageBPEError):
            gagebpe.decompress(hostile)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20
    # A block header declaring 2^32 - 1 bytes (its check recomputed) is
    # refused by the stream's maximum block size before any payload is read.
    tiny = unprimed(b"tiny")
    blob = bytearray(block_layout(tiny))
    at = HEADER_BYTES
    struct.pack_into("<I", blob, at + 1, 0xFFFFFFFF)
    struct.pack_into("<I", blob, at + 13, zlib.crc32(bytes(blob[at:at + 13])))
    with pytest.raises(GageBPEError, match="out of range"):
        gagebpe.decompress(bytes(blob))
    # and in the single layout, whose sizes are varints of at most 28 bits,
    # by the largest a block may have
    at = _container.SINGLE_AT + 1
    forged = tiny[:at] + _container.varint((1 << 28) - 1) + tiny[at + 1:]
    with pytest.raises(GageBPEError, match="out of range"):
        gagebpe.decompress(forged)


def test_limit_refuses_a_block_before_decoding_it():
    data = sample(40_000)
    one = gagebpe.compress(data, block_size=10_000)
    assert gagebpe.decompress(one, limit=40_000) == data
    assert gagebpe.decompress(one, limit=None) == data
    for limit in (0, 9_999, 10_000, 39_999):
        with pytest.raises(GageBPEError, match="output limit"):
            gagebpe.decompress(one, limit=limit)
    # The limit covers concatenated streams together.
    assert gagebpe.decompress(one + one, limit=80_000) == data + data
    with pytest.raises(GageBPEError, match="output limit"):
        gagebpe.decompress(one + one, limit=79_999)
    d = gagebpe.Decompressor(limit=25_000)
    with pytest.raises(GageBPEError, match="output limit"):
        d.decompress(one)
    with pytest.raises(ValueError):
        gagebpe.decompress(one, limit=-1)


def test_a_bomb_is_refused_at_the_limit_without_expanding_past_it(bomb_64gib):
    hostile = bomb_64gib
    assert len(hostile) < 300_000
    tracemalloc.start()
    try:
        with pytest.raises(GageBPEError, match="output limit"):
            gagebpe.decompress(hostile, limit=(1 << 26) - 1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20  # the first block is refused before it is decoded
    with pytest.raises(GageBPEError, match="output limit"):
        gagebpe.decompress(hostile, limit=3 << 26)


def test_a_forged_layout_without_a_limit_is_refused_a_block_at_a_time(bomb_64gib):
    hostile = bytearray(bomb_64gib)
    hostile[HEADER_BYTES + _container.BLOCK_HEADER.size + 40] ^= 0xFF
    tracemalloc.start()
    try:
        with pytest.raises(GageBPEError):
            gagebpe.decompress(bytes(hostile), limit=None)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 << 26  # one block's output, not the 64 GiB declared


def test_files_take_a_limit_too(bomb_64gib):
    data = sample(40_000)
    one = gagebpe.compress(data, block_size=10_000)
    with gagebpe.open(io.BytesIO(one + one), limit=80_000) as f:
        assert f.read() == data + data
    with gagebpe.open(io.BytesIO(one + one), limit=50_000) as f:
        assert f.read(45_000) == (data + data)[:45_000]
        with pytest.raises(GageBPEError, match="output limit"):
            f.read()
    with gagebpe.open(io.BytesIO(bomb_64gib), limit=1 << 30) as f:
        with pytest.raises(GageBPEError, match="output limit"):
            while f.read(1 << 24):
                pass
    with pytest.raises(ValueError):
        gagebpe.open(io.BytesIO(), "wb", limit=1)


def test_1994_format_has_the_same_limit():
    data = sample(20_000)
    blob = gagebpe.compress(data, format="gage1994")
    assert gagebpe.decompress(blob, format="gage1994", limit=20_000) == data
    with pytest.raises(GageBPEError):
        gagebpe.decompress(blob, format="gage1994", limit=19_999)


def test_many_threads_at_once_give_correct_results():
    rng = np.random.default_rng(11)
    inputs = [sample(int(n)) for n in rng.integers(1_000, 300_000, 24)]
    inputs += [bytes(rng.integers(0, 256, 50_000, dtype=np.uint8)), b"", b"a" * 70_000]

    def round_trip(i):
        data = inputs[i]
        level = 1 + i % 9
        blob = gagebpe.compress(data, level, block_size=1 << 16 if i % 2 else None)
        return blob, gagebpe.decompress(blob), level

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(round_trip, range(len(inputs))))
    for i, (blob, back, level) in enumerate(results):
        assert back == inputs[i]
        if i % 2 == 0:  # and the same bytes as compressing alone
            assert blob == gagebpe.compress(inputs[i], level)
