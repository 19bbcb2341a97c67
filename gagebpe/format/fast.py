"""A stream of one block, checked and decoded in one kernel call.

numcodecs and Zarr hand a codec one small stream per chunk.  For a 4 KB
chunk, the general reader (``format.container.Parser``, ``encoder.block.decode``, the
block check) spends twice as long in Python as its kernel spends decoding.
``decode`` takes the common case (a stream of version 2 or later of one
STORED, SORTED, CONTEXT, SORTED_LONG, CONTEXT_LONG, LZ, MIXED, MIXED_MATCH,
MIXED_DELIMITED or MIXED_PRIMED block, or a FOLDED block over one of the
four grammar codings, or a REPEATS block over any of these but LZ, in any
layout) through one
call of its coding's kernel, which makes every check the general reader
makes (docs/FORMAT.md, sections 3 and 4), the block check included.
Anything else, and every input that fails a check, it declines: the
caller then takes the general path, which raises the error.  So it never
returns bytes the general path would not, and errors keep one source.

Imports ``_jit``, ``_errors``, ``format.container`` (the layout), ``format.codings.folded`` and
``format.codings.repeats`` (their headers), ``format.codings.mixed`` (the primed model),
``kernels.coded_sequence`` (``u32``),
``_inplace_bytes`` and the kernels ``kernels.xxh64``, ``format.codings.sorted_rules``,
``format.codings.context``, ``kernels.case``, ``kernels.repeats``, ``kernels.lz``, ``kernels.mixing``.
"""
import numpy as np

from ..kernels import case as _case, lz as _lz, mixing as _mixing, repeats as _repeats
from .codings import (context as _coding_context, folded as _coding_folded,
                      mixed as _coding_mixed, repeats as _coding_repeats,
                      sorted_rules as _coding_sorted)
from .. import _inplace_bytes
from ..kernels.coded_sequence import u32
from ..kernels.xxh64 import xxh64
from .container import (BLOCK_HEADER, COMPACT_VERSION, COMPACT_VERSIONS, CONTEXT, CONTEXT_LONG,
                        FOLDED, DELIMITED_VERSION, LONG_CODINGS, LONG_VERSION, FOOTER,
                        FOOTER_MAGIC, HEADER, INDEX_ENTRY, LZ, LZ_VERSION, MAGIC, MATCH_VERSION,
                        MAX_BLOCK_SIZE, MIXED, MIXED_DELIMITED, MIXED_MATCH, MIXED_PRIMED,
                        MIXED_VERSION, ONE_BLOCK, ONE_BLOCK_VERSIONS, PREAMBLE,
                        PRIMED_DELIMITED_LARGEST, PRIMED_LARGEST, PRIMED_MARK, REPEATS,
                        REPEATS_VERSION, SHORT_MAGIC, SHORT_MARK, SHORT_VERSION, SIZED,
                        SIZED_VERSION, SORTED, SORTED_LONG, STORED, TAGGED, TAGGED_VERSION,
                        VARINT_BYTES, read_varint, sized, trailer_size)
from .._errors import GageBPEError
from .._jit import PURE_PYTHON, njit

_BLOCK_AT = HEADER.size  # in a stream of the block layout
_ONE_BLOCK_AT = PREAMBLE.size  # in a one-block stream of versions 4 to 8
_SHORT_AT = len(SHORT_MAGIC)  # in a stream of the short layout of version 9
_TAGGED_AT = 1  # of versions 10 to 12, whose block's coding byte is tagged or sized
_BLOCK_HEADER = BLOCK_HEADER.size
_TRAILER = trailer_size(1)
_INDEX_CHECK_AT = 1 + INDEX_ENTRY.size + FOOTER.size - 8  # in the trailer
SMALLEST = _TAGGED_AT + 6  # a one-block stream's least: a sized STORED block of 1 byte
# Streams up to this size: past it, the general reader's fixed cost is
# small beside decoding, and its threads may help.
LARGEST = 1 << 22
_FOLDED_HEAD = _coding_folded.HEAD.size
_REPEATS_HEAD = _coding_repeats.HEAD.size
_BITMAP = 32  # bytes of a bitmap of byte values
_MAGIC = np.frombuffer(MAGIC, np.uint8)
_SHORT_SECOND = SHORT_MAGIC[1]
_FOOTER_MAGIC = np.frombuffer(FOOTER_MAGIC, np.uint8)
# (coding, first byte, largest size) of the sized coding bytes (versions 11, 12)
_SIZED = np.array([(coding, first, largest) for coding, (first, largest) in SIZED.items()],
                  np.int64)
