"""Records coded with a dictionary, many to a call: each in the smallest
of the dictionary codings asked (DICTIONARY_IDS, DICTIONARY_LZ,
DICTIONARY_IDS_LZ), by one kernel (``kernels.dictionary_records``); each
coding's module codes records through it, asking for that coding alone.
"""
import functools
from typing import NamedTuple

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
_NO_FINDER = (_NO_BYTES, 0, _NO_INT32S, _NO_INT32S, DEPTH)


def joined(records):
    """``(data, starts)``: the records end to end, and where each starts."""
    if len(records) == 1 and type(records[0]) is bytes:  # one record per call: no join
        return np.frombuffer(records[0], np.uint8), np.array((0, len(records[0])), np.int64)
    starts = np.zeros(len(records) + 1, np.int64)
    np.cumsum(np.fromiter(map(len, records), np.int64, len(records)), out=starts[1:])
    data = np.frombuffer(b"".join(records), np.uint8)
    return data, starts


class Coded(NamedTuple):
    """``encode_many``'s records: each one's coding, payload and data check,
    and the share of its bytes DICTIONARY_IDS_LZ copies from itself
    (``kernels.dictionary_records.own_share``)."""
    codings: list
    payloads: list
    checks: list
    own: list


def encode_many(records, dictionary, codings, most=None):
    """The ``Coded`` records: each of ``records`` (bytes, not empty) in the
    smallest of ``codings`` (which ``dictionary`` must take), the copy
    codings tried on records of at most ``most`` bytes (any if None)."""
    if not records:
        return Coded([], [], [], [])
    longest = max(map(len, records))
    most = longest if most is None else most
    tries = tries_of(codings)
    finder, most, lz_codes, ids_lz = copies(dictionary, tries, min(most, longest))
    payloads, starts, chosen, checks, own = _kernels.encode_records(
        *joined(records), tries, dictionary.encoding(), finder, most, lz_codes, ids_lz)
    payloads = payloads.tobytes()
    return Coded([_CODINGS[bit] for bit in chosen.tolist()],
                 [payloads[starts[i]:starts[i + 1]] for i in range(len(records))],
                 checks.tolist(), own.tolist())


def copies(dictionary, tries, most):
    """``(finder, most, lz_codes, ids_lz_codes)``: what ``tries`` (bits)
    need of ``dictionary`` to try copies on records of up to ``most``
    bytes; stand-ins, and ``most`` 0, where they try none."""
    if not tries & (_kernels.LZ | _kernels.IDS_LZ) or most <= 0:
        return _NO_FINDER, 0, _NO_CODES, _NO_CODES
    window, head, chain = dictionary.content_finder(most)
    return ((window, len(dictionary.content), head, chain, DEPTH), most,
            *_copy_codes(dictionary, tries))


def _copy_codes(dictionary, tries):
    """``(lz_codes, ids_lz_codes)`` of ``dictionary`` where ``tries``
    try copies, else stand-ins."""
    if not tries & (_kernels.LZ | _kernels.IDS_LZ):
        return _NO_CODES, _NO_CODES
    return dictionary.lz_codes, dictionary.ids_lz_encoding() or _NO_CODES


def packed_tables(dictionary):
    """``(tables, encoding)``: everything ``dictionary`` codes one record
    per call with in one array (``kernels.dictionary_records.packed_tables``,
    every coding it takes tried, copies at any length), and its
    ``encoding()`` read from that array."""
    tries = tries_of(dictionary.codings)
    tables = _kernels.packed_tables((tries, len(dictionary.content), DEPTH),
                                    dictionary.encoding(), *_copy_codes(dictionary, tries),
                                    dictionary.head)
    return tables, _kernels.unpacked_tables(tables)[1]


@functools.lru_cache
def tries_of(codings):
    """The kernel's ``tries`` bits of these dictionary codings."""
    return sum(_TRIES[coding] for coding in codings)
