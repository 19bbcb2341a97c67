"""Long rules: a grammar's merges that are used once, inside one other
merge, folded into it.

A merge whose symbol no id uses and only one other merge uses, once,
still costs an entry in the merge table and a symbol of the alphabet, yet
tells the decoder nothing its user could not: folded into that user, it
leaves a rule of three or more parts (a long rule), ``P = (a, b, x)`` for
``R = (a, b), P = (R, x)``.  Strings that repeat whole but were built up
a pair at a time leave chains of such merges: logs, manual pages and
source code, where folding them takes 1-4% off the block.

A grammar of long rules is numbered as SORTED numbers merges
(``kernels.sorted_table``): by depth, then within a depth by length, then by
their parts in order; its table is ``kernels.sorted_table.pack_long``'s.  A
decoder reads it back as merges (``kernels.sorted_table.unpack_long``), each
long rule a chain of merges whose intermediate symbols no id names, and
maps the ids' symbols onto those merges' numbers (``internal``), so that
the merge codings' kernels expand it unchanged.
"""
from typing import NamedTuple

import numpy as np

from . import sorted_table as _sorted_table
from .._jit import njit


class LongGrammar(NamedTuple):
    """A grammar of long rules over ``n_terminals`` terminals, numbered
    canonically: rule i is symbol ``n_terminals + i`` with parts
    ``parts[starts[i]:starts[i + 1]]``; ``ids`` is the sequence;
    ``table`` the packed rule table.  ``merges`` and ``internal`` are what
    a decoder makes of it (``kernels.sorted_table.unpack_long``)."""
    starts: np.ndarray
    parts: np.ndarray
    ids: np.ndarray
    table: bytes
    merges: np.ndarray
    internal: np.ndarray


@njit(cache=True, nogil=True)
def fold(merges, ids, n_terminals):
    """``(kept, starts, parts)``: the merges of the grammar ``(merges,
    ids)`` that are not folded (by symbol number, increasing), and each
    one's parts, ``parts[starts[i]:starts[i + 1]]`` for ``kept[i]``: its
    pair with every folded merge replaced by its own parts.  A merge is
    folded where no id and exactly one use in another merge refer to it."""
    d = merges.shape[0]
    n = n_terminals + d
    in_ids = np.zeros(n, np.int64)
    for s in ids:
        in_ids[s] += 1
    in_merges = np.zeros(n, np.int64)
    for k in range(d):
        in_merges[merges[k, 0]] += 1
        in_merges[merges[k, 1]] += 1
    folded = np.zeros(n, np.bool_)
    n_kept = 0
    for s in range(n_terminals, n):
        folded[s] = in_ids[s] == 0 and in_merges[s] == 1
        n_kept += not folded[s]
    kept = np.empty(n_kept, np.int32)
    starts = np.zeros(n_kept + 1, np.int64)
    # Each folded merge adds one part to the rule it is folded into.
    parts = np.empty(2 * d, np.int32)
    stack = np.empty(d + 2, np.int32)
    i = 0
    at = 0
    for s in range(n_terminals, n):
        if folded[s]:
            continue
        kept[i] = s
        stack[0] = merges[s - n_terminals, 1]
        stack[1] = merges[s - n_terminals, 0]
        top = 2
        while top:
            top -= 1
            x = stack[top]
            if x >= n_terminals and folded[x]:
                stack[top] = merges[x - n_terminals, 1]
                stack[top + 1] = merges[x - n_terminals, 0]
                top += 2
            else:
                parts[at] = x
                at += 1
        i += 1
        starts[i] = at
    return kept, starts, parts[:at]


@njit(cache=True, nogil=True)
def depths(starts, parts, n_terminals):
    """The depth of each rule: one more than its deepest part's (a
    terminal's is 0).  Parts refer to earlier rules."""
    n = starts.shape[0] - 1
    depth = np.zeros(n_terminals + n, np.int64)
    for i in range(n):
        deepest = 0
        for j in range(starts[i], starts[i + 1]):
            deepest = max(deepest, depth[parts[j]])
        depth[n_terminals + i] = deepest + 1
    return depth[n_terminals:]


def canonical(starts, parts, n_terminals):
    """``(order, starts, parts, classes)``: the rules (parts referring to
    earlier rules as ``n_terminals + i``) renumbered as the long table
    lists them: ``order[s]`` is symbol s's new number; the rules' parts
    in the new numbers and new order; ``classes`` rows ``(depth, length,
    count)``, a depth's lengths increasing."""
    n = len(starts) - 1
    lengths = np.diff(starts)
    depth = depths(starts, parts, n_terminals)
    order = np.empty(n_terminals + n, np.int32)
    order[:n_terminals] = np.arange(n_terminals)
    ranked_all, classes = [], []
    limit = n_terminals
    for j in np.unique(depth):
        level = np.flatnonzero(depth == j)
        for length in np.unique(lengths[level]):
            rules = level[lengths[level] == length]
            table = order[parts[starts[rules][:, None] + np.arange(length)]]
            ranked = rules[np.lexsort(table.T[::-1])]
            order[n_terminals + ranked] = limit + np.arange(len(ranked))
            limit += len(ranked)
            ranked_all.append(ranked)
            classes.append((j, length, len(ranked)))
    ranked = np.concatenate(ranked_all) if ranked_all else np.empty(0, np.int64)
    new_lengths = lengths[ranked]
    new_starts = np.zeros(n + 1, np.int64)
    np.cumsum(new_lengths, out=new_starts[1:])
    index = np.repeat(starts[ranked] - new_starts[:-1], new_lengths) + np.arange(new_starts[-1])
    new_parts = order[parts[index]]
    return order, new_starts, new_parts, np.array(classes, np.int64).reshape(-1, 3)


def build(merges, ids, n_terminals):
    """The ``LongGrammar`` of the grammar ``(merges, ids)`` over
    ``n_terminals`` terminals (merges referring to earlier symbols), its
    merges used once inside another folded into it."""
    kept, starts, parts = fold(merges, ids, n_terminals)
    # The kept merges' numbers, as parts and ids: terminals stay, kept[i]
    # becomes n_terminals + i.
    number = np.arange(n_terminals + len(merges), dtype=np.int32)
    number[kept] = n_terminals + np.arange(len(kept), dtype=np.int32)
    order, starts, parts, classes = canonical(starts, number[parts], n_terminals)
    table = _sorted_table.pack_long(starts, parts, classes, n_terminals)
    # The encoder's merges are the decoder's: made from the table itself.
    ok, merges, internal = _sorted_table.unpack_long(table, n_terminals, len(starts) - 1)
    if not ok:
        raise RuntimeError("a table of long rules did not read back")
    return LongGrammar(starts, parts, order[number[ids]], table.tobytes(), merges, internal)
