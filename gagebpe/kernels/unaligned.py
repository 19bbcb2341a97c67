"""Unaligned 8-byte (and 4-byte) loads and stores on uint8 arrays, a
byte copy, a prefetch hint and an int64 array at an address, for the
kernels (LLVM intrinsics; plain NumPy and ctypes as Python).

Numba lowers a loop of byte copies to byte moves; copying short phrases
eight bytes at a time is what makes expansion fast.  Callers keep
``index + 8`` within the array (the buffers carry padding for it).
"""
import numpy as np

from .._jit import PURE_PYTHON

if PURE_PYTHON:
    # Intrinsics cannot run as Python: these do the same on NumPy arrays.
    def load8(array, index):
        start = int(index)
        return np.uint64(int.from_bytes(array[start:start + 8].tobytes(), "little"))

    def load4(array, index):
        start = int(index)
        return np.uint64(int.from_bytes(array[start:start + 4].tobytes(), "little"))

    def load8_be(array, index):
        start = int(index)
        return np.uint64(int.from_bytes(array[start:start + 8].tobytes(), "big"))

    def store8(array, index, value):
        start = int(index)
        array[start:start + 8] = np.frombuffer(int(value).to_bytes(8, "little"), np.uint8)

    def prefetch(array, index):
        pass

    def copy_bytes(target, at, source, start, n):
        target[int(at):int(at) + int(n)] = source[int(start):int(start) + int(n)]

    def int64s_at(address, n):
        import ctypes
        return np.ctypeslib.as_array((ctypes.c_int64 * int(n)).from_address(int(address)))
else:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    _I64_PTR = ir.IntType(64).as_pointer()
    _I32_PTR = ir.IntType(32).as_pointer()

    @intrinsic
    def load8(typingctx, array, index):
        """The 8 bytes at ``array[index:index + 8]`` as a uint64."""
        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            address = builder.bitcast(builder.gep(data, [args[1]]), _I64_PTR)
            return builder.load(address, align=1)
        return types.uint64(array, index), codegen


    @intrinsic
    def load4(typingctx, array, index):
        """The 4 bytes at ``array[index:index + 4]`` as a uint64."""
        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            address = builder.bitcast(builder.gep(data, [args[1]]), _I32_PTR)
            return builder.zext(builder.load(address, align=1), ir.IntType(64))
        return types.uint64(array, index), codegen


    @intrinsic
    def load8_be(typingctx, array, index):
        """The 8 bytes at ``array[index:index + 8]`` as a big-endian uint64:
        the first byte in the top bits, as an MSB-first bit reader wants."""
        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            address = builder.bitcast(builder.gep(data, [args[1]]), _I64_PTR)
            value = builder.load(address, align=1)
            return builder.bswap(value)
        return types.uint64(array, index), codegen


    @intrinsic
    def store8(typingctx, array, index, value):
        """Write the uint64 ``value`` to ``array[index:index + 8]``."""
        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            address = builder.bitcast(builder.gep(data, [args[1]]), _I64_PTR)
            builder.store(args[2], address, align=1)
            return context.get_dummy_value()
        return types.void(array, index, value), codegen


    @intrinsic
    def copy_bytes(typingctx, target, at, source, start, n):
        """Copy ``source[start:start + n]`` to ``target[at:at + n]`` (uint8
        arrays, not overlapping; the caller keeps both ranges within
        them) with one ``memcpy``: Numba copies a slice to a slice a byte
        at a time, eight times slower on a small block's payload."""
        if not all(isinstance(a, types.Array) and a.dtype == types.uint8
                   for a in (target, source)):
            return None

        def codegen(context, builder, signature, args):
            target_data = context.make_array(signature.args[0])(context, builder, args[0]).data
            source_data = context.make_array(signature.args[2])(context, builder, args[2]).data
            intp = context.get_value_type(types.intp)
            cgutils.raw_memcpy(builder, builder.gep(target_data, [args[1]]),
                               builder.gep(source_data, [args[3]]),
                               builder.sext(args[4], intp) if args[4].type.width < 64
                               else args[4], 1)
            return context.get_dummy_value()
        return types.void(target, at, source, start, n), codegen


    @intrinsic
    def prefetch(typingctx, array, index):
        """Hint that the row ``array[index]`` will be written soon, so that
        irregular strides through a large array do not wait on memory."""
        def codegen(context, builder, signature, args):
            ary = context.make_array(signature.args[0])(context, builder, args[0])
            stride = builder.extract_value(ary.strides, 0)
            offset = builder.mul(builder.sext(args[1], stride.type), stride)
            data = builder.bitcast(ary.data, ir.IntType(8).as_pointer())
            address = builder.gep(data, [offset])
            fn = builder.module.declare_intrinsic(
                "llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(), [
                    ir.IntType(8).as_pointer(), ir.IntType(32), ir.IntType(32), ir.IntType(32)]))
            builder.call(fn, [address, ir.Constant(ir.IntType(32), 1),
                              ir.Constant(ir.IntType(32), 3), ir.Constant(ir.IntType(32), 1)])
            return context.get_dummy_value()
        return types.void(array, index), codegen


    @intrinsic
    def int64s_at(typingctx, address, n):
        """The ``n`` int64 words at ``address`` (an int) as an array.  Only
        for an array whose owner keeps it alive through the call: a kernel
        called once per small record takes its tables so, as an int costs
        the call 10 ns to hand over and an array 45."""
        if not isinstance(address, types.Integer) or not isinstance(n, types.Integer):
            return None
        result = types.Array(types.int64, 1, "C")

        def codegen(context, builder, signature, args):
            view = context.make_array(result)(context, builder)
            word = context.get_value_type(types.int64)
            intp = context.get_value_type(types.intp)
            context.populate_array(
                view, data=builder.inttoptr(args[0], word.as_pointer()),
                shape=[builder.sext(args[1], intp) if args[1].type.width < 64 else args[1]],
                strides=[context.get_constant(types.intp, 8)],
                itemsize=context.get_constant(types.intp, 8), meminfo=None)
            return view._getvalue()
        return result(address, n), codegen
