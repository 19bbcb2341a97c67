"""Learning BPE merges from a table of distinct words, each weighted by how
often it occurs (Sennrich, Haddow & Birch 2016): the trainer behind
``gagebpe.tokenizers.WordBPE``.

Words are runs of one flat buffer of symbols, word w at
``sym[start[w]:start[w] + length[w]]`` (merged in place), weighted by
``freq[w]``.  A pair's count is the number of its adjacent occurrences,
overlapping ones included, weighted by the counts of the words they are in:
what the article's trainer and subword-nmt count.  The pair with the
highest count is merged in every word, its non-overlapping occurrences left
to right.  Ties go, by ``tie``, to the pair seen FIRST scanning the words
in order, each left to right (a ``max`` over an insertion-ordered dict of
the counts, as the article and minbpe do); to the pair whose (left, right)
strings are LARGEST (subword-nmt's ``max`` over ``(count, pair)``); or to
the SMALLEST pair of symbol numbers (rustbpe's).

The same idea as the compression engine (``kernels.re_pair``): one record per pair
behind a pair hash, holding its count and the words it occurs in (a segment
of a pool of word numbers, written when the pair is created, in increasing
order, and only going stale after); a merge visits only its pair's words,
taking away the counts of each one's pairs, merging, and counting them
again; a max-heap with lazy refresh, which works because counts only fall
and first occurrences only move right once a pair exists.

Symbols carry their strings (code points in ``chars``, symbol s at
``chars[char_start[s]:char_start[s] + char_len[s]]``): string order breaks
subword-nmt's ties, and lengths give each occurrence's place in its word.
"""
import numpy as np

from ..._jit import njit
from ...kernels.pair_hash import EMPTY, grown, new_table, pair_key, slot

A, B, COUNT, START, LENGTH, CURSOR, LAST = range(7)  # columns of a pair record
FIRST, LARGEST, SMALLEST = 0, 1, 2  # tie rules


@njit(cache=True, nogil=True, leaf=True)
def _find_or_add(keys, vals, recs, top, a, b):
    """``(record of (a, b), records in use)``, creating the record if new;
    the caller keeps room for it in ``recs`` and the hash."""
    h = slot(keys, pair_key(a, b))
    if keys[h] != EMPTY:
        return vals[h], top
    keys[h] = pair_key(a, b)
    vals[h] = top
    recs[top] = 0
    recs[top, A], recs[top, B], recs[top, LAST] = a, b, -1
    return top, top + 1


@njit(cache=True, nogil=True, leaf=True)
def _cmp_strings(chars, char_start, char_len, s, t):
    """-1, 0 or 1 as symbol s's string is below, equal to or above t's."""
    for i in range(min(char_len[s], char_len[t])):
        x = chars[char_start[s] + i]
        y = chars[char_start[t] + i]
        if x != y:
            return -1 if x < y else 1
    return (char_len[s] > char_len[t]) - (char_len[s] < char_len[t])


@njit(cache=True, nogil=True, leaf=True)
def _before(heap, i, j, recs, tie, chars, char_start, char_len):
    """Does heap entry i (count, first place, record) rank before entry j?"""
    if heap[i, 0] != heap[j, 0]:
        return heap[i, 0] > heap[j, 0]
    if tie == FIRST:
        return heap[i, 1] < heap[j, 1]
    r, q = heap[i, 2], heap[j, 2]
    if tie == SMALLEST:
        return recs[r, A] < recs[q, A] or (recs[r, A] == recs[q, A] and recs[r, B] < recs[q, B])
    c = _cmp_strings(chars, char_start, char_len, recs[r, A], recs[q, A])
    if c == 0:
        c = _cmp_strings(chars, char_start, char_len, recs[r, B], recs[q, B])
    return c > 0


@njit(cache=True, nogil=True)
def _push(heap, size, count, first, r, recs, tie, chars, char_start, char_len):
    if size == heap.shape[0]:
        bigger = np.empty((2 * size + 16, 3), np.int64)
        bigger[:size] = heap[:size]
        heap = bigger
    heap[size, 0] = count
    heap[size, 1] = first
    heap[size, 2] = r
    i = size
    while i > 0:
        parent = (i - 1) >> 1
        if not _before(heap, i, parent, recs, tie, chars, char_start, char_len):
            break
        for c in range(3):
            heap[i, c], heap[parent, c] = heap[parent, c], heap[i, c]
        i = parent
    return heap, size + 1


