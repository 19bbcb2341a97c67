"""What the grammar codings' payloads share: the terminal bitmap, the
grammar renumbered over the terminals it marks, and the checks of counts
and padding their decoding kernels make before trusting them.

A block's terminals are the byte values it contains, in increasing order:
symbols ``0 .. t-1``, then merge k is symbol ``t + k``.  The bitmap has bit
``v % 8`` of byte ``v // 8`` set for each value v present.
"""
import numpy as np

from ..._jit import njit
from ...kernels.coded_sequence import u32
from . import problems as _problems

BITMAP_BYTES = 32


def bitmap(present):
    """The 32-byte bitmap of the byte values where ``present`` is true."""
    return np.packbits(present, bitorder="little").tobytes()


def compact(present, grammar):
    """The byte-level grammar's merges and ids renumbered over the terminals
    ``present`` marks: those byte values in order, then the merges."""
    n_terminals = int(present.sum())
    numbers = np.concatenate([np.cumsum(present) - 1,
                              n_terminals + np.arange(len(grammar.merges))]).astype(np.int32)
    return numbers[grammar.merges], numbers[grammar.ids]


@njit(cache=True, nogil=True)
def _terminals(payload, at):
    """The byte values the bitmap at ``payload[at:]`` marks, in increasing
    order."""
    values = np.empty(256, np.uint8)
    n = 0
    for v in range(256):
        if (payload[at + (v >> 3)] >> (v & 7)) & 1:
            values[n] = v
            n += 1
    return values[:n]


@njit(cache=True, nogil=True)
def read_head(payload, size, coding, head_size, bitmap_at):
    """``(problem, n_merges, n_ids, terminals)`` from the head of a grammar
    coding's payload (``head_size`` bytes, which begin with the two counts,
    the terminal bitmap at ``bitmap_at``), checked: a grammar of ``size``
    bytes has at least one terminal, every id expands to at least one byte
    and every merge removes one id.  ``problem`` is 0 or the block's
    (``format.codings.problems``)."""
    terminals = np.empty(0, np.uint8)
    if payload.shape[0] < head_size:
        return _problems.at(coding, _problems.SHORT_HEAD), 0, 0, terminals
    n_merges, n_ids = u32(payload, 0), u32(payload, 4)
    terminals = _terminals(payload, bitmap_at)
    if not (n_ids <= size and n_merges < size and terminals.shape[0] > 0):
        return _problems.at(coding, _problems.COUNTS), 0, 0, terminals
    return 0, n_merges, n_ids, terminals


@njit(cache=True, nogil=True, inline="always")
def padded_with_zeros(section, nbits):
    """Whether a section of ``nbits`` bits has zeros in its last byte's
    spare bits."""
    return nbits % 8 == 0 or section[-1] >> (nbits % 8) == 0
