"""The CONTEXT and CONTEXT_LONG block codings (docs/FORMAT.md, sections
4.6 and 4.7): SORTED's compact merge table, then the sequence coded in two
contexts; CONTEXT_LONG has SORTED_LONG's table of long rules.

    payload = n_merges:u32  n_ids:u32  table_bytes:u32  length_bytes:u32 * 2
              terminals:32 bytes  classes:32 bytes
              merge_table  code_lengths * 2  sequence

Each byte value is in class 0 or 1 (the ``classes`` bitmap marks class 1),
and a symbol has the class of the last byte of its phrase.  An id is coded
with the code of context c, the class of the id before it: in text, what
follows the end of a word differs from what follows a space or a
punctuation mark, and one code for both wastes bits on each.  Decoding
still reads static tables, one per context.
"""
import struct

import numpy as np

from ...kernels import coded_sequence as _coded_sequence, expand as _expand
from . import sorted_rules as _coding_sorted, payload as _payload
from ..._errors import GageBPEError
from .registry import CONTEXT, CONTEXT_LONG
from ..._jit import njit

# merges, ids, bytes of the merge table, of each code-length section, bitmaps
HEAD = struct.Struct("<IIIII32s32s")
HEAD_SIZE = HEAD.size
# gagebpe puts letters in class 1.
LETTERS = np.zeros(256, bool)
LETTERS[np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", np.uint8)] = True


def encode(grammar, hist, rules=None, class_of_byte=LETTERS):
    """The payload of the block with byte histogram ``hist`` and byte-level
    ``grammar`` (all of whose merges are kept), numbered as ``rules`` says
    (``format.codings.sorted_rules.numbered``; None: its merges), byte value v in class
    ``class_of_byte[v]``; None if it cannot be coded (a context with more
    distinct symbols than codes of the length limit).  Where ``rules`` is
    of long rules, the payload is CONTEXT_LONG's."""
    present = hist > 0
    n_terminals = int(present.sum())
    if rules is None:
        rules = _coding_sorted.numbered(grammar, present)
    terminals = np.flatnonzero(present)
    classes = _expand.symbol_classes(rules.merges, n_terminals,
                                     class_of_byte[terminals].astype(np.uint8))
    phrase_lengths = _expand.symbol_lengths(rules.merges, n_terminals, int(hist.sum()))
    if len(rules.internal):  # the merges' numbers of the ids' symbols
        classes, phrase_lengths = classes[rules.internal], phrase_lengths[rules.internal]
    coded = _coded_sequence.encode_in_contexts(rules.ids, classes, phrase_lengths)
    if coded is None:
        return None
    (lengths0, lengths1), sequence = coded
    head = HEAD.pack(rules.n_rules, len(rules.ids), len(rules.table), len(lengths0),
                     len(lengths1), _payload.bitmap(present),
                     _payload.bitmap(class_of_byte & present))
    return head + rules.table + lengths0 + lengths1 + sequence


def decode(payload, size, out, long_rules=False):
    """The block's bytes into ``out`` (``size`` bytes).  ``long_rules``:
    of a CONTEXT_LONG payload."""
    n_merges, n_ids, table_bytes, lengths0, lengths1, bitmap, class_bitmap = _payload.header(
        payload, HEAD, "CONTEXT_LONG" if long_rules else "CONTEXT")
    terminals = _payload.terminals(bitmap)
    _payload.check_counts(len(terminals), n_merges, n_ids, size)
    class_of_byte = np.unpackbits(np.frombuffer(class_bitmap, np.uint8), bitorder="little")
    if (class_of_byte & ~np.unpackbits(np.frombuffer(bitmap, np.uint8), bitorder="little")).any():
        raise GageBPEError("class bitmap marks a byte value the block does not hold")
    _coded_sequence.raise_problem(decode_payload(
        np.frombuffer(payload, np.uint8), n_merges, n_ids, table_bytes, lengths0, lengths1,
        terminals, class_of_byte, long_rules, size, out))
    return out


def decode_long(payload, size, out):
    """A CONTEXT_LONG block's bytes into ``out`` (``decode``)."""
    return decode(payload, size, out, long_rules=True)


DECODERS = {CONTEXT: decode, CONTEXT_LONG: decode_long}


@njit(cache=True, nogil=True)
def decode_payload(body, n_merges, n_ids, table_bytes, lengths0, lengths1, terminals,
                   class_of_byte, long_rules, size, out):
    """The whole payload after its header, in one call; the problem number.
    ``long_rules``: CONTEXT_LONG's."""
    problem, merges, internal = _coding_sorted.unpack_table(
        body, HEAD_SIZE, table_bytes, terminals.shape[0], n_merges, long_rules)
    if problem:
        return problem
    return _coded_sequence.expand_in_contexts(
        body, HEAD_SIZE + table_bytes, np.array([lengths0, lengths1], np.int64), merges,
        internal, n_ids, terminals, class_of_byte, size, out)
