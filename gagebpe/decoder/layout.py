"""The single layout read in a kernel: ``format.container.single_block``
compiled, and a whole stream of one block checked by it, for the decoders
that take a single stream in one kernel call (``decoder.fast``,
``decoder.records``)."""
import numpy as np

from .._jit import njit
from ..format import container as _container
from ..kernels import varint as _varint  # noqa: F401 -- lets single_block's varint_at compile

single_block = njit(cache=True, nogil=True)(_container.single_block)


@njit(cache=True, nogil=True)
def one_block(data, head):
    """``(coding, size, payload_at, data_check)`` if ``data`` (bytes or a
    uint8 array) is exactly a single stream whose bytes before its block
    are ``head``, holding one block, checked as the container's parser
    checks it (but for its coding: the caller takes only those it
    decodes); else a coding of -1."""
    no = (np.int64(-1), np.int64(0), np.int64(0), np.int64(0))
    h = head.shape[0]
    if len(data) <= h:
        return no
    for i in range(h):
        if data[i] != head[i]:
            return no
    coding, size, payload_size, data_check, payload_at = single_block(data, h)
    if (coding <= _container.END_OF_BLOCKS or not 0 < size <= _container.MAX_BLOCK_SIZE
            or payload_size > size or payload_at + payload_size != len(data)):
        return no
    return np.int64(coding), np.int64(size), np.int64(payload_at), np.int64(data_check)