@njit(cache=True, nogil=True, leaf=True)
def _pop(heap, size, recs, tie, chars, char_start, char_len):
    """Move the top of ``heap[:size]`` to slot ``size - 1``."""
    last = size - 1
    for c in range(3):
        heap[0, c], heap[last, c] = heap[last, c], heap[0, c]
    i = 0
    while True:
        best = i
        for child in (2 * i + 1, 2 * i + 2):
            if child < last and _before(heap, child, best, recs, tie,
                                        chars, char_start, char_len):
                best = child
        if best == i:
            return
        for c in range(3):
            heap[i, c], heap[best, c] = heap[best, c], heap[i, c]
        i = best


@njit(cache=True, nogil=True, leaf=True)
def _place(sym, start, length, char_len, w, a, b):
    """Where (a, b) first occurs in word w, as ``w << 32 | offset`` (the
    offset in characters of its left symbol), or -1."""
    offset = 0
    s0 = start[w]
    for i in range(length[w] - 1):
        if sym[s0 + i] == a and sym[s0 + i + 1] == b:
            return (np.int64(w) << 32) | offset
        offset += char_len[sym[s0 + i]]
    return np.int64(-1)


@njit(cache=True, nogil=True, leaf=True)
def _first_place(recs, r, pool, sym, start, length, char_len):
    """The first place of pair r (see ``_place``), moving its cursor past
    the words that no longer hold it; -1 if none does."""
    while recs[r, CURSOR] < recs[r, LENGTH]:
        w = pool[recs[r, START] + recs[r, CURSOR]]
        place = _place(sym, start, length, char_len, w, recs[r, A], recs[r, B])
        if place >= 0:
            return place
        recs[r, CURSOR] += 1
    return np.int64(-1)


@njit(cache=True, nogil=True)
def _room(keys, vals, recs, top, extra):
    """The hash and the records, grown if need be so that ``extra`` more
    pairs fit (the hash at most half full)."""
    while 2 * (top + extra) > keys.shape[0]:
        keys, vals = grown(keys, vals)
    if top + extra > recs.shape[0]:
        bigger = np.empty((2 * recs.shape[0] + extra, 7), np.int64)
        bigger[:top] = recs[:top]
        recs = bigger
    return keys, vals, recs


@njit(cache=True, nogil=True)
def _pairs_of_words(sym, start, length, freq, min_count):
    """Count every pair of every word; keep records of the pairs that occur
    at least ``min_count`` times (the others can never be merged: counts
    only fall), and list each one's words in a pool (a counting sort: words
    per record, then place).  Returns ``(keys, vals, recs, records in use,
    pool, pool end)``."""
    keys, vals = new_table(1024)
    recs = np.empty((1024, 7), np.int64)
    top = 0
    for w in range(start.shape[0]):
        s0 = start[w]
        keys, vals, recs = _room(keys, vals, recs, top, length[w])
        for i in range(length[w] - 1):
            r, top = _find_or_add(keys, vals, recs, top, sym[s0 + i], sym[s0 + i + 1])
            recs[r, COUNT] += freq[w]
            if recs[r, LAST] != w:
                recs[r, LAST] = w
                recs[r, LENGTH] += 1
    kept = 0
    for r in range(top):
        kept += recs[r, COUNT] >= min_count
    keys, vals = new_table(kept + 16)
    mergeable = np.empty((kept + 16, 7), np.int64)
    end = 0
    kept = 0
    for r in range(top):
        if recs[r, COUNT] >= min_count:
            q, kept = _find_or_add(keys, vals, mergeable, kept, recs[r, A], recs[r, B])
            mergeable[q, COUNT] = recs[r, COUNT]
            mergeable[q, START] = end
            end += recs[r, LENGTH]
    pool = np.empty(end + 16, np.int32)
    for w in range(start.shape[0]):
        s0 = start[w]
        for i in range(length[w] - 1):
            r = vals[slot(keys, pair_key(sym[s0 + i], sym[s0 + i + 1]))]
            if r != EMPTY and mergeable[r, LAST] != w:
                mergeable[r, LAST] = w
                pool[mergeable[r, START] + mergeable[r, LENGTH]] = w
                mergeable[r, LENGTH] += 1
    return keys, vals, mergeable, kept, pool, end


@njit(cache=True, nogil=True, leaf=True)
def _merge_word(sym, s0, n, a, b, new):
    """Merge the non-overlapping (a, b) of ``sym[s0:s0 + n]`` into ``new``,
    left to right, in place; return the new length."""
    w = 0
    i = 0
    while i < n:
        if i + 1 < n and sym[s0 + i] == a and sym[s0 + i + 1] == b:
            sym[s0 + w] = new
            i += 2
        else:
            sym[s0 + w] = sym[s0 + i]
            i += 1
        w += 1
    return w


