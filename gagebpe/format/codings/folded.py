"""The FOLDED block coding (docs/FORMAT.md, section 4.9): case folding
(``kernels.case``) and the grammar coding of the folded bytes.

    payload = single:u8  word:u8  folded_size:u32  coding:u8  payload of that coding

Decoding the inner payload gives the ``folded_size`` folded bytes, and
unfolding them gives the block.
"""
import numpy as np

from ..._jit import njit
from ...kernels import case
from ...kernels.coded_sequence import u32
from . import grammars as _grammars, problems as _problems
from .registry import CODINGS, FOLDED, fields_at

HEAD = CODINGS[FOLDED].head.layout
HEAD_SIZE = HEAD.size
_SINGLE, _WORD, _FOLDED_SIZE, _CODING = fields_at(HEAD)


def encode(single, word, folded_size, coding, payload):
    return HEAD.pack(single, word, folded_size, coding) + payload


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """The inner block's folded bytes, decoded, unfolded into ``out``
    (``size`` bytes); 0, or the problem (``format.codings.problems``) of
    this block or of the inner one."""
    if payload.shape[0] < HEAD_SIZE:
        return _problems.at(coding, _problems.SHORT_HEAD)
    single, word, folded_size = payload[_SINGLE], payload[_WORD], u32(payload, _FOLDED_SIZE)
    if single == word:
        return _problems.at(coding, _problems.MARKERS)
    if not size <= folded_size <= 2 * size:  # each capital adds at most one marker
        return _problems.at(coding, _problems.FOLDED_SIZE)
    folded = np.empty(folded_size, np.uint8)
    problem = _grammars.decode_block(payload[HEAD_SIZE:], folded_size, folded,
                                     payload[_CODING], coding)
    if problem:
        return problem
    if case.unfold(folded, single, word, out) != size:
        return _problems.at(coding, _problems.UNFOLDED)
    return 0


DECODERS = {FOLDED: decode_block}
