"""The CONTEXT block coding (6, format version 3): SORTED's compact merge
table, then the sequence coded in two contexts (docs/FORMAT.md).

    payload = n_merges:u32  n_ids:u32  table_bytes:u32  length_bytes:u32 * 2
              terminals:32 bytes  classes:32 bytes
              merge_table  code_lengths * 2  sequence

Each byte value is in class 0 or 1 (the ``classes`` bitmap marks class 1),
and a symbol has the class of the last byte of its phrase.  An id is coded
with the code of context c, the class of the id before it: in text, what
follows the end of a word differs from what follows a space or a
punctuation mark, and one code for both wastes bits on each.  Decoding
still reads static tables, one per context.

Imports ``_errors``, ``_payload``, ``_coding_sorted`` (its merge table),
``_coded_sequence``, and the kernels ``_expand``.
"""
import struct

import numpy as np

from . import _coded_sequence, _coding_sorted, _expand, _payload
from ._errors import GageBPEError
from ._jit import njit

# merges, ids, bytes of the merge table, of each code-length section, bitmaps
HEAD = struct.Struct("<IIIII32s32s")
HEAD_SIZE = HEAD.size
# gagebpe puts letters in class 1.
LETTERS = np.zeros(256, bool)
LETTERS[np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", np.uint8)] = True


def encode(grammar, hist, class_of_byte=LETTERS):
    """The payload of the block with byte histogram ``hist`` and byte-level
    ``grammar`` (all of whose merges are kept), byte value v in class
    ``class_of_byte[v]``; None if it cannot be coded (a context with more
    distinct symbols than codes of the length limit)."""
    present = hist > 0
    n_terminals = int(present.sum())
    merges, ids, table = _coding_sorted.numbered(grammar, present)
    terminals = np.flatnonzero(present)
    classes = _expand.symbol_classes(merges, n_terminals,
                                     class_of_byte[terminals].astype(np.uint8))
    coded = _coded_sequence.encode_in_contexts(
        ids, classes,
        _expand.symbol_lengths(merges, n_terminals, int(hist.sum())))
    if coded is None:
        return None
    (lengths0, lengths1), sequence = coded
    head = HEAD.pack(len(merges), len(ids), len(table), len(lengths0), len(lengths1),
                     _payload.bitmap(present), _payload.bitmap(class_of_byte & present))
    return head + table + lengths0 + lengths1 + sequence


def decode(payload, size, out):
    """The block's bytes into ``out`` (``size`` bytes)."""
    n_merges, n_ids, table_bytes, lengths0, lengths1, bitmap, class_bitmap = _payload.header(
        payload, HEAD, "CONTEXT")
    terminals = _payload.terminals(bitmap)
    _payload.check_counts(len(terminals), n_merges, n_ids, size)
    class_of_byte = np.unpackbits(np.frombuffer(class_bitmap, np.uint8), bitorder="little")
    if (class_of_byte & ~np.unpackbits(np.frombuffer(bitmap, np.uint8), bitorder="little")).any():
        raise GageBPEError("class bitmap marks a byte value the block does not hold")
    _coded_sequence.raise_problem(decode_payload(
        np.frombuffer(payload, np.uint8), n_merges, n_ids, table_bytes, lengths0, lengths1,
        terminals, class_of_byte, size, out))
    return out


@njit(cache=True, nogil=True)
def decode_payload(body, n_merges, n_ids, table_bytes, lengths0, lengths1, terminals,
                   class_of_byte, size, out):
    """The whole payload after its header, in one call; the problem number."""
    merges = np.empty((n_merges, 2), np.int32)
    problem = _coding_sorted.unpack_table(body, HEAD_SIZE, table_bytes, terminals.shape[0],
                                          merges)
    if problem:
        return problem
    return _coded_sequence.expand_in_contexts(
        body, HEAD_SIZE + table_bytes, np.array([lengths0, lengths1], np.int64), merges, n_ids,
        terminals, class_of_byte, size, out)
