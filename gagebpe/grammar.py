"""Byte-pair encoding as a grammar: bytes <-> (merges, ids).

This is the low-level entry point for people who want the grammar itself::

    g = gagebpe.grammar.encode(b"abababab")
    g.merges   # int32 (d, 2): merge k made symbol 256 + k from merges[k]
    g.ids      # int32: the final sequence over bytes (0..255) and merges
    gagebpe.grammar.decode(g.merges, g.ids) == b"abababab"

The algorithm is greedy BPE (Gage 1994) in Re-Pair's form: repeatedly replace
every non-overlapping occurrence, left to right, of the most frequent adjacent
pair by a new symbol.  A pair's count is the number of replacements that would
make; ties go to the smallest pair (a, b).  The first merges, whose pairs
cover a large share of the block, run as full passes over a compacting
buffer; the rest run on Re-Pair's incremental structure.  Both make exactly
the same choices.
"""
from typing import NamedTuple

import numpy as np

from . import _expand, _pairs, _repair
from ._errors import GageBPEError

N_BYTES = 256
# A merge runs as a full pass while its pair covers at least 1/PASS_SHARE of
# the buffer: then a pass costs no more than maintaining occurrence lists.
PASS_SHARE = 128
MAX_PASS_MERGES = 256
MAX_DECODE = 1 << 40


class Grammar(NamedTuple):
    """``merges[k]`` is the pair that symbol ``256 + k`` replaced,
    ``counts[k]`` how many times; ``ids`` is the final sequence."""
    merges: np.ndarray
    ids: np.ndarray
    counts: np.ndarray


def as_ids(data):
    """Bytes-like ``data`` as an int32 symbol buffer."""
    return np.frombuffer(memoryview(data).cast("B"), np.uint8).astype(np.int32)


def encode(data, *, min_count=2, max_merges=None):
    """Greedy BPE of ``data`` (bytes-like): merge while the top pair occurs at
    least ``min_count`` (>= 2) times, making at most ``max_merges`` merges."""
    if min_count < 2:
        raise ValueError("min_count must be at least 2")
    ids = as_ids(data)
    if max_merges is None:
        max_merges = len(ids)
    stop_below = max(min_count, len(ids) // PASS_SHARE)
    merges1, counts1, n = _pairs.merge_frequent(
        ids, N_BYTES, min(MAX_PASS_MERGES, max_merges), stop_below)
    rest = max_merges - len(merges1)
    ids = ids[:n]
    merges2, counts2, n = _repair.repair(
        ids, N_BYTES + len(merges1), rest, min_count)
    return Grammar(np.concatenate([merges1, merges2]).reshape(-1, 2),
                   ids[:n].copy(), np.concatenate([counts1, counts2]))


def truncate(grammar, keep, n_terminals=N_BYTES):
    """The grammar as it stood after its first ``keep`` merges."""
    if keep >= len(grammar.merges):
        return grammar
    n_out = len(grammar.ids) + int(grammar.counts[keep:].sum())
    ids = _expand.unmerge_above(grammar.merges, grammar.ids, n_terminals,
                                keep, n_out)
    return Grammar(grammar.merges[:keep], ids, grammar.counts[:keep])


def check_merges(merges, n_terminals):
    """Raise ``GageBPEError`` unless every merge refers to earlier symbols:
    what the expansion kernels trust (they check the ids themselves)."""
    if len(merges):
        limits = n_terminals + np.arange(len(merges))
        if merges.min() < 0 or (merges.max(axis=1) >= limits).any():
            raise GageBPEError("merge table refers to an undefined symbol")


def expand(merges, ids, n_terminals, terminals, size, checked=False, out=None):
    """Expand a grammar that must produce exactly ``size`` bytes; the result
    is a uint8 array (``out``, of ``size`` bytes, if given).  ``checked``:
    the merges are known to refer only to earlier symbols (the ids are
    always checked)."""
    if not checked:
        check_merges(merges, n_terminals)
    lengths = _expand.symbol_lengths(merges, n_terminals, size)
    if out is None:
        out = np.empty(size, np.uint8)
    written = _expand.expand(merges, ids, n_terminals, terminals, lengths,
                             out, size)
    if written < 0:
        raise GageBPEError("sequence refers to an undefined symbol or "
                           "expands past the declared size")
    if written != size:
        raise GageBPEError("grammar does not expand to the declared size")
    return out[:size]


def decode(merges, ids):
    """Bytes of the grammar ``(merges, ids)`` over the byte alphabet."""
    merges = np.ascontiguousarray(merges, np.int32).reshape(-1, 2)
    ids = np.ascontiguousarray(ids, np.int32)
    check_merges(merges, N_BYTES)
    if len(ids) and (ids.min() < 0 or ids.max() >= N_BYTES + len(merges)):
        raise GageBPEError("sequence refers to an undefined symbol")
    lengths = _expand.symbol_lengths(merges, N_BYTES, MAX_DECODE)
    size = _expand.total_length(lengths, ids, MAX_DECODE)
    if size > MAX_DECODE:
        raise GageBPEError(f"grammar expands to more than {MAX_DECODE} bytes")
    terminals = np.arange(N_BYTES, dtype=np.uint8)
    return expand(merges, ids, N_BYTES, terminals, size).tobytes()
