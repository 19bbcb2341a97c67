"""The container format, version 2: bytes in, bytes out (docs/FORMAT.md).

A stream is a header, any number of blocks, and a trailer holding an index
of the blocks, so that a reader can find every block from the end.  All
integers are little-endian.  This module builds and checks each part; the
streaming classes in ``_stream`` decide when enough bytes have arrived.
"""
import struct
import zlib
from typing import NamedTuple

from ._errors import TRUNCATED, GageBPEError

# ``_blocks`` and ``_checksum`` (and the kernels behind them) are imported
# where a block is coded, so that reading a stream's layout loads neither
# Numba nor the kernels.

MAGIC = b"GBPE"
FOOTER_MAGIC = b"EPBG"
VERSION = 2  # written
VERSIONS = (1, 2)  # read: version 1 checks blocks with CRC32, 2 with XXH64
MAX_BLOCK_SIZE = 1 << 26

# magic, version, flags, reserved, max block size, CRC32 of the 12 before
HEADER = struct.Struct("<4sBBHII")
# coding, original size, payload size, check of the original bytes,
# CRC32 of the 13 bytes before
BLOCK_HEADER = struct.Struct("<BIIII")
END_OF_BLOCKS = 0
# per block: its bytes in the stream (header included), its original size
INDEX_ENTRY = struct.Struct("<II")
# block count, total original size, CRC32 of the trailer before it, magic
FOOTER = struct.Struct("<IQI4s")


def _crc(*parts):
    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    return crc


# -- stream header ----------------------------------------------------------

def stream_header(max_block_size):
    head = HEADER.pack(MAGIC, VERSION, 0, 0, max_block_size, 0)[:-4]
    return head + struct.pack("<I", _crc(head))


def parse_stream_header(buf):
    """Check a stream header (``HEADER.size`` bytes); return the stream's
    ``(version, maximum block size)``."""
    magic, version, flags, reserved, max_block_size, crc = HEADER.unpack(buf)
    if magic != MAGIC:
        raise GageBPEError("not a gagebpe stream (bad magic bytes)")
    if crc != _crc(bytes(buf[:HEADER.size - 4])):
        raise GageBPEError("stream header check failed")
    if version not in VERSIONS:
        raise GageBPEError(f"unsupported format version {version}")
    if flags or reserved:
        raise GageBPEError("reserved header bits are set")
    if not 0 < max_block_size <= MAX_BLOCK_SIZE:
        raise GageBPEError(f"maximum block size {max_block_size} out of range")
    return version, max_block_size


# -- blocks ---------------------------------------------------------------------

def block_needs_merges(data, min_count, probe):
    """Whether encoding ``data`` will run the merge engine (most of the
    cost); ``encode_block`` can be told, so that callers can order work."""
    from . import _blocks
    return _blocks.worth_merging(data, min_count, probe)


def encode_block(data, min_count, probe=False, merge=None):
    """One block of the stream, header included, for ``data`` (non-empty);
    ``merge`` as ``block_needs_merges`` would say, or None to decide here."""
    from . import _blocks, _checksum
    coding, payload = _blocks.encode(data, min_count, probe, merge)
    head = BLOCK_HEADER.pack(coding, len(data), len(payload),
                             _checksum.block_check(data), 0)[:-4]
    return head + struct.pack("<I", _crc(head)) + payload


def parse_block_header(buf, max_block_size):
    """Check a block header (``BLOCK_HEADER.size`` bytes, the first not
    END_OF_BLOCKS); return ``(coding, size, payload_size, data_check)``."""
    coding, size, payload_size, data_check, crc = BLOCK_HEADER.unpack(buf)
    if crc != _crc(bytes(buf[:BLOCK_HEADER.size - 4])):
        raise GageBPEError("block header check failed")
    from . import _blocks
    if coding not in _blocks.CODINGS:
        raise GageBPEError(f"unsupported block coding {coding}")
    if not 0 < size <= max_block_size:
        raise GageBPEError(f"block size {size} out of range")
    # Codings are used only where they shrink the block.
    if payload_size > size:
        raise GageBPEError("block payload larger than its contents")
    return coding, size, payload_size, data_check


def decode_block(coding, size, data_check, payload, version=VERSION, out=None):
    """The original bytes of a block of a stream of ``version``, checked,
    as a buffer (bytes or a uint8 array: ``out``, if given, a writable
    array of ``size`` bytes)."""
    from . import _blocks, _checksum
    data = _blocks.decode(coding, payload, size, out)
    check = _crc(data) if version == 1 else _checksum.block_check(data)
    if check != data_check:
        raise GageBPEError("block check failed: data corrupt")
    return data


# -- trailer --------------------------------------------------------------------

