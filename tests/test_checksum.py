"""The block check of format version 2: XXH64, seed 0, low 32 bits."""
import zlib

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.kernels import xxh64 as _checksum
from gagebpe.format import container as _container

# Published by xxHash's reference implementation (and the `xxhash` package).
VECTORS = [
    (b"", 0xEF46DB3751D8E999),
    (b"a", 0xD24EC4F1A98C6E5B),
    (b"abc", 0x44BC2CF5AD770999),
    (b"0123456789abcdef0123456789abcdef", 0x642A94958E71E6C5),
    (b"The quick brown fox jumps over the lazy dog", 0x0B242D361FDA71BC),
    (bytes(range(256)) * 3 + b"xyz", 0xE921A1B45BD779F8),
]


@pytest.mark.parametrize("data, expected", VECTORS)
def test_xxh64_matches_the_reference(data, expected):
    assert int(_checksum.xxh64(np.frombuffer(data, np.uint8))) == expected
    assert _checksum.block_check(data) == expected & 0xFFFFFFFF


@given(st.binary(max_size=300))
def test_xxh64_matches_the_xxhash_package(data):
    xxhash = pytest.importorskip("xxhash", reason="the xxhash package is not installed")
    assert _checksum.block_check(bytearray(data)) == xxhash.xxh64_intdigest(data) & 0xFFFFFFFF


def _stream_of_version(version, data, check):
    head = _container.HEADER.pack(_container.MAGIC, version, 0, 0, 1 << 20, 0)[:-4]
    block = _container.BLOCK_HEADER.pack(1, len(data), len(data), check, 0)[:-4]
    return (head + zlib.crc32(head).to_bytes(4, "little")
            + block + zlib.crc32(block).to_bytes(4, "little") + data
            + _container.trailer([(_container.BLOCK_HEADER.size + len(data), len(data))]))


def test_each_version_checks_blocks_with_its_own_function():
    data = b"version one checked blocks with CRC32"
    crc, xxh = zlib.crc32(data), _checksum.block_check(data)
    assert gagebpe.decompress(_stream_of_version(1, data, crc)) == data
    assert gagebpe.decompress(_stream_of_version(2, data, xxh)) == data
    assert gagebpe.decompress(_stream_of_version(3, data, xxh)) == data
    for version, wrong in ((1, xxh), (2, crc), (3, crc)):
        with pytest.raises(gagebpe.GageBPEError, match="block check failed"):
            gagebpe.decompress(_stream_of_version(version, data, wrong))


def test_new_streams_take_the_lowest_version_that_holds_them():
    # one block or none: the short layout; version 11 names a small block's
    # coding and size in one byte, version 10 tags the coding byte of others
    assert gagebpe.compress(b"abc") == b"\xfb\x62" + \
        _checksum.block_check(b"abc").to_bytes(4, "little") + b"abc"
    random = np.random.default_rng(0).bytes(40)
    assert gagebpe.compress(random) == b"\xfb\x51\x28" + \
        _checksum.block_check(random).to_bytes(4, "little") + random
    assert gagebpe.compress(b"") == b"\xfb\x50"
    random = np.random.default_rng(0).bytes(512)
    assert gagebpe.compress(random, block_size=256)[4] == 3  # STORED
    # MIXED_MATCH codes the rising bytes' high bits in fewer than 8 bits each
    assert gagebpe.compress(bytes(range(256)) * 2, block_size=256)[4] == _container.MATCH_VERSION
    # levels 1-5 write no MIXED_MATCH blocks
    assert gagebpe.compress(b"abc" * 100, 5, block_size=100)[4] == _container.LZ_VERSION
