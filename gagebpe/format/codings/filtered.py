"""The FILTERED block coding (docs/FORMAT.md, section 4.8): a filter
(``kernels.filters``) and the grammar coding of the filtered bytes.

    payload = filter:u8  lag:u16  coding:u8  payload of that coding

Decoding the inner payload gives the filtered bytes, and undoing the
filter gives the block.
"""
from ..._jit import njit
from ...kernels import filters
from ...kernels.coded_sequence import u16
from . import grammars as _grammars, problems as _problems
from .registry import CODINGS, FILTERED, fields_at

HEAD = CODINGS[FILTERED].head.layout
HEAD_SIZE = HEAD.size
_FILTER, _LAG, _CODING = fields_at(HEAD)


def encode(kind, lag, coding, payload):
    return HEAD.pack(kind, lag, coding) + payload


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """The inner block decoded into ``out`` (``size`` bytes) and its filter
    undone there; 0, or the problem (``format.codings.problems``) of this
    block or of the inner one."""
    if payload.shape[0] < HEAD_SIZE:
        return _problems.at(coding, _problems.SHORT_HEAD)
    kind, lag = payload[_FILTER], u16(payload, _LAG)
    if kind != filters.DELTA and kind != filters.XOR:
        return _problems.at(coding, _problems.FILTER, kind)
    if lag == 0:
        return _problems.at(coding, _problems.LAG)
    problem = _grammars.decode_block(payload[HEAD_SIZE:], size, out, payload[_CODING], coding)
    if not problem:
        filters.unfilter(out, kind, lag)
    return problem


DECODERS = {FILTERED: decode_block}
