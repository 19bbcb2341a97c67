"""The REPEATS block coding (docs/FORMAT.md, section 4.10): long repeats
taken out as copies (``kernels.repeats``), and the coding of the bytes
left.

    payload = coding:u8  literal_size:u32  n_copies:u32  copies_bytes:u32
              payload of that coding  copies

The inner payload decodes to the ``literal_size`` literals; the copies
(``copies_bytes`` bytes at the end) put the repeats back between them.
"""
import struct

import numpy as np

from ...kernels import repeats as _repeats
from .registry import REPEATS, check_inner
from ..._errors import GageBPEError

HEAD = struct.Struct("<BIII")  # inner coding, literal size, copies, their bytes
PROBLEMS = {_repeats.BAD_COPIES: "REPEATS block's copies are malformed",
            _repeats.BAD_LITERALS: "REPEATS block's literals do not fill it"}


def find(data):
    """``(literals, copies)`` of block ``data`` (bytes), or None if it
    repeats nothing long."""
    array = np.frombuffer(data, np.uint8)
    copies = _repeats.find(array, _repeats.MIN_REPEAT, _repeats.hash_bits(len(array)))
    if not len(copies):
        return None
    return _repeats.literals(array, copies).tobytes(), copies


def encode(copies, literal_size, coding, payload):
    packed = _repeats.pack(copies).tobytes()
    return HEAD.pack(coding, literal_size, len(copies), len(packed)) + payload + packed


def split(payload, size):
    """``(inner coding, literal size, copies, packed copies, inner payload)``
    of a block of ``size`` bytes, each checked."""
    if len(payload) < HEAD.size:
        raise GageBPEError("REPEATS block shorter than its header")
    coding, literal_size, n_copies, copies_bytes = HEAD.unpack_from(payload)
    check_inner(REPEATS, coding)
    # The first byte is a literal: a copy's source lies before it.
    if not 0 < literal_size < size:
        raise GageBPEError("REPEATS block's literal size disagrees with its size")
    if not 0 < n_copies <= size - literal_size:
        raise GageBPEError("REPEATS block's copy count disagrees with its size")
    # Three numbers of one to VARINT_BYTES bytes each.
    if not 3 * n_copies <= copies_bytes <= 3 * _repeats.VARINT_BYTES * n_copies:
        raise GageBPEError("REPEATS block's copies disagree with their count")
    end = len(payload) - copies_bytes
    if end < HEAD.size:
        raise GageBPEError("REPEATS block's copies overrun it")
    return (coding, literal_size, n_copies, np.frombuffer(payload, np.uint8, offset=end),
            payload[HEAD.size:end])


def restore(out, literal_size, n_copies, packed):
    """The block into ``out``, whose last ``literal_size`` bytes hold its
    literals, from them and its copies."""
    problem = _repeats.restore(out, literal_size, packed, n_copies)
    if problem:
        raise GageBPEError(PROBLEMS[problem])
    return out


def decode(payload, size, out, decode_inner):
    """The block's bytes into ``out`` (``size`` bytes), its literals
    decoded by ``decode_inner(coding, payload, size, out)``."""
    coding, literal_size, n_copies, copies, payload = split(payload, size)
    # The literals go where the block ends, and move forward from there.
    decode_inner(coding, payload, literal_size, out[size - literal_size:])
    return restore(out, literal_size, n_copies, copies)


DECODERS = {REPEATS: decode}
