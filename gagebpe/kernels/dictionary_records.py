"""Records coded with a dictionary, many to a call (docs/DESIGN.md,
"Dictionaries"): each record parsed in every coding it tries -- its ids
(DICTIONARY_IDS, ``kernels.shortest_parse``), copies and literals
(DICTIONARY_LZ, ``kernels.primed_lz``), ids and copies (DICTIONARY_IDS_LZ,
``kernels.ids_lz``) -- and written in the one whose payload is smallest.
The two copy codings parse over one search for matches, and a record
costs one call for all: for a record of 64 bytes, three calls' handing
over cost as much as a parse.  ``parsed`` and ``write`` are a record's
two steps, which ``encoder.records`` also calls to write one record's
whole stream in a kernel.
"""
import numpy as np

from .._jit import njit
from . import ids_lz as _ids_lz, lz as _lz, primed_lz as _primed
from .packed import float64s, int32s, int64s, pack, uint8s
from .shortest_parse import shortest
from .xxh64 import data_check

# The codings a record tries, as bits of ``tries``.
IDS, LZ, IDS_LZ = 1, 2, 4
# Where DICTIONARY_IDS_LZ is tried, DICTIONARY_LZ is tried only on records
# its parse copied at least this share of: LZ's literals cost more than
# ids, and only its copies, in a code of their own, can undercut the ids'
# coding.  Over the 17 record kinds at 64 B-4 KB it won on 299 records of
# 14,048, of 30% copies or more but for 0.003% of all bytes (a kind at
# most 0.14%), and is parsed for a third of the records
# (docs/notes/2026-12-06-record-level-try.md).
LZ_COPIES = 0.3


@njit(cache=True, nogil=True)
def encode_records(data, starts, tries, ids_code, finder, most, lz_code, ids_lz_code):
    """``(payloads, payload_starts, codings, checks, own)``: each record
    ``data[starts[i]:starts[i + 1]]`` coded the smallest of the ``tries``
    way (its bit in ``codings``, the first of equals in the order above),
    the payloads end to end, each record's data check, and the share of
    its bytes that DICTIONARY_IDS_LZ's parse copies from the record itself
    (``own_share``).

    ``ids_code`` is the dictionary's ``(codes, lengths, sizes, edges,
    symbols, bits)`` (``Dictionary.encoding``); a record of at most
    ``most`` bytes also tries the copy codings in ``tries``, over the
    content finder ``finder`` ``(window, content length, head, chain,
    depth)``, in the content's two codes ``lz_code`` and DICTIONARY_IDS_LZ's
    ``ids_lz_code`` (``Dictionary.lz_codes`` and ``.ids_lz_encoding``)."""
    n = starts.shape[0] - 1
    payload_starts = np.zeros(n + 1, np.int64)
    payloads = np.zeros(max(16, data.shape[0]), np.uint8)
    codings = np.zeros(n, np.int64)
    checks = np.empty(n, np.int64)
    own = np.empty(n, np.float64)
    for i in range(n):
        record = data[starts[i]:starts[i + 1]]
        codings[i], best, parses = parsed(record, tries, ids_code, finder, most, lz_code,
                                           ids_lz_code)
        own[i] = own_share(parses[2], record.shape[0])
        at = payload_starts[i]
        while payloads.shape[0] < at + best:
            payloads = np.concatenate((payloads, np.zeros(payloads.shape[0], np.uint8)))
        write(payloads[at:at + best], codings[i], parses, ids_code, lz_code, ids_lz_code)
        payload_starts[i + 1] = at + best
        checks[i] = data_check(record)
    return payloads[:payload_starts[n]], payload_starts, codings, checks, own


@njit(cache=True, nogil=True, inline='always')
def _copied(tokens):
    """``(bytes copied, bytes copied from the record itself)`` by a
    record's DICTIONARY_IDS_LZ ``tokens``."""
    lengths, distances, _ = tokens
    pos, copied, own = 0, 0, 0
    for t in range(lengths.shape[0]):
        if distances[t]:
            copied += lengths[t]
            if distances[t] <= pos:
                own += lengths[t]
        pos += lengths[t]
    return copied, own


@njit(cache=True, nogil=True, inline='always')
def copy_share(tokens, n):
    """The share of a record's ``n`` bytes its DICTIONARY_IDS_LZ ``tokens``
    copy (from the content or the record itself)."""
    return _copied(tokens)[0] / n


@njit(cache=True, nogil=True)
def own_share(tokens, n):
    """The share of a record's ``n`` bytes that its DICTIONARY_IDS_LZ
    ``tokens`` copy from the record itself, not from the content or the
    ids: where it is small, LZ within the record alone cannot code it
    much smaller (``encoder.levels.OWN_COPIES``); 1 where the coding was
    not tried, which says nothing."""
    if tokens[0].shape[0] == 0:
        return 1.0
    return _copied(tokens)[1] / n


def packed_tables(settings, ids_code, lz_code, ids_lz_code, head):
    """One array (``kernels.packed``'s) of what a dictionary codes one
    record per call with, as ``unpacked_tables`` reads it: its
    ``settings`` (``tries``, the content's length, the matches' depth),
    ``encode_records``'s three codes and the head of its records' streams."""
    return pack((np.array(settings, np.int64), *ids_code, *lz_code, *ids_lz_code, head))


