"""Decompressing gagebpe streams, in the shape of ``lzma``: the one-shot
``decompress`` (which also reads the 1994 format, by name) and
``decompress_into``, and the incremental ``Decompressor``.

``Decompressor`` reads a stream as its bytes arrive, through the
container's parser, decoding a block once all of it is there: its memory
is bounded by the block size.  One-shot ``decompress`` parses the whole
layout first, then decodes every block straight into the bytes it
returns; a stream of one small block (a chunk) takes one kernel call
instead (``decoder.fast``), where it can.  ``decompress_many`` decodes
records coded with a dictionary together, in one kernel call.
"""
from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from ..format import container as _container, gage1994 as _gage1994_stream
from . import blocks as _blocks, fast as _fast
from .. import _inplace_bytes
from .._arguments import check_format, check_limit, check_threads
from ..format.container import BlockHeader, End, Parser, Payload
from .._errors import DEFAULT_LIMIT, OVER_LIMIT, TRUNCATED, GageBPEError
from .._types import BytesLike

if TYPE_CHECKING:
    from ..format.dictionary import DictionaryLike

# decompress_into's writable buffer, which it returns
_Out = TypeVar("_Out", np.ndarray, bytearray, memoryview)

PLAUSIBLE_EXPANSION = 1024  # runs expand further; they take the joining path


# -- decompressing ----------------------------------------------------------------

def _dictionaries(dictionary):
    """The ``{id: Dictionary}`` a reader holds for the ``dictionary`` given
    (loaded only when one is: dictionaries need the kernels)."""
    return {} if dictionary is None else _dictionary_modules()[0].given(dictionary)


def _dictionary_modules():
    """``format.dictionary`` and ``decoder.records``, imported at the first
    call (they load the kernels) and then at no cost."""
    global _DICTIONARY_MODULES, _Dictionary, _records
    if _DICTIONARY_MODULES is None:
        from ..format import dictionary
        from . import records
        _DICTIONARY_MODULES = dictionary, records
        _Dictionary, _records = dictionary.Dictionary, records
    return _DICTIONARY_MODULES


_DICTIONARY_MODULES = None
# ``format.dictionary.Dictionary`` and ``decoder.records`` once loaded: no
# object's type is None, so ``decompress`` takes no record before.
_Dictionary: Any = None
_records: Any = None


def decode_block(payload: Payload) -> np.ndarray:
    """The checked bytes of one block (a uint8 array)."""
    out = np.empty(payload.block.size, np.uint8)
    return _decode_into(payload, out)


def _decode_into(payload, out):
    block = payload.block
    _blocks.decode(block.coding, payload.data, block.size, out, payload.dictionary)
    _container.check_data(out, block.data_check)
    return out


