"""A block's sequence, Huffman-coded, as the HUFFMAN, SORTED and CONTEXT
codings store it: a code-length section (CONTEXT: one per context), then a
sequence section (docs/FORMAT.md).

The code-length section is 11 bytes of 4-bit lengths (a code for the
lengths 0..20), then each symbol's code length in that code, one stream.
The sequence section is the ids split round-robin over four streams, each
byte-padded, the sizes of the first three (u32) first, so that a decoder
follows four independent bit positions at once.  CONTEXT splits the ids
into four segments instead, one per stream, so that each stream is also
its own chain of contexts, and gives where the last three segments'
bytes start (u32) after the stream sizes.

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


def lengths_section(lengths, streams=1):
    """The code-length section of a code with these lengths, in ``streams``
    streams (CONTEXT's take STREAMS: they are read abreast)."""
    length_code = _huffman.code_lengths(
        np.bincount(lengths, minlength=LENGTH_SYMBOLS), LENGTH_CODE_MAX)
    return _nibbles(length_code) + _streams_section(lengths.astype(np.int32), length_code,
                                                    streams)


def encode(ids, freq):
    """``(code-length section, sequence section)`` of the sequence ``ids``,
    whose symbols occur ``freq`` times."""
    lengths = _huffman.code_lengths(freq, _huffman.MAX_LENGTH)
    return lengths_section(lengths), _streams_section(ids, lengths, _huffman.STREAMS)


def segment_bounds(n_ids):
    """Where each of the STREAMS segments of ``n_ids`` ids starts, and the end."""
    return [k * n_ids // _huffman.STREAMS for k in range(_huffman.STREAMS + 1)]


def contexts(ids, classes):
    """The context of each id: the class of the id before it in its
    segment; 0 for a segment's first."""
    context = np.zeros(len(ids), np.uint8)
    context[1:] = classes[ids[:-1]]
    context[[b for b in segment_bounds(len(ids))[:-1] if b < len(ids)]] = 0
    return context


def encode_in_contexts(ids, classes, phrase_lengths):
    """``(code-length sections, sequence section)`` of the sequence ``ids``
    coded in two contexts (``_expand.expand_contextual``): symbol s has
    class ``classes[s]`` and a phrase of ``phrase_lengths[s]`` bytes.  None
    if a context has more distinct symbols than codes of the length limit."""
    n_symbols = len(classes)
    context = contexts(ids, classes)
    lengths = np.zeros((2, n_symbols), np.uint8)
    for c in (0, 1):
        freq = np.bincount(ids[context == c], minlength=n_symbols)
        if np.count_nonzero(freq) > 1 << _huffman.MAX_LENGTH:
            return None
        lengths[c] = _huffman.code_lengths(freq, _huffman.MAX_LENGTH)
    bounds = segment_bounds(len(ids))
    parts = []
    for k in range(_huffman.STREAMS):
        segment = ids[bounds[k]:bounds[k + 1]]
        out = np.zeros((int(_huffman.contextual_bits(segment, classes, lengths)) + 7) // 8,
                       np.uint8)
        _huffman.encode_contextual(segment, classes, lengths, out)
        parts.append(out.tobytes())
    ends = np.cumsum(phrase_lengths[ids])
    starts = [int(ends[b - 1]) if b else 0 for b in bounds[1:-1]]
    head = struct.pack(f"<{2 * len(starts)}I", *(len(p) for p in parts[:-1]), *starts)
    return ([lengths_section(lengths[c], _huffman.STREAMS) for c in (0, 1)],
            head + b"".join(parts))


# -- decoding -------------------------------------------------------------------

def _streams(section, lengths, what, streams):
    """The streams of a section and their sizes, checked against the
    section; the code checked to be complete."""
    if not _huffman.is_complete(lengths):
        raise GageBPEError(f"{what} code is not a complete prefix code")
    return _split(section, what, streams)


def _split(section, what, streams, skip=0):
    """The streams of a section, after its stream sizes (u32, all but the
    last) and ``skip`` bytes more, and their sizes, checked."""
    head = 4 * (streams - 1) + skip
    if len(section) < head:
        raise GageBPEError(f"{what} section shorter than its stream sizes")
    sizes = np.empty(streams, np.int64)
    sizes[:-1] = np.frombuffer(section[:4 * (streams - 1)].tobytes(), "<u4")
    sizes[-1] = len(section) - head - sizes[:-1].sum()
    if sizes[-1] < 0:
        raise GageBPEError(f"{what} stream sizes overrun the section")
    return section[head:], sizes


def _code_lengths(section, n_symbols, streams=1):
    """The code length of each of ``n_symbols`` symbols, from a whole
    code-length section (of at least LENGTH_CODE_BYTES) in ``streams``
    streams."""
    nibbles = section[:LENGTH_CODE_BYTES]
    length_code = np.empty(2 * LENGTH_CODE_BYTES, np.uint8)
    length_code[0::2] = nibbles & 15
    length_code[1::2] = nibbles >> 4
    if length_code[LENGTH_SYMBOLS:].any():
        raise GageBPEError("code-length code padding is not zero")
    body, sizes = _streams(section[LENGTH_CODE_BYTES:], length_code[:LENGTH_SYMBOLS],
                           "code-length", streams)
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


def decode_in_contexts(body, start, length_bytes, merges, n_ids, terminals, class_of_byte,
                       size, out):
    """Expand the two code-length sections (``length_bytes`` each) and the
    sequence section coded in contexts (``encode_in_contexts``) from
    ``body[start:]``, whose merges ``merges`` are checked and whose byte
    values have the classes ``class_of_byte``, to exactly ``size`` bytes,
    into ``out``."""
    n_terminals = len(terminals)
    n_symbols = n_terminals + len(merges)
    lengths = np.empty((2, n_symbols), np.uint8)
    for c in (0, 1):
        if length_bytes[c] < LENGTH_CODE_BYTES:
            raise GageBPEError("code-length section shorter than its header")
        lengths[c] = _code_lengths(_payload.section(body, start, length_bytes[c]), n_symbols,
                                   _huffman.STREAMS)
        # A context no id is coded in has no code.
        if lengths[c].any() and not _huffman.is_complete(lengths[c]):
            raise GageBPEError(f"context {c} code is not a complete prefix code")
        start += length_bytes[c]
    section = body[start:]
    head = 4 * (_huffman.STREAMS - 1)
    streams, sizes = _split(section, "sequence", _huffman.STREAMS, skip=head)
    starts = np.zeros(_huffman.STREAMS + 1, np.int64)
    starts[1:-1] = np.frombuffer(section[head:2 * head].tobytes(), "<u4")
    starts[-1] = size
    if not starts[0] <= starts[1] <= starts[2] <= starts[3] <= starts[4]:
        raise GageBPEError("sequence segments out of order")
    classes = _expand.symbol_classes(merges, n_terminals, class_of_byte[terminals])
    written = _expand.expand_contextual(
        streams, sizes, starts, lengths, classes, merges, n_terminals, terminals,
        _expand.symbol_lengths(merges, n_terminals, size), n_ids, out, size)
    if written != size:
        raise GageBPEError("sequence disagrees with its codes or "
                           "does not expand to the declared size")
    return out
