"""A stream of one block, checked and decoded in one kernel call.

numcodecs and Zarr hand a codec one small stream per chunk.  For a 4 KB
chunk, the general reader (``format.container.Parser``, the block's
decoder, the block check) spends twice as long in Python as its kernel
spends decoding.  ``decode`` takes the common case -- a single stream
(docs/FORMAT.md, section 3.3) that names no dictionary, of one block in a
coding of TAKEN -- through one call of ``_single``: the layout read by the
container's reader (``decoder.layout``), the block by its coding's own
decoder (``blocks.decoder_of``), the data check; a small output straight
into the new bytes object it returns (``kernels.bytes_object.fill``).
Anything else, and every input that fails a check, it declines: the
caller then takes the general path, which raises the error.  So it never
returns bytes the general path would not, and errors keep one source.
"""
import numpy as np

from .. import _inplace_bytes
from .._jit import PURE_PYTHON, direct, njit
from ..format.codings.registry import CODINGS
from ..format.container import MAGIC, MAX_BLOCK_SIZE, SINGLE_AT
from ..kernels import xxh64
from ..kernels.bytes_object import BYTES, contents, fill
from ..plain.varint import varint_at
from . import blocks, layout

SMALLEST = SINGLE_AT + 7  # a single stream's least: a STORED block of 1 byte
# Streams up to this size: past it, the general reader's fixed cost is
# small beside decoding, and its threads may help.
LARGEST = 1 << 22
_SINGLE = MAGIC + b"\0"  # a single stream's first bytes: no dictionary
_HEAD = np.frombuffer(_SINGLE, np.uint8)
TAKEN = tuple(c for c in CODINGS if not CODINGS[c].dictionary)
_TAKEN = frozenset(TAKEN)

if not PURE_PYTHON:
    from numba import types
    from numba.extending import overload

    def _decode_block(coding, payload, size, out, inputs):
        """Coding ``coding``'s ``decode_block``: which one, Numba chooses
        as it compiles ``_single`` for one coding, a literal."""

    @overload(_decode_block)
    def _decode_block_of(coding, payload, size, out, inputs):
        if not isinstance(coding, types.IntegerLiteral):
            return None
        kernel = blocks.coding_module(coding.literal_value).DECODERS[coding.literal_value]
        return lambda coding, payload, size, out, inputs: kernel(payload, size, out, coding,
                                                                 *inputs)


@njit(cache=True, nogil=True)
def _single(data, out, coding, inputs):
    """Whether ``data`` is a single stream of one block of ``coding`` and
    ``len(out)`` bytes, decoded into ``out`` and found to have its data
    check (else ``out`` holds anything).  Compiled once per coding, each
    reaching only its own decoder: a first decompression compiles one
    coding's, not them all (38 s)."""
    found, size, payload_at, data_check = layout.one_block(data, _HEAD)
    if found != coding or size != out.shape[0]:
        return False
    if _decode_block(coding, data[payload_at:], size, out, inputs):
        return False
    return xxh64.data_check(out) == data_check


@njit(cache=True, nogil=True)
def _single_to_bytes(data, out, coding, inputs):
    """``_single`` from the bytes ``data`` into the new bytes object ``out``
    (``kernels.bytes_object``: both BYTES), which the caller returns as it
    is: no array to make and copy in Python, a twentieth of a 4 KB chunk's
    call."""
    return _single(contents(data), fill(out), coding, inputs)


_kernels = {}  # coding -> (``_single`` compiled for it, its inputs)
_to_bytes = {}  # coding -> (``_single_to_bytes`` compiled for it, its inputs)


def _kernel(coding):
    """``_single`` for ``coding``, compiled (or loaded) at first use, and
    the inputs its decoder takes."""
    if coding not in _kernels:
        inputs = blocks.decoder_of(coding)[1]
        examples = (np.frombuffer(b"", np.uint8), np.empty(1, np.uint8))
        kernel = direct(_single, *examples, types.literal(coding), inputs)
        _kernels[coding] = kernel, inputs
    return _kernels[coding]


def _kernel_to_bytes(coding):
    """``_single_to_bytes`` for ``coding``, as ``_kernel``."""
    if coding not in _to_bytes:
        inputs = _kernel(coding)[1]
        kernel = direct(_single_to_bytes, BYTES, BYTES, types.literal(coding), inputs)
        _to_bytes[coding] = kernel, inputs
    return _to_bytes[coding]


def compile_kernels():
    """Compile every coding's kernels now (``gagebpe.precompile``), each
    for the one signature it is called with: a stream in bytes, and an
    output array or a new bytes object."""
    for coding in TAKEN:
        _kernel_to_bytes(coding)


def _declared(data):
    """``(size, coding)`` that a single stream (bytes) of a coding taken
    here declares, or ``(0, 0)`` where ``data`` cannot be one.  Not yet
    checked: the output is allocated before the kernel checks the layout,
    so a size no block may have is refused here.  (Per call on a 4 KB
    chunk, as cheap as it can be: it was a twentieth of decoding one.)"""
    if PURE_PYTHON or not SMALLEST <= len(data) <= LARGEST or not data.startswith(_SINGLE):
        return 0, 0
    size = data[SINGLE_AT + 1]
    if size >= 0x80:
        high = data[SINGLE_AT + 2]
        if 0 < high < 0x80:  # a size below 16 KiB, written out: the common case
            size = size - 0x80 | high << 7
        else:
            size, _ = varint_at(data, SINGLE_AT + 1)
            if size > MAX_BLOCK_SIZE:
                return 0, 0
    coding = data[SINGLE_AT]
    return (size, coding) if coding in _TAKEN else (0, 0)


def decode(data, limit):
    """The bytes of ``data`` (bytes) if it is a single stream taken here,
    of at most ``limit`` bytes, that passes every check; else None."""
    size, coding = _declared(data)
    if not 0 < size <= limit:
        return None
    if 1 < size < _inplace_bytes.SMALL:
        # Below SMALL a fresh bytes object costs least: zeroed, but not
        # filled through ctypes.  Above 1 byte it is new (``fill``);
        # repeating one byte makes it in half the time ``bytes(size)`` does.
        kernel, inputs = _to_bytes.get(coding) or _kernel_to_bytes(coding)
        out = b"\0" * size
        return out if kernel(data, out, coding, inputs) else None
    kernel, inputs = _kernels.get(coding) or _kernel(coding)
    owner, out = _inplace_bytes.allocate(size)
    if not kernel(np.frombuffer(data, np.uint8), out, coding, inputs):
        return None
    return _inplace_bytes.finish(owner)


def decode_into(data, out):
    """Decode ``data`` into the uint8 array ``out`` if it is a single
    stream taken here of exactly ``len(out)`` bytes that passes every
    check; whether it did (else ``out`` holds anything)."""
    size, coding = _declared(data)
    if not 0 < size == len(out):
        return False
    kernel, inputs = _kernels.get(coding) or _kernel(coding)
    return kernel(np.frombuffer(data, np.uint8), out, coding, inputs)
