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
from ...kernels.coded_sequence import u32
from . import sorted_rules as _coding_sorted, payload as _payload, problems as _problems
from .registry import CONTEXT, CONTEXT_LONG, fields_at
from ..._jit import njit

# merges, ids, bytes of the merge table, of each code-length section, bitmaps
HEAD = struct.Struct("<IIIII32s32s")
HEAD_SIZE = HEAD.size
_LENGTHS0, _LENGTHS1, _BITMAP, _CLASSES = fields_at(HEAD)[3:]
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


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """A CONTEXT or CONTEXT_LONG block's bytes into ``out`` (``size``
    bytes); 0 or its problem (``format.codings.problems``)."""
    problem, n_ids, terminals, merges, internal, end = _coding_sorted.read_rules(
        payload, size, coding, HEAD_SIZE, _BITMAP, coding == CONTEXT_LONG)
    if problem:
        return problem
    class_of_byte = np.empty(256, np.uint8)
    for v in range(256):
        present = (payload[_BITMAP + (v >> 3)] >> (v & 7)) & 1
        marked = (payload[_CLASSES + (v >> 3)] >> (v & 7)) & 1
        if marked and not present:
            return _problems.at(coding, _problems.CLASSES)
        class_of_byte[v] = marked
    lengths = np.array([u32(payload, _LENGTHS0), u32(payload, _LENGTHS1)], np.int64)
    problem = _coded_sequence.expand_in_contexts(payload, end, lengths, merges, internal, n_ids,
                                                 terminals, class_of_byte, size, out)
    return _problems.at(coding, _problems.SEQUENCE + problem) if problem else 0


DECODERS = {CONTEXT: decode_block, CONTEXT_LONG: decode_block}
