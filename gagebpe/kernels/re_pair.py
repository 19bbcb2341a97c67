"""The incremental merge engine: Re-Pair (Larsson & Moffat) over NumPy arrays.

Greedy BPE recounts every pair after each merge; this engine keeps the counts
up to date instead, so a merge costs time proportional to the occurrences it
replaces, not to the block.

State, all flat arrays indexed by sequence position or by pair record:

* ``seq[i] = (symbol, next, previous, counted)`` per position: a
  merged-away position holds symbol -1 and is skipped by the live-position
  links.
* one record per distinct pair ``(a, b)``: ``recs[r] = (a, b, count, start,
  length, stamp)``.  A pair that occurs fewer than ``min_count`` times can
  never be merged (counts only fall), so its record is freed for reuse and
  its occurrences are no longer counted: most pairs a merge creates are
  such.  No record is ever looked up by its pair, so there is no hash
  table: the first pairs are counted through a dense table over the first
  alphabet; no pair holds a merge's new symbol before that merge, so the
  pairs it creates are counted in records found by that symbol's other
  half (a per-merge cache); and a run's (x, x) is found by x
  (``doubled``).  A hash table of the mergeable pairs cost a probe into
  megabytes per pair entered and per pair merged, the largest single wait
  of a merge in the tail.
* ``counted``: the record of the pair starting at the position if that
  occurrence is counted, else -1.  A pair's count is its number of
  non-overlapping occurrences taken left to right: in a run ``xxxxx`` the
  occurrences of (x, x) start at the run's first, third, ... symbol.
* ``pool[start:start + length]``: the positions where a pair was created,
  in increasing order.  A pair gains occurrences only in the merge that
  creates one of its symbols, so its segment is written once, after that
  merge, and afterwards only goes stale: a position is an occurrence while
  its ``counted`` still names the record.  For (x, x) the segment holds every
  position of its runs, so a run re-parsed from a new first symbol still
  finds its occurrences there.
* a binary max-heap of (count, pair) with lazy refresh: counts only fall
  after a pair's creating merge, so an entry whose count is stale is pushed
  back with its true count when it reaches the top, and once many have
  been, the heap is rebuilt with every count current.  When merging by gain,
  (gain, pair), and the symbol counts the gains are computed from.

Memory: 16 bytes per position, the pool (4 bytes per entry, about one
entry per position: it is compacted as pairs stop being mergeable) and the
records of the pairs that still can be merged.

The engine chooses the most frequent pair, ties going to the smallest
``(a, b)``: the same choice as the full-pass kernels in ``kernels.pairs``, so the two
phases compose into one greedy algorithm.  Or, by gain, the pair whose merge
saves the most bits in the order-0 coded sequence (``kernels.gain``), the choice
GLZA makes among whole strings (Conrad & Wilson 2016) made here among pairs.
"""
import numpy as np
from .._jit import njit

from .gain import merge_gain
from .pair_hash import pair_key
from .unaligned import prefetch

PREFETCH_AHEAD = 8  # occurrences a prefetch stage runs ahead: enough to hide memory

A, B, COUNT, START, LENGTH, STAMP = 0, 1, 2, 3, 4, 5  # columns of recs
SYM, NXT, PRV, CNT = 0, 1, 2, 3  # columns of seq
# nrec: ids handed out, head of the free list (chained through START),
# free ids
TOP, FREE_HEAD, FREE = 0, 1, 2
FREED = -1  # the COUNT of a record on the free list
REQUEUE_SPACING = 8  # by gain, every gain is recomputed after 1/8 more merges
# By count, the queue is rebuilt with every count current (a pass over the
# pair records) once more entries than 1/2**STALE_SHIFT of the records
# were popped stale since it was built: in the long tail of merges of a few
# occurrences each, most pops are entries whose count fell since they were
# pushed (67,000 of 87,000 in 20,000 merges of 540 KB), each pushed back
# at the cost of two walks of the heap.  20,000 merges of 300-540 KB of
# records took 0.92-0.96 of the time (shifts 3-8: 0.92-1.03).
STALE_SHIFT = 4


