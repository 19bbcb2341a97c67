"""Incremental compression and decompression, in the shape of ``lzma``.

``Compressor`` cuts its input into blocks; ``Decompressor`` reads a stream as
its bytes arrive, one unit (header, block, trailer) at a time, decoding a
block only once all of it is there.  Memory is bounded by the block size.
"""
import os
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor

from . import _bytes, _format
from ._errors import DEFAULT_MAX_LENGTH, OVER_LIMIT, TRUNCATED, GageBPEError
from .levels import settings



class Compressor:
    """Compress data incrementally into one gagebpe stream.

    ``compress(data)`` returns whatever output is ready (possibly ``b""``);
    ``flush()`` finishes the stream and returns the rest.  With ``threads``
    > 1 (0: one per core), the blocks of one call are compressed in
    parallel; the output is the same for any number of threads.
    """

    def __init__(self, level=None, *, block_size=None, threads=1):
        self._level = settings(level)
        self._block_size = _check_block_size(block_size or self._level.block_size)
        self._threads = _check_threads(threads)
        self._executor = None
        self._pending = bytearray()
        self._index = []
        self._started = False
        self._finished = False

    @property
    def block_size(self):
        return self._block_size

    @property
    def threads(self):
        return self._threads

    def compress(self, data):
        return self._compress(data, final=False)

    def _compress(self, data, final):
        """``compress``; with ``final``, the partial block at the end is
        coded too, alongside the others (``flush`` then adds the trailer)."""
        if self._finished:
            raise ValueError("Compressor has been flushed")
        out = [self._header()]
        with memoryview(data) as view, view.cast("B") as data:
            if self._pending:  # fill the block begun by earlier calls
                take = min(len(data), self._block_size - len(self._pending))
                self._pending += data[:take]
                data = data[take:]
                if len(self._pending) < self._block_size:
                    return b"".join(out)
                out += self._blocks([self._pending])
                self._pending = bytearray()
            # Whole blocks straight from the caller's buffer: no copy of
            # the input beyond the blocks being coded.
            full = len(data) if final else len(data) - len(data) % self._block_size
            out += self._blocks([data[start:start + self._block_size]
                                 for start in range(0, full, self._block_size)])
            self._pending += data[full:]
        return b"".join(out)

    def flush(self):
        if self._finished:
            raise ValueError("Repeated call to flush()")
        self._finished = True
        out = [self._header()]
        if self._pending:
            out += self._blocks([self._pending])
            self._pending = bytearray()
        out.append(_format.trailer(self._index))
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None
        return b"".join(out)

    def _header(self):
        if self._started:
            return b""
        self._started = True
        return _format.stream_header(self._block_size)

    def _blocks(self, views):
        """The stream bytes of the blocks ``views`` (buffers), in order.
        Views are released before returning: a worker thread may hold its
        argument a moment after its result is in, and an unreleased view
        would keep the caller's buffer from being resized."""
        try:
            return self._code(views)
        finally:
            for view in views:
                if isinstance(view, memoryview):
                    view.release()

    def _code(self, views):
        level = self._level
        if self._threads > 1 and len(views) > 1:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self._threads)
            merges = list(self._executor.map(
                lambda v: _format.block_needs_merges(v, level.min_count, level.probe), views))
            # Longest first: the blocks that merge, largest first, then the
            # rest, so that no thread starts a long block as the others end.
            order = sorted(range(len(views)), key=lambda i: (not merges[i], -len(views[i])))
            futures = {i: self._executor.submit(_format.encode_block, views[i],
                                                level.min_count, level.probe, merges[i])
                       for i in order}
            blocks = [futures[i].result() for i in range(len(views))]
        else:
            blocks = [_format.encode_block(view, level.min_count, level.probe)
                      for view in views]
        for view, block in zip(views, blocks):
            self._index.append((len(block), len(view)))
        return blocks


def _check_threads(threads):
    if not isinstance(threads, int) or threads < 0:
        raise ValueError("threads must be a non-negative integer")
    return threads or os.cpu_count() or 1


