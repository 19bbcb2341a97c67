"""Arrays packed in one int64 array (``kernels.packed``) read back, through
the array or its address, as exactly the arrays packed, each in its own
words: writing one through its view leaves the others as they were."""
import numpy as np
from hypothesis import given, strategies as st

from gagebpe._jit import njit
from gagebpe.kernels import packed

DTYPES = (np.int64, np.int32, np.uint8, np.float64)
arrays = st.lists(st.tuples(st.sampled_from(range(len(DTYPES))),
                            st.lists(st.integers(0, 255), max_size=20)), max_size=6)


@njit(cache=False)
def _read(address, kinds):
    """Each array packed at ``address`` as the dtype ``kinds`` names, made
    int64 (a tuple would take a type per case)."""
    table = packed.at(address)
    out = np.zeros((kinds.shape[0], 20), np.int64)
    sizes = np.zeros(kinds.shape[0], np.int64)
    for k in range(kinds.shape[0]):
        if kinds[k] == 0:
            values = packed.int64s(table, k)
        elif kinds[k] == 1:
            values = packed.int32s(table, k).astype(np.int64)
        elif kinds[k] == 2:
            values = packed.uint8s(table, k).astype(np.int64)
        else:
            values = packed.float64s(table, k).astype(np.int64)
        sizes[k] = values.shape[0]
        out[k, :values.shape[0]] = values
    return out, sizes


@given(arrays)
def test_packed_arrays_read_back_by_address(cases):
    given_arrays = [np.array(values, DTYPES[kind]) for kind, values in cases]
    table = packed.pack(given_arrays)
    kinds = np.array([kind for kind, _ in cases], np.int64)
    out, sizes = _read(table.ctypes.data, kinds)
    for k, array in enumerate(given_arrays):
        assert sizes[k] == len(array)
        assert out[k, :len(array)].tolist() == array.astype(np.int64).tolist()


@given(arrays)
def test_each_array_has_words_of_its_own(cases):
    given_arrays = [np.array(values, DTYPES[kind]) for kind, values in cases]
    table = packed.pack(given_arrays)
    readers = (packed.int64s, packed.int32s, packed.uint8s, packed.float64s)
    for k, (kind, _) in enumerate(cases):
        before = table.copy()
        view = readers[kind](table, k)
        view[:] = 77
        changed = np.flatnonzero(before != table)
        first, n = table[2 + 2 * k], table[3 + 2 * k]
        words = (n * np.dtype(DTYPES[kind]).itemsize + 7) // 8
        assert all(first <= w < first + words for w in changed)
        table[:] = before
    assert packed.pack([]).tolist() == [2, 0]
