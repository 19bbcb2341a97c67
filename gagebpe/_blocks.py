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


def _widths(n_terminals, n_merges):
    """Bits per value: merge k's two symbols lie below ``n_terminals + k``,
    the sequence's below ``n_terminals + n_merges``."""
    merge_widths = np.repeat(bit_length(n_terminals + np.arange(n_merges) - 1), 2)
    id_width = int(bit_length(n_terminals + n_merges - 1))
    return merge_widths, id_width


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


def encode_packed(data, min_count=2):
    """PACKED payload of ``data`` (bytes), or None if it would not shrink."""
    present = np.bincount(np.frombuffer(data, np.uint8), minlength=256) > 0
    n_terminals = int(present.sum())
    g = grammar.encode(data, min_count=min_count)
    g = grammar.truncate(g, best_prefix(len(data), n_terminals, g.counts))
    # Number the symbols compactly: present bytes in order, then the merges.
    n_merges = len(g.merges)
    compact = np.concatenate([np.cumsum(present) - 1,
                              n_terminals + np.arange(n_merges)]).astype(np.int32)
    merge_widths, id_width = _widths(n_terminals, n_merges)
    values = np.concatenate([compact[g.merges].ravel(), compact[g.ids]])
    widths = np.concatenate([merge_widths,
                             np.full(len(g.ids), id_width)]).astype(np.uint8)
    nbytes = (int(widths.sum(dtype=np.int64)) + 7) // 8
    if _PACKED_HEAD.size + nbytes >= len(data):
        return None
    body = np.zeros(nbytes, np.uint8)
    _bits.pack(values, widths, body)
    head = _PACKED_HEAD.pack(n_merges, len(g.ids), np.packbits(present, bitorder="little").tobytes())
    return head + body.tobytes()


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
    if n_ids > size or n_merges >= size or (n_terminals == 0 and size > 0):
        raise GageBPEError("PACKED block counts disagree with its size")
    merge_widths, id_width = _widths(n_terminals, n_merges)
    nbits = int(merge_widths.sum()) + n_ids * id_width
    if len(payload) != _PACKED_HEAD.size + (nbits + 7) // 8:
        raise GageBPEError("PACKED block length disagrees with its counts")
    if nbits % 8 and payload[-1] >> (nbits % 8):
        raise GageBPEError("PACKED block padding bits are not zero")
    widths = np.concatenate([merge_widths, np.full(n_ids, id_width)]).astype(np.uint8)
    values = np.empty(len(widths), np.int32)
    _bits.unpack(np.frombuffer(payload, np.uint8, offset=_PACKED_HEAD.size),
                 widths, values)
    merges = values[:2 * n_merges].reshape(-1, 2)
    ids = values[2 * n_merges:]
    grammar.check(merges, ids, n_terminals)
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
