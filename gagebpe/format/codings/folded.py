"""The FOLDED block coding (7, format version 3): case folding (``kernels.case``)
and the grammar coding of the folded bytes (docs/FORMAT.md).

    payload = single:u8  word:u8  folded_size:u32  coding:u8  payload of that coding

The inner coding is PACKED, SORTED or CONTEXT (SORTED_LONG and
CONTEXT_LONG too since version 14); decoding it gives the
``folded_size`` folded bytes, and unfolding them gives the block.

Imports ``_errors`` and ``format.container`` (the coding numbers).
"""
import struct

from ..container import CONTEXT, CONTEXT_LONG, PACKED, SORTED, SORTED_LONG
from ..._errors import GageBPEError

HEAD = struct.Struct("<BBIB")  # markers, folded size, inner coding
INNER_CODINGS = (PACKED, SORTED, CONTEXT, SORTED_LONG, CONTEXT_LONG)


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
    if coding not in INNER_CODINGS:
        raise GageBPEError(f"FOLDED block holds coding {coding}")
    return single, word, folded_size, coding, payload[HEAD.size:]
