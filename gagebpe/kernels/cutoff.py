"""How many of a grammar's merges are worth keeping, for each coding.

A grammar's later merges replace few pairs: each still costs an entry in
the merge table and widens the alphabet, so past some point a merge costs
more than it saves.  PACKED's size after each prefix of merges is computed
exactly; SORTED's is estimated (the order-0 entropy of the sequence after
each merge, which changes in constant time per merge, plus its tables).
"""
import numpy as np
from .gain import flog
from .._jit import njit

# A compact (SORTED) merge table costs about log2(alphabet) +
# MERGE_EXTRA_BITS per merge.
MERGE_EXTRA_BITS = 0.4

# Rough cost of one symbol's entry in the code-length table: unused symbols
# (merges consumed by later merges) cost little, used ones a few bits.
UNUSED_ENTRY_BITS = 1.0
USED_ENTRY_BITS = 4.0


@njit(cache=True, nogil=True)
def _remove(freq, x, take, s, used):
    s -= flog(freq[x])
    freq[x] -= take
    s += flog(freq[x])
    return s, used - (freq[x] == 0)


@njit(cache=True, nogil=True)
def prefix_bits(hist, merges, counts, merge_bits):
    """``bits[d]``: the estimated size of a block coded with its first d
    merges: the order-0 entropy of the sequence as it stands after them,
    plus ``merge_bits[d]`` for the merge table, plus the code-length table.

    ``hist`` is the byte histogram; merge k replaced ``counts[k]``
    occurrences of ``merges[k]`` (symbols: bytes 0..255, then 256 + k), so
    it moves that many of each half's occurrences to the new symbol, and
    the entropy follows in constant time per merge.
    """
    d = merges.shape[0]
    freq = np.zeros(256 + d, np.int64)
    freq[:256] = hist
    n = hist.sum()
    s = 0.0  # sum of f * log2(f) over symbols
    used = 0
    for v in range(256):
        s += flog(hist[v])
        used += hist[v] > 0
    n_terminals = used
    bits = np.empty(d + 1, np.float64)
    for k in range(d + 1):
        entries = UNUSED_ENTRY_BITS * (n_terminals + k - used) + USED_ENTRY_BITS * used
        bits[k] = (flog(n) - s) + merge_bits[k] + entries
        if k == d:
            break
        a = merges[k, 0]
        b = merges[k, 1]
        c = counts[k]
        if a == b:
            s, used = _remove(freq, a, 2 * c, s, used)
        else:
            s, used = _remove(freq, a, c, s, used)
            s, used = _remove(freq, b, c, s, used)
        freq[256 + k] = c
        s += flog(c)
        used += 1
        n -= c
    return bits


def bit_length(values):
    """``int.bit_length`` of each value of a non-negative int array."""
    return np.frexp(np.asarray(values, np.float64))[1].astype(np.int64)


def for_packed(grammar, hist):
    """How many merges to keep so that the PACKED payload of the block with
    byte histogram ``hist`` is smallest: merge k pays while the symbols it
    removes outweigh its table entry and the wider codes every symbol
    needs as the alphabet grows."""
    n_terminals = int((hist > 0).sum())
    counts = grammar.counts
    d = np.arange(len(counts) + 1)
    seq_len = int(hist.sum()) - np.concatenate([[0], np.cumsum(counts)])
    merge_bits = np.concatenate(
        [[0], np.cumsum(2 * bit_length(n_terminals + d[:-1] - 1))])
    total = merge_bits + seq_len * bit_length(n_terminals + d - 1)
    return int(np.argmin(total))


def sorted_bits(grammar, hist):
    """The estimated bits of a SORTED payload after each prefix of merges."""
    n_terminals = int((hist > 0).sum())
    d = np.arange(len(grammar.merges) + 1)
    table_bits = d * (np.log2(n_terminals + d) + MERGE_EXTRA_BITS)
    return prefix_bits(hist, grammar.merges, grammar.counts, table_bits)


def for_sorted(grammar, hist):
    """How many merges to keep so that the SORTED payload of the block with
    byte histogram ``hist`` is smallest, by estimate."""
    return int(np.argmin(sorted_bits(grammar, hist)))
