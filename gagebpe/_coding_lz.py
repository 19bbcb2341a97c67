"""The LZ block coding (9, format version 6): the block as literals and
copies (``_lz``), Huffman-coded (docs/FORMAT.md).

    payload = length_slots:u8  distance_slots:u8  bit stream

The bit stream holds the code-length table of the literal/length code
(256 + ``length_slots`` symbols) and the distance code (1 +
``distance_slots``), then the tokens, MSB first, padded with zero bits to
the end of the payload's last byte.

Imports ``_errors`` and the kernels ``_huffman``, ``_lz``.
"""
import numpy as np

from . import _huffman, _lz
from ._errors import GageBPEError

# Parsing passes: each re-prices the symbols from the last one's codes.
PASSES = 5
MAX_CHAIN = 4096


def encode(data):
    """The LZ payload of block ``data`` (bytes, not empty)."""
    array = np.frombuffer(data, np.uint8)
    found = _lz.matches(array, MAX_CHAIN)
    literal_price, distance_price = _first_prices(array)
    best = None
    for _ in range(PASSES):
        tokens = _lz.parse(array, *found, literal_price, distance_price)
        payload, literal_lengths, distance_lengths = _pack(*_lz.symbols(array, *tokens))
        if best is None or len(payload) < len(best):
            best = payload
        literal_price = _prices(literal_lengths, _lz.LITERALS + _lz.SLOTS)
        distance_price = _prices(distance_lengths, 1 + _lz.SLOTS)
    return best


def _first_prices(array):
    """Prices before any parse: literals by their frequencies, copies about
    as deflate's fixed codes price them."""
    freq = np.bincount(array, minlength=256)
    literal_price = np.full(_lz.LITERALS + _lz.SLOTS, 7.0)
    literal_price[:256] = np.where(freq > 0, -np.log2(np.maximum(freq, 1) / len(array)), 12.0)
    distance_price = np.full(1 + _lz.SLOTS, 5.0)
    distance_price[_lz.REPEAT] = 2.0
    return literal_price, distance_price


def _prices(lengths, n):
    """Bits of each of ``n`` symbols: its code length, or one more than the
    longest for a symbol without a code."""
    price = np.full(n, float(lengths.max()) + 1.0)
    price[:len(lengths)] = np.where(lengths > 0, lengths, price[:len(lengths)])
    return price


def _pack(literal_symbols, distance_symbols, length_extra, distance_extra):
    """``(payload, literal/length code lengths, distance code lengths)``."""
    copies = literal_symbols >= _lz.LITERALS
    length_slots = int(literal_symbols.max()) - _lz.LITERALS + 1 if copies.any() else 0
    distance_slots = max(int(distance_symbols.max()), 0)
    literal_freq = np.bincount(literal_symbols, minlength=_lz.LITERALS + length_slots)
    literal_lengths = _huffman.code_lengths(literal_freq, _lz.MAX_CODE)
    distance_freq = np.bincount(distance_symbols[copies], minlength=1 + distance_slots)
    distance_lengths = (_huffman.code_lengths(distance_freq, _lz.MAX_CODE) if copies.any()
                        else np.zeros(1 + distance_slots, np.uint8))
    stream = _lz.pack_bits(*_lz.fields(
        np.concatenate([literal_lengths, distance_lengths]), literal_symbols, distance_symbols,
        length_extra, distance_extra, literal_lengths, distance_lengths))
    payload = bytes([length_slots, distance_slots]) + stream.tobytes()
    return payload, literal_lengths, distance_lengths


def decode(payload, size, out):
    """Block ``payload`` into ``out`` (``size`` bytes)."""
    problem = _lz.decode_payload(np.frombuffer(payload, np.uint8), out[:size])
    if problem:
        raise GageBPEError(_lz.PROBLEMS[problem])
    return out
