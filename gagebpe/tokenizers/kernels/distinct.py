"""Numbering the distinct runs of an array (the words or chunks of a text,
as code points or UTF-8 bytes): each run's number among the distinct
runs, in order of first occurrence.  The tokenizers encode each distinct
run once.
"""
import numpy as np

from .arrays import with_room
from ..._jit import njit
from ...kernels.pair_hash import MULT


@njit(cache=True, nogil=True, leaf=True)
def content_hash(units, start, end):
    """A 64-bit hash of ``units[start:end]``."""
    h = np.int64(end - start)
    for i in range(start, end):
        h = (h ^ np.int64(units[i])) * MULT
    return h


@njit(cache=True, nogil=True)
def distinct(units, starts, ends):
    """``(ids, firsts)``: each word's number among the distinct words, in
    order of first occurrence, and where each distinct word first occurs.
    The hash table and the copies it compares words with grow with the
    distinct words, not the text, so that they stay in cache."""
    n = starts.shape[0]
    table = np.full(1024, -1, np.int64)  # distinct number, by hash slot
    ids = np.empty(n, np.int64)
    hashes = np.empty(256, np.int64)  # of each distinct word, for regrowing
    firsts = np.empty(256, np.int64)
    copy_starts = np.zeros(257, np.int64)
    copies = np.empty(1024, np.uint32)  # each distinct word's units
    w = n_distinct = 0
    while True:
        w, n_distinct = _number(units, starts, ends, w, n_distinct, table, ids, hashes, firsts,
                                copy_starts, copies)
        if w == n:
            return ids, firsts[:n_distinct].copy()
        # word w is new, and wants room
        hashes = with_room(hashes, n_distinct + 1)
        firsts = with_room(firsts, n_distinct + 1)
        copy_starts = with_room(copy_starts, n_distinct + 2)
        copies = with_room(copies, copy_starts[n_distinct] + ends[w] - starts[w])
        if 2 * (n_distinct + 1) > table.shape[0]:
            table = _rehashed(hashes, n_distinct, 2 * table.shape[0])


@njit(cache=True, nogil=True, leaf=True)
def _number(units, starts, ends, w, n_distinct, table, ids, hashes, firsts, copy_starts,
            copies):
    """Number the words from ``w`` on, ``n_distinct`` known so far, until
    every word is numbered or a new one finds no room (the table would be
    over half full, or a buffer is full): ``(w, n_distinct)``.  A loop of
    its own, in a leaf: in ``distinct``, which grows the buffers, it would
    count references to them at every word."""
    size = table.shape[0]
    while w < starts.shape[0]:
        s, e = starts[w], ends[w]
        full = content_hash(units, s, e)
        h = full & (size - 1)
        d = table[h]
        while d != -1 and not (hashes[d] == full
                               and _same(copies, copy_starts[d], copy_starts[d + 1], units, s, e)):
            h = (h + 1) & (size - 1)
            d = table[h]
        if d == -1:
            d = n_distinct
            end = copy_starts[d] + e - s
            if (2 * (d + 1) > size or d >= hashes.shape[0] or d >= firsts.shape[0]
                    or d + 2 > copy_starts.shape[0] or end > copies.shape[0]):
                return w, n_distinct
            n_distinct += 1
            table[h] = d
            firsts[d] = w
            hashes[d] = full
            for i in range(e - s):
                copies[copy_starts[d] + i] = units[s + i]
            copy_starts[d + 1] = end
        ids[w] = d
        w += 1
    return w, n_distinct


@njit(cache=True, nogil=True)
def _rehashed(hashes, n_distinct, size):
    """A table of ``size`` slots holding the first ``n_distinct`` words."""
    table = np.full(size, -1, np.int64)
    for k in range(n_distinct):
        g = hashes[k] & (size - 1)
        while table[g] != -1:
            g = (g + 1) & (size - 1)
        table[g] = k
    return table


@njit(cache=True, nogil=True, leaf=True)
def _same(copies, c1, c2, units, s, e):
    if c2 - c1 != e - s:
        return False
    for i in range(e - s):
        if copies[c1 + i] != units[s + i]:
            return False
    return True
