"""``GageBPEFile`` and ``open``: compressed files as in ``lzma`` and ``bz2``,
in either format.

The reader and the file class follow CPython's ``_compression`` and
``lzma`` modules, so they behave the same way: the reader takes a factory of
decompressors, which both formats' ``Decompressor`` classes serve.  One
difference: bytes after the last gbpe stream that are not a gbpe stream
raise ``GageBPEError`` rather than being ignored.

Above both directions: reads through ``decoder.stream``, writes through
``encoder.stream``; Gage's 1994 format through ``format.gage1994``.
"""
from __future__ import annotations

import builtins
import io
import os
import warnings
from typing import TYPE_CHECKING, Any, BinaryIO

from ._arguments import check_format, check_limit
from ._errors import TRUNCATED
from ._types import BytesLike, PathLike

if TYPE_CHECKING:
    from .format.dictionary import DictionaryLike
from .decoder import ranges as _ranges, stream as _stream_decoder
from .encoder import stream as _stream_encoder
from .format import gage1994 as _gage1994_stream

_MODE_CLOSED, _MODE_READ, _MODE_WRITE = 0, 1, 2
READ_SIZE = 1 << 17


class DecompressReader(io.RawIOBase):
    """Raw reader of the decompressed bytes of the concatenated streams in
    the binary file ``fp``, at most ``limit`` of them in all (None: no
    limit).  ``new_decompressor(limit)`` makes the decompressor of each
    stream, which may give what the earlier ones left of the limit.

    Reads decompress the streams in order.  Where ``fp`` is seekable and
    ``new_map(fp, limit)`` is given, the first seek maps the blocks
    instead (``decoder.ranges.BlockMap``, from where ``fp`` stood at the
    start) and every read after it decodes only the blocks it needs;
    otherwise a seek backwards starts again from the beginning and one
    forwards reads its way there, as ``lzma``'s reader does."""

    def __init__(self, fp, new_decompressor, limit=None, new_map=None):
        self._fp = fp
        self._new = new_decompressor
        self._limit = limit
        self._eof = False
        self._pos = 0
        self._size = -1  # known once EOF is reached
        self._decompressor = self._new_decompressor()
        seekable = getattr(fp, "seekable", None)
        self._new_map = new_map if new_map is not None and seekable and seekable() else None
        self._origin = fp.tell() if self._new_map is not None else 0
        self._map = None  # the BlockMap, from the first seek on

    def _new_decompressor(self):
        return self._new(None if self._limit is None else self._limit - self._pos)

    def readable(self):
        return True

    def close(self):
        self._decompressor = None
        return super().close()

    def seekable(self):
        return self._fp.seekable()

    def readinto(self, b):
        with memoryview(b) as view, view.cast("B") as byte_view:
            data = self.read(len(byte_view))
            byte_view[:len(data)] = data
        return len(data)

    def read(self, size=-1):
        if size < 0:
            return self.readall()
        if self._map is not None:
            data = self._map.read(self._pos, size)
            self._pos += len(data)
            return data
        if not size or self._eof:
            return b""
        data = None
        while True:
            if self._decompressor.eof:
                rawblock = self._decompressor.unused_data or self._fp.read(READ_SIZE)
                if not rawblock:
                    break
                self._decompressor = self._new_decompressor()
                data = self._decompressor.decompress(rawblock, size)
            else:
                if self._decompressor.needs_input:
                    rawblock = self._fp.read(READ_SIZE)
                    if not rawblock:
                        raise EOFError(TRUNCATED)
                else:
                    rawblock = b""
                data = self._decompressor.decompress(rawblock, size)
            if data:
                break
        if not data:
            self._eof = True
            self._size = self._pos
            return b""
        self._pos += len(data)
        return data

    def readall(self):
        chunks = []
        while data := self.read(io.DEFAULT_BUFFER_SIZE * 64):
            chunks.append(data)
        return b"".join(chunks)

    def _rewind(self):
        self._fp.seek(0)
        self._eof = False
        self._pos = 0
        self._decompressor = self._new_decompressor()

    def seek(self, offset, whence=io.SEEK_SET):
        if whence not in (io.SEEK_SET, io.SEEK_CUR, io.SEEK_END):
            raise ValueError(f"Invalid value for whence: {whence}")
        if self._map is None and self._new_map is not None:
            self._fp.seek(self._origin)
            self._map = self._new_map(self._fp, self._limit)
            self._decompressor = None
        if self._map is not None:
            base = (0, self._pos, self._map.size)[whence]
            self._pos = max(0, min(base + offset, self._map.size))
            return self._pos
        if whence == io.SEEK_SET:
            pass
        elif whence == io.SEEK_CUR:
            offset = self._pos + offset
        elif whence == io.SEEK_END:
            if self._size < 0:
                while self.read(io.DEFAULT_BUFFER_SIZE):
                    pass
            offset = self._size + offset
        if offset < self._pos:
            self._rewind()
        else:
            offset -= self._pos
        while offset > 0:
            data = self.read(min(io.DEFAULT_BUFFER_SIZE, offset))
            if not data:
                break
            offset -= len(data)
        return self._pos

    def tell(self):
        return self._pos


