"""The shortest parse of a record into a dictionary's coded symbols.

A DICTIONARY_IDS record may be any sequence of coded symbols whose
phrases make its bytes: the decoder only expands them.  The one whose
codes take the fewest bits is found here by a shortest path over the
record's positions, each step a coded phrase that matches there, read off
a trie of the phrases.  Merging by rank, as the dictionary was trained,
gives one such path, but costs three times the walk: every pair is looked
up in a table too large for the cache (docs/DESIGN.md, "Dictionaries").
"""
import numpy as np

from .._jit import njit

# Phrases longer than this stay out of the trie, so that a walk from each
# position of a block takes at most as many steps, and it stops growing at
# MAX_NODES (a dictionary of many phrases): a record is parsed into the
# shorter phrases those are made of.
MAX_DEPTH = 256
MAX_NODES = 1 << 22
_ROOT, _NONE = 0, -1
_LEAF, _FORK = -1, -2  # a node's entry where it has no child, or several
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, nogil=True, inline='always')
def _slot(edges, key):
    """Where the edge of ``key`` is in the open-addressed table ``edges``,
    or the empty slot where it would go."""
    mask = edges.shape[0] - 1
    at = np.int64((np.uint64(key) * _GOLDEN) >> np.uint64(40)) & mask
    while edges[at] != _NONE and edges[at] >> 32 != key:
        at = (at + 1) & mask
    return at


@njit(cache=True, nogil=True, inline='always')
def _child(edges, symbols, node, byte):
    """The child of ``node`` by ``byte``, or -1: read off the node's own
    entry where it has at most one child (most nodes below the first few
    bytes of a phrase), else off the hashed edges."""
    hashed = edges.shape[0] - symbols.shape[0]
    only = edges[hashed + node]
    if only >= 0:
        return only & 0xFFFFFFFF if only >> 32 == byte else _NONE
    if only == _LEAF:
        return _NONE
    edge = edges[_slot(edges[:hashed], np.int64(node) * 256 + byte)]
    return edge if edge == _NONE else edge & 0xFFFFFFFF


@njit(cache=True, nogil=True)
def trie(phrases, offsets, sizes, code_lengths, prefixes):
    """``(edges, symbols, bits)``: a trie of the phrases of the symbols
    with a code (symbol s's phrase ``phrases[offsets[s]:offsets[s] +
    sizes[s]]``): its edges, each ``(256 * node + byte) << 32 | child`` in
    an open-addressed table (one load a step: the walk is what a parse
    costs), -1 where empty, followed by one entry per node, ``byte << 32 |
    child`` for a node of one child (the walk down a long phrase reads
    these one after another), _LEAF for none, _FORK for more;
    ``symbols[v]`` is the symbol of the shortest code whose phrase ends at
    node v (-1 for none), of ``bits[v]`` bits.  Symbols are laid in
    order, up to MAX_NODES nodes.  ``prefixes[s]`` is a symbol whose
    phrase begins symbol s's (a merge's left half; -1 for none): where it
    was laid, s is laid from its node on, not from the root (the same
    trie, for fewer look-ups in a table too large for the cache)."""
    wanted = 1
    for s in range(code_lengths.shape[0]):
        if code_lengths[s] and sizes[s] <= MAX_DEPTH:
            wanted += sizes[s]
    room = min(wanted, MAX_NODES)
    capacity = 1
    while capacity < 2 * room:
        capacity *= 2
    edges = np.full(capacity + room, _NONE, np.int64)
    table = edges[:capacity]
    symbols = np.full(room, _NONE, np.int32)
    bits = np.zeros(room, np.int64)
    laid_at = np.full(code_lengths.shape[0], _NONE, np.int64)  # each symbol's node
    nodes = 1
    for s in range(code_lengths.shape[0]):
        if code_lengths[s] == 0 or sizes[s] > MAX_DEPTH:
            continue
        node, first = _ROOT, 0
        if prefixes[s] >= 0 and laid_at[prefixes[s]] != _NONE:
            node, first = laid_at[prefixes[s]], sizes[prefixes[s]]
        full = False
        for k in range(first, sizes[s]):
            key = np.int64(node) * 256 + phrases[np.int64(offsets[s]) + k]
            at = _slot(table, key)
            if table[at] != _NONE:
                node = table[at] & 0xFFFFFFFF
                continue
            if nodes == room:
                full = True
                break
            table[at] = key << 32 | nodes
            node = nodes
            nodes += 1
        if full:
            break
        laid_at[s] = node
        if symbols[node] == _NONE or code_lengths[s] < bits[node]:
            symbols[node], bits[node] = s, code_lengths[s]
    _index_children(table, edges[capacity:])
    return edges, symbols, bits


@njit(cache=True, nogil=True)
def _index_children(table, only):
    """Each node's entry (``trie``) from the hashed edges ``table``."""
    only[:] = _LEAF
    for at in range(table.shape[0]):
        edge = table[at]
        if edge == _NONE:
            continue
        parent, byte = (edge >> 32) // 256, (edge >> 32) % 256
        only[parent] = _FORK if only[parent] != _LEAF else byte << 32 | (edge & 0xFFFFFFFF)


@njit(cache=True, nogil=True)
def shortest(data, sizes, code_lengths, edges, symbols, bits):
    """The coded symbols whose phrases make ``data`` in the fewest code
    bits (every byte value has a code); of two parses as short, the one
    that leaves a position by the shorter phrase first."""
    n = data.shape[0]
    cost = np.full(n + 1, np.int64(1) << 62, np.int64)
    came_by = np.zeros(n + 1, np.int32)
    cost[0] = 0
    for i in range(n):
        node = _ROOT
        for j in range(i, n):
            node = _child(edges, symbols, node, data[j])
            if node == _NONE:
                break
            if symbols[node] != _NONE and cost[i] + bits[node] < cost[j + 1]:
                cost[j + 1], came_by[j + 1] = cost[i] + bits[node], symbols[node]
    return path(came_by, sizes, n)


@njit(cache=True, nogil=True, inline='always')
def path(came_by, sizes, n):
    """The symbols of a parse of ``n`` bytes, first to last, from
    ``came_by``: the symbol (of ``sizes[symbol]`` bytes) each position was
    reached by."""
    count, at = 0, n
    while at > 0:
        count += 1
        at -= sizes[came_by[at]]
    out = np.empty(count, np.int32)
    at = n
    for k in range(count - 1, -1, -1):
        out[k] = came_by[at]
        at -= sizes[came_by[at]]
    return out
