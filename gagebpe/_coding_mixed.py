"""The MIXED block coding (10, format version 8): the block's bits coded
one by one with the probabilities of a context-mixing model (``_mixing``).

    payload = the arithmetic coder's bytes

The payload has no header: the model's table sizes follow from the block's
size, and the coded bits end where the payload does (docs/FORMAT.md).

Imports ``_errors`` and the kernel ``_mixing``.
"""
import numpy as np

from . import _mixing
from ._errors import GageBPEError


def encode(data):
    """The MIXED payload of block ``data`` (bytes, not empty), or None
    where it would not be smaller than ``data``."""
    out = np.empty(len(data), np.uint8)
    n = _mixing.encode(np.frombuffer(data, np.uint8), out)
    return out[:n].tobytes() if 0 < n < len(data) else None


def decode(payload, size, out):
    """Block ``payload`` into ``out`` (``size`` bytes)."""
    problem = _mixing.decode(np.frombuffer(payload, np.uint8), out[:size])
    if problem:
        raise GageBPEError(_mixing.PROBLEMS[problem])
    return out
