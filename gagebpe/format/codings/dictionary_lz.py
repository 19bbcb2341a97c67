"""The DICTIONARY_LZ block coding (docs/FORMAT.md, section 4.16): the block
as LZ_PARTS's tokens in its dictionary's two LZ codes, its copies reaching
back into the dictionary's content.

    payload = bits
"""

from ..._jit import njit
from ...kernels import dictionary as _kernels, primed_lz as _primed
from . import dictionary_records as _records, problems as _problems
from .registry import DICTIONARY_LZ


def encode_many(records, dictionary):
    """Each of ``records``' (bytes, not empty) payload; ``dictionary`` must
    hold content whose codes give every symbol a code."""
    return _records.encode_many(records, dictionary, (DICTIONARY_LZ,))[1]


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding, decoder):
    """A DICTIONARY_LZ block's bytes into ``out`` (``size`` bytes), with
    the codes and content of a dictionary's ``decoder``; 0 or its problem
    (``format.codings.problems``)."""
    literal, distance, content = _kernels.lz_unpacked(decoder)
    if content.shape[0] == 0:
        return _problems.at(coding, _problems.NO_CONTENT)
    problem = _primed.decode(payload, out[:size], literal, distance, content)
    return _problems.at(coding, _problems.LZ + problem) if problem else 0


DECODERS = {DICTIONARY_LZ: decode_block}
# What a decoder takes besides the block, from the stream's dictionary.
INPUTS = {DICTIONARY_LZ: lambda dictionary: (dictionary.decoder,)}