_ONE_BLOCK_PREAMBLES = tuple(bytes([version, ONE_BLOCK]) for version in ONE_BLOCK_VERSIONS)
_COMPACT_PREAMBLES = tuple(bytes([version, ONE_BLOCK]) for version in COMPACT_VERSIONS)


def _crc_table():
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ np.uint32(0xEDB88320), table >> 1)
    return table.astype(np.uint32)


_CRC_TABLE = _crc_table()


@njit(cache=True, nogil=True)
def _crc32(data, start, stop):
    """CRC32 (zlib's) of ``data[start:stop]``: the container's header checks,
    a few bytes each."""
    crc = np.uint32(0xFFFFFFFF)
    for i in range(start, stop):
        crc = _CRC_TABLE[(crc ^ data[i]) & np.uint32(0xFF)] ^ (crc >> np.uint32(8))
    return crc ^ np.uint32(0xFFFFFFFF)


@njit(cache=True, nogil=True)
def _same(data, start, expected):
    for i in range(expected.shape[0]):
        if data[start + i] != expected[i]:
            return False
    return True


@njit(cache=True, nogil=True)
def _block_at(data):
    """Where the block of ``data`` starts if it is a stream of one block:
    after the short magic in the short layout (version 10's is one byte),
    after the preamble in the one-block layout (ONE_BLOCK_VERSIONS), after
    the header in the other; the header is not checked here."""
    if data[0] == SHORT_MARK:
        return _SHORT_AT if data[1] == _SHORT_SECOND else _TAGGED_AT
    if ONE_BLOCK_VERSIONS[0] <= data[4] <= ONE_BLOCK_VERSIONS[-1] and data[5] == ONE_BLOCK:
        return _ONE_BLOCK_AT
    return _BLOCK_AT


@njit(cache=True, nogil=True)
def _sized(byte):
    """``(coding, size)`` that a sized coding ``byte`` names, as
    ``format.container.sized`` reads it, or ``(-1, 0)``."""
    for k in range(_SIZED.shape[0]):
        if _SIZED[k, 1] <= byte < _SIZED[k, 1] + _SIZED[k, 2]:
            return _SIZED[k, 0], np.int64(byte) - _SIZED[k, 1] + 1
    return -1, 0


@njit(cache=True, nogil=True)
def _short_version(byte):
    """The version of a short stream whose second byte is ``byte`` (not
    version 9's)."""
    coding, _ = _sized(byte)
    if coding < 0:
        return LONG_VERSION if byte - TAGGED in LONG_CODINGS else TAGGED_VERSION
    return DELIMITED_VERSION if coding == MIXED_DELIMITED else SIZED_VERSION


@njit(cache=True, nogil=True)
def _coding(data, b):
    """The coding of the block at ``data[b:]`` (tagged in version 10, sized
    in 11 and 12: a byte out of their ranges gives no coding taken here)."""
    if b != _TAGGED_AT:
        return np.int64(data[b])
    coding, _ = _sized(data[b])
    return coding if coding >= 0 else np.int64(data[b]) - TAGGED


@njit(cache=True, nogil=True)
def _size_field(data, at):
    """The varint at ``data[at:]`` and where it ends, as
    ``format.container.read_varint`` reads it: ``(-1, -1)`` where that refuses
    it (not in its shortest form too) or ``data`` ends first."""
    value, end = _repeats.read_number(data, at)
    if end - at > 1 and data[end - 1] == 0:
        return -1, -1
    return value, end