@njit(cache=True, nogil=True)
def _compact_pool(recs, top, pool, min_count):
    """Drop the segments of pairs that can no longer be merged (fewer than
    ``min_count`` occurrences; counts only fall) and of words already
    passed, moving the rest left in the order they lie.  Returns the new
    end of the pool."""
    live = np.empty(top, np.int64)
    m = 0
    for r in range(top):
        if recs[r, COUNT] >= min_count:
            live[m] = r
            m += 1
        else:
            recs[r, LENGTH] = 0
    live = live[:m][np.argsort(recs[live[:m], START])]
    end = 0
    for r in live:
        first = recs[r, START] + recs[r, CURSOR]
        n = recs[r, LENGTH] - recs[r, CURSOR]
        for t in range(n):
            pool[end + t] = pool[first + t]
        recs[r, START] = end
        recs[r, LENGTH] = n
        recs[r, CURSOR] = 0
        end += n
    return end


@njit(cache=True, nogil=True)
def _append_string(chars, end, char_start, char_len, a, b, new):
    """``chars`` (grown if need be) with symbol ``new``'s string, a's then
    b's, written at ``end``."""
    char_start[new] = end
    char_len[new] = char_len[a] + char_len[b]
    if end + char_len[new] > chars.shape[0]:
        bigger = np.empty(2 * chars.shape[0] + char_len[new], np.int32)
        bigger[:end] = chars[:end]
        chars = bigger
    chars[end:end + char_len[a]] = chars[char_start[a]:char_start[a] + char_len[a]]
    chars[end + char_len[a]:end + char_len[new]] = chars[char_start[b]:char_start[b] + char_len[b]]
    return chars


@njit(cache=True, nogil=True, leaf=True)
def _merge_words(recs, r, pool, visited, k, sym, start, length, freq, keys, vals, new,
                 left_of, right_of, staged, created):
    """Merge k: pair r into symbol ``new`` in every word that holds it,
    moving the counts of the words' other pairs from before to after, and
    staging the pairs with ``new`` (see ``learn``).  ``staged`` and
    ``created`` have a row for every symbol of the words.  Returns
    ``(pairs staged, their (stage, word) rows in created)``."""
    a, b = recs[r, A], recs[r, B]
    n_staged = 0
    n_created = 0
    for t in range(recs[r, START], recs[r, START] + recs[r, LENGTH]):
        w = pool[t]
        if visited[w] == k:
            continue
        visited[w] = k
        s0, n, f = start[w], length[w], freq[w]
        holds = False
        for i in range(n - 1):
            if sym[s0 + i] == a and sym[s0 + i + 1] == b:
                holds = True
                break
        if not holds:
            continue
        for i in range(n - 1):  # every pair of the word, before
            q = vals[slot(keys, pair_key(sym[s0 + i], sym[s0 + i + 1]))]
            if q != EMPTY:
                recs[q, COUNT] -= f
        n = _merge_word(sym, s0, n, a, b, new)
        length[w] = n
        for i in range(n - 1):  # and after
            x, y = sym[s0 + i], sym[s0 + i + 1]
            if x != new and y != new:
                q = vals[slot(keys, pair_key(x, y))]
                if q != EMPTY:
                    recs[q, COUNT] += f
                continue
            where = left_of if y == new else right_of
            other = x if y == new else y
            if where[other, 1] != k:
                where[other, 0] = n_staged
                where[other, 1] = k
                staged[n_staged, A] = x
                staged[n_staged, B] = y
                staged[n_staged, 2] = 0
                staged[n_staged, 3] = 0
                staged[n_staged, 4] = -1
                n_staged += 1
            q = where[other, 0]
            staged[q, 2] += f
            if staged[q, 4] != w:
                staged[q, 4] = w
                staged[q, 3] += 1
                created[n_created, 0] = q
                created[n_created, 1] = w
                n_created += 1
    return n_staged, n_created


