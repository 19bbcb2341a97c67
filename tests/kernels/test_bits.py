"""Bit packing round trips at every width and length."""
import numpy as np
from hypothesis import given, strategies as st

from gagebpe.kernels import bits as _bits


@given(st.integers(0, 32), st.integers(0, 300), st.integers(0, 2**32))
def test_fixed_width_round_trip(width, n, seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 1 << width, n, dtype=np.int64)
    if width == 32:
        values &= 0x7FFFFFFF
    values = values.astype(np.int32)
    buf = np.zeros((n * width + 7) // 8, np.uint8)
    _bits.pack_fixed(values, width, buf)
    out = np.empty(n, np.int32)
    _bits.unpack_fixed(buf, width, out)
    assert np.array_equal(out, values)


@given(st.integers(1, 300), st.integers(0, 200), st.integers(0, 2**32))
def test_merge_table_round_trip(n_terminals, n_merges, seed):
    rng = np.random.default_rng(seed)
    limits = n_terminals + np.arange(n_merges)
    merges = (rng.random((n_merges, 2)) * limits[:, None]).astype(np.int32)
    nbits = _bits.merge_table_bits(n_terminals, n_merges)
    buf = np.zeros((nbits + 7) // 8, np.uint8)
    _bits.pack_merges(merges, n_terminals, buf)
    out = np.empty_like(merges)
    assert _bits.unpack_merges(buf, n_terminals, out)
    assert np.array_equal(out, merges)
    assert nbits == sum(2 * int(n_terminals + k - 1).bit_length() for k in range(n_merges))


@given(st.integers(1, 256), st.integers(0, 300), st.integers(0, 2**32))
def test_unpack_bytes_maps_terminals(n_terminals, n, seed):
    rng = np.random.default_rng(seed)
    terminals = np.sort(rng.choice(256, n_terminals, replace=False)).astype(np.uint8)
    width = int(n_terminals - 1).bit_length()
    values = rng.integers(0, n_terminals, n).astype(np.int32)
    buf = np.zeros((n * width + 7) // 8, np.uint8)
    _bits.pack_fixed(values, width, buf)
    out = np.empty(n, np.uint8)
    assert _bits.unpack_bytes(buf, width, terminals, out)
    assert np.array_equal(out, terminals[values])
    if n and n_terminals < (1 << width):  # a value past the terminals
        values[rng.integers(0, n)] = n_terminals
        buf[:] = 0
        _bits.pack_fixed(values, width, buf)
        assert not _bits.unpack_bytes(buf, width, terminals, out)
