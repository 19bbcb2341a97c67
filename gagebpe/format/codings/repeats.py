"""The REPEATS block coding (docs/FORMAT.md, section 4.10): long repeats
taken out as copies (``kernels.repeats``), and the coding of the bytes
left.

    payload = coding:u8  literal_size:u32  n_copies:u32  copies_bytes:u32
              payload of that coding  copies

The inner payload decodes to the ``literal_size`` literals; the copies
(``copies_bytes`` bytes at the end) put the repeats back between them.
"""
import numpy as np

from ..._jit import njit
from ...kernels import greedy as _greedy, repeats as _repeats
from ...kernels.coded_sequence import u32
from . import filtered as _filtered, folded as _folded, grammars as _grammars
from . import problems as _problems, stored as _stored
from .registry import CODINGS, FILTERED, FOLDED, REPEATS, STORED, fields_at

HEAD = CODINGS[REPEATS].head.layout
HEAD_SIZE = HEAD.size
_CODING, _LITERAL_SIZE, _COPIES, _COPIES_BYTES = fields_at(HEAD)


def find(data):
    """``(literals, copies)`` of block ``data`` (bytes), or None if it
    repeats nothing long."""
    array = np.frombuffer(data, np.uint8)
    return _taken(array, _repeats.find(array, _repeats.MIN_REPEAT,
                                       _repeats.hash_bits(len(array))))


def find_greedy(data, shortest):
    """``find`` by the greedy copies of at least ``shortest`` bytes
    (``kernels.greedy``): for blocks whose bytes' frequencies gain
    nothing, in one fast pass."""
    array = np.frombuffer(data, np.uint8)
    return _taken(array, _greedy.copies(array, shortest, _greedy.REPEATS_WIDTH))


def _taken(array, copies):
    """``(literals, copies)``: what ``copies`` leave of ``array``; None
    where there are none."""
    if not len(copies):
        return None
    return _repeats.literals(array, copies).tobytes(), copies


def encode(copies, literal_size, coding, payload):
    packed = _repeats.pack(copies).tobytes()
    return HEAD.pack(coding, literal_size, len(copies), len(packed)) + payload + packed


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """The inner block's literals decoded to the end of ``out`` (``size``
    bytes), then the copies put back between them from the front; 0, or
    the problem (``format.codings.problems``) of this block or of the
    inner one."""
    if payload.shape[0] < HEAD_SIZE:
        return _problems.at(coding, _problems.SHORT_HEAD)
    literal_size, n_copies = u32(payload, _LITERAL_SIZE), u32(payload, _COPIES)
    copies_bytes = u32(payload, _COPIES_BYTES)
    # The first byte is a literal: a copy's source lies before it.
    if not 0 < literal_size < size:
        return _problems.at(coding, _problems.LITERAL_SIZE)
    if not 0 < n_copies <= size - literal_size:
        return _problems.at(coding, _problems.COPY_COUNT)
    # Three numbers of one to VARINT_BYTES bytes each.
    if not 3 * n_copies <= copies_bytes <= 3 * _repeats.VARINT_BYTES * n_copies:
        return _problems.at(coding, _problems.COPIES_BYTES)
    end = payload.shape[0] - copies_bytes
    if end < HEAD_SIZE:
        return _problems.at(coding, _problems.COPIES_OVERRUN)
    problem = _decode_literals(payload[HEAD_SIZE:end], literal_size, out[size - literal_size:],
                               payload[_CODING], coding)
    if problem:
        return problem
    problem = _repeats.restore(out, literal_size, payload[end:], n_copies)
    return _problems.at(coding, _problems.REPEATS + problem) if problem else 0


@njit(cache=True, nogil=True)
def _decode_literals(payload, size, out, inner, coding):
    """The inner block of REPEATS block ``coding``: its module's
    ``decode_block``."""
    if inner == STORED:
        return _stored.decode_block(payload, size, out, inner)
    if inner == FILTERED:
        return _filtered.decode_block(payload, size, out, inner)
    if inner == FOLDED:
        return _folded.decode_block(payload, size, out, inner)
    return _grammars.decode_block(payload, size, out, inner, coding)


DECODERS = {REPEATS: decode_block}
