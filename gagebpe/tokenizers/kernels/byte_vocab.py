"""Kernels of a byte-level vocabulary: tokens as byte strings, found by
their bytes; the merges they imply; chunks of text encoded as tiktoken
encodes them; ids decoded back to bytes.

A vocabulary is its tokens' bytes end to end (``flat``), token t at
``flat[offsets[t]:offsets[t + 1]]``; a token's id is its rank.  tiktoken
encodes a chunk as one token when its bytes are one; otherwise it starts
from single bytes and, repeatedly, joins the adjacent pair whose joined
bytes form the token of lowest rank (the leftmost of equals).  So the merge
table holds every pair of tokens whose bytes join into a token, at that
token's rank (``split_pairs``), and ``kernels.rank_merge`` does the joining.
"""
import numpy as np

from .distinct import content_hash as _hash, distinct
from ..._jit import njit
from .pretokenize import split_texts
from ...kernels.expand import COPY_WIDTH, copy
from ...kernels.rank_merge import NO_RANK, encode_pieces


@njit(cache=True, nogil=True)
def index(flat, offsets):
    """The hash table that finds a token by its bytes (slot -> id, -1)."""
    n = offsets.shape[0] - 1
    size = 16
    while size < 2 * n:
        size *= 2
    table = np.full(size, -1, np.int64)
    for t in range(n):
        h = _hash(flat, offsets[t], offsets[t + 1]) & (size - 1)
        while table[h] != -1 and not _same(flat, offsets, table[h], flat,
                                            offsets[t], offsets[t + 1]):
            h = (h + 1) & (size - 1)
        if table[h] == -1:  # a token listed twice keeps its lowest rank
            table[h] = t
    return table


@njit(cache=True, nogil=True, inline='always')
def _same(flat, offsets, t, buf, start, end):
    if offsets[t + 1] - offsets[t] != end - start:
        return False
    o = offsets[t]
    for i in range(end - start):
        if flat[o + i] != buf[start + i]:
            return False
    return True


@njit(cache=True, nogil=True, leaf=True)
def find(flat, offsets, table, buf, start, end):
    """The id of the token whose bytes are ``buf[start:end]``, or -1."""
    size = table.shape[0]
    h = _hash(buf, start, end) & (size - 1)
    while table[h] != -1:
        if _same(flat, offsets, table[h], buf, start, end):
            return table[h]
        h = (h + 1) & (size - 1)
    return np.int64(-1)


@njit(cache=True, nogil=True)
def split_pairs(flat, offsets, table):
    """``(lefts, rights, results)``: every pair of tokens whose bytes join
    into a token, and that token (whose id is the pair's rank)."""
    n = offsets.shape[0] - 1
    lefts = np.empty(flat.shape[0], np.int32)
    rights = np.empty(flat.shape[0], np.int32)
    results = np.empty(flat.shape[0], np.int32)
    m = 0
    for t in range(n):
        s, e = offsets[t], offsets[t + 1]
        for cut in range(s + 1, e):
            left = find(flat, offsets, table, flat, s, cut)
            if left < 0:
                continue
            right = find(flat, offsets, table, flat, cut, e)
            if right < 0:
                continue
            lefts[m], rights[m], results[m] = left, right, t
            m += 1
    return lefts[:m], rights[:m], results[:m]


