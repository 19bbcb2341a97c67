"""The block check: XXH64, seed 0, low 32 bits."""
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


def test_blocks_are_checked_with_xxh64_in_either_layout():
    data = b"the low half of XXH64 checks every block"
    check = _checksum.block_check(data)
    assert gagebpe.compress(data, 1) == (_container.MAGIC + bytes([0, 1, len(data)])
                                         + check.to_bytes(4, "little") + data)
    head = _container.BLOCK_HEADER.pack(1, len(data), len(data), check, 0)[:-4]
    blob = (_container.stream_header(1 << 20) + head + zlib.crc32(head).to_bytes(4, "little")
            + data + _container.trailer([(_container.BLOCK_HEADER.size + len(data), len(data))]))
    assert gagebpe.decompress(blob) == data
    for wrong in (check ^ 1, zlib.crc32(data)):
        bad = blob.replace(check.to_bytes(4, "little"), wrong.to_bytes(4, "little"))
        head = bad[13:26]
        bad = bad[:26] + zlib.crc32(head).to_bytes(4, "little") + bad[30:]
        with pytest.raises(gagebpe.GageBPEError, match="block check failed"):
            gagebpe.decompress(bad)
