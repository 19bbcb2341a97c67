"""A block's sequence, Huffman-coded, as the SORTED and CONTEXT codings
(and their long-rule forms) store it: a code-length section (CONTEXT: one
per context), then a sequence section (docs/FORMAT.md).

The code-length section is 11 bytes of 4-bit lengths (a code for the
lengths 0..20), then each symbol's code length in that code, one stream.
The sequence section is the ids split round-robin over four streams, each
byte-padded, the sizes of the first three (u32) first, so that a decoder
follows four independent bit positions at once.  CONTEXT splits the ids
into four segments instead, one per stream, so that each stream is also
its own chain of contexts, and gives where the last three segments'
bytes start (u32) after the stream sizes.
"""
import struct

import numpy as np

from . import expand as _expand, huffman as _huffman
from .._errors import GageBPEError
from .._jit import njit

# The code-length table's own code: lengths 0..MAX_LENGTH, each described
# by a 4-bit length.
LENGTH_SYMBOLS = _huffman.MAX_LENGTH + 1
LENGTH_CODE_BYTES = (4 * LENGTH_SYMBOLS + 7) // 8
LENGTH_CODE_MAX = 15
# ``internal`` for a grammar of merges: its symbols are its merges' own.
NO_INTERNAL = np.empty(0, np.int32)


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
    coded in two contexts (``kernels.expand.expand_contextual``): symbol s has
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
#
# The decoding kernels return a problem number: 0 when the block decoded,
# else an index into PROBLEMS, which ``raise_problem`` turns into the error.
# One kernel call decodes a whole sequence: a small block's time goes to
# calls, not to symbols.

PROBLEMS = (
    None,
    "code-length section shorter than its header",
    "code-length code padding is not zero",
    "code-length code is not a complete prefix code",
    "code-length section shorter than its stream sizes",
    "code-length stream sizes overrun the section",
    "code-length section disagrees with its codes",
    "sequence code is not a complete prefix code",
    "sequence section shorter than its stream sizes",
    "sequence stream sizes overrun the section",
    "sequence disagrees with its codes or does not expand to the declared size",
    "block sections overrun its payload",
    "a context's code is not a complete prefix code",
    "sequence segments out of order",
    "merge table is malformed or refers to an undefined symbol",
)
(_SHORT_LENGTHS, _LENGTH_PADDING, _LENGTH_CODE, _LENGTH_SPLIT, _, _LENGTH_STREAMS, _SEQUENCE_CODE,
 _SEQUENCE_SPLIT, _, _EXPANSION, OVERRUN, _CONTEXT_CODE, _SEGMENTS,
 BAD_TABLE) = range(1, len(PROBLEMS))
_SPLIT_SHORT, _SPLIT_OVERRUN = 0, 1  # added to a section's _SPLIT problem


def raise_problem(problem):
    """Raise the error a decoding kernel's problem number stands for."""
    if problem:
        raise GageBPEError(PROBLEMS[problem])


@njit(cache=True, nogil=True, inline='always')
def u16(a, i):
    """The little-endian u16 at ``a[i:i + 2]``, as an int64."""
    return np.int64(a[i]) | (np.int64(a[i + 1]) << 8)


@njit(cache=True, nogil=True, inline='always')
def u32(a, i):
    """The little-endian u32 at ``a[i:i + 4]``, as an int64."""
    return (np.int64(a[i]) | (np.int64(a[i + 1]) << 8) | (np.int64(a[i + 2]) << 16)
            | (np.int64(a[i + 3]) << 24))


@njit(cache=True, nogil=True)
def _split(section, streams, skip):
    """``(problem, start, sizes)``: where the streams of a section begin,
    after their sizes (u32, all but the last) and ``skip`` bytes more, and
    their sizes; problem 1 + _SPLIT_SHORT or 1 + _SPLIT_OVERRUN if they do
    not fit (0 if they do)."""
    head = 4 * (streams - 1) + skip
    sizes = np.zeros(streams, np.int64)
    if section.shape[0] < head:
        return 1 + _SPLIT_SHORT, 0, sizes
    total = np.int64(0)
    for k in range(streams - 1):
        sizes[k] = u32(section, 4 * k)
        total += sizes[k]
    sizes[streams - 1] = section.shape[0] - head - total
    if sizes[streams - 1] < 0:
        return 1 + _SPLIT_OVERRUN, 0, sizes
    return 0, head, sizes


@njit(cache=True, nogil=True)
def read_lengths(section, streams, lengths):
    """Fill ``lengths`` (uint8, one per symbol) from a whole code-length
    section in ``streams`` streams; the problem number."""
    if section.shape[0] < LENGTH_CODE_BYTES:
        return _SHORT_LENGTHS
    length_code = np.empty(2 * LENGTH_CODE_BYTES, np.uint8)
    for i in range(LENGTH_CODE_BYTES):
        length_code[2 * i] = section[i] & 15
        length_code[2 * i + 1] = section[i] >> 4
    for i in range(LENGTH_SYMBOLS, 2 * LENGTH_CODE_BYTES):
        if length_code[i]:
            return _LENGTH_PADDING
    length_code = length_code[:LENGTH_SYMBOLS]
    if not _huffman.is_complete(length_code):
        return _LENGTH_CODE
    body = section[LENGTH_CODE_BYTES:]
    problem, start, sizes = _split(body, streams, 0)
    if problem:
        return _LENGTH_SPLIT + problem - 1
    if not _huffman.decode(body[start:], sizes, length_code, lengths):
        return _LENGTH_STREAMS
    return 0