@njit(cache=True, nogil=True)
def _frame(data, size):
    """Where the payload of ``data`` starts and ends, and where its data
    check lies, if ``data`` is a stream of version 2 or later of exactly
    one block of ``size`` original bytes, every check of its header, block
    header and trailer passing; else ``(-1, -1, -1)``."""
    no = (-1, -1, -1)
    n = data.shape[0]
    if n < SMALLEST or not 0 < size <= MAX_BLOCK_SIZE:
        return no
    b = _block_at(data)
    short = b <= _SHORT_AT
    if not short and not _same(data, 0, _MAGIC):
        return no
    if short or (b == _ONE_BLOCK_AT and data[4] >= COMPACT_VERSION):
        _, declared = _sized(data[b]) if b == _TAGGED_AT else (-1, 0)
        at = b + 1
        if declared == 0:
            declared, at = _size_field(data, b + 1)
        if at < 0 or declared != size:
            return no
        coding = _coding(data, b)
        if short and coding == MIXED_DELIMITED:  # its decoder finds where it ends
            return at + 4, n, at
        payload_size = size
        if not short or coding != STORED:
            payload_size, at = _size_field(data, at)
        if at < 0 or payload_size > size or n != at + 4 + payload_size:
            return no
        return at + 4, n, at
    if n < b + _BLOCK_HEADER:
        return no
    payload_size = u32(data, b + 5)
    start, end = b + _BLOCK_HEADER, b + _BLOCK_HEADER + payload_size
    if (u32(data, b + 1) != size or payload_size > size
            or u32(data, b + 13) != _crc32(data, b, b + 13)):
        return no
    if b == _ONE_BLOCK_AT:
        return (start, end, b + 9) if n == end else no
    if n < _BLOCK_AT + _BLOCK_HEADER + _TRAILER or u32(data, 12) != _crc32(data, 0, 12):
        return no
    version, flags, reserved = data[4], data[5], data[6] | data[7]
    if not (2 <= version <= MATCH_VERSION or version == LONG_VERSION) or flags or reserved:
        return no
    if not size <= u32(data, 8) <= MAX_BLOCK_SIZE:
        return no
    if n != end + _TRAILER:
        return no
    t = end
    check_at = t + _INDEX_CHECK_AT
    if not (data[t] == 0 and u32(data, t + 1) == _BLOCK_HEADER + payload_size
            and u32(data, t + 5) == size and u32(data, t + 9) == 1
            and u32(data, t + 13) == size and u32(data, t + 17) == 0
            and u32(data, check_at) == _crc32(data, t, check_at)
            and _same(data, check_at + 4, _FOOTER_MAGIC)):
        return no
    return start, end, b + 9


@njit(cache=True, nogil=True)
def _terminals(bitmap):
    values = np.empty(256, np.uint8)
    n = 0
    for v in range(256):
        if (bitmap[v >> 3] >> (v & 7)) & 1:
            values[n] = v
            n += 1
    return values[:n]


@njit(cache=True, nogil=True)
def _decode_sorted(payload, size, out, long_rules):
    """A SORTED payload (``long_rules``: SORTED_LONG) into ``out``; whether
    it decoded."""
    if payload.shape[0] < _coding_sorted.HEAD_SIZE:
        return False
    # _coding_sorted.HEAD: merges, ids, table bytes, length bytes, bitmap
    n_merges, n_ids = u32(payload, 0), u32(payload, 4)
    terminals = _terminals(payload[16:_coding_sorted.HEAD_SIZE])
    if n_ids > size or n_merges >= size or terminals.shape[0] == 0:
        return False
    return _coding_sorted.decode_payload(payload, n_merges, n_ids, u32(payload, 8),
                                         u32(payload, 12), terminals, long_rules, size,
                                         out) == 0