def _decompressor_factory(format, threads, dictionary):
    if format == "gage1994":
        if dictionary is not None:
            raise ValueError("the gage1994 format has no dictionaries")
        return lambda limit: _gage1994_stream.Decompressor(limit=limit)
    return lambda limit: _stream_decoder.Decompressor(threads=threads, limit=limit,
                                                      dictionary=dictionary)


def _map_factory(format, dictionary):
    """How a reader maps the blocks of a seekable file (None: it cannot)."""
    if format != "gbpe":
        return None
    if dictionary is None:
        return _ranges.BlockMap.scan
    from .format.dictionary import given
    dictionaries = given(dictionary)
    return lambda fp, limit: _ranges.BlockMap.scan(fp, limit, dictionaries)


def _compressor(format, level, block_size, threads, dictionary):
    if format == "gage1994":
        if level is not None or block_size is not None or dictionary is not None:
            raise ValueError("the gage1994 format has no level, block size or dictionary")
        return _gage1994_stream.Compressor()
    return _stream_encoder.Compressor(level, block_size=block_size, threads=threads,
                                      dictionary=dictionary)


class GageBPEFile(io.BufferedIOBase):
    """A file object giving access to a compressed file.

    ``filename`` is a path (str, bytes or PathLike) or a file object to wrap;
    a wrapped file object is not closed by ``close()``.  ``mode`` is "r" for
    reading (the default), "w" for overwriting, "x" for exclusive creation
    or "a" for appending (a new stream after the existing ones); a "b"
    suffix is accepted.  ``format`` is "gbpe" (gagebpe's streams) or
    "gage1994" (Philip Gage's 1994 format).  ``level`` and ``block_size``
    apply when writing gbpe, ``limit`` when reading: a file whose blocks
    would give more bytes than that in all raises ``GageBPEError`` at the
    first block past it (None, the default: no limit).  ``threads`` codes
    or decodes that many gbpe blocks at once.  Reading holds one block in
    memory at a time (per thread), writing one block per thread.  A file
    written with a ``dictionary`` (``gagebpe.train_dictionary``'s) is read
    with it.

    A gbpe file read from a seekable file object seeks without decoding
    what comes before: the first seek maps its blocks (reading their
    headers and each stream's trailer, not their payloads), and reads
    after it decode only the blocks they need, one at a time.  Elsewhere
    (a pipe, the 1994 format) seeking backwards starts again from the
    beginning.
    """

    def __init__(self, filename: PathLike | BinaryIO | None = None, mode: str = "r", *,
                 format: str = "gbpe", level: int | None = None,
                 block_size: int | None = None, threads: int = 1, limit: int | None = None,
                 max_length: int | None = None, dictionary: DictionaryLike = None) -> None:
        self._fp: Any = None
        self._closefp = False
        self._mode = _MODE_CLOSED
        self._buffer: Any = None
        check_format(format)
        if max_length is not None:
            warnings.warn("max_length= is now limit=", DeprecationWarning, stacklevel=2)
            limit = max_length
        if mode in ("r", "rb"):
            if level is not None or block_size is not None:
                raise ValueError("level and block_size apply only when writing")
            check_limit(limit)
            mode_code = _MODE_READ
        elif mode in ("w", "wb", "a", "ab", "x", "xb"):
            if limit is not None:
                raise ValueError("limit applies only when reading")
            mode_code = _MODE_WRITE
            self._compressor = _compressor(format, level, block_size, threads, dictionary)
            self._pos = 0
        else:
            raise ValueError(f"Invalid mode: {mode!r}")

        if isinstance(filename, (str, bytes, os.PathLike)):
            if "b" not in mode:
                mode += "b"
            self._fp = builtins.open(filename, mode)
            self._closefp = True
        elif hasattr(filename, "read") or hasattr(filename, "write"):
            self._fp = filename
        else:
            raise TypeError("filename must be a str, bytes, file or PathLike object")
        self._mode = mode_code
        if self._mode == _MODE_READ:
            reader = DecompressReader(self._fp, _decompressor_factory(format, threads, dictionary),
                                      limit, _map_factory(format, dictionary))
            self._buffer = io.BufferedReader(reader)

    def close(self) -> None:
        if self.closed:
            return
        try:
            if self._mode == _MODE_READ:
                self._buffer.close()
                self._buffer = None
            elif self._mode == _MODE_WRITE:
                self._fp.write(self._compressor.flush())
                self._compressor = None
        finally:
            try:
                if self._closefp:
                    self._fp.close()
            finally:
                self._fp = None
                self._closefp = False
                self._mode = _MODE_CLOSED

    @property
    def closed(self) -> bool:
        return self._mode == _MODE_CLOSED

    @property
    def name(self) -> str | bytes | int:
        self._check_not_closed()
        return self._fp.name

    @property
    def mode(self) -> str:
        return "wb" if self._mode == _MODE_WRITE else "rb"

    def fileno(self) -> int:
        self._check_not_closed()
        return self._fp.fileno()

    def seekable(self) -> bool:
        return self.readable() and self._buffer.seekable()

    def readable(self) -> bool:
        self._check_not_closed()
        return self._mode == _MODE_READ

    def writable(self) -> bool:
        self._check_not_closed()
        return self._mode == _MODE_WRITE

    def peek(self, size: int = -1) -> bytes:
        self._check_can_read()
        return self._buffer.peek(size)

    def read(self, size: int | None = -1) -> bytes:
        self._check_can_read()
        return self._buffer.read(size)

    def read1(self, size: int = -1) -> bytes:
        self._check_can_read()
        if size < 0:
            size = io.DEFAULT_BUFFER_SIZE
        return self._buffer.read1(size)

    def readline(self, size: int | None = -1) -> bytes:
        self._check_can_read()
        return self._buffer.readline(size)

    def write(self, data: BytesLike) -> int:  # type: ignore[override]
        self._check_can_write()
        if isinstance(data, (bytes, bytearray)):
            length = len(data)
        else:
            data = memoryview(data)
            length = data.nbytes
        self._fp.write(self._compressor.compress(data))
        self._pos += length
        return length

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self._check_can_seek()
        return self._buffer.seek(offset, whence)

    def tell(self) -> int:
        self._check_not_closed()
        if self._mode == _MODE_READ:
            return self._buffer.tell()
        return self._pos

    def _check_not_closed(self):
        if self.closed:
            raise ValueError("I/O operation on closed file")

    def _check_can_read(self):
        if not self.readable():
            raise io.UnsupportedOperation("File not open for reading")

    def _check_can_write(self):
        if not self.writable():
            raise io.UnsupportedOperation("File not open for writing")

    def _check_can_seek(self):
        if not self.readable():
            raise io.UnsupportedOperation(
                "Seeking is only supported on files open for reading")
        if not self.seekable():
            raise io.UnsupportedOperation(
                "The underlying file object does not support seeking")