@njit(cache=True, nogil=True)
def learn(sym, start, length, freq, chars, char_start, char_len, n_symbols,
          max_merges, min_count, tie):
    """Make up to ``max_merges`` merges while the top pair's count is at
    least ``min_count``.  Merge k makes symbol ``n_symbols + k``.  Returns
    ``(merges, counts, chars)``: the pair merge k replaced, its count then,
    and every symbol's string (``chars`` grown as needed).  ``sym`` and
    ``length`` are left holding the merged words; ``char_start`` and
    ``char_len`` must have ``n_symbols + max_merges`` entries."""
    n_words = start.shape[0]
    keys, vals, recs, top, pool, pool_end = _pairs_of_words(sym, start, length, freq,
                                                            min_count)
    merges = np.empty((max_merges, 2), np.int32)
    counts = np.empty(max_merges, np.int64)
    heap = np.empty((top + 16, 3), np.int64)
    size = 0
    for r in range(top):
        if recs[r, COUNT] >= min_count:
            first = _first_place(recs, r, pool, sym, start, length, char_len) if tie == FIRST else 0
            heap, size = _push(heap, size, recs[r, COUNT], first, r, recs, tie,
                               chars, char_start, char_len)
    visited = np.full(n_words, -1, np.int64)
    # The pairs a merge's new symbol makes, staged until their counts are
    # known: (x, new) at left_of[x], (new, y) at right_of[y], each marked
    # with the merge that staged it; those that reach min_count get records.
    left_of = np.full((n_symbols + max_merges, 2), -1, np.int64)  # (stage, merge)
    right_of = np.full((n_symbols + max_merges, 2), -1, np.int64)
    staged = np.empty((16, 5), np.int64)  # A, B, COUNT, words, last word
    created = np.empty((16, 2), np.int64)  # (stage, word) of each staged pair's words
    chars_end = char_start[n_symbols - 1] + char_len[n_symbols - 1] if n_symbols else 0
    k = 0
    while k < max_merges and size > 0:
        _pop(heap, size, recs, tie, chars, char_start, char_len)
        size -= 1
        count, first, r = heap[size, 0], heap[size, 1], heap[size, 2]
        now = recs[r, COUNT]
        if now < min_count:
            continue
        if tie == FIRST:
            first_now = _first_place(recs, r, pool, sym, start, length, char_len)
        else:
            first_now = first
        if now != count or first_now != first:  # stale: push back as it is now
            heap, size = _push(heap, size, now, first_now, r, recs, tie,
                               chars, char_start, char_len)
            continue
        a, b = recs[r, A], recs[r, B]
        new = n_symbols + k
        merges[k, 0] = a
        merges[k, 1] = b
        counts[k] = now
        chars = _append_string(chars, chars_end, char_start, char_len, a, b, new)
        chars_end += char_len[new]

        # Room for every pair the merged words can stage, found before the
        # words are visited: the loop that visits them then grows nothing
        # (``_merge_words``, a leaf).
        most = 0
        for t in range(recs[r, START], recs[r, START] + recs[r, LENGTH]):
            most += length[pool[t]]
        if most > staged.shape[0]:
            staged = np.empty((2 * most, 5), np.int64)
            created = np.empty((2 * most, 2), np.int64)
        n_staged, n_created = _merge_words(recs, r, pool, visited, k, sym, start, length, freq,
                                           keys, vals, new, left_of, right_of, staged, created)
        # Records, and segments of their words in increasing order, for the
        # staged pairs that can be merged.
        keys, vals, recs = _room(keys, vals, recs, top, n_staged)
        if pool_end + n_created > pool.shape[0]:
            pool_end = _compact_pool(recs, top, pool, min_count)
        if pool_end + n_created > pool.shape[0]:
            bigger_pool = np.empty(pool.shape[0] * 5 // 4 + n_created, np.int32)
            bigger_pool[:pool_end] = pool[:pool_end]
            pool = bigger_pool
        record_of = np.full(n_staged, -1, np.int64)
        first_new = top
        for q in range(n_staged):
            if staged[q, 2] >= min_count:
                record_of[q], top = _find_or_add(keys, vals, recs, top, staged[q, A],
                                                 staged[q, B])
                recs[record_of[q], COUNT] = staged[q, 2]
                recs[record_of[q], START] = pool_end
                pool_end += staged[q, 3]
        for t in range(n_created):
            q = record_of[created[t, 0]]
            if q >= 0:
                pool[recs[q, START] + recs[q, LENGTH]] = created[t, 1]
                recs[q, LENGTH] += 1
        for q in range(first_new, top):
            first = _first_place(recs, q, pool, sym, start, length, char_len) \
                if tie == FIRST else 0
            heap, size = _push(heap, size, recs[q, COUNT], first, q, recs, tie,
                               chars, char_start, char_len)
        k += 1
    return merges[:k], counts[:k], chars[:chars_end]
