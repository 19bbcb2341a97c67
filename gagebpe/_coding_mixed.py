"""The MIXED, MIXED_MATCH, MIXED_DELIMITED and MIXED_PRIMED block codings
(10, format version 8; 11, version 9; 12, version 12; 13, version 13):
the block's bits coded one by one with the probabilities of a
context-mixing model (``_mixing``), all but MIXED's with a match model
too, MIXED_PRIMED's having first learnt the priming text.

    payload = the arithmetic coder's bytes

The payload has no header: the model's table sizes follow from the block's
size.  A MIXED or MIXED_MATCH payload ends where the block's payload size
says, and its coded bits must end there too; a MIXED_DELIMITED or
MIXED_PRIMED payload ends where its coded bits do, so the short layout
need not send its size, and sends it only for a MIXED_PRIMED block of
more than 128 bytes (docs/FORMAT.md, sections 3.6, 4.14 and 4.15).

Imports ``_errors``, ``_priming_text`` and the kernel ``_mixing``.
"""
import numpy as np

from . import _mixing
from ._errors import GageBPEError
from ._priming_text import PRIMING_TEXT

LARGER = "delimited MIXED payload larger than its contents"
_primed = []  # the priming text and the model after it, made at first use


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
        raise GageBPEError(_mixing.PROBLEMS[problem])
    return out


def decode_matched(payload, size, out):
    """The MIXED_MATCH block ``payload`` into ``out`` (``size`` bytes)."""
    return decode(payload, size, out, match=True)


def decode_delimited(payload, size, out):
    """The MIXED_DELIMITED block ``payload`` into ``out`` (``size``
    bytes); its coded bits must end where ``payload`` does."""
    problem, end = _mixing.decode(np.frombuffer(payload, np.uint8), out[:size], True, True)
    if problem or end != len(payload):
        raise GageBPEError(_mixing.PROBLEMS[problem or 1])
    return out


def primed_model():
    """``(the priming text as uint8, the model after it)``: what the
    MIXED_PRIMED kernels take besides the block, made once."""
    if not _primed:
        text = np.frombuffer(PRIMING_TEXT, np.uint8)
        _primed.append((text, _mixing.primed(text)))
    return _primed[0]


def encode_primed(data):
    """The MIXED_PRIMED payload of block ``data`` (1 to
    ``_mixing.PRIMED_MAX_SIZE`` bytes); None where it would not be smaller
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
        raise GageBPEError(_mixing.PROBLEMS[problem or 1])
    return out


def delimited_size(view, size, final=False, primed=False):
    """The length of the MIXED_DELIMITED payload (MIXED_PRIMED if
    ``primed``) of a block of ``size`` bytes that begins ``view``, found by
    decoding it; None where more bytes may tell.  Raises ``GageBPEError``
    where none will: no payload of at most ``size`` bytes begins ``view``,
    or ``final`` (no byte follows ``view``) and the coded bits end inside
    it in a way no payload does."""
    head = np.frombuffer(view, np.uint8)[:size]  # a payload is never larger
    if primed:
        problem, end = _mixing.decode_primed(head, np.empty(size, np.uint8), *primed_model())
    else:
        problem, end = _mixing.decode(head, np.empty(size, np.uint8), True, True)
    if not problem:
        return end
    # Bytes past ``head`` were read as 255, so a short ``head`` may fail
    # only for the want of the bytes that follow.
    if len(head) < size and (problem == _mixing.RUNS_PAST or not final):
        return None
    raise GageBPEError(LARGER if problem == _mixing.RUNS_PAST else _mixing.PROBLEMS[problem])
