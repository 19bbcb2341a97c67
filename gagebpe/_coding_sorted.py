"""The SORTED block coding (4): the merge table in compact form (grouped
by depth, sorted, Rice-coded: ``_sorted_table``), then the Huffman-coded
sequence (docs/FORMAT.md).

    payload = n_merges:u32  n_ids:u32  table_bytes:u32  length_bytes:u32
              terminals:32 bytes  merge_table  code_lengths  sequence

Merges of one depth can be numbered in any order, so they are renumbered
by their pair codes, and the table stores only the gaps between codes.

Imports ``_errors``, ``_payload`` and ``_coded_sequence``, and the kernels
``_sorted_table`` and ``_huffman``.
"""
import struct

import numpy as np

from . import _coded_sequence, _huffman, _payload, _sorted_table
from ._jit import njit

# merges, ids, bytes of the merge table, bytes of the code lengths, bitmap
HEAD = struct.Struct("<IIII32s")
HEAD_SIZE = HEAD.size


def numbered(grammar, present):
    """``(merges, ids, merge table section)`` of the byte-level grammar
    renumbered over the terminals ``present`` marks, its merges in the
    compact table's order."""
    n_terminals = int(present.sum())
    merges, ids = _payload.compact(present, grammar)
    order, depth_sizes = _sorted_table.canonical(merges, n_terminals)
    ids = order[ids]
    merges[order[n_terminals:] - n_terminals] = order[merges]
    return merges, ids, _sorted_table.pack(merges, depth_sizes, n_terminals).tobytes()


@njit(cache=True, nogil=True)
def unpack_table(body, start, table_bytes, n_terminals, merges):
    """Fill ``merges`` from the compact table section at ``start``; the
    problem number (``_coded_sequence.PROBLEMS``)."""
    if start + table_bytes > body.shape[0]:
        return _coded_sequence.OVERRUN
    if not _sorted_table.unpack(body[start:start + table_bytes], n_terminals, merges):
        return _coded_sequence.BAD_TABLE
    return 0


@njit(cache=True, nogil=True)
def decode_payload(body, n_merges, n_ids, table_bytes, length_bytes, terminals, size, out):
    """The whole payload after its header, in one call; the problem number."""
    merges = np.empty((n_merges, 2), np.int32)
    problem = unpack_table(body, HEAD_SIZE, table_bytes, terminals.shape[0], merges)
    if problem:
        return problem
    return _coded_sequence.expand_sequence(body, HEAD_SIZE + table_bytes, length_bytes, merges,
                                           n_ids, terminals, size, out)


def encode(grammar, hist):
    """The payload of the block with byte histogram ``hist`` and byte-level
    ``grammar`` (all of whose merges are kept); None if its sequence has
    more distinct symbols than codes of the length limit."""
    present = hist > 0
    merges, ids, table = numbered(grammar, present)
    freq = np.bincount(ids, minlength=int(present.sum()) + len(merges))
    if np.count_nonzero(freq) > 1 << _huffman.MAX_LENGTH:
        return None
    lengths_section, sequence = _coded_sequence.encode(ids, freq)
    head = HEAD.pack(len(merges), len(ids), len(table), len(lengths_section),
                     _payload.bitmap(present))
    return head + table + lengths_section + sequence


def decode(payload, size, out):
    """The block's bytes into ``out`` (``size`` bytes)."""
    n_merges, n_ids, table_bytes, length_bytes, bitmap = _payload.header(
        payload, HEAD, "SORTED")
    terminals = _payload.terminals(bitmap)
    _payload.check_counts(len(terminals), n_merges, n_ids, size)
    _coded_sequence.raise_problem(decode_payload(np.frombuffer(payload, np.uint8), n_merges, n_ids,
                                          table_bytes, length_bytes, terminals, size, out))
    return out
