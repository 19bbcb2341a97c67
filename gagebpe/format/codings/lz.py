"""The LZ block coding (docs/FORMAT.md, section 4.11): the block as
literals and copies (``kernels.lz``), Huffman-coded.

    payload = length_slots:u8  distance_slots:u8  bit stream

The bit stream holds the code-length table of the literal/length code
(256 + ``length_slots`` symbols) and the distance code (1 +
``distance_slots``), then the tokens, MSB first, padded with zero bits to
the end of the payload's last byte.

Imports ``_errors``, ``format.registry``, ``plain.lz`` (its first prices)
and the kernels ``kernels.huffman``, ``kernels.lz``.
"""
import numpy as np

from ...kernels import huffman as _huffman, lz as _lz
from ...plain import lz as plain_lz
from ..._errors import GageBPEError
from ..registry import LZ

# A block under SMALL bytes is parsed PASSES times, each pass re-pricing
# the symbols from the last one's codes, over MAX_CHAIN candidates.
SMALL = 1 << 16
PASSES = 5
MAX_CHAIN = 4096
# A larger block is parsed a segment at a time, so that the parse's
# arrays stay this size whatever the block's (its match finder takes 8
# bytes a byte), with fewer passes, its matches found by binary trees
# visiting TREE_DEPTH candidates a position (docs/DESIGN.md, "What each try buys", LZ).
SEGMENT = 1 << 18
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
    """The LZ payload of block ``data`` (bytes, not empty); by one quick
    parse if ``quick`` and ``data`` is under SMALL bytes."""
    array = np.frombuffer(data, np.uint8)
    if len(array) >= SMALL:
        return _encode_large(array)
    return _encode_small(array, QUICK_CHAIN, QUICK_PASSES) if quick else _encode_small(array)


def quick_size(data):
    """About the size of the LZ payload of ``data`` (at most SEGMENT
    bytes, not empty), for a fraction of ``encode``'s time: one parse at
    the first prices over SAMPLE_CHAIN candidates."""
    array = np.frombuffer(data, np.uint8)
    head, chain = _lz.finder(len(array), False)
    found = _lz.matches(array, 0, len(array), head, chain, SAMPLE_CHAIN, False)
    tokens = _lz.parse(array, 0, len(array), *found, 1, *_first_prices(array))
    return len(_pack(*_lz.symbols(array, 0, 1, *tokens))[0])


def _encode_small(array, max_chain=MAX_CHAIN, passes=PASSES):
    """The smallest payload of ``passes`` parses of the whole block."""
    head, chain = _lz.finder(len(array), False)
    found = _lz.matches(array, 0, len(array), head, chain, max_chain, False)
    prices = _first_prices(array)
    best = None
    for _ in range(passes):
        tokens = _lz.parse(array, 0, len(array), *found, 1, *prices)
        payload, literal_lengths, distance_lengths = _pack(*_lz.symbols(array, 0, 1, *tokens))
        if best is None or len(payload) < len(best):
            best = payload
        prices = _prices(literal_lengths, distance_lengths)
    return best


def _encode_large(array):
    """The payload of the block parsed a SEGMENT at a time, each segment
    LARGE_PASSES times, its prices from the segment before."""
    head, tree = _lz.finder(len(array), True)
    prices = _first_prices(array)
    lengths, distances, last = [], [], 1
    for start in range(0, len(array), SEGMENT):
        end = min(start + SEGMENT, len(array))
        found = _lz.matches(array, start, end, head, tree, TREE_DEPTH, True)
        for _ in range(LARGE_PASSES):
            tokens = _lz.parse(array, start, end, *found, last, *prices)
            prices = _prices(*_code_lengths(*_lz.symbols(array, start, last, *tokens)[:2]))
        lengths.append(tokens[0])
        distances.append(tokens[1])
        copies = tokens[1][tokens[1] > 0]
        last = int(copies[-1]) if len(copies) else last
    tokens = np.concatenate(lengths), np.concatenate(distances)
    return _pack(*_lz.symbols(array, 0, 1, *tokens))[0]


def _first_prices(array):
    """Prices before any parse (``plain.lz.first_prices``: the same doubles
    on either path)."""
    literal, distance = plain_lz.first_prices(np.bincount(array, minlength=256).tolist(),
                                              len(array))
    return np.array(literal), np.array(distance)


def _prices(literal_lengths, distance_lengths):
    """``(literal/length prices, distance prices)``: the bits of each
    symbol, its code length, or one more than the longest for a symbol
    without a code."""
    return (_price(literal_lengths, _lz.LITERALS + _lz.SLOTS),
            _price(distance_lengths, 1 + _lz.SLOTS))


def _price(lengths, n):
    price = np.full(n, float(lengths.max()) + 1.0)
    price[:len(lengths)] = np.where(lengths > 0, lengths, price[:len(lengths)])
    return price


def _code_lengths(literal_symbols, distance_symbols):
    """The literal/length and distance codes' lengths for these symbols,
    each over the symbols up to the largest used."""
    copies = literal_symbols >= _lz.LITERALS
    length_slots = int(literal_symbols.max()) - _lz.LITERALS + 1 if copies.any() else 0
    distance_slots = max(int(distance_symbols.max()), 0)
    literal_freq = np.bincount(literal_symbols, minlength=_lz.LITERALS + length_slots)
    distance_freq = np.bincount(distance_symbols[copies], minlength=1 + distance_slots)
    return (_huffman.code_lengths(literal_freq, _lz.MAX_CODE),
            _huffman.code_lengths(distance_freq, _lz.MAX_CODE) if copies.any()
            else np.zeros(1 + distance_slots, np.uint8))


def _pack(literal_symbols, distance_symbols, length_extra, distance_extra):
    """``(payload, literal/length code lengths, distance code lengths)``."""
    literal_lengths, distance_lengths = _code_lengths(literal_symbols, distance_symbols)
    stream = _lz.write(np.concatenate([literal_lengths, distance_lengths]), literal_symbols,
                       distance_symbols, length_extra, distance_extra, literal_lengths,
                       distance_lengths)
    head = bytes([len(literal_lengths) - _lz.LITERALS, len(distance_lengths) - 1])
    return head + stream.tobytes(), literal_lengths, distance_lengths


def decode(payload, size, out):
    """Block ``payload`` into ``out`` (``size`` bytes)."""
    problem = _lz.decode_payload(np.frombuffer(payload, np.uint8), out[:size])
    if problem:
        raise GageBPEError(_lz.PROBLEMS[problem])
    return out


DECODERS = {LZ: decode}
