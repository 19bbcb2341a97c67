"""Kernels over a whole symbol buffer: count adjacent pairs, replace one pair.

These serve the first phase of the merge engine, while the top pairs are so
frequent that a full pass per merge is cheaper than maintaining occurrence
lists; they choose pairs by count or by gain, as the engine does.  Counting
follows the engine's definition of a pair's count: the number of
non-overlapping occurrences a left-to-right replacement would make, so a
run ``xxx`` counts ``(x, x)`` once and ``xxxx`` twice.
"""
import numpy as np
from .gain import merge_gain
from .._jit import njit


@njit(cache=True, nogil=True)
def count_pairs_dense(ids, n, alphabet, counts):
    """Fill ``counts[a * alphabet + b]`` with the count of pair (a, b) in
    ``ids[:n]``.  ``counts`` must hold ``alphabet ** 2`` zeroed entries."""
    prev_was_self_pair = False
    for i in range(n - 1):
        a = ids[i]
        b = ids[i + 1]
        if a == b and prev_was_self_pair:
            prev_was_self_pair = False
            continue
        counts[a * alphabet + b] += 1
        prev_was_self_pair = a == b


@njit(cache=True, nogil=True)
def replace_pair(ids, n, a, b, new_id, alphabet, counts):
    """Replace every non-overlapping (a, b) in ``ids[:n]`` by ``new_id``, left
    to right, in place; return the new length.  Also counts the pairs of
    the result into the zeroed ``counts``, as ``count_pairs_dense`` would,
    so that the next merge needs no second pass."""
    w = 0
    i = 0
    prev = -1
    prev_was_self_pair = False
    while i < n:
        s = ids[i]
        if s == a and i + 1 < n and ids[i + 1] == b:
            s = new_id
            i += 2
        else:
            i += 1
        ids[w] = s
        w += 1
        if prev >= 0:
            if prev == s and prev_was_self_pair:
                prev_was_self_pair = False
            else:
                counts[prev * alphabet + s] += 1
                prev_was_self_pair = prev == s
        prev = s
    return w


@njit(cache=True, nogil=True)
def best_by_gain(counts, alphabet, freq, n, least, new_id):
    """Index ``a * alphabet + b`` of the pair counted at least ``least``
    times whose merge saves the most bits (``kernels.gain.merge_gain``; ties: the
    smallest (a, b)), or -1 if no such merge saves any."""
    best = -1
    best_gain = np.int64(0)
    for code in range(alphabet * alphabet):
        if counts[code] >= least:
            gain = merge_gain(freq, n, code // alphabet, code % alphabet, counts[code], new_id)
            if gain > best_gain:
                best = code
                best_gain = gain
    return best


@njit(cache=True, nogil=True)
def merge_frequent(ids, first_id, max_merges, stop_below, by_gain):
    """Greedy merges by full passes while the top pair occurs at least
    ``stop_below`` times (and at most ``max_merges`` merges).  ``by_gain``:
    the top pair is the one whose merge saves the most bits, while that
    saves any.

    Returns ``(merges, counts, n)``: merge k made ``first_id + k`` from
    ``merges[k]``, replacing ``counts[k]`` occurrences; ``ids[:n]`` holds the
    result.  Ties go to the smallest (a, b).
    """
    n = ids.shape[0]
    alphabet = first_id + max_merges
    counts = np.zeros(alphabet * alphabet, np.int64)
    merges = np.zeros((max_merges, 2), np.int32)
    merge_counts = np.zeros(max_merges, np.int64)
    freq = np.zeros(alphabet if by_gain else 0, np.int32)  # per symbol
    for i in range(n if by_gain else 0):
        freq[ids[i]] += 1
    count_pairs_dense(ids, n, alphabet, counts)
    k = 0
    while k < max_merges and n >= 2:
        if by_gain:
            best = best_by_gain(counts, alphabet, freq, n, 2, first_id + k)
            if best < 0 or counts[best] < stop_below:
                break
        else:
            best = np.argmax(counts)  # first maximum: the smallest (a, b)
            if counts[best] < stop_below:
                break
        a = best // alphabet
        b = best % alphabet
        counts[:] = 0
        new_n = replace_pair(ids, n, a, b, first_id + k, alphabet, counts)
        merges[k, 0] = a
        merges[k, 1] = b
        merge_counts[k] = n - new_n
        if by_gain:
            freq[a] -= n - new_n
            freq[b] -= n - new_n
            freq[first_id + k] = n - new_n
        n = new_n
        k += 1
    return merges[:k], merge_counts[:k], n
