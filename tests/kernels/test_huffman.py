"""Length-limited canonical Huffman codes."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from gagebpe.kernels import huffman as _huffman
from gagebpe.plain import huffman as plain_huffman


def freqs_strategy():
    return st.lists(st.integers(0, 10**6), min_size=1, max_size=600).map(
        lambda f: np.array(f, np.int64))


@given(freqs_strategy(), st.integers(0, 2**32))
def test_round_trip(freqs, seed):
    lengths = _huffman.code_lengths(freqs, _huffman.MAX_LENGTH)
    if not (freqs > 0).any():  # nothing to code: no code at all
        assert not lengths.any() and not _huffman.is_complete(lengths)
        return
    assert _huffman.is_complete(lengths)
    assert ((lengths > 0) == (freqs > 0)).all()
    rng = np.random.default_rng(seed)
    symbols = rng.choice(np.flatnonzero(freqs), int(rng.integers(0, 5000))).astype(np.int32)
    for streams in (1, _huffman.STREAMS):
        section, sizes = encode_streams(symbols, lengths, streams)
        out = np.empty(len(symbols), np.int32)
        assert _huffman.decode(section, sizes, lengths, out)
        assert np.array_equal(out, symbols)
        if sizes[-1]:  # one byte short, or one too many, is refused
            shorter = sizes.copy()
            shorter[-1] -= 1
            assert not _huffman.decode(section[:-1], shorter, lengths, out)
            longer = np.concatenate([section, [0]]).astype(np.uint8)
            sizes[-1] += 1
            assert not _huffman.decode(longer, sizes, lengths, out)


def encode_streams(symbols, lengths, streams):
    parts = []
    for k in range(streams):
        part = symbols[k::streams]
        buf = np.zeros((_huffman.encoded_bits(part, lengths) + 7) // 8, np.uint8)
        _huffman.encode(part, lengths, buf)
        parts.append(buf)
    return (np.concatenate(parts).astype(np.uint8),
            np.array([len(p) for p in parts], np.int64))


@pytest.mark.parametrize("max_length", [8, 12, 20])
def test_length_limit_on_skewed_frequencies(max_length):
    fib = [1, 1]
    while len(fib) < 40:
        fib.append(fib[-1] + fib[-2])
    freqs = np.array(fib, np.int64)
    lengths = _huffman.code_lengths(freqs, max_length)
    assert lengths.max() <= max_length
    assert sum(2.0 ** -int(n) for n in lengths) == 1.0


def test_optimal_without_limit():
    freqs = np.array([5, 9, 12, 13, 16, 45], np.int64)  # the textbook example
    lengths = _huffman.code_lengths(freqs, 24)
    assert (freqs * lengths).sum() == 224


def test_incomplete_code_is_rejected():
    assert not _huffman.is_complete(np.array([1, 2, 0], np.uint8))
    assert not _huffman.is_complete(np.array([1, 1, 1], np.uint8))
    assert _huffman.is_complete(np.array([0, 1, 0], np.uint8))
    out = np.empty(3, np.int32)  # the lone code is 0; a 1 bit is an error
    assert not _huffman.decode(np.array([0x40], np.uint8), np.array([1]),
                               np.array([0, 1, 0], np.uint8), out)


def test_decode_past_the_end_fails():
    lengths = np.array([1, 2, 2], np.uint8)
    out = np.empty(9000, np.int32)
    for streams in (1, 4):
        sizes = np.ones(streams, np.int64)
        assert not _huffman.decode(np.zeros(streams, np.uint8), sizes, lengths, out)


@given(st.lists(st.integers(0, 2**54), min_size=1, max_size=400), st.integers(0, 2**32))
def test_lengths_as_the_plain_path(counts, seed):
    """The kernel's lengths are the plain path's for the same counts (one
    algorithm, compiled or not), ties among few distinct counts and counts
    up to 2**54 included (400 of them still sum within 64 bits)."""
    freqs = np.array(counts, np.int64)
    if seed % 2:  # few distinct counts: ties everywhere
        rng = np.random.default_rng(seed)
        freqs = rng.choice(np.unique(freqs), len(freqs)) >> int(rng.integers(0, 54))
    expected = plain_huffman.code_lengths([int(f) for f in freqs], _huffman.MAX_LENGTH)
    assert list(_huffman.code_lengths(freqs, _huffman.MAX_LENGTH)) == expected
