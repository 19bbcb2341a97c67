"""Numbering the distinct runs of an array (the words or chunks of a text,
as code points or UTF-8 bytes): each run's number among the distinct
runs, in order of first occurrence.  The tokenizers encode each distinct
run once.

Imports ``_jit``, ``_arrays`` and ``_pair_hash``.
"""
import numpy as np

from ._arrays import with_room
from ._jit import njit
from ._pair_hash import MULT


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
    size = 1024
    table = np.full(size, -1, np.int64)  # distinct number, by hash slot
    ids = np.empty(n, np.int64)
    hashes = np.empty(256, np.int64)  # of each distinct word, for regrowing
    firsts = np.empty(256, np.int64)
    copy_starts = np.zeros(257, np.int64)
    copies = np.empty(1024, np.uint32)  # each distinct word's code points
    n_distinct = 0
    for w in range(n):
        s, e = starts[w], ends[w]
        full = content_hash(units, s, e)
        h = full & (size - 1)
        while True:
            d = table[h]
            if d == -1:
                break
            if hashes[d] == full and _same(copies, copy_starts[d], copy_starts[d + 1], units, s, e):
                break
            h = (h + 1) & (size - 1)
        if d != -1:
            ids[w] = d
            continue
        d = n_distinct
        n_distinct += 1
        hashes = with_room(hashes, n_distinct)
        firsts = with_room(firsts, n_distinct)
        copy_starts = with_room(copy_starts, n_distinct + 1)
        table[h] = d
        firsts[d] = w
        hashes[d] = full
        ids[w] = d
        end = copy_starts[d] + e - s
        copies = with_room(copies, end)
        copies[copy_starts[d]:end] = units[s:e]
        copy_starts[d + 1] = end
        if 2 * n_distinct > size:
            size *= 2
            table = np.full(size, -1, np.int64)
            for k in range(n_distinct):
                g = hashes[k] & (size - 1)
                while table[g] != -1:
                    g = (g + 1) & (size - 1)
                table[g] = k
    return ids, firsts[:n_distinct].copy()


@njit(cache=True, nogil=True, leaf=True)
def _same(copies, c1, c2, units, s, e):
    if c2 - c1 != e - s:
        return False
    for i in range(e - s):
        if copies[c1 + i] != units[s + i]:
            return False
    return True
