"""Bytes objects handed to a kernel as their storage (kernels.bytes_object)."""
import numpy as np
import pytest

from gagebpe._jit import PURE_PYTHON, direct, njit
from gagebpe.kernels.bytes_object import (BYTES, LIST, bytes_of, contents, dropped, fill,
                                         gil_released, gil_taken, item, list_size, new_bytes,
                                         new_list, nothing_made, set_item, storage, was_made)


@njit(cache=True, nogil=True)
def _reversed_into(data, out):
    """Write ``data`` reversed into ``out``; their sizes' sum."""
    source, target = contents(data), fill(out)
    n = min(source.shape[0], target.shape[0])
    for i in range(n):
        target[i] = source[n - 1 - i]
    return source.shape[0] + target.shape[0]


_KERNEL = direct(_reversed_into, BYTES, BYTES)


def test_a_kernel_reads_and_fills_bytes_objects():
    data = bytes(range(10, 40))
    out = b"\0" * len(data)  # new: the kernel may fill it
    assert _KERNEL(data, out) == 2 * len(data)
    assert out == data[::-1]


@pytest.mark.skipif(PURE_PYTHON, reason="as plain Python the kernel takes any buffer")
@pytest.mark.parametrize("wrong", [bytearray(b"abc"), memoryview(b"abc"), np.zeros(3, np.uint8),
                                   "abc", 3])
def test_a_kernel_refuses_what_is_not_bytes(wrong):
    with pytest.raises(TypeError):
        _KERNEL(wrong, b"\0" * 3)
    with pytest.raises(TypeError):
        _KERNEL(b"abc", wrong)


@njit(cache=True)
def _made(n, fail):
    """A new bytes object of ``n`` bytes counting down from ``n``, made
    here; None for ``n`` below 1, and for ``fail`` (made, then dropped)."""
    if n < 1:
        return nothing_made()
    made = new_bytes(n)
    if not was_made(made):
        return made
    out = storage(made, n)
    state = gil_released()
    try:  # the GIL is taken back whatever the work raises
        for i in range(n):
            out[i] = (n - i) & 0xFF
        if fail:
            raise ValueError("failed while the GIL was let go")
    except Exception:
        fail = True
    gil_taken(state)
    return dropped(made) if fail else made


_MADE = direct(_made, 0, True)


def test_a_kernel_makes_the_bytes_it_returns():
    shared = bytes(1)  # CPython's one-byte object: never written to
    for n in (1, 2, 300):
        made = _MADE(n, False)
        assert type(made) is bytes and made == bytes((n - i) & 0xFF for i in range(n))
    assert _MADE(1, False) is not shared and bytes(1) == b"\0"
    assert _MADE(0, False) is None
    assert _MADE(5, True) is None


@njit(cache=True)
def _pieces(data, starts):
    """The pieces ``data[starts[i]:starts[i + 1]]`` as a list of bytes
    objects made here."""
    made = new_list(starts.shape[0] - 1)
    for i in range(starts.shape[0] - 1):
        set_item(made, i, bytes_of(data[starts[i]:starts[i + 1]]))
    return made


def test_a_kernel_makes_a_list_of_bytes():
    data = np.frombuffer(bytes(range(50)), np.uint8)
    starts = np.array([0, 0, 1, 7, 50], np.int64)
    pieces = _pieces(data, starts)
    assert pieces == [b"", bytes([0]), bytes(range(1, 7)), bytes(range(7, 50))]
    assert all(type(p) is bytes for p in pieces)
    assert _pieces(data, np.zeros(1, np.int64)) == []


@njit(cache=True)
def _sizes(items):
    """The sizes of the bytes objects of the list ``items``, -1 for an
    item that is not one."""
    sizes = np.empty(list_size(items), np.int64)
    for i in range(sizes.shape[0]):
        sizes[i] = contents(item(items, i)).shape[0]
    return sizes


@pytest.mark.skipif(PURE_PYTHON, reason="as plain Python any buffer is read")
def test_a_kernel_reads_a_list_of_bytes():
    sizes = direct(_sizes, LIST)
    assert sizes([b"", b"ab", bytes(300)]).tolist() == [0, 2, 300]
    assert sizes([b"ab", bytearray(b"ab"), memoryview(b"ab"), "ab", 3]).tolist() == [
        2, -1, -1, -1, -1]
    assert sizes([]).tolist() == []
    for wrong in ((b"ab",), "ab"):
        with pytest.raises(TypeError, match="a list is needed"):
            sizes(wrong)
