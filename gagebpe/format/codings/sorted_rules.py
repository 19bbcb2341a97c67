"""The SORTED and SORTED_LONG block codings (docs/FORMAT.md, sections 4.5
and 4.7): the merge table in compact form (grouped by depth, sorted,
Rice-coded: ``kernels.sorted_table``), then the Huffman-coded sequence;
SORTED_LONG has a table of long rules (``kernels.long_rules``) in place of
merges.

    payload = n_merges:u32  n_ids:u32  table_bytes:u32  length_bytes:u32
              terminals:32 bytes  merge_table  code_lengths  sequence

Merges of one depth can be numbered in any order, so they are renumbered
by their pair codes, and the table stores only the gaps between codes.
"""
import struct
from typing import NamedTuple

import numpy as np

from ...kernels import (coded_sequence as _coded_sequence, huffman as _huffman,
                        long_rules as _long_rules, sorted_table as _sorted_table)
from ...kernels.coded_sequence import u32
from . import payload as _payload, problems as _problems
from .registry import SORTED, SORTED_LONG, fields_at
from ..._jit import njit

# merges, ids, bytes of the merge table, bytes of the code lengths, bitmap
HEAD = struct.Struct("<IIII32s")
HEAD_SIZE = HEAD.size
_TABLE, _LENGTHS, _BITMAP = fields_at(HEAD)[2:]


class Numbered(NamedTuple):
    """A byte-level grammar renumbered over its block's terminals, its
    rules in the compact table's order: ``merges`` (the decoder's, long
    rules made merges), ``internal`` (as ``kernels.coded_sequence.expand_sequence``
    takes it), ``ids``, ``n_rules`` and the ``table`` section; ``long_rules``:
    whether the table is of long rules."""
    merges: np.ndarray
    internal: np.ndarray
    ids: np.ndarray
    n_rules: int
    table: bytes
    long_rules: bool


def numbered(grammar, present, long_rules=False):
    """The ``Numbered`` form of the byte-level grammar over the terminals
    ``present`` marks.  ``long_rules``: the smaller of its merge table and
    its table of long rules (``kernels.long_rules``: its merges used once inside
    another folded into it), the merges on a tie.  The two differ only in
    their tables and in the code lengths of the folded symbols, which the
    long rules do not send: the sequence codes to the same size, so those
    decide."""
    n_terminals = int(present.sum())
    merges, ids = _payload.compact(present, grammar)
    rules = _long_rules.build(merges, ids, n_terminals) if long_rules else None
    order, depth_sizes = _sorted_table.canonical(merges, n_terminals)
    ids = order[ids]
    merges[order[n_terminals:] - n_terminals] = order[merges]
    table = _sorted_table.pack(merges, depth_sizes, n_terminals).tobytes()
    pairs = Numbered(merges, _coded_sequence.NO_INTERNAL, ids, len(merges), table, False)
    if rules is None or len(rules.starts) - 1 == len(merges):  # no merge folded
        return pairs
    folded = Numbered(rules.merges, rules.internal, rules.ids, len(rules.starts) - 1,
                      rules.table, True)
    return folded if _table_bytes(folded, n_terminals) < _table_bytes(pairs, n_terminals) else pairs


def _table_bytes(rules, n_terminals):
    """The bytes of the table and the code lengths of the ``Numbered``
    grammar ``rules`` coded SORTED."""
    freq = np.bincount(rules.ids, minlength=n_terminals + rules.n_rules)
    if np.count_nonzero(freq) > 1 << _huffman.MAX_LENGTH:  # not to be coded SORTED
        return len(rules.table)
    lengths = _huffman.code_lengths(freq, _huffman.MAX_LENGTH)
    return len(rules.table) + len(_coded_sequence.lengths_section(lengths))


@njit(cache=True, nogil=True)
def unpack_table(body, start, table_bytes, n_terminals, n_rules, long_rules):
    """``(problem, merges, internal)`` from the compact table section of
    ``n_rules`` merges at ``start`` (``long_rules``: of as many long
    rules); the problem number is ``kernels.coded_sequence.PROBLEMS``'s."""
    merges = np.empty((0, 2), np.int32)
    internal = np.empty(0, np.int32)
    if start + table_bytes > body.shape[0]:
        return _coded_sequence.OVERRUN, merges, internal
    table = body[start:start + table_bytes]
    if not long_rules:
        merges = np.empty((n_rules, 2), np.int32)
        ok = _sorted_table.unpack(table, n_terminals, merges)
        return (0 if ok else _coded_sequence.BAD_TABLE), merges, internal
    ok, merges, internal = _sorted_table.unpack_long(table, n_terminals, n_rules)
    return (0 if ok else _coded_sequence.BAD_TABLE), merges, internal


def encode(grammar, hist, rules=None):
    """The payload of the block with byte histogram ``hist`` and byte-level
    ``grammar`` (all of whose merges are kept), numbered as ``rules`` says
    (``numbered``; None: its merges); None if its sequence has more
    distinct symbols than codes of the length limit.  Where ``rules`` is
    of long rules, the payload is SORTED_LONG's."""
    present = hist > 0
    if rules is None:
        rules = numbered(grammar, present)
    freq = np.bincount(rules.ids, minlength=int(present.sum()) + rules.n_rules)
    if np.count_nonzero(freq) > 1 << _huffman.MAX_LENGTH:
        return None
    lengths_section, sequence = _coded_sequence.encode(rules.ids, freq)
    head = HEAD.pack(rules.n_rules, len(rules.ids), len(rules.table), len(lengths_section),
                     _payload.bitmap(present))
    return head + rules.table + lengths_section + sequence


@njit(cache=True, nogil=True)
def read_rules(payload, size, coding, head_size, bitmap_at, long_rules):
    """``(problem, n_ids, terminals, merges, internal, end)`` of a SORTED
    or CONTEXT payload (``long_rules``: of their long forms), whose head
    of ``head_size`` bytes begins with the counts and the table's size and
    has the terminal bitmap at ``bitmap_at``: its
    counts and terminals (``payload.read_head``) and its table
    (``unpack_table``), which ends at ``end``.  ``problem`` is 0 or the
    block's (``format.codings.problems``)."""
    problem, n_merges, n_ids, terminals = _payload.read_head(payload, size, coding, head_size,
                                                             bitmap_at)
    merges, internal = np.empty((0, 2), np.int32), np.empty(0, np.int32)
    if problem:
        return problem, n_ids, terminals, merges, internal, 0
    table_bytes = u32(payload, _TABLE)
    problem, merges, internal = unpack_table(payload, head_size, table_bytes, terminals.shape[0],
                                             n_merges, long_rules)
    if problem:
        problem = _problems.at(coding, _problems.SEQUENCE + problem)
    return problem, n_ids, terminals, merges, internal, head_size + table_bytes


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """A SORTED or SORTED_LONG block's bytes into ``out`` (``size``
    bytes); 0 or its problem (``format.codings.problems``)."""
    problem, n_ids, terminals, merges, internal, end = read_rules(
        payload, size, coding, HEAD_SIZE, _BITMAP, coding == SORTED_LONG)
    if problem:
        return problem
    problem = _coded_sequence.expand_sequence(payload, end, u32(payload, _LENGTHS), merges,
                                              internal, n_ids, terminals, size, out)
    return _problems.at(coding, _problems.SEQUENCE + problem) if problem else 0


DECODERS = {SORTED: decode_block, SORTED_LONG: decode_block}
