"""XXH64 (Yann Collet's xxHash, 64-bit, seed 0): its low 32 bits are the
block data check of format 1.0 (docs/FORMAT.md, XXH32L).

A block check runs over every byte a decoder writes, so its speed bounds
decompression: zlib's CRC32 takes about a fifth of gagebpe's decoding time,
XXH64 about a twentieth.  zstd checks its frames with the same function;
``xxhash.xxh64_intdigest`` (PyPI) gives the same values.
"""
import numpy as np

from .._jit import PURE_PYTHON, njit
from .unaligned import load4, load8

_P1 = np.uint64(0x9E3779B185EBCA87)
_P2 = np.uint64(0xC2B2AE3D27D4EB4F)
_P3 = np.uint64(0x165667B19E3779F9)
_P4 = np.uint64(0x85EBCA77C2B2AE63)
_P5 = np.uint64(0x27D4EB2F165667C5)


@njit(cache=True, nogil=True, inline='always')
def _rotl(x, r):
    return (x << np.uint64(r)) | (x >> np.uint64(64 - r))


@njit(cache=True, nogil=True, inline='always')
def _round(acc, lane):
    return _rotl(acc + lane * _P2, 31) * _P1


@njit(cache=True, nogil=True, inline='always')
def _merge(acc, lane):
    return (acc ^ _round(np.uint64(0), lane)) * _P1 + _P4


@njit(cache=True, nogil=True)
def xxh64(data):
    """XXH64 of the uint8 array ``data`` with seed 0."""
    n = np.uint64(data.shape[0])
    i = np.uint64(0)
    if n >= np.uint64(32):
        v1 = _P1 + _P2
        v2 = _P2
        v3 = np.uint64(0)
        v4 = np.uint64(0) - _P1
        while i + np.uint64(32) <= n:
            v1 = _round(v1, load8(data, i))
            v2 = _round(v2, load8(data, i + np.uint64(8)))
            v3 = _round(v3, load8(data, i + np.uint64(16)))
            v4 = _round(v4, load8(data, i + np.uint64(24)))
            i += np.uint64(32)
        h = _rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)
        h = _merge(_merge(_merge(_merge(h, v1), v2), v3), v4)
    else:
        h = _P5
    h += n
    while i + np.uint64(8) <= n:
        h = _rotl(h ^ _round(np.uint64(0), load8(data, i)), 27) * _P1 + _P4
        i += np.uint64(8)
    if i + np.uint64(4) <= n:
        h = _rotl(h ^ (load4(data, i) * _P1), 23) * _P2 + _P3
        i += np.uint64(4)
    while i < n:
        h = _rotl(h ^ (np.uint64(data[i]) * _P5), 11) * _P1
        i += np.uint64(1)
    h ^= h >> np.uint64(33)
    h *= _P2
    h ^= h >> np.uint64(29)
    h *= _P3
    return h ^ (h >> np.uint64(32))


@njit(cache=True, nogil=True, inline='always')
def data_check(data):
    """``block_check`` of the uint8 array ``data`` inside a kernel, as an
    int64: what the one-block and record decoders compare."""
    return np.int64(xxh64(data) & np.uint64(0xFFFFFFFF))


def block_check(data):
    """The 32-bit check of a block's original bytes (bytes-like or uint8
    array): the low half of their XXH64, as in zstd."""
    array = np.frombuffer(data, np.uint8) if not isinstance(data, np.ndarray) else data
    if array.flags.writeable:  # one kernel signature: read-only arrays
        array = array.view()
        array.flags.writeable = False
    if PURE_PYTHON:  # NumPy scalars wrap as the kernel does, but warn
        with np.errstate(over="ignore"):
            return int(xxh64(array)) & 0xFFFFFFFF
    return int(xxh64(array)) & 0xFFFFFFFF
