"""What the grammar codings' payloads share: the terminal bitmap, the
grammar renumbered over the terminals it marks, and the checks of counts
and sections every decoder makes before trusting them.

A block's terminals are the byte values it contains, in increasing order:
symbols ``0 .. t-1``, then merge k is symbol ``t + k``.  The bitmap has bit
``v % 8`` of byte ``v // 8`` set for each value v present.
"""
import functools

import numpy as np

from ..._errors import GageBPEError

BITMAP_BYTES = 32


def bitmap(present):
    """The 32-byte bitmap of the byte values where ``present`` is true."""
    return np.packbits(present, bitorder="little").tobytes()


@functools.lru_cache(maxsize=256)
def terminals(bitmap_bytes):
    """The byte values a bitmap (bytes) marks, in increasing order (a
    read-only uint8 array: remembered, since the blocks of one kind of data
    share their few bitmaps, and a small block's decoding would otherwise
    spend a tenth of its time here)."""
    values = np.flatnonzero(
        np.unpackbits(np.frombuffer(bitmap_bytes, np.uint8), bitorder="little")
    ).astype(np.uint8)
    values.flags.writeable = False
    return values


def compact(present, grammar):
    """The byte-level grammar's merges and ids renumbered over the terminals
    ``present`` marks: those byte values in order, then the merges."""
    n_terminals = int(present.sum())
    numbers = np.concatenate([np.cumsum(present) - 1,
                              n_terminals + np.arange(len(grammar.merges))]).astype(np.int32)
    return numbers[grammar.merges], numbers[grammar.ids]


def check_counts(n_terminals, n_merges, n_ids, size):
    """Refuse counts no grammar of ``size`` bytes has: every id expands to
    at least one byte and every merge removes one id."""
    if n_ids > size or n_merges >= size or n_terminals == 0:
        raise GageBPEError("block counts disagree with its size")


def check_padding(section, nbits, coding):
    """Refuse a section of ``nbits`` bits whose last byte's spare bits are
    not zero."""
    if nbits % 8 and section[-1] >> (nbits % 8):
        raise GageBPEError(f"{coding} block padding bits are not zero")


def section(body, start, length):
    """``body[start:start + length]``, which must lie within ``body``."""
    if start + length > len(body):
        raise GageBPEError("block sections overrun its payload")
    return body[start:start + length]


def header(payload, layout, coding):
    """The fields of a payload's fixed header (a ``struct.Struct``)."""
    if len(payload) < layout.size:
        raise GageBPEError(f"{coding} block shorter than its header")
    return layout.unpack_from(payload)
