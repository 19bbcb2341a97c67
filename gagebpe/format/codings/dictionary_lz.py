"""The DICTIONARY_LZ block coding (docs/FORMAT.md, section 4.16): the block
as LZ_PARTS's tokens in its dictionary's two LZ codes, its copies reaching
back into the dictionary's content.

    payload = bits
"""
import numpy as np

from ..._errors import GageBPEError
from ...kernels import dictionary as _kernels, lz as _lz, primed_lz as _primed
from .registry import DICTIONARY_LZ
from .dictionary_ids import joined

# Candidates a record's position visits in the content and the record:
# against 256, 1% larger on MIME XML in 500-byte records, at 0.4 times the
# time (docs/DESIGN.md, "Dictionaries").
DEPTH = 64


def encode_many(records, dictionary):
    """Each of ``records``' (bytes, not empty) payload; ``dictionary`` must
    hold content."""
    if not records:
        return []
    content, literal_lengths, distance_lengths = dictionary.lz_encoding()
    data, starts = joined(records)
    window, head, chain = _primed.content_finder(content, int(np.diff(starts).max()))
    payloads, payload_starts = _primed.encode_records(
        data, starts, window, len(content), head, chain, DEPTH, literal_lengths,
        distance_lengths)
    payloads = payloads.tobytes()
    return [payloads[payload_starts[i]:payload_starts[i + 1]] for i in range(len(records))]


def decode(payload, size, out, dictionary):
    """The block's bytes into ``out`` (``size`` bytes)."""
    literal, distance, content = _kernels.lz_unpacked(dictionary.decoder)
    if not len(content):
        raise GageBPEError(f"DICTIONARY_LZ block, but dictionary {dictionary.id:#010x} holds "
                           "no content")
    problem = _primed.decode(np.frombuffer(payload, np.uint8), out[:size], literal, distance,
                             content)
    if problem:
        raise GageBPEError(_lz.PROBLEMS[problem])
    return out


DECODERS = {DICTIONARY_LZ: decode}
