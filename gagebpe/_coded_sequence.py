"""A block's sequence, Huffman-coded, as the HUFFMAN and SORTED codings
store it: a code-length section, then a sequence section (docs/FORMAT.md).

The code-length section is 11 bytes of 4-bit lengths (a code for the
lengths 0..20), then each symbol's code length in that code, one stream.
The sequence section is the ids split round-robin over four streams, each
byte-padded, the sizes of the first three (u32) first, so that a decoder
follows four independent bit positions at once.

Imports ``_errors``, ``_payload`` and the kernels ``_huffman``, ``_expand``.
"""
import struct

import numpy as np

from . import _expand, _huffman, _payload
from ._errors import GageBPEError

# The code-length table's own code: lengths 0..MAX_LENGTH, each described
# by a 4-bit length.
LENGTH_SYMBOLS = _huffman.MAX_LENGTH + 1
LENGTH_CODE_BYTES = (4 * LENGTH_SYMBOLS + 7) // 8
LENGTH_CODE_MAX = 15


# -- encoding -------------------------------------------------------------------

def _streams_section(symbols, lengths, streams=1):
    """The codes of ``symbols``, split round-robin over ``streams`` streams,
    each padded to a byte; with several, their sizes (u32, all but the
    last) come first."""
    parts = []
    for k in range(streams):
        part = symbols[k::streams]
        out = np.zeros((int(_huffman.encoded_bits(part, lengths)) + 7) // 8, np.uint8)
        _huffman.encode(part, lengths, out)
        parts.append(out.tobytes())
    sizes = b"".join(struct.pack("<I", len(p)) for p in parts[:-1])
    return sizes + b"".join(parts)


def _nibbles(values):
    padded = np.zeros(2 * LENGTH_CODE_BYTES, np.uint8)
    padded[:len(values)] = values
    return (padded[0::2] | (padded[1::2] << 4)).tobytes()


def encode(ids, freq):
    """``(code-length section, sequence section)`` of the sequence ``ids``,
    whose symbols occur ``freq`` times."""
    lengths = _huffman.code_lengths(freq, _huffman.MAX_LENGTH)
    length_code = _huffman.code_lengths(
        np.bincount(lengths, minlength=LENGTH_SYMBOLS), LENGTH_CODE_MAX)
    return (_nibbles(length_code)
            + _streams_section(lengths.astype(np.int32), length_code),
            _streams_section(ids, lengths, _huffman.STREAMS))


# -- decoding -------------------------------------------------------------------

def _streams(section, lengths, what, streams):
    """The streams of a section and their sizes, checked against the
    section; the code checked to be complete."""
    if not _huffman.is_complete(lengths):
        raise GageBPEError(f"{what} code is not a complete prefix code")
    head = 4 * (streams - 1)
    if len(section) < head:
        raise GageBPEError(f"{what} section shorter than its stream sizes")
    sizes = np.empty(streams, np.int64)
    sizes[:-1] = np.frombuffer(section[:head].tobytes(), "<u4")
    sizes[-1] = len(section) - head - sizes[:-1].sum()
    if sizes[-1] < 0:
        raise GageBPEError(f"{what} stream sizes overrun the section")
    return section[head:], sizes


def _code_lengths(section, n_symbols):
    """The code length of each of ``n_symbols`` symbols, from a whole
    code-length section (of at least LENGTH_CODE_BYTES)."""
    nibbles = section[:LENGTH_CODE_BYTES]
    length_code = np.empty(2 * LENGTH_CODE_BYTES, np.uint8)
    length_code[0::2] = nibbles & 15
    length_code[1::2] = nibbles >> 4
    if length_code[LENGTH_SYMBOLS:].any():
        raise GageBPEError("code-length code padding is not zero")
    body, sizes = _streams(section[LENGTH_CODE_BYTES:], length_code[:LENGTH_SYMBOLS],
                           "code-length", 1)
    lengths = np.empty(n_symbols, np.int32)
    if not _huffman.decode(body, sizes, length_code[:LENGTH_SYMBOLS], lengths):
        raise GageBPEError("code-length section disagrees with its codes")
    return lengths.astype(np.uint8)


def decode(body, start, length_bytes, merges, n_ids, terminals, size, out):
    """Expand the code-length and sequence sections from ``body[start:]``
    (merges ``merges``, checked) to exactly ``size`` bytes, into ``out``."""
    n_terminals = len(terminals)
    if length_bytes < LENGTH_CODE_BYTES:
        raise GageBPEError("code-length section shorter than its header")
    section = _payload.section(body, start, length_bytes)
    lengths = _code_lengths(section, n_terminals + len(merges))
    streams, sizes = _streams(body[start + length_bytes:], lengths, "sequence",
                              _huffman.STREAMS)
    written = _expand.expand_coded(
        streams, sizes, lengths, merges, n_terminals, terminals,
        _expand.symbol_lengths(merges, n_terminals, size), n_ids, out, size)
    if written != size:
        raise GageBPEError("sequence disagrees with its codes or "
                           "does not expand to the declared size")
    return out
