"""The FILTERED block coding (docs/FORMAT.md, section 4.8): a filter
(``kernels.filters``) and the grammar coding of the filtered bytes.

    payload = filter:u8  lag:u16  coding:u8  payload of that coding

Decoding the inner payload gives the filtered bytes, and undoing the
filter gives the block.
"""
import struct

from ..._errors import GageBPEError
from ...kernels import filters
from .registry import FILTERED, check_inner

HEAD = struct.Struct("<BHB")  # filter, lag, inner coding


def encode(kind, lag, coding, payload):
    return HEAD.pack(kind, lag, coding) + payload


def split(payload):
    """``(filter, lag, inner coding, inner payload)``, each checked."""
    if len(payload) < HEAD.size:
        raise GageBPEError("FILTERED block shorter than its header")
    kind, lag, coding = HEAD.unpack_from(payload)
    if kind not in filters.FILTERS:
        raise GageBPEError(f"unknown filter {kind}")
    if lag == 0:
        raise GageBPEError("filter lag is zero")
    check_inner(FILTERED, coding)
    return kind, lag, coding, payload[HEAD.size:]


def decode(payload, size, out, decode_inner):
    """The block's bytes into ``out`` (``size`` bytes), its inner payload
    decoded by ``decode_inner(coding, payload, size, out)``."""
    kind, lag, coding, payload = split(payload)
    decode_inner(coding, payload, size, out)
    filters.unfilter(out, kind, lag)
    return out


DECODERS = {FILTERED: decode}
