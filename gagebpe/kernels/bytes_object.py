"""A bytes object handed to a kernel as its storage, for the kernels that
run once per small record or chunk.

Numba hands a ``bytes`` argument over through the buffer protocol: it
asks the object for a buffer, allocates a reference-counted record of it
and releases both as the call returns, about 70 ns a bytes object, as
long as decoding a 64-byte record's tokens.  An argument of the type
``BYTES`` is handed over as CPython's own pointer to the object's bytes
and their number (``PyBytes_AsStringAndSize``), with nothing allocated;
the caller keeps the object alive through the call, as it does any
argument.  Any other object raises ``TypeError`` before the kernel runs.

``contents(data)`` reads such an argument as a read-only uint8 array,
the type ``np.frombuffer`` gives a bytes object, so the decoders it is
passed to are the ones compiled already; ``fill(fresh)`` writes one:
only a bytes object that its maker is still filling, as C extensions
fill ``PyBytes_FromStringAndSize(NULL, n)``, before anyone else sees it.
``b"\\0" * n`` and ``bytes(n)`` for n > 1 are such new objects (CPython
shares only the empty and the one-byte bytes objects), so a small output
becomes its bytes without a copy.  As plain Python (``NUMBA_DISABLE_JIT``)
both are NumPy views and ``BYTES`` is None.
"""
import numpy as np

from .._jit import PURE_PYTHON

if PURE_PYTHON:
    from .._inplace_bytes import storage as fill

    BYTES = None

    def contents(data):
        return np.frombuffer(data, np.uint8)
else:
    from numba import types
    from numba.core import cgutils
    from numba.core.datamodel import models, register_default
    from numba.core.imputils import impl_ret_borrowed
    from numba.extending import NativeValue, intrinsic, unbox

    class BytesObject(types.Type):
        """A bytes object's storage: its first byte's address and its size."""

        def __init__(self):
            super().__init__(name="BytesObject")

    BYTES = BytesObject()

    @register_default(BytesObject)
    class _Model(models.StructModel):
        def __init__(self, dmm, fe_type):
            super().__init__(dmm, fe_type, [("data", types.voidptr), ("size", types.intp)])

    @unbox(BytesObject)
    def _unbox(typ, obj, c):
        data = cgutils.alloca_once(c.builder, c.pyapi.cstring)
        size = cgutils.alloca_once(c.builder, c.pyapi.py_ssize_t)
        ok = c.pyapi.bytes_as_string_and_size(obj, data, size)
        value = cgutils.create_struct_proxy(typ)(c.context, c.builder)
        value.data = c.builder.bitcast(c.builder.load(data), cgutils.voidptr_t)
        value.size = c.builder.load(size)
        return NativeValue(value._getvalue(), is_error=c.builder.not_(ok))

    def _view(result):
        """An intrinsic's code for the storage of a BYTES argument as an
        array of type ``result``, owned by nobody in the kernel."""
        def codegen(context, builder, signature, args):
            value = cgutils.create_struct_proxy(signature.args[0])(context, builder,
                                                                   value=args[0])
            view = context.make_array(result)(context, builder)
            one = context.get_constant(types.intp, 1)
            context.populate_array(view, data=builder.bitcast(value.data, view.data.type),
                                   shape=cgutils.pack_array(builder, [value.size]),
                                   strides=cgutils.pack_array(builder, [one]),
                                   itemsize=one, meminfo=None)
            return impl_ret_borrowed(context, builder, result, view._getvalue())
        return codegen

    _READ = types.Array(types.uint8, 1, "C", readonly=True)
    _WRITE = types.Array(types.uint8, 1, "C")

    @intrinsic
    def contents(typingctx, data):
        """The bytes of ``data`` (BYTES) as a read-only uint8 array."""
        if not isinstance(data, BytesObject):
            return None
        return _READ(data), _view(_READ)

    @intrinsic
    def fill(typingctx, fresh):
        """The storage of the new bytes object ``fresh`` (BYTES) as a
        writable uint8 array."""
        if not isinstance(fresh, BytesObject):
            return None
        return _WRITE(fresh), _view(_WRITE)
