"""The FILTERED block coding (5, format version 3): a filter (``kernels.filters``)
and the grammar coding of the filtered bytes (docs/FORMAT.md).

    payload = filter:u8  lag:u16  coding:u8  payload of that coding

The inner coding is PACKED, SORTED or CONTEXT (SORTED_LONG and
CONTEXT_LONG too since version 14); decoding it gives the filtered bytes,
and undoing the filter gives the block.

Imports ``_errors``, ``format.container`` (the coding numbers) and ``kernels.filters``.
"""
import struct

from ..container import CONTEXT, CONTEXT_LONG, PACKED, SORTED, SORTED_LONG
from ..._errors import GageBPEError
from ...kernels.filters import FILTERS

HEAD = struct.Struct("<BHB")  # filter, lag, inner coding
INNER_CODINGS = (PACKED, SORTED, CONTEXT, SORTED_LONG, CONTEXT_LONG)


def encode(kind, lag, coding, payload):
    return HEAD.pack(kind, lag, coding) + payload


def split(payload):
    """``(filter, lag, inner coding, inner payload)``, each checked."""
    if len(payload) < HEAD.size:
        raise GageBPEError("FILTERED block shorter than its header")
    kind, lag, coding = HEAD.unpack_from(payload)
    if kind not in FILTERS:
        raise GageBPEError(f"unknown filter {kind}")
    if lag == 0:
        raise GageBPEError("filter lag is zero")
    if coding not in INNER_CODINGS:
        raise GageBPEError(f"FILTERED block holds coding {coding}")
    return kind, lag, coding, payload[HEAD.size:]
