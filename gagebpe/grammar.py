"""Byte-pair encoding as a grammar: bytes <-> (merges, ids).

The grammar itself, for people who want more than compressed bytes::

    g = gagebpe.grammar.encode(b"abababab")
    g.merges   # int32 (d, 2): merge k made symbol 256 + k from merges[k]
    g.ids      # int32: the final sequence over bytes (0..255) and merges
    g.counts   # int64: how many pairs merge k replaced
    gagebpe.grammar.decode(g.merges, g.ids) == b"abababab"

Greedy BPE in Re-Pair's form: every non-overlapping occurrence, left to
right, of the most frequent adjacent pair is replaced by a new symbol, ties
going to the smallest pair (a, b), until no pair occurs ``min_count`` times.
"""
import numpy as np
import numpy.typing as npt

from ._types import BytesLike

from .kernels.grammar import N_BYTES, Grammar, build, decoded_size, expand

__all__ = ["Grammar", "encode", "decode"]


def encode(data: BytesLike, *, min_count: int = 2, max_merges: int | None = None) -> Grammar:
    """The greedy BPE grammar of ``data`` (bytes-like): merge while the top
    pair occurs at least ``min_count`` (>= 2) times, making at most
    ``max_merges`` merges (None: no limit)."""
    return build(data, min_count, max_merges)


def decode(merges: npt.ArrayLike, ids: npt.ArrayLike) -> bytes:
    """The bytes of the grammar ``(merges, ids)`` over the byte alphabet.
    Raises ``GageBPEError`` if a merge or an id refers to a symbol not
    defined before it, or the expansion would pass 2^40 bytes."""
    merges = np.ascontiguousarray(merges, np.int32).reshape(-1, 2)
    ids = np.ascontiguousarray(ids, np.int32)
    size = decoded_size(merges, ids)
    terminals = np.arange(N_BYTES, dtype=np.uint8)
    terminals.flags.writeable = False  # the decoders' kernel signature
    return expand(merges, ids, terminals, size, np.empty(size, np.uint8)).tobytes()
