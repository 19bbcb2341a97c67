"""The DICTIONARY_IDS block coding (docs/FORMAT.md, section 4.15): the
block as ids of its stream's dictionary's grammar, each in the
dictionary's code; nothing else is sent.

    payload = codes of the ids, MSB-first, then zero padding to a byte

Records are coded many to a kernel call (``encode_many``,
``format.codings.dictionary_records``): one record alone is the batch of
one.  Whole streams of records are read by
``decoder.records``, a block of the general reader by ``decode_block``.
"""

from ..._jit import njit
from ...kernels import dictionary as _kernels
from . import dictionary_records as _records, problems as _problems
from .registry import DICTIONARY_IDS


def encode_many(records, dictionary):
    """``(payloads, checks)``: each record's payload and data check."""
    coded = _records.encode_many(records, dictionary, (DICTIONARY_IDS,))
    return coded.payloads, coded.checks


def encode(data, dictionary):
    """The payload of one block of ``data``."""
    return encode_many([bytes(data)], dictionary)[0][0]


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding, decoder):
    """A DICTIONARY_IDS block's bytes into ``out`` (``size`` bytes), with
    the tables of a dictionary's ``decoder``; 0 or its problem
    (``format.codings.problems``)."""
    _, table, phrases = _kernels.unpacked(decoder)
    if _kernels.decode_unpadded(payload, 0, out[:size], table, phrases):
        return 0
    return _problems.at(coding, _problems.NOT_DECODED)


DECODERS = {DICTIONARY_IDS: decode_block}
# What a decoder takes besides the block, from the stream's dictionary.
INPUTS = {DICTIONARY_IDS: lambda dictionary: (dictionary.decoder,)}
