"""The incremental merge engine: Re-Pair (Larsson & Moffat) over NumPy arrays.

Greedy BPE recounts every pair after each merge; this engine keeps the counts
up to date instead, so a merge costs time proportional to the occurrences it
replaces, not to the block.

State, all flat arrays indexed by sequence position or by pair record:

* ``ids``: the symbols; a merged-away position holds -1 and is skipped by
  the live-position links ``nxt``/``prv``.
* one record per distinct pair ``(a, b)``: ``recs[r] = (a, b, count, head,
  stamp)``, found through an open-addressing hash table on ``a << 31 | b``.
* the occurrences of a pair threaded through the positions where they start:
  ``onx``/``opv`` form a doubly linked list from ``recs[r, HEAD]``;
  ``opv[i] == UNLINKED`` marks a position that starts no counted occurrence.
* a binary max-heap of (count, pair) with lazy refresh: counts only fall
  after a pair's creating merge, so an entry whose count is stale is pushed
  back with its true count when it reaches the top.

A pair's count is its number of non-overlapping occurrences, taken left to
right: in a run ``xxxxx`` the occurrences of (x, x) start at the run's first,
third, ... symbol.  When a merge removes the first symbol of a run, the rest
of the run is re-parsed; the cost is bounded by the merge's own count, since
the merged pair outnumbered (x, x).

The engine chooses the most frequent pair, ties going to the smallest
``(a, b)``: the same rule as the full-pass kernels in ``_pairs``, so the two
phases compose into one greedy algorithm.
"""
import numpy as np
from numba import njit

A, B, COUNT, HEAD, STAMP = 0, 1, 2, 3, 4
UNLINKED = -2
EMPTY = -1
_HASH_MULT = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64


# -- pair records behind a hash table ---------------------------------------

@njit(cache=True, nogil=True)
def _slot(keys, key):
    mask = keys.shape[0] - 1
    h = ((key * _HASH_MULT) >> np.int64(32)) & mask
    while keys[h] != key and keys[h] != EMPTY:
        h = (h + 1) & mask
    return h


@njit(cache=True, nogil=True)
def _lookup(keys, vals, a, b):
    h = _slot(keys, (np.int64(a) << 31) | b)
    return vals[h]


@njit(cache=True, nogil=True)
def _find_or_add(keys, vals, recs, nrec, a, b):
    """Record id of (a, b), creating it at ``nrec[0]`` if new."""
    key = (np.int64(a) << 31) | b
    h = _slot(keys, key)
    if keys[h] == EMPTY:
        r = nrec[0]
        nrec[0] = r + 1
        keys[h] = key
        vals[h] = r
        recs[r, A] = a
        recs[r, B] = b
        recs[r, COUNT] = 0
        recs[r, HEAD] = -1
        recs[r, STAMP] = -1
        return r
    return vals[h]


@njit(cache=True, nogil=True)
def _reserve(keys, vals, recs, nrec, extra):
    """Grow the record array and hash table so ``extra`` more records fit
    with the table at most half full.  Returns the (possibly new) arrays."""
    need = nrec + extra
    if need > recs.shape[0]:
        bigger = np.empty((max(need, 2 * recs.shape[0]), 5), np.int32)
        bigger[:nrec] = recs[:nrec]
        recs = bigger
    if 2 * need > keys.shape[0]:
        size = keys.shape[0]
        while 2 * need > size:
            size *= 2
        keys = np.full(size, EMPTY, np.int64)
        vals = np.full(size, EMPTY, np.int32)
        for r in range(nrec):
            key = (np.int64(recs[r, A]) << 31) | recs[r, B]
            h = _slot(keys, key)
            keys[h] = key
            vals[h] = r
    return keys, vals, recs


# -- occurrence lists ---------------------------------------------------------

@njit(cache=True, nogil=True)
def _link(recs, onx, opv, orec, r, i):
    head = recs[r, HEAD]
    onx[i] = head
    opv[i] = -1
    orec[i] = r
    if head != -1:
        opv[head] = i
    recs[r, HEAD] = i
    recs[r, COUNT] += 1


@njit(cache=True, nogil=True)
def _unlink(recs, onx, opv, r, i):
    before = opv[i]
    after = onx[i]
    if before == -1:
        recs[r, HEAD] = after
    else:
        onx[before] = after
    if after != -1:
        opv[after] = before
    opv[i] = UNLINKED
    recs[r, COUNT] -= 1


# -- the priority queue ---------------------------------------------------------

