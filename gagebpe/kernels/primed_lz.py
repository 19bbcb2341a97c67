"""LZ after a dictionary's content: the kernels of the DICTIONARY_LZ coding
(docs/FORMAT.md, section 4.16) and of choosing that content.

A record coded DICTIONARY_LZ is LZ_PARTS's tokens (``kernels.lz``) in the
dictionary's two codes, its copies reaching back past the record's first
byte into the content, as though the record followed it.  A grammar of
tokens cannot name a string of 100 bytes that the samples held once or
twice; a copy from the content does, in about 20 bits.

The content's match finder (hash chains over its positions) is built once
per dictionary and shared by the records of a call: each record's
positions are chained onto it and unchained after, so that a record costs
its own bytes, not the content's.
"""
import numpy as np

from .._jit import njit
from . import lz as _lz
from .packed import int32s, uint8s
from .unaligned import copy_bytes

# The content is chosen SEGMENT bytes at a time, each the one of its stretch
# of the samples whose distinct strings of DMER bytes the samples hold most
# often; a string once chosen counts no more.
SEGMENT = 256
DMER = 8
DMER_BITS = 20
# choose_content counts a window's strings in uint8
if SEGMENT - DMER + 1 > 255:
    raise ImportError("choose_content's window holds more strings than a uint8 counts")


@njit(cache=True, nogil=True)
def content_finder(content, most):
    """``(window, head, chain)`` for records of up to ``most`` bytes after
    ``content``: a buffer holding the content and room for a record, and
    hash chains (``kernels.lz``'s) holding every position of the content
    whose MIN_COPY bytes lie in it."""
    c = content.shape[0]
    window = np.zeros(c + most, np.uint8)
    copy_bytes(window, 0, content, 0, c)
    head, chain = _lz.finder(c + most, False)
    for i in range(c - _lz.MIN_COPY + 1):
        h = _lz.chain_hash(window, i, _lz.HASH_BITS)
        chain[i] = head[h]
        head[h] = i
    return window, head, chain


@njit(cache=True, nogil=True, inline='always')
def unpacked_finder(finder):
    """``content_finder``'s ``(window, head, chain)`` packed in one array
    (``kernels.packed``)."""
    return uint8s(finder, 0), int32s(finder, 1), int32s(finder, 2)


@njit(cache=True, nogil=True, inline='always')
def content_matches(window, c, record, head, chain, depth):
    """``(data, matches)``: ``record`` laid after the content ``window[:c]``
    (``data``, a view of ``window``), and the matches of its positions
    (``kernels.lz.matches``, ``depth`` candidates each) in the content and
    itself; the finder is left as it was."""
    n = record.shape[0]
    copy_bytes(window, c, record, 0, n)
    data = window[:c + n]
    found = _lz.matches(data, c, c + n, head, chain, depth, False)
    for i in range(c + n - _lz.MIN_COPY, c - 1, -1):  # unchain the record, last first
        head[_lz.chain_hash(data, i, _lz.HASH_BITS)] = chain[i]
    return data, found


@njit(cache=True, nogil=True, inline='always')
def parse(data, c, found, literal_price, distance_price):
    """The symbols (``kernels.lz.symbols``) of the cheapest tokens of the
    record ``data[c:]`` after the content ``data[:c]``, given its matches
    ``found`` (``content_matches``), at these prices."""
    reps = np.array(_lz.FIRST_REPS, np.int32)
    starts, lengths, distances = found
    token_lengths, token_distances = _lz.parse(data, c, data.shape[0], starts, lengths,
                                               distances, reps.copy(), _lz.REPS, literal_price,
                                               distance_price)
    return _lz.symbols(data, c, reps, _lz.REPS, token_lengths, token_distances)


@njit(cache=True, nogil=True)
def all_matches(data, starts, window, c, head, chain, depth):
    """``(at, lengths, distances)``: ``content_matches`` of each of the
    records ``data[starts[i]:starts[i + 1]]``, end to end, record i's
    ``starts`` being ``at[starts[i] + i:starts[i + 1] + i + 1]`` (indices
    into the whole ``lengths`` and ``distances``).  Found once for the
    passes of ``symbol_counts``, which parse the records at other prices:
    the search is a third of a pass."""
    at = np.zeros(starts[-1] + starts.shape[0], np.int64)
    lengths = np.empty(max(1, starts[-1]), np.int32)
    distances = np.empty(lengths.shape[0], np.int32)
    found = 0
    for i in range(starts.shape[0] - 1):
        record_at, record_lengths, record_distances = content_matches(
            window, c, data[starts[i]:starts[i + 1]], head, chain, depth)[1]
        n = record_lengths.shape[0]
        while found + n > lengths.shape[0]:
            lengths, distances = _lz._grown(lengths), _lz._grown(distances)
        lengths[found:found + n] = record_lengths
        distances[found:found + n] = record_distances
        at[starts[i] + i:starts[i + 1] + i + 1] = found + record_at
        found += n
    return at, lengths[:found], distances[:found]


