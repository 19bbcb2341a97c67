"""XXH64 with seed 0 in plain Python: the block data check
(``gagebpe.kernels.xxh64``), for blocks a plain job writes or reads.
"""
import struct

P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
M64 = (1 << 64) - 1


def _round(acc, lane):
    acc = (acc + lane * P2) & M64
    return (((acc << 31) | (acc >> 33)) * P1) & M64


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def xxh64(data):
    """XXH64 of ``data`` (bytes-like) with seed 0."""
    data = bytes(data)
    n = len(data)
    i = 0
    if n >= 32:
        v1, v2, v3, v4 = (P1 + P2) & M64, P2, 0, (-P1) & M64
        stripes = n // 32
        for a, b, c, d in struct.iter_unpack("<4Q", data[:32 * stripes]):
            v1 = _round(v1, a)
            v2 = _round(v2, b)
            v3 = _round(v3, c)
            v4 = _round(v4, d)
        i = 32 * stripes
        h = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & M64
        for v in (v1, v2, v3, v4):
            h = (((h ^ _round(0, v)) * P1) + P4) & M64
    else:
        h = P5
    h = (h + n) & M64
    while i + 8 <= n:
        h = (_rotl(h ^ _round(0, int.from_bytes(data[i:i + 8], "little")), 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h = (_rotl(h ^ ((int.from_bytes(data[i:i + 4], "little") * P1) & M64), 23) * P2
             + P3) & M64
        i += 4
    while i < n:
        h = (_rotl(h ^ ((data[i] * P5) & M64), 11) * P1) & M64
        i += 1
    h ^= h >> 33
    h = (h * P2) & M64
    h ^= h >> 29
    h = (h * P3) & M64
    return h ^ (h >> 32)


def block_check(data):
    """The low 32 bits of XXH64: a block's data check."""
    return xxh64(data) & 0xFFFFFFFF
