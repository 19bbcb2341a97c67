"""The FOLDED block coding (docs/FORMAT.md, section 4.9): case folding
(``kernels.case``) and the grammar coding of the folded bytes.

    payload = single:u8  word:u8  folded_size:u32  coding:u8  payload of that coding

Decoding the inner payload gives the ``folded_size`` folded bytes, and
unfolding them gives the block.
"""
import struct

import numpy as np

from ..._errors import GageBPEError
from ...kernels import case
from .registry import FOLDED, check_inner

HEAD = struct.Struct("<BBIB")  # markers, folded size, inner coding


def encode(single, word, folded_size, coding, payload):
    return HEAD.pack(single, word, folded_size, coding) + payload


def split(payload, size):
    """``(single, word, folded size, inner coding, inner payload)`` of a
    block of ``size`` bytes, each checked."""
    if len(payload) < HEAD.size:
        raise GageBPEError("FOLDED block shorter than its header")
    single, word, folded_size, coding = HEAD.unpack_from(payload)
    if single == word:
        raise GageBPEError("FOLDED block's markers are the same byte")
    # Each capital adds at most one marker.
    if not size <= folded_size <= 2 * size:
        raise GageBPEError("FOLDED block's folded size disagrees with its size")
    check_inner(FOLDED, coding)
    return single, word, folded_size, coding, payload[HEAD.size:]


def decode(payload, size, out, decode_inner):
    """The block's bytes into ``out`` (``size`` bytes), its inner payload
    decoded by ``decode_inner(coding, payload, size, out)``."""
    single, word, folded_size, coding, payload = split(payload, size)
    folded = decode_inner(coding, payload, folded_size, np.empty(folded_size, np.uint8))
    if case.unfold(folded, single, word, out) != size:
        raise GageBPEError("FOLDED block does not unfold to its size")
    return out


DECODERS = {FOLDED: decode}
