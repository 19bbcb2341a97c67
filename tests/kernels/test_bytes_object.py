"""Bytes objects handed to a kernel as their storage (kernels.bytes_object)."""
import numpy as np
import pytest

from gagebpe._jit import PURE_PYTHON, direct, njit
from gagebpe.kernels.bytes_object import BYTES, contents, fill


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