@njit(cache=True, nogil=True)
def _decode_context(payload, size, out, long_rules):
    """A CONTEXT payload (``long_rules``: CONTEXT_LONG) into ``out``;
    whether it decoded (its class bitmap checked as
    ``format.codings.context.decode`` checks it)."""
    if payload.shape[0] < _coding_context.HEAD_SIZE:
        return False
    # _coding_context.HEAD: merges, ids, table bytes, length bytes x 2, bitmaps
    n_merges, n_ids = u32(payload, 0), u32(payload, 4)
    at = _coding_context.HEAD_SIZE - 2 * _BITMAP
    terminals = _terminals(payload[at:at + _BITMAP])
    if n_ids > size or n_merges >= size or terminals.shape[0] == 0:
        return False
    class_of_byte = np.empty(256, np.uint8)
    for v in range(256):
        present = (payload[at + (v >> 3)] >> (v & 7)) & 1
        marked = (payload[at + _BITMAP + (v >> 3)] >> (v & 7)) & 1
        if marked and not present:
            return False
        class_of_byte[v] = marked
    return _coding_context.decode_payload(payload, n_merges, n_ids, u32(payload, 8),
                                          u32(payload, 12), u32(payload, 16), terminals,
                                          class_of_byte, long_rules, size, out) == 0


@njit(cache=True, nogil=True)
def _decode_grammar(coding, payload, size, out):
    """A SORTED, CONTEXT, SORTED_LONG or CONTEXT_LONG payload into
    ``out``; whether it decoded (False for any other coding)."""
    if coding == SORTED or coding == SORTED_LONG:
        return _decode_sorted(payload, size, out, coding == SORTED_LONG)
    if coding == CONTEXT or coding == CONTEXT_LONG:
        return _decode_context(payload, size, out, coding == CONTEXT_LONG)
    return False


@njit(cache=True, nogil=True)
def _decode_folded(payload, size, out):
    """A FOLDED payload over a grammar coding's (``_decode_grammar``) into
    ``out``; whether it decoded (its header checked as
    ``format.codings.folded.split`` checks it)."""
    if payload.shape[0] < _FOLDED_HEAD:
        return False
    single, word, folded_size = payload[0], payload[1], u32(payload, 2)
    if single == word or not size <= folded_size <= 2 * size:
        return False
    folded = np.empty(folded_size, np.uint8)
    return (_decode_grammar(payload[6], payload[_FOLDED_HEAD:], folded_size, folded)
            and _case.unfold(folded, single, word, out) == size)


@njit(cache=True, nogil=True)
def _decode_repeats(payload, size, out):
    """A REPEATS payload over a STORED, SORTED, CONTEXT or FOLDED one into
    ``out``; whether it decoded (its header checked as
    ``format.codings.repeats.split`` checks it)."""
    if payload.shape[0] < _REPEATS_HEAD:
        return False
    coding, literal_size = payload[0], u32(payload, 1)
    n_copies, copies_bytes = u32(payload, 5), u32(payload, 9)
    if not 0 < literal_size < size or not 0 < n_copies <= size - literal_size:
        return False
    if not 3 * n_copies <= copies_bytes <= 3 * VARINT_BYTES * n_copies:
        return False
    end = payload.shape[0] - copies_bytes
    if end < _REPEATS_HEAD:
        return False
    return (_decode_coded(coding, payload[_REPEATS_HEAD:end], literal_size,
                          out[size - literal_size:])
            and _repeats.restore(out, literal_size, payload[end:], n_copies) == 0)


@njit(cache=True, nogil=True, inline="always")
def _decode_stored(payload, size, out):
    """A STORED payload into ``out``; whether it decoded."""
    if payload.shape[0] != size:
        return False
    out[:] = payload
    return True


@njit(cache=True, nogil=True)
def _decode_coded(coding, payload, size, out):
    """A STORED, FOLDED or grammar coding's payload into ``out``; whether
    it decoded (False for any other coding)."""
    if coding == STORED:
        return _decode_stored(payload, size, out)
    if coding == FOLDED:
        return _decode_folded(payload, size, out)
    return _decode_grammar(coding, payload, size, out)


