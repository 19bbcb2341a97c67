"""A stream of one block, checked and decoded in one kernel call.

numcodecs and Zarr hand a codec one small stream per chunk.  For a 4 KB
chunk, the general reader (``format.container.Parser``, the registry's
decoders, the block check) spends twice as long in Python as its kernel
spends decoding.  ``decode`` takes the common case -- a single stream
(docs/FORMAT.md, section 3.3) of one STORED, SORTED, SORTED_LONG,
CONTEXT, CONTEXT_LONG, LZ, LZ_PARTS, MIXED or MIXED_PRIMED block, a
FOLDED block over one of the four grammar codings, or a REPEATS block
over STORED, FOLDED or one of those -- through one call of its coding's kernel, which
makes every check the general reader makes, the block check included.
It reads the layout with the container's constants and the format's one
varint reader, compiled (``kernels.varint``).  Anything else, and every input that
fails a check, it declines: the caller then takes the general path, which
raises the error.  So it never returns bytes the general path would not,
and errors keep one source.
"""
import numpy as np

from .. import _inplace_bytes
from .._jit import PURE_PYTHON, njit
from ..kernels import case as _case, lz as _lz, mixing as _mixing, repeats as _repeats
from ..kernels import varint as _varint
from ..kernels.coded_sequence import u32
from ..plain.varint import varint_at
from ..kernels.xxh64 import xxh64
from ..format.codings import (context as _coding_context, folded as _coding_folded,
                      mixed as _coding_mixed, repeats as _coding_repeats,
                      sorted_rules as _coding_sorted)
from ..format.container import MAGIC, MAX_BLOCK_SIZE, SINGLE_AT
from ..format.codings.registry import (CONTEXT, CONTEXT_LONG, FOLDED, LZ, LZ_PARTS, MIXED,
                                       MIXED_PRIMED, REPEATS, SORTED, SORTED_LONG, STORED)

SMALLEST = SINGLE_AT + 6  # a single stream's least: a STORED block of 1 byte
# Streams up to this size: past it, the general reader's fixed cost is
# small beside decoding, and its threads may help.
LARGEST = 1 << 22
_FOLDED_HEAD = _coding_folded.HEAD.size
_REPEATS_HEAD = _coding_repeats.HEAD.size
_BITMAP = 32  # bytes of a bitmap of byte values
_MAGIC = np.frombuffer(MAGIC, np.uint8)
_SINGLE = MAGIC + b"\0"  # a single stream's first bytes: no dictionary


@njit(cache=True, nogil=True)
def _framed(data, size):
    """``(coding, payload, check_at)`` if ``data`` is exactly one single
    stream of one block of ``size`` original bytes, with no dictionary, the
    layout checked as the general reader checks it; else ``(-1, empty,
    -1)``."""
    n = data.shape[0]
    no = (-1, data[:0], -1)
    if n < SMALLEST or not 0 < size <= MAX_BLOCK_SIZE:
        return no
    for i in range(_MAGIC.shape[0]):
        if data[i] != _MAGIC[i]:
            return no
    if data[SINGLE_AT - 1] != 0:  # the block layout, a dictionary, a revision
        return no
    coding = np.int64(data[SINGLE_AT])
    declared, at = _varint.varint_at(data, SINGLE_AT + 1)
    if declared != size:
        return no
    payload_size = size
    if coding != STORED:
        payload_size, at = _varint.varint_at(data, at)
        if payload_size < 0 or payload_size > size:
            return no
    if n != at + 4 + payload_size:
        return no
    return coding, data[at + 4:], at


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
    if not 3 * n_copies <= copies_bytes <= 3 * _repeats.VARINT_BYTES * n_copies:
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


@njit(cache=True, nogil=True, inline="always")
def _checked(data, check_at, out):
    """Whether ``out`` has the data check at ``data[check_at:]``."""
    return (xxh64(out) & np.uint64(0xFFFFFFFF)) == np.uint64(u32(data, check_at))


