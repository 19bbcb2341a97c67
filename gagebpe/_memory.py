"""Unaligned 8-byte loads and stores on uint8 arrays, for Numba kernels.

Numba lowers a loop of byte copies to byte moves; copying short phrases
eight bytes at a time is what makes expansion fast.  Callers keep
``index + 8`` within the array (the buffers carry padding for it).
"""
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

_I64_PTR = ir.IntType(64).as_pointer()


@intrinsic
def load8(typingctx, array, index):
    """The 8 bytes at ``array[index:index + 8]`` as a uint64."""
    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        address = builder.bitcast(builder.gep(data, [args[1]]), _I64_PTR)
        return builder.load(address, align=1)
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
