"""The DICTIONARY_LZ block coding (docs/FORMAT.md, section 4.16): the block
as LZ_PARTS's tokens in its dictionary's two LZ codes, its copies reaching
back into the dictionary's content.

    payload = bits
"""

from ..._jit import njit
from ...kernels import dictionary as _kernels, primed_lz as _primed
from . import problems as _problems
from .registry import DICTIONARY_LZ
from .dictionary_ids import joined

# Candidates a record's position visits in the content and the record,
# here and in DICTIONARY_IDS_LZ: 16 rather than 64 makes records (every
# coding tried) 0.22% larger in 0.78 of the time, and DICTIONARY_IDS_LZ
# alone, whose ids code the short repeats, 0.26% larger in 0.72 of the
# time, over the 17 kinds at 256 B to 4 KB (``python
# benchmarks/dictionary_depth.py``, with and without ``--records-whole``).
DEPTH = 16


def encode_many(records, dictionary):
    """Each of ``records``' (bytes, not empty) payload; ``dictionary`` must
    hold content."""
    if not records:
        return []
    content, literal_lengths, distance_lengths = dictionary.lz_encoding()
    data, starts = joined(records)
    window, head, chain = dictionary.content_finder(max(map(len, records)))
    payloads, payload_starts = _primed.encode_records(
        data, starts, window, len(content), head, chain, DEPTH, literal_lengths,
        distance_lengths)
    payloads = payloads.tobytes()
    return [payloads[payload_starts[i]:payload_starts[i + 1]] for i in range(len(records))]


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