# One kernel per coding: a first decompression compiles only its own
# coding's decoder (a kernel for them all took 38 s to compile, where the
# general path compiles one coding's in about 11).  Each checks and
# decodes a single stream into ``out``, which holds exactly its size, and
# says whether it did (else ``out`` holds anything).

@njit(cache=True, nogil=True)
def _stored(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == STORED and _decode_stored(payload, out.shape[0], out)
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _sorted(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == SORTED and _decode_sorted(payload, out.shape[0], out, False)
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _context(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == CONTEXT and _decode_context(payload, out.shape[0], out, False)
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _sorted_long(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == SORTED_LONG and _decode_sorted(payload, out.shape[0], out, True)
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _context_long(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == CONTEXT_LONG and _decode_context(payload, out.shape[0], out, True)
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _folded(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == FOLDED and _decode_folded(payload, out.shape[0], out)
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _repeats_over(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == REPEATS and _decode_repeats(payload, out.shape[0], out)
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _lz_coded(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == LZ and _lz.decode_payload(payload, out) == 0
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _lz_parts(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == LZ_PARTS and _lz.decode_parts(payload, out) == 0
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _mixed(data, out):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == MIXED and _mixing.decode(payload, out)[0] == 0
            and _checked(data, check_at, out))


@njit(cache=True, nogil=True)
def _mixed_primed_kernel(data, out, text, state):
    coding, payload, check_at = _framed(data, out.shape[0])
    return (coding == MIXED_PRIMED and _mixing.decode_primed(payload, out, text, state)[0] == 0
            and _checked(data, check_at, out))


def _mixed_primed(data, out):
    return _mixed_primed_kernel(data, out, *_coding_mixed.primed_model())


_KERNELS = {STORED: _stored, SORTED: _sorted, CONTEXT: _context, FOLDED: _folded,
            REPEATS: _repeats_over, LZ: _lz_coded, LZ_PARTS: _lz_parts, MIXED: _mixed,
            MIXED_PRIMED: _mixed_primed, SORTED_LONG: _sorted_long, CONTEXT_LONG: _context_long}
TAKEN = tuple(_KERNELS)


def compile_kernels():
    """Compile every coding's kernel now (``gagebpe.precompile``), each for
    the one signature it is called with: a stream in read-only bytes, an
    output array.  Each declines the empty input it is given."""
    for kernel in _KERNELS.values():
        kernel(np.frombuffer(bytes(SMALLEST), np.uint8), np.empty(1, np.uint8))


def _declared(data):
    """``(size, coding)`` that a single stream (bytes) of a coding taken
    here declares, or ``(0, 0)`` where ``data`` cannot be one.  Not yet
    checked: the output is allocated before the kernel checks the layout,
    so a size no block may have is refused here.  (Per call on a 4 KB
    chunk, as cheap as it can be: it was a twentieth of decoding one.)"""
    if PURE_PYTHON or not SMALLEST <= len(data) <= LARGEST or not data.startswith(_SINGLE):
        return 0, 0
    coding = data[SINGLE_AT]
    size = data[SINGLE_AT + 1]
    if size >= 0x80:
        size, _ = varint_at(data, SINGLE_AT + 1)
    if coding not in _KERNELS or not 0 < size <= MAX_BLOCK_SIZE:
        return 0, 0
    return size, coding


def decode(data, limit):
    """The bytes of ``data`` (bytes) if it is a single stream taken here,
    of at most ``limit`` bytes, that passes every check; else None."""
    size, coding = _declared(data)
    if not 0 < size <= limit:
        return None
    owner, out = _inplace_bytes.allocate(size)
    if not _KERNELS[coding](np.frombuffer(data, np.uint8), out):
        return None
    return _inplace_bytes.finish(owner)


def decode_into(data, out):
    """Decode ``data`` into the uint8 array ``out`` if it is a single
    stream taken here of exactly ``len(out)`` bytes that passes every
    check; whether it did (else ``out`` holds anything)."""
    size, coding = _declared(data)
    return 0 < size == len(out) and _KERNELS[coding](np.frombuffer(data, np.uint8), out)
