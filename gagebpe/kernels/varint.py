"""``plain.varint.varint_at``, callable from kernels, for those that read
the format's varints: the single layout's reader (``decoder.layout``) and
REPEATS' copies."""
from .._jit import jitable
from ..plain import varint as _plain

varint_at = jitable(_plain.varint_at)