# -- pair records --------------------------------------------------------------


@njit(cache=True, nogil=True, leaf=True)
def _new_record(recs, nrec, a, b):
    """A record for (a, b) (a freed id reused)."""
    if nrec[FREE_HEAD] != -1:
        r = nrec[FREE_HEAD]
        nrec[FREE_HEAD] = recs[r, START]
        nrec[FREE] -= 1
    else:
        r = nrec[TOP]
        nrec[TOP] = r + 1
    recs[r, A] = a
    recs[r, B] = b
    recs[r, COUNT] = 0
    recs[r, START] = 0
    recs[r, LENGTH] = 0
    recs[r, STAMP] = -1
    return r


@njit(cache=True, nogil=True, leaf=True)
def _uncount_all(recs, seq, pool, r):
    """None of pair r's positions names it any more."""
    start = recs[r, START]
    for t in range(start, start + recs[r, LENGTH]):
        if seq[pool[t], CNT] == r:
            seq[pool[t], CNT] = -1


@njit(cache=True, nogil=True, leaf=True)
def _free(recs, nrec, doubled, r):
    """Put record r, which no position names any more, on the free list."""
    if recs[r, A] == recs[r, B] and doubled[recs[r, A]] == r:
        doubled[recs[r, A]] = -1
    recs[r, COUNT] = FREED
    recs[r, LENGTH] = 0
    recs[r, START] = nrec[FREE_HEAD]
    nrec[FREE_HEAD] = r
    nrec[FREE] += 1


@njit(cache=True, nogil=True)
def _reserve(recs, nrec, extra):
    """``recs`` with room for ``extra`` more records (a new array if it
    had to grow)."""
    top = nrec[TOP]
    if top + extra > recs.shape[0]:
        bigger = np.empty((max(top + extra, 2 * recs.shape[0]), recs.shape[1]), np.int32)
        bigger[:top] = recs[:top]
        recs = bigger
    return recs


# -- the priority queue ---------------------------------------------------------
# Entries are (priority, pair key a << 31 | b, record), compared without
# touching the records: higher priority first, then the smaller pair.  The
# priority is the pair's count, or by gain its ``merge_gain``.

@njit(cache=True, nogil=True, leaf=True)
def _before(heap, i, j):
    """Does heap entry i rank before entry j?"""
    if heap[i, 0] != heap[j, 0]:
        return heap[i, 0] > heap[j, 0]
    return heap[i, 1] < heap[j, 1]


@njit(cache=True, nogil=True, leaf=True)
def _swap(heap, i, j):
    for c in range(3):
        heap[i, c], heap[j, c] = heap[j, c], heap[i, c]


@njit(cache=True, nogil=True)
def _push(heap, size, recs, r, key):
    """Push record r with priority ``key`` into ``heap[:size]``; return the
    heap array."""
    if size == heap.shape[0]:
        bigger = np.empty((2 * size + 16, 3), np.int64)
        bigger[:size] = heap[:size]
        heap = bigger
    heap[size, 0] = key
    heap[size, 1] = pair_key(recs[r, A], recs[r, B])
    heap[size, 2] = r
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if not _before(heap, i, parent):
            break
        _swap(heap, i, parent)
        i = parent
    return heap


@njit(cache=True, nogil=True)
def _pop(heap, size):
    """Move the top of ``heap[:size]`` to slot ``size - 1``."""
    _swap(heap, 0, size - 1)
    _sift_down(heap, 0, size - 1)


@njit(cache=True, nogil=True, leaf=True)
def _sift_down(heap, i, size):
    """Move entry i of ``heap[:size]`` down to its place."""
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        best = left
        if left + 1 < size and _before(heap, left + 1, left):
            best = left + 1
        if not _before(heap, best, i):
            break
        _swap(heap, i, best)
        i = best


# -- priorities, and the queue rebuilt ---------------------------------------------

