"""The PACKED block coding (docs/FORMAT.md, section 4.3): a grammar with
every symbol in a fixed number of bits.

    payload = n_merges:u32  n_ids:u32  terminals:32 bytes  merge_table  sequence

Merge k's halves take ``bit_length(t + k - 1)`` bits each; every id takes
``bit_length(t + n_merges - 1)``.  Decoding is a table lookup per id, the
fastest of the grammar codings; a block of few distinct bytes and no
merges (DNA, say) decodes in one pass.
"""
import struct

import numpy as np

from ...kernels import bits as _bits, expand as _expand
from . import payload as _payload, problems as _problems
from ..._jit import njit
from .registry import PACKED, fields_at

HEAD = struct.Struct("<II32s")  # merges, ids, terminal bitmap
HEAD_SIZE = HEAD.size
_BITMAP = fields_at(HEAD)[2]


@njit(cache=True, nogil=True)
def _section_bits(n_terminals, n_merges, n_ids):
    """Bits of the merge-table and sequence sections, and the id width."""
    id_width = _bits.bit_length(n_terminals + n_merges - 1)
    return _bits.merge_table_bits(n_terminals, n_merges), n_ids * id_width, id_width


def encode(grammar, hist):
    """The payload of the block with byte histogram ``hist`` and byte-level
    ``grammar`` (all of whose merges are kept)."""
    present = hist > 0
    n_terminals = int(present.sum())
    n_merges, n_ids = len(grammar.merges), len(grammar.ids)
    table_bits, ids_bits, id_width = _section_bits(n_terminals, n_merges, n_ids)
    merges, ids = _payload.compact(present, grammar)
    table = np.zeros((table_bits + 7) // 8, np.uint8)
    _bits.pack_merges(merges, n_terminals, table)
    packed_ids = np.zeros((ids_bits + 7) // 8, np.uint8)
    _bits.pack_fixed(ids, id_width, packed_ids)
    return (HEAD.pack(n_merges, n_ids, _payload.bitmap(present))
            + table.tobytes() + packed_ids.tobytes())


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """A PACKED block's bytes into ``out`` (``size`` bytes); 0 or its
    problem (``format.codings.problems``)."""
    problem, n_merges, n_ids, terminals = _payload.read_head(payload, size, coding, HEAD_SIZE,
                                                             _BITMAP)
    if problem:
        return problem
    n_terminals = terminals.shape[0]
    table_bits, ids_bits, id_width = _section_bits(n_terminals, n_merges, n_ids)
    table_end = HEAD_SIZE + (table_bits + 7) // 8
    if payload.shape[0] != table_end + (ids_bits + 7) // 8:
        return _problems.at(coding, _problems.LENGTH)
    table, ids_section = payload[HEAD_SIZE:table_end], payload[table_end:]
    if not (_payload.padded_with_zeros(table, table_bits)
            and _payload.padded_with_zeros(ids_section, ids_bits)):
        return _problems.at(coding, _problems.PADDING)
    if n_merges == 0:  # terminals only: decode them in one pass
        if n_ids != size:
            return _problems.at(coding, _problems.BAD_SIZE)
        if not _bits.unpack_bytes(ids_section, id_width, terminals, out):
            return _problems.at(coding, _problems.BAD_SYMBOL)
        return 0
    ids = np.empty(n_ids, np.int32)
    _bits.unpack_fixed(ids_section, id_width, ids)
    merges = np.empty((n_merges, 2), np.int32)
    if not _bits.unpack_merges(table, n_terminals, merges):
        return _problems.at(coding, _problems.BAD_MERGE)
    lengths = _expand.symbol_lengths(merges, n_terminals, size)
    written = _expand.expand(merges, ids, n_terminals, terminals, lengths, out, size)
    if written < 0:
        return _problems.at(coding, _problems.BAD_SYMBOL)
    return 0 if written == size else _problems.at(coding, _problems.BAD_SIZE)


DECODERS = {PACKED: decode_block}