@njit(cache=True, nogil=True)
def symbol_counts(data, starts, window, c, matches, literal_price, distance_price):
    """``(literal/length counts, distance counts)``: how often each symbol
    is used by the records' cheapest tokens at these prices after the
    content ``window[:c]``, given their ``all_matches`` (a dictionary's
    codes are fitted to them)."""
    at, lengths, distances = matches
    literal = np.zeros(_lz.LITERALS + _lz.SLOTS, np.int64)
    distance = np.zeros(_lz.REPS + _lz.SLOTS, np.int64)
    for i in range(starts.shape[0] - 1):
        n = starts[i + 1] - starts[i]
        copy_bytes(window, c, data, starts[i], n)
        found = (at[starts[i] + i:starts[i + 1] + i + 1], lengths, distances)
        symbols = parse(window[:c + n], c, found, literal_price, distance_price)
        for t in range(symbols[0].shape[0]):
            literal[symbols[0][t]] += 1
            if symbols[1][t] >= 0:
                distance[symbols[1][t]] += 1
    return literal, distance


@njit(cache=True, nogil=True)
def decode(payload, out, literal, distance, content):
    """Decode the DICTIONARY_LZ payload ``payload`` into ``out``, which it
    must fill exactly, with a dictionary's LZ decoding tables and content;
    0 or a problem number (``kernels.lz.PROBLEMS``)."""
    reps = np.array(_lz.FIRST_REPS, np.int64)
    return _lz.tokens(_lz.with_padding(payload), 0, 8 * payload.shape[0], literal, distance,
                      out, 0, 0, out.shape[0], reps, content)[0]


@njit(cache=True, nogil=True, inline='always')
def _dmer(data, i):
    key = np.uint64(0)
    for k in range(DMER):
        key = (key << np.uint64(8)) | np.uint64(data[i + k])
    return np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - DMER_BITS))


@njit(cache=True, nogil=True)
def choose_content(data, size):
    """The content of at most ``size`` bytes for records like ``data`` (the
    samples joined): ``data`` cut into stretches, one for each SEGMENT
    bytes of content, and from each the SEGMENT bytes whose distinct
    DMER-byte strings are most frequent in all of ``data``, strings already
    chosen counting nothing; the segments laid out worst first, so that the
    best lie nearest the records, at the shortest distances."""
    n = data.shape[0]
    if n < SEGMENT + DMER or size < SEGMENT:
        return data[max(0, n - size):].copy()
    # Each string's hash once; the counts and window tables as small as
    # they can be (a window holds fewer than 256 strings), so that fewer of
    # the random visits to them miss the cache.
    positions = n - DMER + 1
    strings = np.empty(positions, np.int32)
    counts = np.zeros(1 << DMER_BITS, np.int32)
    for i in range(positions):
        strings[i] = _dmer(data, i)
        counts[strings[i]] += 1
    inside = np.zeros(1 << DMER_BITS, np.uint8)  # how often each string is in the window
    segments = min(size // SEGMENT, n // SEGMENT)
    stretch = n // segments
    chosen = np.zeros(segments, np.int64)
    scores = np.zeros(segments, np.int64)
    window = SEGMENT - DMER + 1  # strings in a segment
    for s in range(segments):
        first, last = s * stretch, min(n - SEGMENT, (s + 1) * stretch - 1)
        score = best = 0
        at = first
        for i in range(first, last + window):  # slide: string i in, string i - window out
            h = strings[i]
            if inside[h] == 0:
                score += counts[h]
            inside[h] += 1
            if i - first >= window:
                h = strings[i - window]
                inside[h] -= 1
                if inside[h] == 0:
                    score -= counts[h]
            if i - first >= window - 1 and score > best:
                best, at = score, i - window + 1
        for i in range(last, last + window):  # empty the window
            inside[strings[i]] = 0
        chosen[s], scores[s] = at, best
        for i in range(at, at + window):
            counts[strings[i]] = 0
    order = np.argsort(scores, kind="mergesort")
    out = np.empty(segments * SEGMENT, np.uint8)
    for k in range(segments):
        out[k * SEGMENT:(k + 1) * SEGMENT] = data[chosen[order[k]]:chosen[order[k]] + SEGMENT]
    return out
