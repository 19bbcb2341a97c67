"""A BPE grammar: building it from bytes, cutting it back to a prefix of its
merges, checking it, and expanding it to bytes.

The algorithm is greedy BPE (Gage 1994) in Re-Pair's form: repeatedly
replace every non-overlapping occurrence, left to right, of the most
frequent adjacent pair by a new symbol.  A pair's count is the number of
replacements that would make; ties go to the smallest pair (a, b).  The
first merges, whose pairs cover a large share of the block, run as full
passes over a compacting buffer (``kernels.pairs``), in blocks large enough for
that to pay; the rest run on Re-Pair's incremental structure (``kernels.re_pair``).
Both make exactly the same choices.

Built by gain, the pair replaced is instead the one whose merge saves the
most bits in the coded sequence (``kernels.gain``), and merging stops where none
saves any: rules chosen by the coded size they save, as GLZA chooses its
strings.  English text codes smaller so (2-6% with pairs seen twice or
more); data whose long repeats build up from frequent pairs codes smaller
by count.
"""
from typing import NamedTuple

import numpy as np

from . import expand as _expand, pairs as _pairs, re_pair as _re_pair
from .._errors import DECODE_CEILING, UNDEFINED_MERGE, UNDEFINED_SYMBOL, WRONG_SIZE, GageBPEError

N_BYTES = 256
# A merge runs as a full pass while its pair covers at least 1/PASS_SHARE of
# the buffer: then a pass costs no more than maintaining occurrence lists.
PASS_SHARE = 128
# By gain the top pairs are rarer, and the passes shorten the buffer less
# before Re-Pair's 16 bytes per position: they go on to rarer pairs (the
# default level 9's peak on bible.txt 118 MB, not 136; sizes within 0.2%).
GAIN_PASS_SHARE = 1024
MAX_PASS_MERGES = 256
# Each pass scans a dense count table of (256 + MAX_PASS_MERGES)^2 entries:
# below this many bytes, the incremental engine alone is faster (measured
# on bible.txt: 4 KB 2.6 ms with passes against 0.5 ms without, 64 KB 13.9
# against 10.6 ms; level at 256 KB, passes ahead from 1 MB).
PASS_FROM = 1 << 18


class Grammar(NamedTuple):
    """``merges[k]`` is the pair that symbol ``256 + k`` replaced,
    ``counts[k]`` how many times; ``ids`` is the final sequence."""
    merges: np.ndarray
    ids: np.ndarray
    counts: np.ndarray


def as_ids(data):
    """Bytes-like ``data`` as an int32 symbol buffer."""
    return np.frombuffer(memoryview(data).cast("B"), np.uint8).astype(np.int32)


def unmerged(data):
    """The grammar of ``data`` with no merges."""
    return Grammar(np.empty((0, 2), np.int32), as_ids(data), np.empty(0, np.int64))


_WHOLE = np.zeros(1, np.int64)


def build(data, min_count=2, max_merges=None, by_gain=False, starts=None):
    """Greedy BPE of ``data`` (bytes-like): merge while the top pair occurs at
    least ``min_count`` (>= 2) times, making at most ``max_merges`` merges.
    ``by_gain``: the top pair is the one whose merge saves the most bits
    (``kernels.re_pair``), not the most frequent, and merging stops where no merge
    saves any.  ``starts``: where the records ``data`` joins begin (from 0):
    no pair straddles two, and ``ids`` are theirs in order."""
    if min_count < 2:
        raise ValueError("min_count must be at least 2")
    ids = as_ids(data)
    if max_merges is None:
        max_merges = len(ids)
    merges1, counts1, n = np.empty((0, 2), np.int32), np.empty(0, np.int64), len(ids)
    if len(ids) >= PASS_FROM and starts is None:
        stop_below = max(min_count, len(ids) // (GAIN_PASS_SHARE if by_gain else PASS_SHARE))
        merges1, counts1, n = _pairs.merge_frequent(
            ids, N_BYTES, min(MAX_PASS_MERGES, max_merges), stop_below, by_gain)
    rest = max_merges - len(merges1)
    ids = ids[:n]
    merges2, counts2, n = _re_pair.repair(ids, _checked_starts(starts, n),
                                          N_BYTES + len(merges1), rest, min_count, by_gain)
    return Grammar(np.concatenate([merges1, merges2]).reshape(-1, 2),
                   ids[:n].copy(), np.concatenate([counts1, counts2]))


def _checked_starts(starts, n):
    """``starts`` as the engine takes them: from 0, never falling, none past
    ``n`` (a piece walked twice would write past the sequence)."""
    if starts is None:
        return _WHOLE
    starts = np.asarray(starts, np.int64)
    if (starts.ndim != 1 or not len(starts) or starts[0] != 0
            or (np.diff(starts) < 0).any() or starts[-1] > n):
        raise ValueError("record starts must rise from 0 to at most the data's length")
    return starts


def truncate(grammar, keep, n_terminals=N_BYTES):
    """The grammar as it stood after its first ``keep`` merges."""
    if keep >= len(grammar.merges):
        return grammar
    n_out = len(grammar.ids) + int(grammar.counts[keep:].sum())
    ids = _expand.unmerge(grammar.merges, grammar.ids, n_terminals, keep, n_out)
    return Grammar(grammar.merges[:keep], ids, grammar.counts[:keep])


def check_merges(merges, n_terminals):
    """Raise ``GageBPEError`` unless every merge refers to earlier symbols:
    what the expansion kernels trust (they check the ids themselves)."""
    if len(merges):
        limits = n_terminals + np.arange(len(merges))
        if merges.min() < 0 or (merges.max(axis=1) >= limits).any():
            raise GageBPEError(UNDEFINED_MERGE)


def expand(merges, ids, terminals, size, out):
    """Expand a grammar, whose merges refer only to earlier symbols, into
    ``out``, which it must fill exactly (``size`` bytes); its ids are
    checked here."""
    n_terminals = len(terminals)
    lengths = _expand.symbol_lengths(merges, n_terminals, size)
    written = _expand.expand(merges, ids, n_terminals, terminals, lengths, out, size)
    if written < 0:
        raise GageBPEError(f"{UNDEFINED_SYMBOL} or expands past the declared size")
    if written != size:
        raise GageBPEError(WRONG_SIZE)
    return out


def decoded_size(merges, ids):
    """How many bytes the byte-level grammar ``(merges, ids)`` expands to;
    ``GageBPEError`` if it refers to undefined symbols or expands past
    DECODE_CEILING."""
    check_merges(merges, N_BYTES)
    if len(ids) and (ids.min() < 0 or ids.max() >= N_BYTES + len(merges)):
        raise GageBPEError(UNDEFINED_SYMBOL)
    lengths = _expand.symbol_lengths(merges, N_BYTES, DECODE_CEILING)
    size = _expand.total_length(lengths, ids, DECODE_CEILING)
    if size > DECODE_CEILING:
        raise GageBPEError(f"grammar expands to more than {DECODE_CEILING} bytes")
    return int(size)
