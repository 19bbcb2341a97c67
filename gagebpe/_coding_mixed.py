"""The MIXED and MIXED_MATCH block codings (10, format version 8; 11,
version 9): the block's bits coded one by one with the probabilities of a
context-mixing model (``_mixing``), MIXED_MATCH's with a match model too.

    payload = the arithmetic coder's bytes

The payload has no header: the model's table sizes follow from the block's
size, and the coded bits end where the payload does (docs/FORMAT.md).

Imports ``_errors`` and the kernel ``_mixing``.
"""
import numpy as np

from . import _mixing
from ._errors import GageBPEError


def encode(data, match=True):
    """The MIXED_MATCH payload of block ``data`` (bytes, not empty), or the
    MIXED one if not ``match``; None where it would not be smaller than
    ``data``."""
    out = np.empty(len(data), np.uint8)
    n = _mixing.encode(np.frombuffer(data, np.uint8), out, match)
    return out[:n].tobytes() if 0 < n < len(data) else None


def decode(payload, size, out, match=False):
    """The MIXED block ``payload`` (MIXED_MATCH if ``match``) into ``out``
    (``size`` bytes)."""
    problem = _mixing.decode(np.frombuffer(payload, np.uint8), out[:size], match)
    if problem:
        raise GageBPEError(_mixing.PROBLEMS[problem])
    return out


def decode_matched(payload, size, out):
    """The MIXED_MATCH block ``payload`` into ``out`` (``size`` bytes)."""
    return decode(payload, size, out, match=True)
