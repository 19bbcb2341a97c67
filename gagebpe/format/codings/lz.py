"""The LZ and LZ_PARTS block codings (docs/FORMAT.md, sections 4.11 and
4.14): the block as literals and copies (``kernels.lz``), Huffman-coded.

    LZ payload       = length_slots:u8  distance_slots:u8  bit stream
    LZ_PARTS payload = part...
    part             = size:u32  length_slots:u8  distance_slots:u8
                       stream_size:u32  bit stream

A bit stream holds the code-length table of the literal/length code
(256 + ``length_slots`` symbols) and the distance code (``nreps`` +
``distance_slots``: LZ's one repeat distance, LZ_PARTS's three), then
the tokens, MSB first, padded with zero bits to the end of its last
byte.  A block under SMALL bytes is coded as LZ, a larger one as
LZ_PARTS, a part for each segment of its parse.

Imports ``_errors``, ``format.registry``, ``plain.lz`` (its first prices)
and the kernels ``kernels.huffman``, ``kernels.lz``.
"""
import struct

import numpy as np

from ...kernels import huffman as _huffman, lz as _lz
from ...plain import lz as plain_lz
from ..._errors import GageBPEError
from ..registry import LZ, LZ_PARTS

# A block under SMALL bytes is parsed PASSES times, each pass re-pricing
# the symbols from the last one's codes, over MAX_CHAIN candidates.
SMALL = 1 << 16
PASSES = 5
MAX_CHAIN = 4096
# A larger block is parsed a segment at a time, so that the parse's
# arrays stay this size whatever the block's (its match finder takes 8
# bytes a byte), with fewer passes, its matches found by binary trees
# visiting TREE_DEPTH candidates a position; each segment is a part with
# codes of its own, which follow the data as it changes: parts of 64 KiB
# code 0.5% smaller than of 256 KiB (docs/DESIGN.md, "What each try
# buys", LZ).
SEGMENT = 1 << 16
TREE_DEPTH = 48
LARGE_PASSES = 2
# A quick ``encode``, for the levels that favour speed, parses QUICK_PASSES
# times over QUICK_CHAIN candidates.  On pieces of 2, 4 and 16 KB of the
# Canterbury files, the other data and source code (133, 114 and 87
# pieces), these settings code 0.3%, 0.4% and 0.9% smaller than 2 passes
# over 16 candidates, in 1.2 times their time at 4 KB, and the pieces
# larger than zlib -9 makes them fall from 17, 4 and 2 to 7, 1 and 0.  The
# full parse gains 0.2-0.5% more in twice the time.
QUICK_CHAIN, QUICK_PASSES = plain_lz.QUICK_CHAIN, plain_lz.QUICK_PASSES
# ``quick_size`` parses once at the first prices over SAMPLE_CHAIN
# candidates: an estimate, for a fraction of ``encode``'s time.
SAMPLE_CHAIN = 16


def encode(data, quick=False):
    """``(coding, payload)`` of block ``data`` (bytes, not empty): LZ under
    SMALL bytes, by one quick parse if ``quick``; else LZ_PARTS."""
    array = np.frombuffer(data, np.uint8)
    if len(array) >= SMALL:
        return LZ_PARTS, encode_parts(data)
    if quick:
        return LZ, _encode_small(array, QUICK_CHAIN, QUICK_PASSES)
    return LZ, _encode_small(array)


def quick_size(data):
    """About the size of the LZ payload of ``data`` (at most SEGMENT
    bytes, not empty), for a fraction of ``encode``'s time: one parse at
    the first prices over SAMPLE_CHAIN candidates."""
    array = np.frombuffer(data, np.uint8)
    head, chain = _lz.finder(len(array), False)
    found = _lz.matches(array, 0, len(array), head, chain, SAMPLE_CHAIN, False)
    tokens = _lz.parse(array, 0, len(array), *found, _first_reps(), 1, *_first_prices(array, 1))
    return _lz.HEAD + len(_pack(*_lz.symbols(array, 0, _first_reps(), 1, *tokens), 1)[0])


def _encode_small(array, max_chain=MAX_CHAIN, passes=PASSES):
    """The smallest LZ payload of ``passes`` parses of the whole block."""
    head, chain = _lz.finder(len(array), False)
    found = _lz.matches(array, 0, len(array), head, chain, max_chain, False)
    prices = _first_prices(array, 1)
    best = None
    for _ in range(passes):
        tokens = _lz.parse(array, 0, len(array), *found, _first_reps(), 1, *prices)
        stream, literal_lengths, distance_lengths = _pack(
            *_lz.symbols(array, 0, _first_reps(), 1, *tokens), 1)
        payload = _head(literal_lengths, distance_lengths, 1) + stream
        if best is None or len(payload) < len(best):
            best = payload
        prices = _prices(literal_lengths, distance_lengths, 1)
    return best


