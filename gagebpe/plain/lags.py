"""Which lag, if any, a block's bytes repeat at (``gagebpe.kernels.filters``'s
choice of a filter), decided in exact integer arithmetic so that the
kernels and the plain path agree on every block; and the repeat counts
in plain Python.

A lag qualifies where a byte repeats at that distance at least half the
time, and that share closes at least two fifths of the gap between chance
(the sum of the squared byte frequencies) and 1; of the lags whose share
is within a fiftieth of the best, the shortest is taken (every multiple
of a record length repeats about as well as the length itself).
"""
from collections import Counter

MAX_LAG = 256


def repeat_counts(data, max_lag=MAX_LAG):
    """``counts[L]``: how many bytes of ``data`` equal the byte L before
    them, for L in 1..max_lag (``counts[0]`` is 0; lags past the data count
    0): the bytes compared as one big integer, the equal ones counted as
    its zero bytes."""
    n = len(data)
    counts = [0] * (max_lag + 1)
    for lag in range(1, min(max_lag, n - 1) + 1):
        x = int.from_bytes(data[lag:], "little") ^ int.from_bytes(data[:n - lag], "little")
        counts[lag] = x.to_bytes(n - lag, "little").count(0)
    return counts


def choose(counts, n, squares):
    """The lag to filter a sample of ``n`` bytes with, from its
    ``repeat_counts`` and the sum of its byte counts squared, or 0."""
    best = 1
    for lag in range(2, len(counts)):  # the highest share: c / (n - lag)
        if counts[lag] * (n - best) > counts[best] * (n - lag):
            best = lag
    top, top_rest = counts[best], n - best
    for lag in range(1, len(counts)):  # the shortest within 1/50 of it
        rest = n - lag
        if 50 * counts[lag] * top_rest >= 50 * top * rest - rest * top_rest:
            break
    c, rest = counts[lag], n - lag
    # share >= 1/2, and share - chance >= 2/5 (1 - chance), chance = squares / n^2
    if 2 * c >= rest and 5 * c * n * n >= rest * (2 * n * n + 3 * squares):
        return lag
    return 0


def best_lag(data, counts_of=repeat_counts, freq=None, choose_lag=choose):
    """The lag worth filtering ``data`` (at most a sample's size) with, or
    0: none where it is shorter than two of the longest lags.
    ``counts_of(data, max_lag)`` gives the repeat counts, ``freq`` is the
    byte counts (None: counted here) and ``choose_lag`` is ``choose`` (or
    the same rule compiled)."""
    n = len(data)
    if n < 2 * MAX_LAG:
        return 0
    if freq is None:
        freq = Counter(data).values()
    return choose_lag(counts_of(data, MAX_LAG), n, sum(f * f for f in freq))
