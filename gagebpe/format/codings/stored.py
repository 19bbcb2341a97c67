"""The STORED block coding (docs/FORMAT.md, section 4.1): the bytes as
they are.
"""
import numpy as np

from ..._errors import GageBPEError
from .registry import STORED


def encode(data):
    return bytes(data)


def decode(payload, size, out):
    """The block's bytes into ``out`` (``size`` bytes)."""
    if len(payload) != size:
        raise GageBPEError("STORED block length disagrees with its size")
    out[:] = np.frombuffer(payload, np.uint8)
    return out


DECODERS = {STORED: decode}