@njit(cache=True, nogil=True)
def _framed(data, out, coding, since):
    """``(payload, check_at)`` of the one-block stream ``data`` if it
    passes every check of its layout and holds one block of ``coding`` of
    ``out``'s size, in a version no earlier than ``since`` (which brought
    the coding); else an empty payload and -1."""
    start, end, check_at = _frame(data, out.shape[0])
    if start < 0:
        return data[:0], -1
    b = _block_at(data)
    version = (SHORT_VERSION if b == _SHORT_AT else _short_version(data[b]) if b == _TAGGED_AT
               else data[4])
    if _coding(data, b) != coding or version < since:
        return data[:0], -1
    return data[start:end], check_at


@njit(cache=True, nogil=True, inline="always")
def _checked(data, check_at, out):
    """Whether ``out`` has the data check at ``data[check_at:]``."""
    return (xxh64(out) & np.uint64(0xFFFFFFFF)) == np.uint64(u32(data, check_at))


# One kernel per coding: a first decompression compiles only its own
# coding's decoder (a kernel for them all took 38 s to compile, where the
# general path compiles one coding's in about 11).  Each checks and
# decodes a one-block stream into ``out``, which holds exactly its size,
# and says whether it did (else ``out`` holds anything).

@njit(cache=True, nogil=True)
def _stored(data, out):
    payload, check_at = _framed(data, out, STORED, 2)
    return check_at >= 0 and _decode_stored(payload, out.shape[0], out) and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _sorted(data, out):
    payload, check_at = _framed(data, out, SORTED, 2)
    return check_at >= 0 and _decode_sorted(payload, out.shape[0], out, False) and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _context(data, out):
    payload, check_at = _framed(data, out, CONTEXT, 3)
    return check_at >= 0 and _decode_context(payload, out.shape[0], out, False) and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _sorted_long(data, out):
    payload, check_at = _framed(data, out, SORTED_LONG, LONG_VERSION)
    return check_at >= 0 and _decode_sorted(payload, out.shape[0], out, True) and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _context_long(data, out):
    payload, check_at = _framed(data, out, CONTEXT_LONG, LONG_VERSION)
    return check_at >= 0 and _decode_context(payload, out.shape[0], out, True) and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _folded(data, out):
    payload, check_at = _framed(data, out, FOLDED, 3)
    return check_at >= 0 and _decode_folded(payload, out.shape[0], out) and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _repeats_over(data, out):
    payload, check_at = _framed(data, out, REPEATS, REPEATS_VERSION)
    return check_at >= 0 and _decode_repeats(payload, out.shape[0], out) and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _lz_coded(data, out):
    payload, check_at = _framed(data, out, LZ, LZ_VERSION)
    return check_at >= 0 and _lz.decode_payload(payload, out) == 0 and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _mixed(data, out):
    payload, check_at = _framed(data, out, MIXED, MIXED_VERSION)
    return check_at >= 0 and _mixing.decode(payload, out, False, False)[0] == 0 and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _mixed_match(data, out):
    payload, check_at = _framed(data, out, MIXED_MATCH, MATCH_VERSION)
    return check_at >= 0 and _mixing.decode(payload, out, True, False)[0] == 0 and _checked(
        data, check_at, out)


