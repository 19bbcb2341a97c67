"""``plain.varint.varint_at`` and ``put_varint``, callable from kernels,
for those that read the format's varints (the single layout's reader,
``decoder.layout``, and REPEATS' copies) and those that write them (a
record's stream, ``encoder.records``)."""
from .._jit import jitable
from ..plain import varint as _plain

varint_at = jitable(_plain.varint_at)
put_varint = jitable(_plain.put_varint)