@njit(cache=True, nogil=True)
def _before(heap, recs, i, j):
    """Does heap entry i rank before entry j?  Higher count, then smaller pair."""
    if heap[i, 0] != heap[j, 0]:
        return heap[i, 0] > heap[j, 0]
    ri = heap[i, 1]
    rj = heap[j, 1]
    if recs[ri, A] != recs[rj, A]:
        return recs[ri, A] < recs[rj, A]
    return recs[ri, B] < recs[rj, B]


@njit(cache=True, nogil=True)
def _swap(heap, i, j):
    c, r = heap[i, 0], heap[i, 1]
    heap[i, 0], heap[i, 1] = heap[j, 0], heap[j, 1]
    heap[j, 0], heap[j, 1] = c, r


@njit(cache=True, nogil=True)
def _push(heap, size, recs, count, r):
    """Push (count, r) into ``heap[:size]``; return the new heap array."""
    if size == heap.shape[0]:
        bigger = np.empty((2 * size + 16, 2), np.int32)
        bigger[:size] = heap[:size]
        heap = bigger
    heap[size, 0] = count
    heap[size, 1] = r
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if not _before(heap, recs, i, parent):
            break
        _swap(heap, i, parent)
        i = parent
    return heap


@njit(cache=True, nogil=True)
def _pop(heap, size, recs):
    """Remove the top of ``heap[:size]`` into slot ``size - 1``."""
    last = size - 1
    _swap(heap, 0, last)
    i = 0
    while True:
        left = 2 * i + 1
        if left >= last:
            break
        best = left
        if left + 1 < last and _before(heap, recs, left + 1, left):
            best = left + 1
        if not _before(heap, recs, best, i):
            break
        _swap(heap, i, best)
        i = best


# -- the engine -------------------------------------------------------------------

@njit(cache=True, nogil=True)
def _reparse_run(ids, nxt, recs, onx, opv, orec, keys, vals, start):
    """Re-link the (x, x) occurrences of the run of x beginning at ``start``
    so that they start at its first, third, ... symbol."""
    x = ids[start]
    r = -1
    want = True
    i = start
    while True:
        j = nxt[i]
        if j == -1 or ids[j] != x:
            break
        if r == -1:
            r = _lookup(keys, vals, x, x)
        linked = opv[i] != UNLINKED
        if want and not linked:
            _link(recs, onx, opv, orec, r, i)
        elif linked and not want:
            _unlink(recs, onx, opv, r, i)
        want = not want
        i = j


@njit(cache=True, nogil=True)
def _new_pair(keys, vals, recs, nrec, cache, side, other, new_id, stamp,
              touched, ntouched):
    """Record of the pair of ``new_id`` and ``other`` (``side`` 0: new_id on
    the right, 1: on the left), through a per-merge cache indexed by
    ``other`` that saves most hash-table probes."""
    if cache[other, side + 2] == stamp:
        return cache[other, side], ntouched
    if side == 0:
        r = _find_or_add(keys, vals, recs, nrec, other, new_id)
    else:
        r = _find_or_add(keys, vals, recs, nrec, new_id, other)
    cache[other, side] = r
    cache[other, side + 2] = stamp
    if recs[r, STAMP] == stamp:  # (new_id, new_id), met from both sides
        return r, ntouched
    recs[r, STAMP] = stamp
    touched[ntouched] = r
    return r, ntouched + 1


@njit(cache=True, nogil=True)
def _replace_occurrence(ids, nxt, prv, recs, onx, opv, orec, keys, vals, nrec,
                        cache, r, i, new_id, touched, ntouched, stamp):
    """Replace the occurrence of pair ``r`` starting at position ``i``."""
    a = recs[r, A]
    b = recs[r, B]
    j = nxt[i]
    p = prv[i]
    q = nxt[j]
    if p != -1 and opv[p] != UNLINKED:
        _unlink(recs, onx, opv, orec[p], p)
    _unlink(recs, onx, opv, r, i)
    if q != -1 and opv[j] != UNLINKED:
        _unlink(recs, onx, opv, orec[j], j)
    ids[i] = new_id
    ids[j] = -1
    nxt[i] = q
    if q != -1:
        prv[q] = i
        if a != b and ids[q] == b:
            _reparse_run(ids, nxt, recs, onx, opv, orec, keys, vals, q)
    if p != -1:
        # A new run of new_id grows rightwards; p is covered if the pair
        # before it is a counted (new_id, new_id).
        pp = prv[p]
        covered = (ids[p] == new_id and pp != -1 and ids[pp] == new_id
                   and opv[pp] != UNLINKED)
        if not covered:
            r2, ntouched = _new_pair(keys, vals, recs, nrec, cache, 0, ids[p],
                                     new_id, stamp, touched, ntouched)
            _link(recs, onx, opv, orec, r2, p)
    if q != -1:
        r2, ntouched = _new_pair(keys, vals, recs, nrec, cache, 1, ids[q],
                                 new_id, stamp, touched, ntouched)
        _link(recs, onx, opv, orec, r2, i)
    return ntouched