@njit(cache=True, nogil=True, leaf=True)
def _priority(recs, r, by_gain, freq, n, new_id):
    if not by_gain:
        return np.int64(recs[r, COUNT])
    return merge_gain(freq, n, recs[r, A], recs[r, B], recs[r, COUNT], new_id)


@njit(cache=True, nogil=True)
def _requeue(heap, recs, top, min_count, by_gain, freq, total, new_id):
    """The queue rebuilt from scratch: every pair that can be merged, with
    its priority now, heaped in place (time linear in the pairs).  Returns
    ``(heap, size)``."""
    size = 0
    for r in range(top):
        if recs[r, COUNT] >= min_count:
            size += 1
    if size > heap.shape[0]:
        heap = np.empty((size, 3), np.int64)
    size = 0
    for r in range(top):
        if recs[r, COUNT] >= min_count:
            heap[size, 0] = _priority(recs, r, by_gain, freq, total, new_id)
            heap[size, 1] = pair_key(recs[r, A], recs[r, B])
            heap[size, 2] = r
            size += 1
    for i in range(size // 2 - 1, -1, -1):
        _sift_down(heap, i, size)
    return heap, size


# -- one merge ----------------------------------------------------------------------

@njit(cache=True, nogil=True, leaf=True)
def _uncount(recs, seq, i):
    """The pair starting at i is gone (or no longer counted)."""
    r = seq[i, CNT]
    if r != -1:
        recs[r, COUNT] -= 1
        seq[i, CNT] = -1


@njit(cache=True, nogil=True, leaf=True)
def _reparse_run(seq, recs, doubled, start):
    """Count the (x, x) occurrences of the run of x beginning at ``start``
    at its first, third, ... symbol, now that the run starts there."""
    x = seq[start, SYM]
    r = -1
    want = True
    i = start
    while True:
        j = seq[i, NXT]
        if j == -1 or seq[j, SYM] != x:
            break
        if r == -1:
            r = doubled[x]
            if r == -1:  # (x, x) is too rare to count
                return
        if want and seq[i, CNT] == -1:
            seq[i, CNT] = r
            recs[r, COUNT] += 1
        elif not want and seq[i, CNT] == r:
            seq[i, CNT] = -1
            recs[r, COUNT] -= 1
        want = not want
        i = j


@njit(cache=True, nogil=True, leaf=True)
def _new_pair(recs, nrec, cache, side, other, new_id, stamp):
    """Record of the pair of ``new_id`` and ``other`` (``side`` 0: new_id on
    the right, 1: on the left), through a per-merge cache indexed by
    ``other``.  No pair holds ``new_id`` before its merge, so the merge
    makes each such record: most of them occur once, and are freed after
    the merge."""
    if other == new_id:
        side = 0  # (new_id, new_id) either way
    if cache[other, side + 2] == stamp:
        return cache[other, side]
    if side == 0:
        r = _new_record(recs, nrec, other, new_id)
    else:
        r = _new_record(recs, nrec, new_id, other)
    cache[other, side] = r
    cache[other, side + 2] = stamp
    return r


@njit(cache=True, nogil=True, leaf=True, inline='always')
def _replace(seq, recs, doubled, nrec, cache, r, i, new_id, stamp,
             created, ncreated):
    """Replace the occurrence of pair ``r`` at position ``i`` by ``new_id``;
    append the positions and records of the pairs it creates to
    ``created``.  Returns the new length of ``created``."""
    a = recs[r, A]
    b = recs[r, B]
    j = seq[i, NXT]
    p = seq[i, PRV]
    q = seq[j, NXT]
    if p != -1:
        _uncount(recs, seq, p)
    _uncount(recs, seq, i)
    _uncount(recs, seq, j)
    seq[i, SYM] = new_id
    seq[j, SYM] = -1
    seq[i, NXT] = q
    if q != -1:
        seq[q, PRV] = i
        if a != b and seq[q, SYM] == b:
            _reparse_run(seq, recs, doubled, q)
    if p != -1:
        r2 = _new_pair(recs, nrec, cache, 0, seq[p, SYM], new_id, stamp)
        created[ncreated, 0] = p
        created[ncreated, 1] = r2
        ncreated += 1
        # A run of new_id grows rightwards: p is not counted if the pair
        # before it is a counted (new_id, new_id).
        pp = seq[p, PRV]
        if not (seq[p, SYM] == new_id and pp != -1 and seq[pp, CNT] == r2):
            seq[p, CNT] = r2
            recs[r2, COUNT] += 1
    if q != -1:
        r2 = _new_pair(recs, nrec, cache, 1, seq[q, SYM], new_id, stamp)
        created[ncreated, 0] = i
        created[ncreated, 1] = r2
        ncreated += 1
        seq[i, CNT] = r2
        recs[r2, COUNT] += 1
    return ncreated


@njit(cache=True, nogil=True, leaf=True)
def _replace_all(seq, recs, doubled, nrec, cache, pool, r, new_id, stamp, created):
    """Replace every occurrence of pair ``r`` listed in its segment of the
    pool by ``new_id``; returns how many entries of ``created`` that
    filled.  One call per merge, with ``_replace`` inlined into its loop
    (by Numba: LLVM judges it too large): a call passes each array as
    seven words, 52 words a replacement when the merge loop called
    ``_replace`` itself (Re-Pair 0.83-0.90 of that time on 0.5 MB of
    records)."""
    ncreated = 0
    start = recs[r, START]
    end = start + recs[r, LENGTH]
    for t in range(start, end):
        _prefetch_ahead(seq, recs, pool, t, end)
        i = pool[t]
        if seq[i, CNT] == r:
            ncreated = _replace(seq, recs, doubled, nrec, cache, r, i, new_id, stamp,
                                created, ncreated)
    return ncreated


@njit(cache=True, nogil=True)
def _file_segments(recs, seq, created, ncreated, pool, pool_end, stamp,
                   touched, min_count):
    """Give each record in ``created[:ncreated]`` that can be merged (at
    least ``min_count`` occurrences) its segment of the pool, positions in
    increasing order (a counting sort); uncount the occurrences of the
    others, which are left with empty segments for the caller to free.
    Returns the new pool end and the number of distinct records, listed in
    ``touched``."""
    ntouched = 0
    for t in range(ncreated):
        r = created[t, 1]
        if recs[r, STAMP] != stamp:
            recs[r, STAMP] = stamp
            recs[r, LENGTH] = 0
            touched[ntouched] = r
            ntouched += 1
        recs[r, LENGTH] += 1
    for t in range(ntouched):
        r = touched[t]
        if recs[r, COUNT] >= min_count:
            recs[r, START] = pool_end
            pool_end += recs[r, LENGTH]
        recs[r, LENGTH] = 0
    for t in range(ncreated):
        i = created[t, 0]
        r = created[t, 1]
        if recs[r, COUNT] >= min_count:
            pool[recs[r, START] + recs[r, LENGTH]] = i
            recs[r, LENGTH] += 1
        elif seq[i, CNT] == r:
            seq[i, CNT] = -1
    return pool_end, ntouched


@njit(cache=True, nogil=True)
def _compact_pool(recs, top, pool, min_count):
    """Drop the segments of pairs that can no longer be merged (fewer than
    ``min_count`` occurrences; counts only fall), moving the rest left in
    the order they lie, so that none is overwritten before it moves.
    Returns the new end of the pool."""
    live = np.empty(top, np.int64)
    starts = np.empty(top, np.int64)
    m = 0
    for r in range(top):
        if recs[r, COUNT] >= min_count:
            live[m] = r
            starts[m] = recs[r, START]
            m += 1
        else:
            recs[r, LENGTH] = 0
    live = live[:m][np.argsort(starts[:m])]
    end = 0
    for r in live:
        start = recs[r, START]
        for t in range(recs[r, LENGTH]):
            pool[end + t] = pool[start + t]
        recs[r, START] = end
        end += recs[r, LENGTH]
    return end


@njit(cache=True, nogil=True, leaf=True)
def _prefetch_ahead(seq, recs, pool, t, end):
    """Start loading what replacing the occurrences ahead of ``pool[t]``
    will read.  On a large block the rows of an occurrence, its neighbours
    and their pairs' records are scattered, each a wait on memory; each
    row's index is in the row before it, so they are fetched in three
    stages, PREFETCH_AHEAD occurrences apart: the occurrence's row, then
    its neighbours', then the row after the next one and the neighbours'
    records.  In five runs alternating with the first stage alone,
    Re-Pair on bible.txt took 0.83-1.00 of that time (median 0.90); on
    files under 1 MB, whose rows stay in cache, the same within noise."""
    if t + 3 * PREFETCH_AHEAD < end:
        prefetch(seq, pool[t + 3 * PREFETCH_AHEAD])
    if t + 2 * PREFETCH_AHEAD < end:
        i = pool[t + 2 * PREFETCH_AHEAD]
        prefetch(seq, max(seq[i, PRV], 0))
        prefetch(seq, max(seq[i, NXT], 0))
    if t + PREFETCH_AHEAD < end:
        i = pool[t + PREFETCH_AHEAD]
        p = seq[i, PRV]
        j = seq[i, NXT]
        if p != -1:
            prefetch(recs, max(seq[p, CNT], 0))
        if j != -1:
            prefetch(seq, max(seq[j, NXT], 0))
            prefetch(recs, max(seq[j, CNT], 0))


# -- the engine -------------------------------------------------------------------

@njit(cache=True, nogil=True)
def repair(ids, starts, first_id, max_merges, min_count, by_gain):
    """Greedy BPE of ``ids`` with incremental counts.

    Merges the most frequent pair (ties: smallest (a, b)) into ``first_id +
    k`` while it occurs at least ``min_count`` (>= 2) times and fewer than
    ``max_merges`` merges were made.  ``ids`` holds symbols below
    ``first_id``.  ``starts`` (increasing, from 0) cut it into pieces no
    pair straddles: records, whose merges should be those inside records.
    Compacts ``ids`` in place and returns ``(merges, counts, n)``:
    ``merges[k]`` is the pair merge k replaced, ``counts[k]`` how many
    times, and ``ids[:n]`` the final sequence, pieces in order.

    ``by_gain``: merge instead the pair whose merge saves the most bits
    (``kernels.gain.merge_gain``), while that is positive.  A pair's gain moves
    with every merge (the symbol counts change), so the queue holds gains as they
    were when pushed: the top is taken if its gain now is still at least
    the next entry's, else pushed back with its gain now.  Gains also
    rise (a symbol that later merges consume gets rarer, so its pairs
    save more), which the top alone cannot see: the queue is rebuilt with
    every gain current after merge k + max(1, k / REQUEUE_SPACING) and
    before stopping.  Rebuilding 16 times as often codes no smaller (7
    files of text, source and markup, up to 2 MB each: 0.1% larger, in
    four times the time); never rebuilding codes 11-16% larger (60 KB of
    four of them).
    """
    n = ids.shape[0]
    max_merges = max(0, min(max_merges, n // 2))
    merges = np.zeros((min(max_merges, 4096), 2), np.int32)  # grown below
    merge_counts = np.zeros(merges.shape[0], np.int64)
    if n < 2 or max_merges == 0:
        return merges[:0], merge_counts[:0], n

    # One 16-byte row per position, so that visiting an occurrence touches
    # one cache line rather than one per array.
    seq = np.empty((n, 4), np.int32)
    for i in range(n):
        seq[i, SYM] = ids[i]
        seq[i, NXT] = i + 1
        seq[i, PRV] = i - 1
        seq[i, CNT] = -1
    seq[n - 1, NXT] = -1
    for s in starts[1:]:  # a piece's ends link to nothing
        if 0 < s < n:
            seq[s - 1, NXT] = -1
            seq[s, PRV] = -1
    recs = np.empty((min(n, first_id * first_id) + 16, 6), np.int32)
    nrec = np.zeros(4, np.int64)
    nrec[FREE_HEAD] = -1

    # Every pair, found by dense code over the small starting alphabet; the
    # pool gets every position, runs' uncounted ones included, filed by a
    # counting sort: count per record, then place.
    code_rec = np.full(first_id * first_id, -1, np.int32)
    prev_was_self_pair = False
    for i in range(n - 1):
        if seq[i, NXT] == -1:
            prev_was_self_pair = False
            continue
        a = seq[i, SYM]
        b = seq[i + 1, SYM]
        r = code_rec[a * first_id + b]
        if r == -1:
            r = _new_record(recs, nrec, a, b)
            code_rec[a * first_id + b] = r
        recs[r, LENGTH] += 1
        if a == b and prev_was_self_pair:
            prev_was_self_pair = False
        else:
            seq[i, CNT] = r
            recs[r, COUNT] += 1
            prev_was_self_pair = a == b
    pool = np.empty(n + n // 8 + 16, np.int32)
    pool_end = 0
    for r in range(nrec[TOP]):
        recs[r, START] = pool_end
        pool_end += recs[r, LENGTH]
        recs[r, LENGTH] = 0
    for i in range(n - 1):
        if seq[i, NXT] == -1:
            continue
        r = code_rec[seq[i, SYM] * first_id + seq[i + 1, SYM]]
        pool[recs[r, START] + recs[r, LENGTH]] = i
        recs[r, LENGTH] += 1
    code_rec = code_rec[:0]
    created = np.empty((0, 2), np.int32)
    touched = np.empty(0, np.int32)

    # per symbol, grown as merges make symbols
    freq = np.zeros(first_id + 1024 if by_gain else 0, np.int32)
    total = n  # symbols in the sequence
    if by_gain:
        for i in range(n):
            freq[ids[i]] += 1
    # per symbol x, grown as merges make symbols: the record of (x, x)
    # while it can be merged, for runs re-parsed (else -1)
    doubled = np.full(first_id + 1024, -1, np.int32)
    for r in range(nrec[TOP]):
        if recs[r, COUNT] < min_count:
            _uncount_all(recs, seq, pool, r)
            _free(recs, nrec, doubled, r)
        elif recs[r, A] == recs[r, B]:
            doubled[recs[r, A]] = r
    heap, size = _requeue(np.empty((1024, 3), np.int64), recs, nrec[TOP], min_count, by_gain,
                          freq, total, first_id)

    # per symbol: records of (symbol, new) and (new, symbol), and the merge
    # that made them; grown as merges make symbols
    cache = np.full((first_id + 1024, 4), -1, np.int32)
    k = 0
    stale = 0  # count-mode entries popped stale since the queue was built
    next_requeue = 0
    requeued_at = -1
    while size > 0 and k < max_merges:
        if by_gain and k >= next_requeue:
            heap, size = _requeue(heap, recs, nrec[TOP], min_count, True, freq, total,
                                  first_id + k)
            requeued_at = k
            next_requeue = k + max(1, k // REQUEUE_SPACING)
            continue
        _pop(heap, size)
        size -= 1
        r = heap[size, 2]
        new_id = first_id + k
        if by_gain:
            if (recs[r, COUNT] < min_count
                    or pair_key(recs[r, A], recs[r, B]) != heap[size, 1]):
                continue  # a pair merged, too rare, or its record reused
            gain = _priority(recs, r, by_gain, freq, total, new_id)
            if size > 0 and gain < heap[0, 0]:
                heap = _push(heap, size, recs, r, gain)
                size += 1
                continue
            if gain <= 0:
                if requeued_at == k:
                    break
                next_requeue = k  # stop only on gains that are all current
                continue
        elif recs[r, COUNT] != heap[size, 0]:  # stale: counts only fall
            if recs[r, COUNT] >= min_count:
                heap = _push(heap, size, recs, r, recs[r, COUNT])
                size += 1
            stale += 1
            if stale > nrec[TOP] >> STALE_SHIFT:
                heap, size = _requeue(heap, recs, nrec[TOP], min_count, False, freq, total, 0)
                stale = 0
            continue
        count = np.int64(recs[r, COUNT])
        if new_id >= cache.shape[0]:
            bigger = np.full((2 * cache.shape[0], 4), -1, np.int32)
            bigger[:cache.shape[0]] = cache
            cache = bigger
            bigger_doubled = np.full(cache.shape[0], -1, np.int32)
            bigger_doubled[:doubled.shape[0]] = doubled
            doubled = bigger_doubled
        if by_gain and new_id >= freq.shape[0]:
            bigger_freq = np.zeros(2 * freq.shape[0], np.int32)
            bigger_freq[:freq.shape[0]] = freq
            freq = bigger_freq
        if k == merges.shape[0]:
            bigger = np.zeros((2 * k, 2), np.int32)
            bigger[:k] = merges
            merges = bigger
            bigger_counts = np.zeros(2 * k, np.int64)
            bigger_counts[:k] = merge_counts
            merge_counts = bigger_counts
        merges[k, 0] = recs[r, A]
        merges[k, 1] = recs[r, B]
        merge_counts[k] = count

        # At most two pairs created per replacement, and two new distinct
        # pairs, (x, new_id) and (new_id, x), per symbol x: make room first.
        fresh = 2 * min(count, new_id + 1)
        if created.shape[0] < 2 * count:
            created = np.empty((2 * count, 2), np.int32)
        recs = _reserve(recs, nrec, fresh)
        if pool_end + 2 * count > pool.shape[0]:
            # Compacted, the pool keeps a quarter free, else it grows: one
            # that compacted to nearly full compacted again a few merges on.
            pool_end = _compact_pool(recs, nrec[TOP], pool, min_count)
            if 4 * (pool_end + 2 * count) > 3 * pool.shape[0]:
                bigger = np.empty(max(4 * (pool_end + 2 * count) // 3 + 1,
                                      pool.shape[0] * 5 // 4), np.int32)
                bigger[:pool_end] = pool[:pool_end]
                pool = bigger
        if touched.shape[0] < fresh:
            touched = np.empty(fresh, np.int32)

        # The next merge is most likely of the pair on top of the queue now.
        # In the tail a merge replaces two or three occurrences, too few for
        # the prefetching within a merge, and its record, its segment and
        # their rows are each a wait on memory: load them during this merge.
        ahead = heap[0, 2] if size > 0 else -1
        if ahead != -1:
            prefetch(recs, ahead)
        ncreated = _replace_all(seq, recs, doubled, nrec, cache, pool, r, new_id, k, created)
        if ahead != -1 and recs[ahead, LENGTH] > 0:
            prefetch(pool, recs[ahead, START])
        pool_end, ntouched = _file_segments(recs, seq, created, ncreated, pool,
                                            pool_end, k, touched, min_count)
        if ahead != -1:
            first = recs[ahead, START]
            for t in range(first, first + min(recs[ahead, LENGTH], PREFETCH_AHEAD)):
                prefetch(seq, pool[t])
        if by_gain:
            a = merges[k, 0]
            b = merges[k, 1]
            freq[a] -= count
            freq[b] -= count
            freq[new_id] = count
            total -= count
        for t in range(ntouched):
            r2 = touched[t]
            if recs[r2, COUNT] >= min_count:
                if recs[r2, A] == recs[r2, B]:
                    doubled[new_id] = r2
                heap = _push(heap, size, recs, r2,
                             _priority(recs, r2, by_gain, freq, total, new_id + 1))
                size += 1
            else:  # _file_segments uncounted its occurrences
                _free(recs, nrec, doubled, r2)
        _free(recs, nrec, doubled, r)  # all replaced
        k += 1

    w = 0
    for t in range(starts.shape[0]):  # a piece's first symbol is never merged away
        i = starts[t] if starts[t] < n and (t == 0 or starts[t] > starts[t - 1]) else -1
        while i != -1:
            ids[w] = seq[i, SYM]
            w += 1
            i = seq[i, NXT]
    return merges[:k], merge_counts[:k], w