def encode_parts(data, segment=SEGMENT):
    """The LZ_PARTS payload of block ``data`` (bytes, not empty) parsed
    ``segment`` bytes at a time, each segment LARGE_PASSES times, the first
    at the prices of the segment before, and coded as a part of its own."""
    array = np.frombuffer(data, np.uint8)
    head, tree = _lz.finder(len(array), True)
    prices = _first_prices(array, _lz.REPS)
    reps = _first_reps()
    parts = []
    for start in range(0, len(array), segment):
        end = min(start + segment, len(array))
        found = _lz.matches(array, start, end, head, tree, TREE_DEPTH, True)
        best = None
        for _ in range(LARGE_PASSES):
            tokens = _lz.parse(array, start, end, *found, reps, _lz.REPS, *prices)
            after = reps.copy()
            stream, literal_lengths, distance_lengths = _pack(
                *_lz.symbols(array, start, after, _lz.REPS, *tokens), _lz.REPS)
            part = (_PART.pack(end - start, len(literal_lengths) - _lz.LITERALS,
                               len(distance_lengths) - _lz.REPS, len(stream)) + stream)
            if best is None or len(part) < len(best[0]):
                best = part, after
            prices = _prices(literal_lengths, distance_lengths, _lz.REPS)
        parts.append(best[0])
        reps = best[1]
    return b"".join(parts)


_PART = struct.Struct("<IBBI")


def _first_reps():
    return np.array(_lz.FIRST_REPS, np.int32)


def _first_prices(array, nreps):
    """Prices before any parse (``plain.lz.first_prices``: the same doubles
    on either path), the repeats after the latest a bit dearer than it."""
    literal, distance = plain_lz.first_prices(np.bincount(array, minlength=256).tolist(),
                                              len(array))
    distance = distance[:1] + [distance[0] + 1.0] * (nreps - 1) + distance[1:]
    return np.array(literal), np.array(distance)


def _prices(literal_lengths, distance_lengths, nreps):
    """``(literal/length prices, distance prices)``: the bits of each
    symbol, its code length, or one more than the longest for a symbol
    without a code."""
    return (_price(literal_lengths, _lz.LITERALS + _lz.SLOTS),
            _price(distance_lengths, nreps + _lz.SLOTS))


def _price(lengths, n):
    price = np.full(n, float(lengths.max()) + 1.0)
    price[:len(lengths)] = np.where(lengths > 0, lengths, price[:len(lengths)])
    return price


def _code_lengths(literal_symbols, distance_symbols, nreps):
    """The literal/length and distance codes' lengths for these symbols,
    each over the symbols up to the largest used (the distance code over
    its ``nreps`` repeats at least)."""
    copies = literal_symbols >= _lz.LITERALS
    length_slots = int(literal_symbols.max()) - _lz.LITERALS + 1 if copies.any() else 0
    distances = max(int(distance_symbols.max()) + 1, nreps)
    literal_freq = np.bincount(literal_symbols, minlength=_lz.LITERALS + length_slots)
    distance_freq = np.bincount(distance_symbols[copies], minlength=distances)
    return (_huffman.code_lengths(literal_freq, _lz.MAX_CODE),
            _huffman.code_lengths(distance_freq, _lz.MAX_CODE) if copies.any()
            else np.zeros(distances, np.uint8))


def _pack(literal_symbols, distance_symbols, length_extra, distance_extra, nreps):
    """``(bit stream, literal/length code lengths, distance code
    lengths)``, the first ``nreps`` distance symbols repeats."""
    literal_lengths, distance_lengths = _code_lengths(literal_symbols, distance_symbols, nreps)
    stream = _lz.write(np.concatenate([literal_lengths, distance_lengths]), literal_symbols,
                       distance_symbols, length_extra, distance_extra, literal_lengths,
                       distance_lengths, nreps)
    return stream.tobytes(), literal_lengths, distance_lengths


def _head(literal_lengths, distance_lengths, nreps):
    """An LZ payload's head: its slots."""
    return bytes([len(literal_lengths) - _lz.LITERALS, len(distance_lengths) - nreps])


def decode(payload, size, out):
    """LZ block ``payload`` into ``out`` (``size`` bytes)."""
    return _checked(_lz.decode_payload(np.frombuffer(payload, np.uint8), out[:size]), out)


def decode_parts(payload, size, out):
    """LZ_PARTS block ``payload`` into ``out`` (``size`` bytes)."""
    return _checked(_lz.decode_parts(np.frombuffer(payload, np.uint8), out[:size]), out)


def _checked(problem, out):
    if problem:
        raise GageBPEError(_lz.PROBLEMS[problem])
    return out


DECODERS = {LZ: decode, LZ_PARTS: decode_parts}
