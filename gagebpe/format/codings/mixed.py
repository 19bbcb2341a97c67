"""The MIXED, MIXED_MATCH, MIXED_DELIMITED and MIXED_PRIMED block codings
(10, format version 8; 11, version 9; 12, version 12; 13, version 13):
the block's bits coded one by one with the probabilities of a
context-mixing model (``kernels.mixing``), all but MIXED's with a match model
too, MIXED_PRIMED's having first learnt the priming text.

    payload = the arithmetic coder's bytes

The payload has no header: the model's table sizes follow from the block's
size.  A MIXED or MIXED_MATCH payload ends where the block's payload size
says, and its coded bits must end there too; a MIXED_DELIMITED or
MIXED_PRIMED payload ends where its coded bits do, so the short layout
need not send its size, and sends it only for a MIXED_PRIMED block of
more than 128 bytes (docs/FORMAT.md, sections 3.6, 4.14 and 4.15).

Imports ``_errors``, ``format.priming_text``, ``plain.primed`` and the kernel
``kernels.mixing``.
"""
import numpy as np

from ...kernels import mixing as _mixing
from ..._errors import GageBPEError
from ..priming_text import PRIMING_TEXT
from ...plain import mixing, primed, tables

_primed = []  # the priming text and the model after it, read at first use


def encode(data, match=True, delimited=False):
    """The MIXED_MATCH payload of block ``data`` (bytes, not empty), the
    MIXED one if not ``match``, the MIXED_DELIMITED one if ``delimited``;
    None where it would not be smaller than ``data``."""
    out = np.empty(len(data), np.uint8)
    n = _mixing.encode(np.frombuffer(data, np.uint8), out, match or delimited, delimited)
    return out[:n].tobytes() if 0 < n < len(data) else None


def decode(payload, size, out, match=False):
    """The MIXED block ``payload`` (MIXED_MATCH if ``match``) into ``out``
    (``size`` bytes)."""
    problem, _ = _mixing.decode(np.frombuffer(payload, np.uint8), out[:size], match, False)
    if problem:
        raise GageBPEError(tables.PROBLEMS[problem])
    return out


def decode_matched(payload, size, out):
    """The MIXED_MATCH block ``payload`` into ``out`` (``size`` bytes)."""
    return decode(payload, size, out, match=True)


def decode_delimited(payload, size, out):
    """The MIXED_DELIMITED block ``payload`` into ``out`` (``size``
    bytes); its coded bits must end where ``payload`` does."""
    problem, end = _mixing.decode(np.frombuffer(payload, np.uint8), out[:size], True, True)
    if problem or end != len(payload):
        raise GageBPEError(tables.PROBLEMS[problem or 1])
    return out


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
    ``kernels.mixing.PRIMED_MAX_SIZE`` bytes); None where it would not be smaller
    than ``data``."""
    out = np.empty(len(data), np.uint8)
    n = _mixing.encode_primed(np.frombuffer(data, np.uint8), out, *primed_model())
    return out[:n].tobytes() if 0 < n < len(data) else None


def decode_primed(payload, size, out):
    """The MIXED_PRIMED block ``payload`` into ``out`` (``size`` bytes);
    its coded bits must end where ``payload`` does."""
    problem, end = _mixing.decode_primed(np.frombuffer(payload, np.uint8), out[:size],
                                         *primed_model())
    if problem or end != len(payload):
        raise GageBPEError(tables.PROBLEMS[problem or 1])
    return out


def delimited_size(view, size, final=False, primed=False):
    """The length of the MIXED_DELIMITED payload (MIXED_PRIMED if
    ``primed``) of a block of ``size`` bytes that begins ``view``
    (``plain.mixing.delimited_size``, decoding by the kernel)."""
    def decode(head, size):
        head = np.frombuffer(head, np.uint8)
        out = np.empty(size, np.uint8)
        if primed:
            return _mixing.decode_primed(head, out, *primed_model())
        return _mixing.decode(head, out, True, True)
    return mixing.delimited_size(view, size, final, decode)
