"""Decoding kernels: symbol lengths and expansion through a merge table.

Symbols below ``n_terminals`` stand for the bytes ``terminals[s]``; symbol
``n_terminals + k`` stands for the concatenation of ``merges[k]``.  Callers
must have checked that every merge refers only to earlier symbols and every
id to a defined symbol, and sized ``out`` from ``symbol_lengths``; the
kernels trust exactly that.
"""
import numpy as np
from numba import njit

from ._memory import load8, store8


@njit(cache=True, nogil=True)
def symbol_lengths(merges, n_terminals, cap):
    """Expanded length of every symbol, saturating at ``cap + 1`` so that a
    table of nested doublings cannot overflow."""
    limit = np.int64(cap) + 1
    lengths = np.empty(n_terminals + merges.shape[0], np.int64)
    lengths[:n_terminals] = 1
    for k in range(merges.shape[0]):
        s = lengths[merges[k, 0]] + lengths[merges[k, 1]]
        lengths[n_terminals + k] = s if s < limit else limit
    return lengths


@njit(cache=True, nogil=True)
def total_length(lengths, ids, cap):
    """Expanded length of ``ids``, or ``cap + 1`` if it exceeds ``cap``."""
    total = np.int64(0)
    for s in ids:
        total += lengths[s]
        if total > cap:
            return np.int64(cap) + 1
    return total


# Copies move COPY_WIDTH bytes at a time and may run up to COPY_WIDTH - 1
# bytes past a phrase's end: buffers they write carry that much padding.
COPY_WIDTH = 16


@njit(cache=True, nogil=True)
def expand(merges, ids, n_terminals, terminals, lengths, out, size):
    """Write the expansion of ``ids`` into ``out``, which holds ``size`` bytes
    plus ``COPY_WIDTH`` of padding.  Return the length written, or -1, having
    written nothing past ``size``, if an id is undefined or the expansion
    would not fit.  ``lengths`` are ``symbol_lengths(merges, ..., size)``.

    Every distinct symbol of ``ids`` is expanded once into a phrase table;
    the output is then one short copy per id, from a table far smaller than
    the output, made 16 bytes at a time.  (Indices are unsigned so that
    Numba emits no wraparound checks.)
    """
    n_symbols = n_terminals + merges.shape[0]
    used = np.zeros(n_symbols, np.bool_)
    for s in ids:
        if s < 0 or s >= n_symbols:
            return -1
        used[s] = True
    offsets = np.zeros(n_symbols, np.uint64)
    table_size = np.uint64(0)
    for s in range(n_symbols):
        if used[s]:
            offsets[s] = table_size
            table_size += np.uint64(lengths[s])
            # Each used symbol occurs in the output, so a valid table is
            # no larger than the output: refuse before allocating it.
            if table_size > np.uint64(size):
                return -1
    table = np.empty(table_size + np.uint64(COPY_WIDTH), np.uint8)
    stack = np.empty(merges.shape[0] + 2, np.int32)
    for s in range(n_symbols):
        if used[s]:
            _write_phrase(merges, n_terminals, terminals, used, offsets,
                          lengths, stack, s, table)
    pos = np.uint64(0)
    end = np.uint64(size)
    eight = np.uint64(8)
    for i in range(ids.shape[0]):
        s = np.uint64(ids[i])
        src = offsets[s]
        n = np.uint64(lengths[s])
        if pos + n > end:
            return -1
        # Most phrases are short: one unconditional 16-byte copy.
        store8(out, pos, load8(table, src))
        store8(out, pos + eight, load8(table, src + eight))
        t = np.uint64(COPY_WIDTH)
        while t < n:
            store8(out, pos + t, load8(table, src + t))
            store8(out, pos + t + eight, load8(table, src + t + eight))
            t += np.uint64(COPY_WIDTH)
        pos += n
    return np.int64(pos)


@njit(cache=True, nogil=True)
def _write_phrase(merges, n_terminals, terminals, used, offsets, lengths,
                  stack, s0, table):
    """Expand symbol ``s0`` into its slot of the phrase table, copying the
    phrases of smaller used symbols, which are already written."""
    pos = offsets[s0]
    stack[0] = s0
    top = 1
    while top > 0:
        top -= 1
        s = stack[top]
        if s < n_terminals:
            table[pos] = terminals[s]
            pos += np.uint64(1)
        elif s != s0 and used[s]:
            src = offsets[s]
            for t in range(lengths[s]):
                table[pos + np.uint64(t)] = table[src + np.uint64(t)]
            pos += np.uint64(lengths[s])
        else:
            k = s - n_terminals
            stack[top] = merges[k, 1]
            stack[top + 1] = merges[k, 0]
            top += 2


@njit(cache=True, nogil=True)
def unmerge_above(merges, ids, n_terminals, keep, n_out):
    """Undo every merge from ``keep`` on: rewrite ``ids`` over the symbols
    below ``n_terminals + keep`` (the sequence as it stood after ``keep``
    merges), which has ``n_out`` symbols."""
    limit = n_terminals + keep
    out = np.empty(n_out, np.int32)
    stack = np.empty(merges.shape[0] + 2, np.int32)
    pos = 0
    for s0 in ids:
        stack[0] = s0
        top = 1
        while top > 0:
            top -= 1
            s = stack[top]
            if s < limit:
                out[pos] = s
                pos += 1
            else:
                k = s - n_terminals
                stack[top] = merges[k, 1]
                stack[top + 1] = merges[k, 0]
                top += 2
    return out
