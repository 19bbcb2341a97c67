"""The DICTIONARY_IDS_LZ block coding (docs/FORMAT.md, section 4.18): the
block as tokens that are each an id of its dictionary or a copy, the
copies reaching back into the dictionary's content, in a code made from
the dictionary's own two (``kernels.ids_lz.code_lengths``).

    payload = bits
"""

from ..._jit import njit
from ...kernels import dictionary as _kernels, ids_lz as _ids_lz
from . import dictionary_records as _records, problems as _problems
from .registry import DICTIONARY_IDS_LZ


def encode_many(records, dictionary):
    """Each of ``records``' (bytes, not empty) payload; ``dictionary`` must
    take the coding (``Dictionary.ids_lz_encoding`` not None)."""
    return _records.encode_many(records, dictionary, (DICTIONARY_IDS_LZ,))[1]


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding, decoder):
    """A DICTIONARY_IDS_LZ block's bytes into ``out`` (``size`` bytes),
    with the tables and content of a dictionary's ``decoder``; 0 or its
    problem (``format.codings.problems``)."""
    table, distance_table, phrases, content = _kernels.ids_lz_unpacked(decoder)
    if table.shape[0] == 0:  # no content, or a code without copies
        return _problems.at(coding, _problems.NOT_DECODED if content.shape[0] else
                            _problems.NO_CONTENT)
    if _ids_lz.decode(payload, 0, payload.shape[0], out, 0, size, table, distance_table,
                      phrases, content):
        return 0
    return _problems.at(coding, _problems.NOT_DECODED)


DECODERS = {DICTIONARY_IDS_LZ: decode_block}
# What a decoder takes besides the block, from the stream's dictionary.
INPUTS = {DICTIONARY_IDS_LZ: lambda dictionary: (dictionary.decoder,)}