@njit(cache=True, nogil=True)
def encode_chunks(buf, starts, ends, flat, offsets, table, byte_ids, keys, vals, ranks,
                  results):
    """``(tokens, token_starts)``: the tokens of each chunk
    ``buf[starts[c]:ends[c]]``, as tiktoken encodes a chunk."""
    n = starts.shape[0]
    whole = np.full(n, -1, np.int64)
    total = 0
    for c in range(n):
        whole[c] = find(flat, offsets, table, buf, starts[c], ends[c])
        if whole[c] < 0:
            total += ends[c] - starts[c]
    pieces = np.empty(total, np.int32)
    piece_starts = np.zeros(n + 1, np.int64)
    for c in range(n):
        k = piece_starts[c]
        if whole[c] < 0:
            for i in range(starts[c], ends[c]):
                pieces[k] = byte_ids[buf[i]]
                k += 1
        piece_starts[c + 1] = k
    limits = np.full(n, NO_RANK, np.int64)
    merged, merged_starts = encode_pieces(pieces, piece_starts, keys, vals, ranks, results,
                                          limits)
    tokens = np.empty(merged.shape[0] + n, np.int32)
    token_starts = np.zeros(n + 1, np.int64)
    k = 0
    for c in range(n):
        if whole[c] >= 0:
            tokens[k] = whole[c]
            k += 1
        else:
            for j in range(merged_starts[c], merged_starts[c + 1]):
                tokens[k] = merged[j]
                k += 1
        token_starts[c + 1] = k
    return tokens[:k], token_starts


@njit(cache=True, nogil=True)
def encode_spans(buf, starts, ends, chunk_starts, flat, offsets, table, byte_ids, keys, vals,
                 ranks, results):
    """``(ids, id_starts)``: the tokens of the chunks ``buf[starts[c]:
    ends[c]]`` of several texts (text t's chunks are ``chunk_starts[t]:
    chunk_starts[t + 1]``), text t's at ``ids[id_starts[t]:id_starts[t +
    1]]``.  Each distinct chunk is encoded once for all the texts."""
    chunk_ids, firsts = distinct(buf, starts, ends)
    tokens, token_starts = encode_chunks(buf, starts[firsts], ends[firsts], flat, offsets,
                                         table, byte_ids, keys, vals, ranks, results)
    total = 0
    for i in range(chunk_ids.shape[0]):
        total += token_starts[chunk_ids[i] + 1] - token_starts[chunk_ids[i]]
    ids = np.empty(total, np.int64)
    n_texts = chunk_starts.shape[0] - 1
    id_starts = np.zeros(n_texts + 1, np.int64)
    k = 0
    for t in range(n_texts):
        for i in range(chunk_starts[t], chunk_starts[t + 1]):
            d = chunk_ids[i]
            for j in range(token_starts[d], token_starts[d + 1]):
                ids[k] = tokens[j]
                k += 1
        id_starts[t + 1] = k
    return ids, id_starts


@njit(cache=True, nogil=True)
def encode_texts(buf, text_starts, classes, pattern, flat, offsets, table, byte_ids, keys,
                 vals, ranks, results):
    """``encode_spans`` of texts cut by a scanned pattern
    (``tokenizers.kernels.pretokenize``), in one call that holds no lock."""
    bounds, chunk_starts = split_texts(buf, text_starts, classes, pattern)
    return encode_spans(buf, bounds[:-1], bounds[1:], chunk_starts, flat, offsets, table,
                        byte_ids, keys, vals, ranks, results)


@njit(cache=True, nogil=True)
def decode(ids, flat, offsets, valid):
    """``(bytes, bad)``: the tokens' bytes end to end, and the index of the
    first id that is no token (outside ``valid`` or false there; -1 if
    none).  ``flat`` holds COPY_WIDTH bytes of padding past its last token:
    each token is copied in 16-byte strides, most in one."""
    n = valid.shape[0]
    total = 0
    for i in range(ids.shape[0]):
        t = ids[i]
        if t < 0 or t >= n or not valid[t]:
            return np.empty(0, np.uint8), np.int64(i)
        total += offsets[t + 1] - offsets[t]
    out = np.empty(total + COPY_WIDTH, np.uint8)
    pos = np.uint64(0)
    for i in range(ids.shape[0]):
        t = ids[i]
        start = np.uint64(offsets[t])
        length = np.uint64(offsets[t + 1]) - start
        copy(out, pos, flat, start, length)
        pos += length
    return out[:total], np.int64(-1)
