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
byte.  LZ_PARTS has a part for each run of its parse's segments that
one pair of codes serves.  How the block is parsed is the encoder's
choice (``encoder.levels.Parse``).
"""
from typing import NamedTuple

import numpy as np

from ...kernels import greedy as _greedy, lz as _lz, lz_floor as _lz_floor
from ...plain import lz as plain_lz
from ..._jit import njit
from . import problems as _problems
from .registry import LZ, LZ_PARTS


def encode(data, parse, most=None):
    """``(coding, payload)`` of block ``data`` (bytes, not empty) by
    ``parse`` (``encoder.levels.Parse``: its ``passes``, ``candidates``
    and ``segment``): LZ_PARTS where it has a segment, else LZ; with
    ``most``, None where LZ's first pass takes more than ``most`` bytes,
    and no later pass is made."""
    if parse.segment:
        return LZ_PARTS, encode_parts(data, parse)
    payload = _encode_small(np.frombuffer(data, np.uint8), parse.candidates, parse.passes, most)
    return None if payload is None else (LZ, payload)


def encode_greedy(data, shortest, width):
    """The LZ payload of block ``data`` (bytes, not empty) by its greedy
    copies of at least ``shortest`` bytes (``kernels.greedy``, hashing
    ``width`` bytes): one pass at the speed of a copy finder, for blocks
    that an optimal parse would gain little on."""
    array = np.frombuffer(data, np.uint8)
    stream, literal_lengths, distance_lengths = _lz.pack_copies(
        array, _greedy.copies(array, shortest, width), _first_reps(), 1)
    return _head(literal_lengths, distance_lengths, 1) + stream.tobytes()


def payload_floor(data):
    """The fewest bytes an LZ payload of block ``data`` (bytes-like, not
    empty) can take, whatever its parse (``kernels.lz_floor``)."""
    return _lz_floor.payload_floor(np.frombuffer(data, np.uint8), _lz.MIN_COPY)


def _encode_small(array, max_chain, passes, most=None):
    """The smallest LZ payload of ``passes`` parses of the whole block; with
    ``most``, None where the first takes more bytes (the rest are then not
    made: ``best_pass`` in two calls, the same parses)."""
    head, chain = _lz.finder(len(array), False)
    found = _lz.matches(array, 0, len(array), head, chain, max_chain, False)
    def parsed(prices, passes):
        return _lz.best_pass(array, 0, len(array), *found, _first_reps(), 1, *prices, passes)

    if most is None:
        best = parsed(first_prices(array, 1), passes)
    else:
        best = parsed(first_prices(array, 1), 1)
        if _lz_floor.HEAD + len(best[1]) > most:
            return None
        if passes > 1:  # the rest, at the first's codes' prices
            later = parsed(best[4:], passes - 1)
            if len(later[1]) < len(best[1]):
                best = later
    return _head(best[2], best[3], 1) + best[1].tobytes()


def encode_parts(data, parse, join=True):
    """The LZ_PARTS payload of block ``data`` (bytes, not empty), parsed
    ``parse.segment`` bytes at a time (``_segments``).  If ``join``, a segment
    joins the part before it where one pair of codes for both costs no
    more than a pair each (codes, code-length tables and part heads): on
    stationary data the parts grow, and decoding builds fewer tables."""
    return payload_of(parts(data, parse, join))


def payload_of(parts):
    """The LZ_PARTS payload of these ``parts`` (``parts``)."""
    return b"".join(part.payload() for part in parts)


def parts(data, parse, join=True):
    """The ``_Part``s of block ``data`` that ``encode_parts`` codes (the
    SEQUENCES coding codes the same parts its own way)."""
    parts = []
    for size, symbols in _segments(np.frombuffer(data, np.uint8), parse):
        part = _Part.of(size, symbols)
        if parts and join:
            joined = parts[-1].joined(part)
            if joined.bits <= parts[-1].bits + part.bits:
                parts[-1] = joined
                continue
        parts.append(part)
    return parts


def _segments(array, parse):
    """For each ``parse.segment`` bytes of ``array``: ``(size, symbols)``,
    the symbols (``kernels.lz.symbols``) of the smallest of ``parse``'s
    passes, the first at the prices of the segment before, each after at
    the codes of the one before, each position's matches from binary trees
    ``parse.candidates`` deep."""
    segment = parse.segment
    head, tree = _lz.finder(len(array), True)
    prices = first_prices(array, _lz.REPS)
    reps = _first_reps()
    for start in range(0, len(array), segment):
        end = min(start + segment, len(array))
        found = _lz.matches(array, start, end, head, tree, parse.candidates, True)
        symbols, _, _, _, *prices = _lz.best_pass(array, start, end, *found, reps, _lz.REPS,
                                                  *prices, parse.passes)
        yield end - start, symbols


class _Part(NamedTuple):
    """Segments coded as one part: their bytes, their symbols, the
    frequencies of those, and the bits of the part's codes, code-length
    table and head (its extra bits aside, which do not depend on how
    segments are grouped)."""
    size: int
    symbols: list  # per segment, the four arrays of ``kernels.lz.symbols``
    literal_freq: np.ndarray
    distance_freq: np.ndarray
    bits: int

    @classmethod
    def of(cls, size, symbols):
        literal, distance = symbols[0], symbols[1]
        literal_freq = np.bincount(literal, minlength=_lz.LITERALS + _lz.SLOTS)
        distance_freq = np.bincount(distance[distance >= 0], minlength=_lz.REPS + _lz.SLOTS)
        return cls(size, [symbols], literal_freq, distance_freq,
                   _coded_bits(literal_freq, distance_freq))

    def joined(self, other):
        literal_freq = self.literal_freq + other.literal_freq
        distance_freq = self.distance_freq + other.distance_freq
        return _Part(self.size + other.size, self.symbols + other.symbols, literal_freq,
                     distance_freq, _coded_bits(literal_freq, distance_freq))

    def tokens(self):
        """The four arrays of ``kernels.lz.symbols`` for the whole part."""
        return [np.concatenate(arrays) for arrays in zip(*self.symbols)]

    def payload(self):
        symbols = self.tokens()
        stream, literal_lengths, distance_lengths = _pack(*symbols, _lz.REPS)
        return _PART.pack(self.size, len(literal_lengths) - _lz.LITERALS,
                          len(distance_lengths) - _lz.REPS, len(stream)) + stream


def _coded_bits(literal_freq, distance_freq):
    """The bits of a part whose symbols have these frequencies, in the
    codes ``_pack`` would give them, with its code-length table (counted
    as ``kernels.lz.write`` writes it) and head."""
    literal_lengths, distance_lengths = _lz.code_lengths_of(literal_freq, distance_freq,
                                                           _lz.REPS)
    return int(8 * _PART.size
               + _lz.table_bits(np.concatenate([literal_lengths, distance_lengths]))
               + (literal_freq[:len(literal_lengths)] * literal_lengths).sum()
               + (distance_freq[:len(distance_lengths)] * distance_lengths).sum())


_PART = plain_lz.PART


def _first_reps():
    return np.array(_lz.FIRST_REPS, np.int32)


def first_prices(array, nreps):
    """Prices before any parse (``plain.lz.first_prices``: the same doubles
    on either path), the repeats after the latest a bit dearer than it."""
    literal, distance = plain_lz.first_prices(np.bincount(array, minlength=256).tolist(),
                                              len(array))
    distance = distance[:1] + [distance[0] + 1.0] * (nreps - 1) + distance[1:]
    return np.array(literal), np.array(distance)


def _pack(literal_symbols, distance_symbols, length_extra, distance_extra, nreps):
    """``(bit stream, literal/length code lengths, distance code
    lengths)``, the first ``nreps`` distance symbols repeats."""
    stream, literal_lengths, distance_lengths = _lz.pack(
        literal_symbols, distance_symbols, length_extra, distance_extra, nreps)
    return stream.tobytes(), literal_lengths, distance_lengths


def _head(literal_lengths, distance_lengths, nreps):
    """An LZ payload's head: its slots."""
    return bytes([len(literal_lengths) - _lz.LITERALS, len(distance_lengths) - nreps])


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """An LZ or LZ_PARTS block's bytes into ``out`` (``size`` bytes); 0 or
    its problem (``format.codings.problems``)."""
    if coding == LZ:
        problem = _lz.decode_payload(payload, out[:size])
    else:
        problem = _lz.decode_parts(payload, out[:size])
    return _problems.at(coding, _problems.LZ + problem) if problem else 0


DECODERS = {LZ: decode_block, LZ_PARTS: decode_block}
