"""Records coded with a dictionary, many to a call: each in the smallest
of the dictionary codings asked (DICTIONARY_IDS, DICTIONARY_LZ,
DICTIONARY_IDS_LZ), by one kernel (``kernels.dictionary_records``); each
coding's module codes records through it, asking for that coding alone.
"""
import numpy as np

from ...kernels import dictionary_records as _kernels, huffman as _huffman
from .registry import DICTIONARY_IDS, DICTIONARY_IDS_LZ, DICTIONARY_LZ

# Candidates a record's position visits in the content and the record, in
# both copy codings: 16 rather than 64 makes records (every coding tried)
# 0.22% larger in 0.78 of the time, and DICTIONARY_IDS_LZ alone, whose ids
# code the short repeats, 0.26% larger in 0.72 of the time, over the 17
# kinds at 256 B to 4 KB (``python benchmarks/dictionary_depth.py``, with
# and without ``--records-whole``).
DEPTH = 16
_TRIES = {DICTIONARY_IDS: _kernels.IDS, DICTIONARY_LZ: _kernels.LZ,
          DICTIONARY_IDS_LZ: _kernels.IDS_LZ}
_CODINGS = {bit: coding for coding, bit in _TRIES.items()}
_NO_BYTES, _NO_INT32S = np.zeros(0, np.uint8), np.zeros(0, np.int32)
_NO_CODES = _huffman.prepared(_NO_BYTES, _NO_BYTES)  # for codings not tried


def joined(records):
    """``(data, starts)``: the records end to end, and where each starts."""
    if len(records) == 1 and type(records[0]) is bytes:  # one record per call: no join
        return np.frombuffer(records[0], np.uint8), np.array((0, len(records[0])), np.int64)
    starts = np.zeros(len(records) + 1, np.int64)
    np.cumsum(np.fromiter(map(len, records), np.int64, len(records)), out=starts[1:])
    data = np.frombuffer(b"".join(records), np.uint8)
    return data, starts


def codings_of(dictionary):
    """The dictionary codings ``dictionary``'s records are tried in:
    DICTIONARY_LZ only where its content's codes give every symbol a code
    (the format lets them leave some out, and its parse cannot price a
    symbol it may not use), DICTIONARY_IDS_LZ where the dictionary takes
    it (its parse leaves out what has no code)."""
    codings = [DICTIONARY_IDS]
    if dictionary.content and dictionary.lz_lengths.all():
        codings.append(DICTIONARY_LZ)
    if dictionary.ids_lz_encoding() is not None:
        codings.append(DICTIONARY_IDS_LZ)
    return tuple(codings)


def encode_many(records, dictionary, codings, most=None):
    """``(codings, payloads, checks)``: each of ``records`` (bytes, not
    empty) in the smallest of ``codings`` (which ``dictionary`` must take),
    the copy codings tried on records of at most ``most`` bytes (any if
    None), its coding, its payload and its data check."""
    if not records:
        return [], [], []
    longest = max(map(len, records))
    most = longest if most is None else most
    tries = sum(_TRIES[coding] for coding in codings)
    finder, lz_codes, ids_lz = (_NO_BYTES, 0, _NO_INT32S, _NO_INT32S, DEPTH), _NO_CODES, _NO_CODES
    if tries & (_kernels.LZ | _kernels.IDS_LZ) and min(most, longest) > 0:
        window, head, chain = dictionary.content_finder(min(most, longest))
        finder = (window, len(dictionary.content), head, chain, DEPTH)
        lz_codes = dictionary.lz_codes
        ids_lz = dictionary.ids_lz_encoding() or _NO_CODES
    else:
        most = 0
    payloads, starts, chosen, checks = _kernels.encode_records(
        *joined(records), tries, dictionary.encoding(), finder, most, lz_codes, ids_lz)
    payloads = payloads.tobytes()
    return ([_CODINGS[bit] for bit in chosen.tolist()],
            [payloads[starts[i]:starts[i + 1]] for i in range(len(records))], checks.tolist())