def trailer(index):
    """The trailer for blocks ``index = [(stream bytes, size), ...]``."""
    body = bytes([END_OF_BLOCKS]) + b"".join(INDEX_ENTRY.pack(*e) for e in index)
    total = sum(size for _, size in index)
    counts = struct.pack("<IQ", len(index), total)
    return body + counts + struct.pack("<I", _crc(body, counts)) + FOOTER_MAGIC


def trailer_size(n_blocks):
    return 1 + n_blocks * INDEX_ENTRY.size + FOOTER.size


def check_trailer(buf, index):
    """Check a trailer (``trailer_size(len(index))`` bytes) against the
    blocks actually read."""
    if bytes(buf) != trailer(index):
        if bytes(buf[-4:]) != FOOTER_MAGIC:
            raise GageBPEError("bad end-of-stream marker")
        raise GageBPEError("stream index disagrees with its blocks")


def declared_size(data):
    """The original size that ``data``, a run of whole streams, declares
    in its block headers, or None if its layout does not parse (a reader
    then finds what is wrong).  Reads the headers only: nothing is checked
    that decoding does not check again."""
    total = 0
    pos = 0
    try:
        while pos < len(data):
            max_block_size = parse_stream_header(data[pos:pos + HEADER.size])[1]
            pos += HEADER.size
            n_blocks = 0
            while data[pos] != END_OF_BLOCKS:
                head = data[pos:pos + BLOCK_HEADER.size]
                size, payload_size = parse_block_header(head, max_block_size)[1:3]
                total += size
                pos += BLOCK_HEADER.size + payload_size
                n_blocks += 1
            pos += trailer_size(n_blocks)
    except (GageBPEError, struct.error, IndexError):
        return None
    return total if pos == len(data) else None


def read_index(stream_bytes):
    """The block index ``[(offset, stream bytes, size), ...]`` of a complete
    single stream, read from its end only."""
    if len(stream_bytes) < HEADER.size + trailer_size(0):
        raise GageBPEError("too short for a gagebpe stream")
    n_blocks, total, crc, magic = FOOTER.unpack_from(stream_bytes, len(stream_bytes) - FOOTER.size)
    if magic != FOOTER_MAGIC:
        raise GageBPEError("bad end-of-stream marker")
    start = len(stream_bytes) - trailer_size(n_blocks)
    if start < HEADER.size:
        raise GageBPEError("stream index larger than the stream")
    body = stream_bytes[start:len(stream_bytes) - FOOTER.size + 12]
    if _crc(bytes(body)) != crc or body[0] != END_OF_BLOCKS:
        raise GageBPEError("stream index check failed")
    index = []
    offset = HEADER.size
    for k in range(n_blocks):
        nbytes, size = INDEX_ENTRY.unpack_from(stream_bytes, start + 1 + k * INDEX_ENTRY.size)
        index.append((offset, nbytes, size))
        offset += nbytes
    if offset != start or sum(e[2] for e in index) != total:
        raise GageBPEError("stream index disagrees with the stream")
    return index


# -- description ----------------------------------------------------------------

class StreamInfo(NamedTuple):
    version: int
    blocks: int
    size: int  # original bytes
    stream_bytes: int
    merges: int  # over all blocks


def describe(fp):
    """``[StreamInfo, ...]`` for the concatenated streams of the binary file
    ``fp``, read from its current position to its end, checking every
    header and the trailers but decoding no block.  Raises like decoding:
    ``GageBPEError`` for malformed data, ``EOFError`` if cut short."""
    streams = []
    while True:
        head = fp.read(HEADER.size)
        if not head and streams:
            return streams
        _need(head, HEADER.size)
        version, max_block_size = parse_stream_header(head)
        index, merges = [], 0
        while True:
            marker = _need(fp.read(1), 1)
            if marker[0] == END_OF_BLOCKS:
                check_trailer(marker + _need(fp.read(trailer_size(len(index)) - 1),
                                             trailer_size(len(index)) - 1), index)
                break
            block_head = marker + _need(fp.read(BLOCK_HEADER.size - 1), BLOCK_HEADER.size - 1)
            coding, size, payload_size, _ = parse_block_header(block_head, max_block_size)
            payload_head = _need(fp.read(min(4, payload_size)), min(4, payload_size))
            _skip(fp, payload_size - len(payload_head))
            from . import _blocks
            merges += _blocks.merge_count(coding, payload_head)
            index.append((BLOCK_HEADER.size + payload_size, size))
        stream_bytes = HEADER.size + sum(n for n, _ in index) + trailer_size(len(index))
        streams.append(StreamInfo(version, len(index), sum(s for _, s in index),
                                  stream_bytes, merges))


def _need(data, n):
    if len(data) < n:
        raise EOFError(TRUNCATED)
    return data


def _skip(fp, n):
    if fp.seekable():
        fp.seek(n, 1)  # a short file shows at the next read
        return
    while n > 0:
        n -= len(_need(fp.read(min(n, 1 << 20)), 1))
