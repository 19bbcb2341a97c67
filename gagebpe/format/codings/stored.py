"""The STORED block coding (docs/FORMAT.md, section 4.1): the bytes as
they are.
"""
from ..._jit import njit
from ...kernels.unaligned import copy_bytes
from . import problems as _problems
from .registry import STORED


def encode(data):
    return bytes(data)


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """The block's bytes into ``out`` (``size`` bytes); 0 or its problem
    (``format.codings.problems``)."""
    if payload.shape[0] != size:
        return _problems.at(coding, _problems.LENGTH)
    copy_bytes(out, 0, payload, 0, size)
    return 0


DECODERS = {STORED: decode_block}