@njit(cache=True, nogil=True)
def _mixed_delimited(data, out):
    payload, check_at = _framed(data, out, MIXED_DELIMITED, DELIMITED_VERSION)
    if check_at < 0:
        return False
    # Its coded bits must end where the stream does, within the block's size.
    problem, end = _mixing.decode(payload, out, True, True)
    return (problem == 0 and end == payload.shape[0] <= out.shape[0]
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _mixed_primed_kernel(data, out, text, state):
    """A primed short stream (version 13): ``fc``, the size, the payload
    size past PRIMED_DELIMITED_LARGEST bytes, the data check, and a
    payload that must end where the stream does."""
    size, at = _size_field(data, 1)
    if data[0] != PRIMED_MARK or at < 0 or size != out.shape[0] or size > PRIMED_LARGEST:
        return False
    payload_size = data.shape[0] - at - 4
    if size > PRIMED_DELIMITED_LARGEST:
        payload_size, at = _size_field(data, at)
        if at < 0 or payload_size != data.shape[0] - at - 4:
            return False
    payload = data[at + 4:]
    if not 0 < payload_size <= size:
        return False
    problem, end = _mixing.decode_primed(payload, out, text, state)
    return problem == 0 and end == payload.shape[0] and _checked(data, at, out)


def _mixed_primed(data, out):
    return _mixed_primed_kernel(data, out, *_coding_mixed.primed_model())


_KERNELS = {STORED: _stored, SORTED: _sorted, CONTEXT: _context, FOLDED: _folded,
            REPEATS: _repeats_over, LZ: _lz_coded, MIXED: _mixed, MIXED_MATCH: _mixed_match,
            MIXED_DELIMITED: _mixed_delimited, MIXED_PRIMED: _mixed_primed,
            SORTED_LONG: _sorted_long, CONTEXT_LONG: _context_long}
TAKEN = tuple(_KERNELS)


def compile_kernels():
    """Compile every coding's kernel now (``gagebpe.precompile``), each for
    the one signature it is called with: a stream in read-only bytes, an
    output array.  Each declines the empty input it is given."""
    for kernel in _KERNELS.values():
        kernel(np.frombuffer(bytes(SMALLEST), np.uint8), np.empty(1, np.uint8))


def _declared(data):
    """``(size, coding)`` that a one-block stream of a coding taken here
    declares, or ``(0, 0)`` where ``data`` cannot be one.  Not yet checked:
    the output is allocated before the kernel checks the layout, so a size
    no block may have is refused here."""
    if PURE_PYTHON or not SMALLEST <= len(data) <= LARGEST:
        return 0, 0
    if data[0] == PRIMED_MARK:
        size = _declared_size(data, 0, True)
        return (size, MIXED_PRIMED) if 0 < size <= PRIMED_LARGEST else (0, 0)
    short = data[0] == SHORT_MARK
    b = (_SHORT_AT if data[:_SHORT_AT] == SHORT_MAGIC else _TAGGED_AT if short
         else _ONE_BLOCK_AT if data[4:6] in _ONE_BLOCK_PREAMBLES else _BLOCK_AT)
    if len(data) <= b:
        return 0, 0
    coding, size = sized(data[b]) if b == _TAGGED_AT else (None, 0)
    if coding is None:
        coding = data[b] - (TAGGED if b == _TAGGED_AT else 0)
        size = _declared_size(data, b, short)
    if coding not in _KERNELS:
        return 0, 0
    return (size, coding) if 0 < size <= MAX_BLOCK_SIZE else (0, 0)


def _declared_size(data, b, short):
    """The size that the block header at ``data[b:]`` of a one-block stream
    sends, or 0 where it cannot be read."""
    if short or data[4:6] in _COMPACT_PREAMBLES:
        try:
            return read_varint(data, b + 1)[0] or 0
        except GageBPEError:  # the general path says what is wrong
            return 0
    if len(data) < b + _BLOCK_HEADER:
        return 0
    return int.from_bytes(data[b + 1:b + 5], "little")


def decode(data, limit):
    """The bytes of ``data`` (bytes) if it is a one-block stream taken here,
    of at most ``limit`` bytes, that passes every check; else None."""
    size, coding = _declared(data)
    if not 0 < size <= limit:
        return None
    owner, out = _inplace_bytes.allocate(size)
    if not _KERNELS[coding](np.frombuffer(data, np.uint8), out):
        return None
    return _inplace_bytes.finish(owner)


def decode_into(data, out):
    """Decode ``data`` into the uint8 array ``out`` if it is a one-block
    stream taken here of exactly ``len(out)`` bytes that passes every check;
    whether it did (else ``out`` holds anything)."""
    size, coding = _declared(data)
    return 0 < size == len(out) and _KERNELS[coding](np.frombuffer(data, np.uint8), out)
