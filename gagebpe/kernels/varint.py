"""``plain.varint.varint_at`` compiled, for the kernels that read the
format's varints: the one-block and record decoders, REPEATS' copies."""
from .._jit import njit
from ..plain import varint as _plain

varint_at = njit(cache=True, nogil=True)(_plain.varint_at)