@njit(cache=True, nogil=True)
def _section_lengths(body, start, length_bytes, streams, lengths):
    """``read_lengths`` of the section of ``length_bytes`` at ``start``."""
    if length_bytes < LENGTH_CODE_BYTES:
        return _SHORT_LENGTHS
    if start + length_bytes > body.shape[0]:
        return OVERRUN
    return read_lengths(body[start:start + length_bytes], streams, lengths)


@njit(cache=True, nogil=True)
def _internal_lengths(lengths, internal, n_symbols):
    """Code lengths read for the symbols of a grammar of long rules, moved
    to those symbols' numbers among its merges (``kernels.long_rules``); the
    others get none.  The numbers keep the symbols' order, so the
    canonical codes stay the same."""
    moved = np.zeros(n_symbols, np.uint8)
    for s in range(internal.shape[0]):
        moved[internal[s]] = lengths[s]
    return moved


@njit(cache=True, nogil=True)
def expand_sequence(body, start, length_bytes, merges, internal, n_ids, terminals, size, out):
    """Expand the code-length and sequence sections from ``body[start:]``
    (merges ``merges``, checked) to exactly ``size`` bytes, into ``out``;
    the problem number.  ``internal``: empty, or the merges' number of
    each symbol the ids use (a grammar of long rules)."""
    n_terminals = terminals.shape[0]
    n_symbols = n_terminals + merges.shape[0]
    lengths = np.empty(internal.shape[0] if internal.shape[0] else n_symbols, np.uint8)
    problem = _section_lengths(body, start, length_bytes, 1, lengths)
    if problem:
        return problem
    if not _huffman.is_complete(lengths):
        return _SEQUENCE_CODE
    if internal.shape[0]:
        lengths = _internal_lengths(lengths, internal, n_symbols)
    section = body[start + length_bytes:]
    problem, at, sizes = _split(section, _huffman.STREAMS, 0)
    if problem:
        return _SEQUENCE_SPLIT + problem - 1
    written = _expand.expand_coded(
        section[at:], sizes, lengths, merges, n_terminals, terminals,
        _expand.symbol_lengths(merges, n_terminals, size), n_ids, out, size)
    return 0 if written == size else _EXPANSION


@njit(cache=True, nogil=True)
def expand_in_contexts(body, start, length_bytes, merges, internal, n_ids, terminals,
                       class_of_byte, size, out):
    """Expand the two code-length sections (``length_bytes[c]`` bytes each)
    and the sequence section coded in contexts (``encode_in_contexts``)
    from ``body[start:]``, whose merges ``merges`` are checked and whose
    byte values have the classes ``class_of_byte``, to exactly ``size``
    bytes, into ``out``; the problem number.  ``internal`` as for
    ``expand_sequence``."""
    n_terminals = terminals.shape[0]
    n_symbols = n_terminals + merges.shape[0]
    read = np.empty((2, internal.shape[0] if internal.shape[0] else n_symbols), np.uint8)
    lengths = np.empty((2, n_symbols), np.uint8)
    for c in range(2):
        problem = _section_lengths(body, start, length_bytes[c], _huffman.STREAMS, read[c])
        if problem:
            return problem
        # A context no id is coded in has no code.
        if read[c].any() and not _huffman.is_complete(read[c]):
            return _CONTEXT_CODE
        start += length_bytes[c]
        lengths[c] = (_internal_lengths(read[c], internal, n_symbols) if internal.shape[0]
                      else read[c])
    section = body[start:]
    head = 4 * (_huffman.STREAMS - 1)
    problem, at, sizes = _split(section, _huffman.STREAMS, head)
    if problem:
        return _SEQUENCE_SPLIT + problem - 1
    starts = np.zeros(_huffman.STREAMS + 1, np.int64)
    for k in range(_huffman.STREAMS - 1):
        starts[k + 1] = u32(section, head + 4 * k)
    starts[_huffman.STREAMS] = size
    for k in range(_huffman.STREAMS):
        if starts[k] > starts[k + 1]:
            return _SEGMENTS
    term_classes = np.empty(n_terminals, np.uint8)
    for i in range(n_terminals):
        term_classes[i] = class_of_byte[terminals[i]]
    classes = _expand.symbol_classes(merges, n_terminals, term_classes)
    written = _expand.expand_contextual(
        section[at:], sizes, starts, lengths, classes, merges, n_terminals, terminals,
        _expand.symbol_lengths(merges, n_terminals, size), n_ids, out, size)
    return 0 if written == size else _EXPANSION


def decode(body, start, length_bytes, merges, n_ids, terminals, size, out):
    """Expand the code-length and sequence sections from ``body[start:]``
    (merges ``merges``, checked) to exactly ``size`` bytes, into ``out``."""
    raise_problem(expand_sequence(body, start, length_bytes, merges, NO_INTERNAL, n_ids,
                                  terminals, size, out))
    return out
