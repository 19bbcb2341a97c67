"""Block codings: one block of bytes <-> (coding, payload).

STORED keeps the bytes as they are.  PACKED keeps a BPE grammar with every
symbol in a fixed number of bits (see docs/FORMAT.md, "PACKED").  New codings
get new numbers; a decoder refuses a number it does not know.
"""
import struct

import numpy as np

from . import _bits, grammar
from ._errors import GageBPEError

STORED = 1
PACKED = 2

_PACKED_HEAD = struct.Struct("<II32s")  # merges, ids, terminal bitmap


def bit_length(values):
    """``int.bit_length`` of each value of a non-negative int array."""
    return np.frexp(np.asarray(values, np.float64))[1].astype(np.int64)


def best_prefix(n, n_terminals, counts):
    """How many of the grammar's merges to keep so the PACKED payload is
    smallest: merge k pays while the symbols it removes outweigh its table
    entry and the wider codes every symbol needs as the alphabet grows."""
    d = np.arange(len(counts) + 1)
    seq_len = n - np.concatenate([[0], np.cumsum(counts)])
    merge_bits = np.concatenate(
        [[0], np.cumsum(2 * bit_length(n_terminals + d[:-1] - 1))])
    total = merge_bits + seq_len * bit_length(n_terminals + d - 1)
    return int(np.argmin(total))


def _section_sizes(n_terminals, n_merges, n_ids):
    """Bytes of the merge-table and sequence sections, and the id width."""
    id_width = int(n_terminals + n_merges - 1).bit_length()
    table_bits = int(_bits.merge_table_bits(n_terminals, n_merges))
    return (table_bits + 7) // 8, (n_ids * id_width + 7) // 8, id_width


def encode_packed(data, min_count=2):
    """PACKED payload of ``data`` (bytes), or None if it would not shrink."""
    present = np.bincount(np.frombuffer(data, np.uint8), minlength=256) > 0
    n_terminals = int(present.sum())
    g = grammar.encode(data, min_count=min_count)
    g = grammar.truncate(g, best_prefix(len(data), n_terminals, g.counts))
    n_merges, n_ids = len(g.merges), len(g.ids)
    table_bytes, ids_bytes, id_width = _section_sizes(n_terminals, n_merges, n_ids)
    if _PACKED_HEAD.size + table_bytes + ids_bytes >= len(data):
        return None
    # Number the symbols compactly: present bytes in order, then the merges.
    compact = np.concatenate([np.cumsum(present) - 1,
                              n_terminals + np.arange(n_merges)]).astype(np.int32)
    table = np.zeros(table_bytes, np.uint8)
    _bits.pack_merges(compact[g.merges], n_terminals, table)
    ids = np.zeros(ids_bytes, np.uint8)
    _bits.pack_fixed(compact[g.ids], id_width, ids)
    bitmap = np.packbits(present, bitorder="little").tobytes()
    return _PACKED_HEAD.pack(n_merges, n_ids, bitmap) + table.tobytes() + ids.tobytes()


def _check_padding(section, nbits):
    if nbits % 8 and section[-1] >> (nbits % 8):
        raise GageBPEError("PACKED block padding bits are not zero")


def decode_packed(payload, size):
    """Bytes of a PACKED payload that must expand to ``size`` bytes."""
    if len(payload) < _PACKED_HEAD.size:
        raise GageBPEError("PACKED block shorter than its header")
    n_merges, n_ids, bitmap = _PACKED_HEAD.unpack_from(payload)
    terminals = np.flatnonzero(
        np.unpackbits(np.frombuffer(bitmap, np.uint8), bitorder="little")
    ).astype(np.uint8)
    n_terminals = len(terminals)
    # Every id expands to at least one byte and every merge removes one id.
    if n_ids > size or n_merges >= size or n_terminals == 0:
        raise GageBPEError("PACKED block counts disagree with its size")
    table_bytes, ids_bytes, id_width = _section_sizes(n_terminals, n_merges, n_ids)
    if len(payload) != _PACKED_HEAD.size + table_bytes + ids_bytes:
        raise GageBPEError("PACKED block length disagrees with its counts")
    body = np.frombuffer(payload, np.uint8, offset=_PACKED_HEAD.size)
    table, ids_section = body[:table_bytes], body[table_bytes:]
    _check_padding(table, int(_bits.merge_table_bits(n_terminals, n_merges)))
    _check_padding(ids_section, n_ids * id_width)
    if n_merges == 0:  # terminals only: decode them in one pass
        if n_ids != size:
            raise GageBPEError("grammar does not expand to the declared size")
        out = np.empty(size, np.uint8)
        if not _bits.unpack_bytes(ids_section, id_width, terminals, out):
            raise GageBPEError("sequence refers to an undefined symbol")
        return out.tobytes()
    merges = np.empty((n_merges, 2), np.int32)
    _bits.unpack_merges(table, n_terminals, merges)
    ids = np.empty(n_ids, np.int32)
    _bits.unpack_fixed(ids_section, id_width, ids)
    return grammar.expand(merges, ids, n_terminals, terminals, size).tobytes()


def encode(data, min_count=2):
    """``(coding, payload)`` for one block: PACKED, or STORED if smaller."""
    payload = encode_packed(data, min_count) if len(data) else None
    if payload is None:
        return STORED, bytes(data)
    return PACKED, payload


def decode(coding, payload, size):
    """Bytes of one block; ``GageBPEError`` if the payload is malformed."""
    if coding == STORED:
        if len(payload) != size:
            raise GageBPEError("STORED block length disagrees with its size")
        return bytes(payload)
    if coding == PACKED:
        return decode_packed(payload, size)
    raise GageBPEError(f"unknown block coding {coding}")