@njit(cache=True, nogil=True)
def repair(ids, first_id, max_merges, min_count):
    """Greedy BPE of ``ids`` with incremental counts.

    Merges the most frequent pair (ties: smallest (a, b)) into ``first_id +
    k`` while it occurs at least ``min_count`` (>= 2) times and fewer than
    ``max_merges`` merges were made.  Compacts ``ids`` in place and returns
    ``(merges, counts, n)``: ``merges[k]`` is the pair merge k replaced,
    ``counts[k]`` how many times, and ``ids[:n]`` the final sequence.
    """
    n = ids.shape[0]
    merges = np.zeros((max(0, min(max_merges, n // 2)), 2), np.int32)
    merge_counts = np.zeros(merges.shape[0], np.int64)
    if n < 2 or merges.shape[0] == 0:
        return merges[:0], merge_counts[:0], n

    nxt = np.arange(1, n + 1).astype(np.int32)
    nxt[n - 1] = -1
    prv = np.arange(-1, n - 1).astype(np.int32)
    onx = np.empty(n, np.int32)
    opv = np.full(n, UNLINKED, np.int32)
    orec = np.empty(n, np.int32)

    # Count every pair, linking the non-overlapping occurrences; the
    # starting alphabet is small, so records are found by dense pair code.
    alphabet = first_id
    code_rec = np.full(alphabet * alphabet, -1, np.int32)
    recs = np.empty((min(n, alphabet * alphabet) + 1, 5), np.int32)
    nrec = np.zeros(1, np.int64)
    prev_was_self_pair = False
    for i in range(n - 1):
        a = ids[i]
        b = ids[i + 1]
        if a == b and prev_was_self_pair:
            prev_was_self_pair = False
            continue
        code = a * alphabet + b
        r = code_rec[code]
        if r == -1:
            r = nrec[0]
            nrec[0] += 1
            code_rec[code] = r
            recs[r, A] = a
            recs[r, B] = b
            recs[r, COUNT] = 0
            recs[r, HEAD] = -1
            recs[r, STAMP] = -1
        _link(recs, onx, opv, orec, r, i)
        prev_was_self_pair = a == b
    keys = np.full(16, EMPTY, np.int64)
    vals = np.full(16, EMPTY, np.int32)
    keys, vals, recs = _reserve(keys, vals, recs, 0, nrec[0])
    for r in range(nrec[0]):
        h = _slot(keys, (np.int64(recs[r, A]) << 31) | recs[r, B])
        keys[h] = (np.int64(recs[r, A]) << 31) | recs[r, B]
        vals[h] = r

    heap = np.empty((1024, 2), np.int32)
    size = 0
    for r in range(nrec[0]):
        if recs[r, COUNT] >= min_count:
            heap = _push(heap, size, recs, recs[r, COUNT], r)
            size += 1

    occurrences = np.empty(n // 2 + 1, np.int32)
    touched = np.empty(n + 1, np.int32)
    # per symbol: records of (symbol, new) and (new, symbol), and the merge
    # that made them
    cache = np.full((first_id + merges.shape[0], 4), -1, np.int32)
    k = 0
    while size > 0 and k < merges.shape[0]:
        _pop(heap, size, recs)
        size -= 1
        count = heap[size, 0]
        r = heap[size, 1]
        if recs[r, COUNT] != count:  # stale: counts only fall
            if recs[r, COUNT] >= min_count:
                heap = _push(heap, size, recs, recs[r, COUNT], r)
                size += 1
            continue
        new_id = first_id + k
        merges[k, 0] = recs[r, A]
        merges[k, 1] = recs[r, B]
        merge_counts[k] = count

        m = 0
        i = recs[r, HEAD]
        while i != -1:
            occurrences[m] = i
            m += 1
            i = onx[i]
        occ = np.sort(occurrences[:m])  # left to right, as in a full pass

        keys, vals, recs = _reserve(keys, vals, recs, nrec[0], 2 * m)
        ntouched = 0
        for t in range(m):
            ntouched = _replace_occurrence(ids, nxt, prv, recs, onx, opv, orec,
                                           keys, vals, nrec, cache, r, occ[t],
                                           new_id, touched, ntouched, k)
        for t in range(ntouched):
            r2 = touched[t]
            if recs[r2, COUNT] >= min_count:
                heap = _push(heap, size, recs, recs[r2, COUNT], r2)
                size += 1
        k += 1

    w = 0
    i = 0
    while i != -1:
        ids[w] = ids[i]
        w += 1
        i = nxt[i]
    return merges[:k], merge_counts[:k], w