def read_range(file: PathLike | BinaryIO | BytesLike, offset: int, size: int, *,
               limit: int | None = None, dictionary: DictionaryLike = None) -> bytes:
    """The original bytes ``[offset, offset + size)`` of the gbpe file
    ``file`` (fewer past its end, as slicing gives): a path (str or
    PathLike), a seekable
    binary file object (read from its current position) or a bytes-like
    object.  Decodes only the blocks that hold the range.  Raises as
    ``decompress`` does (``limit`` too, on the whole file), and before
    decoding anything if the file's layout is wrong anywhere.  A file
    written with a ``dictionary`` is read with it."""
    scan = _map_factory("gbpe", dictionary)
    if offset < 0 or size < 0:
        raise ValueError("offset and size must not be negative")
    if isinstance(file, (str, os.PathLike)):
        with builtins.open(file, "rb") as fp:
            return scan(fp, check_limit(limit)).read(offset, size)
    if isinstance(file, (bytes, bytearray, memoryview)):
        file = io.BytesIO(file)
    elif not (hasattr(file, "seekable") and file.seekable()):
        raise io.UnsupportedOperation("read_range needs a seekable file")
    return scan(file, check_limit(limit)).read(offset, size)


def open(filename: PathLike | BinaryIO, mode: str = "rb", *, format: str = "gbpe",
         level: int | None = None, block_size: int | None = None, threads: int = 1,
         limit: int | None = None, encoding: str | None = None, errors: str | None = None,
         newline: str | None = None, max_length: int | None = None,
         dictionary: DictionaryLike = None) -> "GageBPEFile | io.TextIOWrapper":
    """Open a compressed file in binary or text mode.

    Binary modes ("r", "rb", "w", "wb", "x", "xb", "a", "ab") return a
    ``GageBPEFile``; text modes ("rt", "wt", "xt", "at") wrap one in an
    ``io.TextIOWrapper`` with the given encoding, errors and newline.
    ``format`` is "gbpe" or "gage1994"; the other arguments are
    ``GageBPEFile``'s.
    """
    if "t" in mode:
        if "b" in mode:
            raise ValueError(f"Invalid mode: {mode!r}")
    else:
        if encoding is not None:
            raise ValueError("Argument 'encoding' not supported in binary mode")
        if errors is not None:
            raise ValueError("Argument 'errors' not supported in binary mode")
        if newline is not None:
            raise ValueError("Argument 'newline' not supported in binary mode")
    if max_length is not None:
        warnings.warn("max_length= is now limit=", DeprecationWarning, stacklevel=2)
        limit = max_length
    binary_file = GageBPEFile(filename, mode.replace("t", ""), format=format, level=level,
                              block_size=block_size, threads=threads, limit=limit,
                              dictionary=dictionary)
    if "t" in mode:
        encoding = io.text_encoding(encoding)
        return io.TextIOWrapper(binary_file, encoding, errors, newline)
    return binary_file