# Where ``packed_tables`` lays each part: a code is six arrays.
_SETTINGS, _IDS_CODE, _LZ_CODE, _IDS_LZ_CODE, _HEAD = 0, 1, 7, 13, 19


@njit(cache=True, nogil=True, inline='always')
def unpacked_tables(tables):
    """``(settings, ids_code, lz_code, ids_lz_code, head)`` of
    ``packed_tables``'s array."""
    codes, lengths = int64s(tables, _IDS_CODE), uint8s(tables, _IDS_CODE + 1)
    ids_code = (codes.reshape((1, codes.shape[0])), lengths.reshape((1, lengths.shape[0])),
                int64s(tables, _IDS_CODE + 2), int64s(tables, _IDS_CODE + 3),
                int32s(tables, _IDS_CODE + 4), int64s(tables, _IDS_CODE + 5))
    return (int64s(tables, _SETTINGS), ids_code, _code(tables, _LZ_CODE),
            _code(tables, _IDS_LZ_CODE), uint8s(tables, _HEAD))


@njit(cache=True, nogil=True, inline='always')
def _code(tables, k):
    """The six arrays of a code (``kernels.huffman.prepared``) from the
    ``k``-th of ``tables``."""
    return (int64s(tables, k), uint8s(tables, k + 1), float64s(tables, k + 2),
            int64s(tables, k + 3), uint8s(tables, k + 4), float64s(tables, k + 5))


@njit(cache=True, nogil=True)
def parsed(record, tries, ids_code, finder, most, lz_code, ids_lz_code):
    """``(coding, payload bytes, parses)``: the smallest of the ``tries``
    ways to code ``record`` (``encode_records``'s arguments), and the
    parses ``write`` writes it from."""
    codes, lengths, sizes, edges, symbols, bits = ids_code
    window, c, head, chain, depth = finder
    literal_price, distance_price = lz_code[2], lz_code[5]
    ids = np.empty(0, np.int32)  # each coding's parse of the record, where tried
    lz = (ids, ids, ids, ids)
    tokens = (ids, ids, ids)
    copies = tries & (LZ | IDS_LZ) and record.shape[0] <= most
    lz_tried = False
    both = copies and tries & IDS and tries & IDS_LZ  # the ids' parse on the same trie walk
    if tries & IDS and not both:
        ids = shortest(record, sizes, lengths[0], edges, symbols, bits)
    if copies:
        copied, found = _primed.content_matches(window, c, record, head, chain, depth)
        if both:
            tokens, ids = _ids_lz.parse_both(copied, c, found, sizes, edges, symbols,
                                             ids_lz_code[2], ids_lz_code[5], bits)
        elif tries & IDS_LZ:
            tokens = _ids_lz.parse(copied, c, found, sizes, edges, symbols, ids_lz_code[2],
                                   ids_lz_code[5])
        lz_tried = (tries & LZ) != 0 and ((tries & IDS_LZ) == 0 or
                                          copy_share(tokens, record.shape[0]) >= LZ_COPIES)
        if lz_tried:
            lz = _primed.parse(copied, c, found, literal_price, distance_price)
    best, coding = np.int64(1) << 62, 0
    if tries & IDS:
        best, coding = _bytes(lengths[0][ids].astype(np.int64).sum()), IDS
    if lz_tried:
        size = _bytes(_lz.coded_bits(lz[0], lz[1], lz_code[1], lz_code[4], _lz.REPS))
        if size < best:
            best, coding = size, LZ
    if copies and tries & IDS_LZ:
        size = _bytes(_ids_lz.written_bits(*tokens, ids_lz_code[1], ids_lz_code[4]))
        if size < best:
            best, coding = size, IDS_LZ
    if coding == 0:
        raise ValueError("a record that no coding was tried on")
    return coding, best, (ids, lz, tokens)


@njit(cache=True, nogil=True)
def write(out, coding, parses, ids_code, lz_code, ids_lz_code):
    """The payload of ``coding`` (a bit of ``tries``) from ``parsed``'s
    ``parses`` into ``out``, which holds exactly its bytes."""
    ids, lz, tokens = parses
    if coding == IDS:
        _write_ids(out, ids, ids_code[0][0], ids_code[1][0])
    elif coding == LZ:
        _lz.put_tokens(out, np.uint64(0), 0, 0, lz[0], lz[1], lz[2], lz[3], lz_code[0],
                       lz_code[1], lz_code[3], lz_code[4], _lz.REPS)
    else:
        _ids_lz.write(out, *tokens, ids_lz_code[0], ids_lz_code[1], ids_lz_code[3],
                      ids_lz_code[4])


@njit(cache=True, nogil=True)
def _write_ids(out, ids, codes, lengths):
    """The codes of ``ids`` into ``out``, byte-padded."""
    acc, nbits, pos = np.uint64(0), np.int64(0), 0
    for s in ids:
        acc, nbits, pos = _lz._put(out, acc, nbits, pos, codes[s], lengths[s])
    _lz._flush(out, acc, nbits, pos)


@njit(cache=True, nogil=True, inline='always')
def _bytes(bits):
    return (bits + 7) // 8
