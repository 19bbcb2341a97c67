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
becomes its bytes without a copy.

A kernel may also make the bytes object it returns (``new_bytes``, of the
type MADE, which Python receives as the object itself, or None where
``nothing_made``): the call then costs no size read and no object made in
Python, a sixth of a 64-byte record's decoding.  Such a kernel is called
holding the GIL, which making an object needs; it may let the GIL go
while it works (``gil_released``, ``gil_taken``), and make a list of
bytes objects (``new_list``, ``bytes_of``, ``set_item``).  A list
argument of the type LIST is handed over as CPython's pointer to it, its
bytes objects read as BYTES (``list_size``, ``item``).  As plain Python
(``NUMBA_DISABLE_JIT``) the views are NumPy's, ``BYTES``, ``MADE`` and
``LIST`` are None and the GIL is kept.
"""
import numpy as np

from .._jit import PURE_PYTHON

if PURE_PYTHON:
    from .._inplace_bytes import new as new_bytes, storage as fill

    BYTES = MADE = LIST = None

    def contents(data):
        return np.frombuffer(data, np.uint8)

    def nothing_made():
        return None

    def was_made(made):
        return made is not None

    def storage(made, size):
        return fill(made)

    def bytes_of(array):
        return array.tobytes()

    def list_size(items):
        return len(items)

    def item(items, i):  # any buffer, as plain Python
        return items[i]

    def new_list(n):
        return [None] * n

    def set_item(made, i, item):
        made[i] = item

    def dropped(made):
        return None

    def gil_released():
        return None

    def gil_taken(state):
        return None
else:
    from numba import types
    from numba.core import cgutils
    from numba.core.datamodel import models, register_default
    from numba.core.imputils import impl_ret_borrowed
    from llvmlite import ir
    from numba.extending import NativeValue, box, intrinsic, unbox

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

    class Made(types.Type):
        """An object (a bytes object, a list of them) a kernel made and
        hands to Python as its result, or nothing (None to Python)."""

        def __init__(self):
            super().__init__(name="MadeObject")

    MADE = Made()
    register_default(Made)(models.OpaqueModel)

    @box(Made)
    def _box(typ, value, c):
        # The kernel's reference becomes the caller's: nothing to count.
        result = cgutils.alloca_once_value(c.builder, value)
        with c.builder.if_then(cgutils.is_null(c.builder, value), likely=False):
            c.builder.store(c.pyapi.make_none(), result)
        return c.builder.load(result)

    def _function(builder, name, result, *arguments):
        return cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(result, arguments), name)

    def _made(builder, name, arguments, values):
        """The new object the C API function ``name`` makes from
        ``values`` (of the LLVM types ``arguments``); NULL with no error
        left set where it made none (out of memory: the caller reports
        nothing made, and the general path raises)."""
        made = builder.call(_function(builder, name, cgutils.voidptr_t, *arguments), values)
        with builder.if_then(cgutils.is_null(builder, made), likely=False):
            builder.call(_function(builder, "PyErr_Clear", ir.VoidType()), [])
        return made

    def _bytes_made(context, builder, data, size):
        """``_made``'s bytes object of ``size`` bytes copied from ``data``,
        or not yet written where ``data`` is NULL."""
        return _made(builder, "PyBytes_FromStringAndSize",
                     (cgutils.voidptr_t, context.get_value_type(types.intp)), (data, size))

    @intrinsic
    def new_bytes(typingctx, size):
        """A new bytes object of ``size`` bytes, not yet written; nothing
        where there is no memory for it.  Only with the GIL held."""
        if not isinstance(size, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return _bytes_made(context, builder, cgutils.voidptr_t(None), context.cast(
                builder, args[0], signature.args[0], types.intp))
        return MADE(size), codegen

    @intrinsic
    def nothing_made(typingctx):
        """The result that hands Python None."""
        return MADE(), lambda context, builder, signature, args: cgutils.voidptr_t(None)

    @intrinsic
    def was_made(typingctx, made):
        """Whether ``made`` (MADE) is an object."""
        if not isinstance(made, Made):
            return None
        return types.boolean(made), lambda context, builder, signature, args: (
            cgutils.is_not_null(builder, args[0]))

    @intrinsic
    def storage(typingctx, made, size):
        """The ``size`` bytes of ``made``, a bytes object ``new_bytes``
        made, as a writable uint8 array owned by nobody in the kernel."""
        if not isinstance(made, Made) or not isinstance(size, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            data = builder.call(_function(builder, "PyBytes_AsString", cgutils.voidptr_t,
                                          cgutils.voidptr_t), [args[0]])
            view = context.make_array(_WRITE)(context, builder)
            one = context.get_constant(types.intp, 1)
            context.populate_array(
                view, data=builder.bitcast(data, view.data.type),
                shape=cgutils.pack_array(builder, [context.cast(
                    builder, args[1], signature.args[1], types.intp)]),
                strides=cgutils.pack_array(builder, [one]), itemsize=one, meminfo=None)
            return impl_ret_borrowed(context, builder, _WRITE, view._getvalue())
        return _WRITE(made, size), codegen

    class ListObject(types.Type):
        """A list, handed over as CPython's own pointer to it: its items are
        read with the GIL held (``list_size``, ``item``)."""

        def __init__(self):
            super().__init__(name="ListObject")

    LIST = ListObject()
    register_default(ListObject)(models.OpaqueModel)

    @unbox(ListObject)
    def _unbox_list(typ, obj, c):
        not_list = c.builder.icmp_signed("==", c.builder.call(_function(
            c.builder, "PyList_Size", c.context.get_value_type(types.intp), cgutils.voidptr_t),
            [obj]), c.context.get_constant(types.intp, -1))
        with c.builder.if_then(not_list, likely=False):
            c.pyapi.err_set_string("PyExc_TypeError", "a list is needed")
        return NativeValue(obj, is_error=not_list)

    @intrinsic
    def list_size(typingctx, items):
        """The number of items of ``items`` (LIST)."""
        if not isinstance(items, ListObject):
            return None
        return types.intp(items), lambda context, builder, signature, args: builder.call(
            _function(builder, "PyList_Size", context.get_value_type(types.intp),
                      cgutils.voidptr_t), [args[0]])

    @intrinsic
    def item(typingctx, items, i):
        """The storage of item ``i`` of ``items`` (LIST) as BYTES, if it is
        a bytes object; else of size -1.  Valid while the list holds it,
        with the GIL held."""
        if not (isinstance(items, ListObject) and isinstance(i, types.Integer)):
            return None

        def codegen(context, builder, signature, args):
            size_t = context.get_value_type(types.intp)
            obj = builder.call(_function(builder, "PyList_GetItem", cgutils.voidptr_t,
                                         cgutils.voidptr_t, size_t),
                               [args[0], context.cast(builder, args[1], signature.args[1],
                                                      types.intp)])
            value = cgutils.create_struct_proxy(BYTES)(context, builder)
            value.data = cgutils.voidptr_t(None)
            value.size = context.get_constant(types.intp, -1)
            with builder.if_then(cgutils.is_not_null(builder, obj)):
                # PyBytes_AsStringAndSize refuses what is not bytes
                data = cgutils.alloca_once(builder, cgutils.voidptr_t)
                size = cgutils.alloca_once(builder, size_t)
                failed = builder.call(_function(
                    builder, "PyBytes_AsStringAndSize", ir.IntType(32), cgutils.voidptr_t,
                    data.type, size.type), [obj, data, size])
                with builder.if_else(cgutils.is_not_null(builder, failed)) as (bad, good):
                    with good:
                        value.data = builder.load(data)
                        value.size = builder.load(size)
                    with bad:
                        pass
            with builder.if_then(builder.icmp_signed("<", value.size,
                                                     context.get_constant(types.intp, 0))):
                builder.call(_function(builder, "PyErr_Clear", ir.VoidType()), [])
            return value._getvalue()
        return BYTES(items, i), codegen

    @intrinsic
    def bytes_of(typingctx, array):
        """A new bytes object holding a copy of ``array`` (contiguous
        uint8); nothing where there is no memory for it.  Only with the
        GIL held."""
        if not (isinstance(array, types.Array) and array.dtype == types.uint8
                and array.ndim == 1 and array.layout == "C"):
            return None

        def codegen(context, builder, signature, args):
            view = context.make_array(signature.args[0])(context, builder, value=args[0])
            return _bytes_made(context, builder, builder.bitcast(view.data, cgutils.voidptr_t),
                               builder.extract_value(view.shape, 0))
        return MADE(array), codegen

    @intrinsic
    def new_list(typingctx, n):
        """A new list of ``n`` items, each to be set (``set_item``) before
        it is handed over; nothing where there is no memory for it.  Only
        with the GIL held."""
        if not isinstance(n, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return _made(builder, "PyList_New", (context.get_value_type(types.intp),),
                         (context.cast(builder, args[0], signature.args[0], types.intp),))
        return MADE(n), codegen

    @intrinsic
    def set_item(typingctx, made, i, item):
        """Item ``i`` of the list ``made`` (``new_list``'s) set to ``item``,
        which the list then holds (both MADE, ``item`` made)."""
        if not (isinstance(made, Made) and isinstance(i, types.Integer)
                and isinstance(item, Made)):
            return None

        def codegen(context, builder, signature, args):
            size_t = context.get_value_type(types.intp)
            builder.call(_function(builder, "PyList_SetItem", ir.IntType(32),
                                   cgutils.voidptr_t, size_t, cgutils.voidptr_t),
                         [args[0], context.cast(builder, args[1], signature.args[1],
                                                types.intp), args[2]])
            return context.get_dummy_value()
        return types.none(made, i, item), codegen

    @intrinsic
    def gil_released(typingctx):
        """The GIL let go (``PyEval_SaveThread``): the thread state to take
        it back with, which the caller must, whatever happens between."""
        return types.voidptr(), lambda context, builder, signature, args: builder.call(
            _function(builder, "PyEval_SaveThread", cgutils.voidptr_t), [])

    @intrinsic
    def gil_taken(typingctx, state):
        """The GIL taken back by ``gil_released``'s ``state``."""
        if state != types.voidptr:
            return None

        def codegen(context, builder, signature, args):
            builder.call(_function(builder, "PyEval_RestoreThread", ir.VoidType(),
                                   cgutils.voidptr_t), [args[0]])
            return context.get_dummy_value()
        return types.none(state), codegen

    @intrinsic
    def dropped(typingctx, made):
        """Nothing made: ``made`` released (with the GIL held)."""
        if not isinstance(made, Made):
            return None

        def codegen(context, builder, signature, args):
            with builder.if_then(cgutils.is_not_null(builder, args[0])):
                builder.call(_function(builder, "Py_DecRef", ir.VoidType(), cgutils.voidptr_t),
                             [args[0]])
            return cgutils.voidptr_t(None)
        return MADE(made), codegen
