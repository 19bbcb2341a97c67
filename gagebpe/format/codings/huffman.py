"""The HUFFMAN block coding (3), which gagebpe 0.1 wrote and later versions
only read: PACKED's fixed-width merge table, then the Huffman-coded
sequence (docs/FORMAT.md).

    payload = n_merges:u32  n_ids:u32  length_bytes:u32  terminals:32 bytes
              merge_table  code_lengths  sequence

Imports ``format.codings.payload``, ``format.codings.packed`` (its merge table) and
``kernels.coded_sequence``, and the kernels ``kernels.bits``.
"""
import struct

import numpy as np

from ...kernels import bits as _bits, coded_sequence as _coded_sequence
from . import packed as _coding_packed, payload as _payload

HEAD = struct.Struct("<III32s")  # merges, ids, bytes of the code lengths, bitmap


def decode(payload, size, out):
    """The block's bytes into ``out`` (``size`` bytes)."""
    n_merges, n_ids, length_bytes, bitmap = _payload.header(payload, HEAD, "HUFFMAN")
    terminals = _payload.terminals(bitmap)
    _payload.check_counts(len(terminals), n_merges, n_ids, size)
    table_bits = int(_bits.merge_table_bits(len(terminals), n_merges))
    body = np.frombuffer(payload, np.uint8)
    table = _payload.section(body, HEAD.size, (table_bits + 7) // 8)
    _payload.check_padding(table, table_bits, "HUFFMAN")
    merges = _coding_packed.unpack_table(table, n_merges, len(terminals))
    return _coded_sequence.decode(body, HEAD.size + len(table), length_bytes,
                                  merges, n_ids, terminals, size, out)
