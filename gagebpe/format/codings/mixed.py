"""The MIXED and MIXED_PRIMED block codings (docs/FORMAT.md, sections 4.12
and 4.13): the block's bits coded one by one with the probabilities of a
context-mixing model with a match model (``kernels.mixing``),
MIXED_PRIMED's having first learnt the priming text.

    payload = the arithmetic coder's bytes

The payload has no header: the model's table sizes follow from the
block's size (MIXED_PRIMED's are fixed), and its coded bits must end
where the payload does.
"""
import numpy as np

from ..._jit import njit
from ...kernels import mixing as _mixing
from ...plain import primed
from ...plain.priming_text import PRIMING_TEXT
from . import problems as _problems
from .registry import MIXED, MIXED_PRIMED

_primed = []  # the priming text and the model after it, read at first use


def encode(data):
    """The MIXED payload of block ``data`` (bytes, not empty); None where
    it would not be smaller than ``data``."""
    out = np.empty(len(data), np.uint8)
    n = _mixing.encode(np.frombuffer(data, np.uint8), out)
    return out[:n].tobytes() if 0 < n < len(data) else None


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """A MIXED block's bytes into ``out`` (``size`` bytes); 0 or its
    problem (``format.codings.problems``)."""
    problem, _ = _mixing.decode(payload, out[:size])
    return _problems.at(coding, _problems.MIXING + problem) if problem else 0


@njit(cache=True, nogil=True)
def decode_primed_block(payload, size, out, coding, text, state):
    """A MIXED_PRIMED block's bytes into ``out`` (``size`` bytes), with
    ``primed_model()``'s ``text`` and ``state``; 0 or its problem."""
    problem, _ = _mixing.decode_primed(payload, out[:size], text, state)
    return _problems.at(coding, _problems.MIXING + problem) if problem else 0


def primed_model():
    """``(the priming text as uint8, the model after it)``: what the
    MIXED_PRIMED kernels take besides the block, read once from the file
    made when the package was built (``plain.primed``)."""
    if not _primed:
        model = primed.load()
        bits = model.bits
        inputs = np.zeros(_mixing.INPUTS, np.int64)
        inputs[_mixing.BIAS_AT] = _mixing.BIAS
        state = (np.array(model.order0, np.int64), np.array(model.seen0, np.int64),
                 np.array(model.probs, np.uint16).reshape(_mixing.HASHED, 1 << bits),
                 np.array(model.seen, np.uint8).reshape(_mixing.HASHED, 1 << bits),
                 np.array(model.weights, np.int64).reshape(-1, _mixing.INPUTS), inputs,
                 np.zeros(_mixing.HASHED, np.int64), np.zeros(_mixing.HASHED, np.int64),
                 np.array(model.last, np.int32), np.array(model.match_probs, np.int64),
                 np.array(model.match_seen, np.int64))
        _primed.append((np.frombuffer(PRIMING_TEXT, np.uint8),
                        (state, model.history, model.ptr, model.length)))
    return _primed[0]


def encode_primed(data):
    """The MIXED_PRIMED payload of block ``data`` (1 to
    ``tables.PRIMED_MAX_SIZE`` bytes); None where it would not be smaller
    than ``data``."""
    out = np.empty(len(data), np.uint8)
    n = _mixing.encode_primed(np.frombuffer(data, np.uint8), out, *primed_model())
    return out[:n].tobytes() if 0 < n < len(data) else None


DECODERS = {MIXED: decode_block, MIXED_PRIMED: decode_primed_block}
# What a decoder takes besides the block, from the stream's dictionary.
INPUTS = {MIXED_PRIMED: lambda dictionary: primed_model()}