class Decompressor:
    """Decompress one gagebpe stream incrementally.

    ``decompress(data, max_length=-1)`` returns at most ``max_length`` bytes
    (all that is ready if negative).  After the stream's end, ``eof`` is true
    and ``unused_data`` holds the bytes that followed it.  ``needs_input`` is
    false while output is ready without more input.  With ``threads`` > 1
    (0: one per core), up to that many complete blocks are decoded at once.
    A block that would take the stream's output past ``limit`` bytes in all
    (None: no limit) raises ``GageBPEError`` as soon as its header is read.
    A stream written with a dictionary needs it (``dictionary``: a
    ``gagebpe.Dictionary`` or its bytes).
    """

    def __init__(self, *, threads: int = 1, limit: int | None = None,
                 dictionary: DictionaryLike = None) -> None:
        self._threads = check_threads(threads)
        self._left = check_limit(limit)
        self._parser = Parser(_dictionaries(dictionary))
        self._executor = None
        # Input not yet consumed: the caller's buffer while a call reads it
        # in place, else a copy of what earlier calls left.
        self._input: Any = bytearray()  # a bytearray, or a memoryview read in place
        self._input_pos = 0
        self._output = b""
        self._output_pos = 0
        self._decoded: deque = deque()  # blocks' output (or its Future), in order
        self.unused_data = b""
        self.needs_input = True

    @property
    def eof(self) -> bool:
        """The end of the stream was read and all its output returned."""
        return (self._parser.done and not self._decoded
                and self._output_pos == len(self._output))

    def decompress(self, data: BytesLike, max_length: int = -1) -> bytes:
        if self.eof:
            raise EOFError("Already at end of stream")
        with memoryview(data) as whole, whole.cast("B") as view:
            if self._input_pos == len(self._input):
                self._input, self._input_pos = view, 0  # read in place
            else:
                self._input += view
            try:
                out = self._run(max_length if max_length >= 0 else float("inf"))
            finally:
                if isinstance(self._input, memoryview):  # keep the rest
                    self._input = bytearray(self._input[self._input_pos:])
                    self._input_pos = 0
        if self.eof and self._executor is not None:
            self._executor.shutdown()
            self._executor = None
        return out

    def _run(self, limit):
        """Up to ``limit`` bytes of output, from the input there is."""
        out = []
        produced = 0
        while produced < limit:
            if self._output_pos < len(self._output):
                take = min(limit - produced, len(self._output) - self._output_pos)
                out.append(self._output[self._output_pos:self._output_pos + take])
                self._output_pos += take
                produced += take
            elif len(self._decoded) < self._threads and self._step():
                continue  # read ahead while blocks can decode side by side
            elif self._decoded:
                block = self._decoded.popleft()
                block = block.result() if isinstance(block, Future) else block
                # A view: the pieces are copied once, by the join below.
                self._output = memoryview(block).cast("B")
                self._output_pos = 0
            else:
                break
        pending = self._output_pos < len(self._output) or bool(self._decoded)
        self.needs_input = not self.eof and not pending and produced < limit
        return b"".join(out)

    def _step(self):
        """Take one unit of the stream if all its bytes are here; return
        whether it did."""
        if self._parser.done:
            return False
        with memoryview(self._input) as view:
            unit, n = self._parser.parse(view[self._input_pos:])
            if isinstance(unit, Payload):  # a copy: the caller's buffer may change
                unit = unit._replace(data=bytes(unit.data))
        if unit is None:
            return False
        self._consume(n)
        if isinstance(unit, BlockHeader):
            self._left -= unit.size
            if self._left < 0:  # refused before its payload is read
                raise GageBPEError(OVER_LIMIT)
        elif isinstance(unit, Payload):
            if self._threads > 1:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(self._threads)
                self._decoded.append(self._executor.submit(decode_block, unit))
            else:
                self._decoded.append(decode_block(unit))
        elif isinstance(unit, End):
            self.unused_data = bytes(self._input[self._input_pos:])
            self._input, self._input_pos = bytearray(), 0
        return True

    def _consume(self, n):
        self._input_pos += n
        if (isinstance(self._input, bytearray)
                and self._input_pos > len(self._input) // 2):  # amortised compaction
            del self._input[:self._input_pos]
            self._input_pos = 0


def _layout(data, limit, dictionaries=None):
    """Every block of the concatenated streams ``data`` (a memoryview), as
    its ``Payload``, the layout checked throughout; and the total
    size they declare, which must not pass ``limit``.  ``dictionaries``:
    the ``{id: Dictionary}`` the streams may name."""
    blocks, total, pos = [], 0, 0
    while True:
        parser = Parser(dictionaries)
        while not parser.done:
            unit, n = parser.parse(data[pos:], final=True)
            if unit is None:
                raise EOFError(TRUNCATED)
            pos += n
            if isinstance(unit, BlockHeader):
                total += unit.size
                if total > limit:  # refused before anything is decoded
                    raise GageBPEError(OVER_LIMIT)
            elif isinstance(unit, Payload):
                blocks.append(unit)
        if pos == len(data):
            return blocks, total


def decompress(data: BytesLike, *, threads: int = 1, format: str = "gbpe",
               limit: int | None = DEFAULT_LIMIT, max_length: int | None = None,
               dictionary: DictionaryLike = None) -> bytes:
    """Decompress ``data``: one or more concatenated gagebpe streams, their
    blocks on ``threads`` threads (0: one per core); with
    ``format="gage1994"``, a file in Gage's 1994 format (never guessed:
    that format has no magic number).  Streams written with a dictionary
    need it (``dictionary``: a ``gagebpe.Dictionary`` or its bytes); one
    that names another raises ``GageBPEError`` naming the id it needs.

    Raises ``GageBPEError`` for malformed data (trailing bytes that are not a
    stream included) and ``EOFError`` for a stream cut short.  Output past
    ``limit`` bytes in all (4 GiB by default; None: no limit) raises
    ``GageBPEError`` too, before anything is decoded.  (``max_length`` is
    the old name of ``limit``.)
    """
    # A chunk or a record, called as most calls are, is taken before the
    # arguments' checks, which cost a small chunk a fifth of its time.  A
    # record (compress_many's) is read, decoded and made into the bytes
    # returned by one kernel (``decoder.records``): a size read here and an
    # object made here cost a 64-byte record a sixth of its time.  A record
    # that fails is left to ``decode_record`` below, which says what is
    # wrong.
    if (type(dictionary) is _Dictionary and type(data) is bytes and type(limit) is int
            and limit < _records.NO_LIMIT and max_length is None and format == "gbpe"):
        given: Any = dictionary  # a Dictionary: its type was just checked
        if (out := _records._DECODE_NEW(data, given.decoder_address, limit)) is not None:
            return out
    plain = False
    if dictionary is not None:
        if (max_length is None and format == "gbpe"
                and (out := _dictionary_modules()[1].decode_record(data, dictionary, limit))
                is not None):
            return out  # a record (compress_many's): no reader in Python at all
    elif type(data) is bytes and limit is DEFAULT_LIMIT and max_length is None and format == "gbpe":
        plain = True
        if (out := _fast.decode(data, PLAUSIBLE_EXPANSION * len(data))) is not None:
            return out
    if max_length is not None:
        warnings.warn("decompress(max_length=) is now decompress(limit=)",
                      DeprecationWarning, stacklevel=2)
        limit = max_length
    left = check_limit(limit)
    if check_format(format) == "gage1994":
        if dictionary is not None:
            raise ValueError("the gage1994 format has no dictionaries")
        return _gage1994_stream.decompress(data, limit)
    dictionaries = _dictionaries(dictionary)
    if type(data) is not bytes:
        data = bytes(data)  # kernels on other threads read it as it is now
    if not plain:
        out = _fast.decode(data, min(left, PLAUSIBLE_EXPANSION * len(data)))
        if out is not None:
            return out
    with memoryview(data) as view:
        blocks, total = _layout(view, left, dictionaries)
        threads = check_threads(threads)
        executor = ThreadPoolExecutor(threads) if threads > 1 and len(blocks) > 1 else None
        try:
            return _decode_all(blocks, total, len(data), executor)
        finally:
            if executor is not None:
                executor.shutdown()
            blocks.clear()  # release the views of ``data``


def _decode_all(blocks, total, input_size, executor):
    """The bytes of ``blocks``: decoded straight into the result where the
    layout's total is plausible for its input, else one by one and joined
    (a forged layout can declare far more than its blocks will make)."""
    if total > PLAUSIBLE_EXPANSION * input_size:
        run = executor.map if executor is not None else map
        return b"".join(run(decode_block, blocks))
    owner, out = _inplace_bytes.allocate(total)
    _decode_in_place(blocks, out, executor)
    return _inplace_bytes.finish(owner)


def _decode_in_place(blocks, out, executor):
    """Decode ``blocks`` one after another into the uint8 array ``out``,
    which holds exactly their bytes."""
    if len(blocks) == 1:  # a chunk's one block: no machinery
        _decode_into(blocks[0], out)
        return
    run = executor.map if executor is not None else map
    places, start = [], 0
    for payload in blocks:
        places.append(out[start:start + payload.block.size])
        start += payload.block.size
    for _ in run(_decode_into, blocks, places):
        pass


def decompress_into(data: BytesLike, out: _Out, *, threads: int = 1) -> _Out:
    """Decompress ``data`` (one or more concatenated gagebpe streams) into
    ``out``, a writable C-contiguous buffer that must hold exactly the
    bytes the streams declare; returns ``out``.  The errors of
    ``decompress``, and ``GageBPEError`` if the sizes differ (raised before
    anything is decoded)."""
    # numpy's stubs do not say that an array is a buffer
    with memoryview(out) as target:  # type: ignore[arg-type]
        if target.readonly or not target.c_contiguous:
            raise ValueError("out must be a writable C-contiguous buffer")
        with target.cast("B") as flat:
            place = np.frombuffer(flat, np.uint8)
            data = bytes(data) if type(data) is not bytes else data
            if _fast.decode_into(data, place):
                return out
            with memoryview(data) as view:
                blocks, total = _layout(view, len(place))
                if total != len(place):
                    raise GageBPEError(f"the data decompress to {total} bytes, "
                                       f"not the {len(place)} that out holds")
                threads = check_threads(threads)
                executor = (ThreadPoolExecutor(threads) if threads > 1 and len(blocks) > 1
                            else None)
                try:
                    _decode_in_place(blocks, place, executor)
                finally:
                    if executor is not None:
                        executor.shutdown()
                    blocks.clear()
                    del place
    return out


def decompress_many(blobs: Iterable[BytesLike], *, dictionary: DictionaryLike = None,
                    limit: int | None = DEFAULT_LIMIT, threads: int = 1) -> list[bytes]:
    """``[decompress(blob, dictionary=dictionary) for blob in blobs]``,
    with the records coded by the dictionary (what ``compress_many``
    writes) read and decoded together, on up to ``threads`` threads;
    ``limit`` bounds the output of all of them.  Raises as ``decompress``
    does."""
    left, threads = check_limit(limit), check_threads(threads)
    blobs = blobs if type(blobs) is list else list(blobs)
    dictionaries = _dictionaries(dictionary)
    if not dictionaries:
        out = []
        for blob in blobs:
            out.append(decompress(blob, limit=left))
            left -= len(out[-1])
        return out
    out, others, size = _dictionary_modules()[1].decode_streams(
        blobs, *dictionaries.values(), left, threads)
    left -= size
    for i in others:
        out[i] = decompress(blobs[i], dictionary=dictionary, limit=left)
        left -= len(out[i])
    return out
