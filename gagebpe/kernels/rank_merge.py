"""Encoding by ranked merges, as every BPE tokenizer encodes a piece of
text: repeatedly merge the adjacent pair of lowest rank, the leftmost of
equals, until no adjacent pair has a rank.  Merging the lowest rank first
at every step is replaying the merges in rank order (each one left to
right) whenever no merge makes a token an earlier merge could have made,
which is every merge list BPE training makes without duplicates.

A merge table is a pair hash (``kernels.pair_hash``) from ``(left, right)`` to an
index into ``ranks`` and ``results``: merging the pair makes token
``results[i]`` at priority ``ranks[i]``.  Pieces are runs of a flat array
of ids, ``ids[starts[i]:starts[i + 1]]``.  A piece of up to SHORT tokens
is merged by scanning it for the lowest rank after each merge; a longer one
through a heap, so that no piece costs more than ``n log n``.
"""
import numpy as np

from .._jit import njit
from .pair_hash import EMPTY, lookup, new_table, pair_key, slot

SHORT = 32
NO_RANK = np.int64(1) << 62


@njit(cache=True, nogil=True)
def merge_table(lefts, rights):
    """The hash table of the merges ``(lefts[i], rights[i])``, each mapping
    to ``i``; a pair listed twice keeps its first (lowest) index."""
    keys, vals = new_table(lefts.shape[0])
    for i in range(lefts.shape[0]):
        h = slot(keys, pair_key(lefts[i], rights[i]))
        if keys[h] == EMPTY:
            keys[h] = pair_key(lefts[i], rights[i])
            vals[h] = i
    return keys, vals


@njit(cache=True, nogil=True, leaf=True)
def _rank(keys, vals, ranks, a, b, limit):
    i = lookup(keys, vals, a, b)
    return NO_RANK if i == EMPTY or ranks[i] >= limit else ranks[i]


@njit(cache=True, nogil=True)
def encode_pieces(ids, starts, keys, vals, ranks, results, limits):
    """``(tokens, token_starts)``: every piece of ``ids`` merged, piece i's
    tokens at ``tokens[token_starts[i]:token_starts[i + 1]]``, piece i
    using only merges of rank below ``limits[i]`` (NO_RANK: all)."""
    n = starts.shape[0] - 1
    tokens = np.empty(ids.shape[0], np.int32)
    token_starts = np.empty(n + 1, np.int64)
    token_starts[0] = 0
    work = np.empty(0, np.int32)
    pair_rank = np.empty(SHORT, np.int64)
    for p in range(n):
        length = starts[p + 1] - starts[p]
        if work.shape[0] < length:
            work = np.empty(max(length, 2 * work.shape[0]), np.int32)
        for i in range(length):  # not a slice: a view per piece counts references
            work[i] = ids[starts[p] + i]
        if length <= SHORT:
            length = _merge_short(work, length, keys, vals, ranks, results, limits[p],
                                    pair_rank)
        else:
            length = _merge_long(work, length, keys, vals, ranks, results, limits[p])
        out = token_starts[p]
        for i in range(length):
            tokens[out + i] = work[i]
        token_starts[p + 1] = out + length
    return tokens[:token_starts[n]], token_starts


@njit(cache=True, nogil=True, leaf=True)
def _merge_short(tok, n, keys, vals, ranks, results, limit, pair_rank):
    """Merge ``tok[:n]`` in place by scanning for the lowest rank; return the
    new length.  ``pair_rank`` is room for ``n`` ranks."""
    for i in range(n - 1):
        pair_rank[i] = _rank(keys, vals, ranks, tok[i], tok[i + 1], limit)
    while n > 1:
        best = 0
        for i in range(1, n - 1):
            if pair_rank[i] < pair_rank[best]:
                best = i
        if pair_rank[best] == NO_RANK:
            break
        tok[best] = results[lookup(keys, vals, tok[best], tok[best + 1])]
        for i in range(best + 1, n - 1):
            tok[i] = tok[i + 1]
            pair_rank[i] = pair_rank[i + 1]
        n -= 1
        if best > 0:
            pair_rank[best - 1] = _rank(keys, vals, ranks, tok[best - 1], tok[best], limit)
        if best < n - 1:
            pair_rank[best] = _rank(keys, vals, ranks, tok[best], tok[best + 1], limit)
    return n


@njit(cache=True, nogil=True)
def _merge_long(tok, n, keys, vals, ranks, results, limit):
    """Merge ``tok[:n]`` in place through a heap of (rank, position):
    positions are linked, and an entry is stale once its pair is gone."""
    nxt = np.arange(1, n + 1)
    prv = np.arange(-1, n - 1)
    alive = np.ones(n, np.bool_)
    heap = np.empty((3 * n, 2), np.int64)  # n entries, and two per merge
    size = 0
    for i in range(n - 1):
        r = _rank(keys, vals, ranks, tok[i], tok[i + 1], limit)
        if r != NO_RANK:
            size = _push(heap, size, r, i)
    while size > 0:
        r, i = heap[0, 0], heap[0, 1]
        size = _pop(heap, size)
        j = nxt[i]
        if not alive[i] or j >= n or _rank(keys, vals, ranks, tok[i], tok[j], limit) != r:
            continue  # merged away, or its pair changed since
        tok[i] = results[lookup(keys, vals, tok[i], tok[j])]
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] < n:
            prv[nxt[j]] = i
        if prv[i] >= 0:
            left = _rank(keys, vals, ranks, tok[prv[i]], tok[i], limit)
            if left != NO_RANK:
                size = _push(heap, size, left, prv[i])
        if nxt[i] < n:
            right = _rank(keys, vals, ranks, tok[i], tok[nxt[i]], limit)
            if right != NO_RANK:
                size = _push(heap, size, right, i)
    w = 0
    i = 0
    while i < n:
        tok[w] = tok[i]
        w += 1
        i = nxt[i]
    return w


@njit(cache=True, nogil=True, inline='always')
def _less(heap, i, j):
    return heap[i, 0] < heap[j, 0] or (heap[i, 0] == heap[j, 0] and heap[i, 1] < heap[j, 1])


@njit(cache=True, nogil=True, leaf=True)
def _push(heap, size, rank, position):
    heap[size, 0] = rank
    heap[size, 1] = position
    i = size
    while i > 0 and _less(heap, i, (i - 1) >> 1):
        parent = (i - 1) >> 1
        for c in range(2):
            heap[i, c], heap[parent, c] = heap[parent, c], heap[i, c]
        i = parent
    return size + 1


@njit(cache=True, nogil=True, leaf=True)
def _pop(heap, size):
    size -= 1
    heap[0, 0], heap[0, 1] = heap[size, 0], heap[size, 1]
    i = 0
    while True:
        smallest = i
        for child in (2 * i + 1, 2 * i + 2):
            if child < size and _less(heap, child, smallest):
                smallest = child
        if smallest == i:
            return size
        for c in range(2):
            heap[i, c], heap[smallest, c] = heap[smallest, c], heap[i, c]
        i = smallest
