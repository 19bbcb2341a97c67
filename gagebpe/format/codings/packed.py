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

from ...kernels import bits as _bits, grammar as _grammar
from . import payload as _payload
from ..._errors import UNDEFINED_MERGE, UNDEFINED_SYMBOL, WRONG_SIZE, GageBPEError
from .registry import PACKED

HEAD = struct.Struct("<II32s")  # merges, ids, terminal bitmap


def _section_sizes(n_terminals, n_merges, n_ids):
    """Bytes of the merge-table and sequence sections, and the id width."""
    id_width = int(n_terminals + n_merges - 1).bit_length()
    table_bits = int(_bits.merge_table_bits(n_terminals, n_merges))
    return (table_bits + 7) // 8, (n_ids * id_width + 7) // 8, id_width


def encode(grammar, hist):
    """The payload of the block with byte histogram ``hist`` and byte-level
    ``grammar`` (all of whose merges are kept)."""
    present = hist > 0
    n_terminals = int(present.sum())
    n_merges, n_ids = len(grammar.merges), len(grammar.ids)
    _, ids_bytes, id_width = _section_sizes(n_terminals, n_merges, n_ids)
    merges, ids = _payload.compact(present, grammar)
    table = np.zeros((_bits.merge_table_bits(n_terminals, n_merges) + 7) // 8, np.uint8)
    _bits.pack_merges(merges, n_terminals, table)
    packed_ids = np.zeros(ids_bytes, np.uint8)
    _bits.pack_fixed(ids, id_width, packed_ids)
    return (HEAD.pack(n_merges, n_ids, _payload.bitmap(present))
            + table.tobytes() + packed_ids.tobytes())


def unpack_table(table, n_merges, n_terminals):
    """The (n_merges, 2) merge table of PACKED's fixed-width section,
    checked to refer only to earlier symbols."""
    merges = np.empty((n_merges, 2), np.int32)
    if not _bits.unpack_merges(table, n_terminals, merges):
        raise GageBPEError(UNDEFINED_MERGE)
    return merges


def decode(payload, size, out):
    """The block's bytes into ``out`` (``size`` bytes)."""
    n_merges, n_ids, bitmap = _payload.header(payload, HEAD, "PACKED")
    terminals = _payload.terminals(bitmap)
    n_terminals = len(terminals)
    _payload.check_counts(n_terminals, n_merges, n_ids, size)
    table_bytes, ids_bytes, id_width = _section_sizes(n_terminals, n_merges, n_ids)
    if len(payload) != HEAD.size + table_bytes + ids_bytes:
        raise GageBPEError("PACKED block length disagrees with its counts")
    body = np.frombuffer(payload, np.uint8, offset=HEAD.size)
    table, ids_section = body[:table_bytes], body[table_bytes:]
    _payload.check_padding(table, int(_bits.merge_table_bits(n_terminals, n_merges)), "PACKED")
    _payload.check_padding(ids_section, n_ids * id_width, "PACKED")
    if n_merges == 0:  # terminals only: decode them in one pass
        if n_ids != size:
            raise GageBPEError(WRONG_SIZE)
        if not _bits.unpack_bytes(ids_section, id_width, terminals, out):
            raise GageBPEError(UNDEFINED_SYMBOL)
        return out
    ids = np.empty(n_ids, np.int32)
    _bits.unpack_fixed(ids_section, id_width, ids)
    merges = unpack_table(table, n_merges, n_terminals)
    return _grammar.expand(merges, ids, terminals, size, out)


DECODERS = {PACKED: decode}