def _check_block_size(block_size):
    if not 0 < block_size <= _format.MAX_BLOCK_SIZE:
        raise ValueError(
            f"block_size must be between 1 and {_format.MAX_BLOCK_SIZE}")
    return block_size


class Decompressor:
    """Decompress one gagebpe stream incrementally.

    ``decompress(data, max_length=-1)`` returns at most ``max_length`` bytes
    (all that is ready if negative).  After the stream's end, ``eof`` is true
    and ``unused_data`` holds the bytes that followed it.  ``needs_input`` is
    false while output is ready without more input.  With ``threads`` > 1
    (0: one per core), up to that many complete blocks are decoded at once.
    A block that would take the stream's output past ``limit`` bytes (None:
    no limit) raises ``GageBPEError`` as soon as its header is read.
    """

    def __init__(self, *, threads=1, limit=None, _into=None):
        self._threads = _check_threads(threads)
        self._limit = _check_limit(limit)
        # One-shot ``decompress`` decodes each block straight into its place
        # in the result, and ``decompress`` here then returns nothing.
        self._into = _into
        self._into_pos = 0
        self._declared = 0  # original bytes of the blocks read so far
        self._executor = None
        # Input not yet consumed: the caller's buffer while a call reads it
        # in place, else a copy of what earlier calls left.
        self._input = bytearray()
        self._input_pos = 0  # bytes of _input already consumed
        self._output = b""
        self._output_pos = 0
        self._decoded = deque()  # blocks' output (or its Future), in order
        self._version = self._max_block_size = None  # set once the header is read
        self._block = None  # a parsed block header waiting for its payload
        self._in_trailer = False
        self._trailer_read = False
        self._index = []
        self.unused_data = b""
        self.needs_input = True

    @property
    def eof(self):
        """The end of the stream was read and all its output returned."""
        return (self._trailer_read and not self._decoded
                and self._output_pos == len(self._output))

    def decompress(self, data, max_length=-1):
        if self.eof:
            raise EOFError("Already at end of stream")
        with memoryview(data) as view, view.cast("B") as view:
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
                if self._into is None:  # else it is in place already
                    # A view: the pieces are copied once, by the join below.
                    self._output = memoryview(block).cast("B")
                    self._output_pos = 0
            else:
                break
        pending = self._output_pos < len(self._output) or bool(self._decoded)
        self.needs_input = not self.eof and not pending and produced < limit
        return b"".join(out)

    def _step(self):
        """Consume one unit of the stream if all its bytes are here; return
        whether it did."""
        if self._trailer_read:
            return False
        if self._max_block_size is None:
            head = self._take(_format.HEADER.size)
            if head is None:
                # Say "not gagebpe" as soon as the bytes show it.
                start = bytes(self._input[self._input_pos:self._input_pos + 4])
                if not _format.MAGIC.startswith(start):
                    raise GageBPEError("not a gagebpe stream (bad magic bytes)")
                return False
            self._version, self._max_block_size = _format.parse_stream_header(head)
        elif self._in_trailer:
            tail = self._take(_format.trailer_size(len(self._index)) - 1)
            if tail is None:
                return False
            _format.check_trailer(bytes([_format.END_OF_BLOCKS]) + tail, self._index)
            self._trailer_read = True
            self.unused_data = bytes(self._input[self._input_pos:])
            self._input, self._input_pos = bytearray(), 0
        elif self._block is None:
            if self._input_pos == len(self._input):
                return False
            if self._input[self._input_pos] == _format.END_OF_BLOCKS:
                self._take(1)
                self._in_trailer = True
                return True
            head = self._take(_format.BLOCK_HEADER.size)
            if head is None:
                return False
            self._block = _format.parse_block_header(head, self._max_block_size)
            self._declared += self._block[1]
            if self._declared > self._limit:  # refused before it is read
                raise GageBPEError(OVER_LIMIT)
        else:
            coding, size, payload_size, data_check = self._block
            payload = self._take(payload_size)
            if payload is None:
                return False
            place = None
            if self._into is not None:
                place = self._into[self._into_pos:self._into_pos + size]
                if len(place) != size:
                    raise GageBPEError("stream longer than it declared")
                self._into_pos += size
            unit = (coding, size, data_check, payload, self._version, place)
            if self._threads > 1:
                if self._executor is None:
                    self._executor = ThreadPoolExecutor(self._threads)
                self._decoded.append(self._executor.submit(_format.decode_block, *unit))
            else:
                self._decoded.append(_format.decode_block(*unit))
            self._block = None
            self._index.append((_format.BLOCK_HEADER.size + payload_size, size))
        return True

    def _take(self, n):
        """The next ``n`` input bytes, consumed, or None if fewer are here."""
        start = self._input_pos
        if len(self._input) - start < n:
            return None
        taken = bytes(self._input[start:start + n])
        self._input_pos = start + n
        if (isinstance(self._input, bytearray)
                and self._input_pos > len(self._input) // 2):  # amortised compaction
            del self._input[:self._input_pos]
            self._input_pos = 0
        return taken


FORMATS = ("gbpe", "gage1994")
PLAUSIBLE_EXPANSION = 1024  # runs expand further; they take the joining path


def compress(data, level=None, *, block_size=None, threads=1, format="gbpe"):
    """Compress ``data`` (bytes-like) into one gagebpe stream, its blocks on
    ``threads`` threads (0: one per core).  ``format="gage1994"`` writes
    Philip Gage's 1994 format instead (``gagebpe.gage1994``), which has no
    levels or block sizes to choose."""
    if _check_format(format) == "gage1994":
        if level is not None or block_size is not None:
            raise ValueError("the gage1994 format has no level or block size")
        from . import gage1994
        return gage1994.compress(data)
    c = Compressor(level, block_size=block_size, threads=threads)
    # The last block with the others, so that threads share it too.
    return c._compress(data, final=True) + c.flush()


def _check_format(format):
    if format not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, not {format!r}")
    return format


def decompress(data, *, threads=1, format="gbpe", max_length=DEFAULT_MAX_LENGTH):
    """Decompress ``data``: one or more concatenated gagebpe streams, their
    blocks on ``threads`` threads (0: one per core); with
    ``format="gage1994"``, a file in Gage's 1994 format (never guessed:
    that format has no magic number).

    Raises ``GageBPEError`` for malformed data (trailing bytes that are not a
    stream included) and ``EOFError`` for a stream cut short.  Output past
    ``max_length`` bytes (4 GiB by default; None: no limit) raises
    ``GageBPEError`` too, before the block that would pass it is decoded.
    """
    _check_limit(max_length)
    if _check_format(format) == "gage1994":
        from . import gage1994
        return gage1994.decompress(data, max_length)
    results = []
    produced = 0
    data = bytes(data)
    # Where the layout gives the output's size, blocks decode straight into
    # the bytes returned; otherwise (and the readers find why) they are
    # joined.  A forged layout can declare far more than its blocks will
    # produce, so only a size the input makes plausible is set aside first.
    owner = into = None
    total = _format.declared_size(data)
    if (total is not None and total <= PLAUSIBLE_EXPANSION * len(data)
            and (max_length is None or total <= max_length)):
        owner, into = _bytes.allocate(total)
    while True:
        left = None if max_length is None else max_length - produced
        d = Decompressor(threads=threads, limit=left,
                         _into=None if into is None else into[produced:])
        results.append(d.decompress(data))
        if not d.eof:
            raise EOFError(TRUNCATED)
        produced += d._declared
        data = d.unused_data
        if not data:
            return b"".join(results) if owner is None else _bytes.finish(owner)


def _check_limit(limit):
    if limit is None:
        return float("inf")
    if not isinstance(limit, int) or limit < 0:
        raise ValueError("a limit must be a non-negative integer or None")
    return limit


__all__ = ["Compressor", "Decompressor", "compress", "decompress",
           "GageBPEError"]
