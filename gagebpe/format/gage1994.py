"""Philip Gage's 1994 format, one-shot and incremental, over the kernels in
``kernels.gage1994``: the same protocol as gagebpe's own streams.

A 1994 file is blocks and nothing else: no magic number, no end marker, no
check (docs/FORMAT.md, section 8).  So a ``Decompressor`` has reached its
``eof`` whenever its input so far ended on a block boundary and all its
output was returned; unlike a gbpe decompressor it may then be given more
(a file can always go on), and its ``unused_data`` is always empty.
"""
import numpy as np

from ..kernels import gage1994 as _gage1994
from .._types import BytesLike
from .._errors import DECODE_CEILING, DEFAULT_LIMIT, TRUNCATED, GageBPEError

SUFFIX = ".bpe"

_PROBLEMS = {
    _gage1994.TRUNCATED_TABLE: "pair table cut short",
    _gage1994.BAD_TABLE: "pair table runs past code 255",
    _gage1994.TRUNCATED_DATA: "block size beyond the data",
    _gage1994.CYCLE: "pair table refers to itself in a cycle",
    _gage1994.TOO_LARGE: "block expands past the size limit",
}
_CUT_SHORT = (_gage1994.TRUNCATED_TABLE, _gage1994.TRUNCATED_DATA)
# A block is at most a full pair table, two size bytes and 65535 bytes.
_MAX_BLOCK_BYTES = _gage1994.MAX_TABLE + (1 << 16)


def _array(data):
    return np.frombuffer(memoryview(data).cast("B"), np.uint8)


def compress(data: BytesLike) -> bytes:
    """``data`` (bytes-like) in the 1994 format: what the 1994 program
    writes, byte for byte."""
    out, _ = _gage1994.compress(_array(data), True)
    return out.tobytes()


def decompress(data: BytesLike, limit: int | None = DEFAULT_LIMIT) -> bytes:
    """The bytes of a 1994-format file.  Malformed data raises
    ``GageBPEError`` (``EOFError`` if it is cut short), each block checked
    before it is expanded; more than ``limit`` bytes of output (None: no
    limit) raises ``GageBPEError`` too."""
    d = Decompressor(limit=limit)
    out = d.decompress(data)
    if not d.eof:
        d.flush()  # raises: the file ends inside a block
    return out


class Compressor:
    """Incremental ``compress``: ``compress(data)`` returns the blocks that
    are complete, ``flush()`` the rest; at most one block's input waits."""

    def __init__(self) -> None:
        self._pending = b""

    def compress(self, data: BytesLike) -> bytes:
        return self._run(bytes(data), False)

    def flush(self) -> bytes:
        return self._run(b"", True)

    def _run(self, data, final):
        buffer = self._pending + data
        out, consumed = _gage1994.compress(_array(buffer), final)
        self._pending = buffer[consumed:]
        return out.tobytes()


class Decompressor:
    """Incremental ``decompress``: ``decompress(data, max_length=-1)``
    returns at most ``max_length`` bytes (all that is ready if negative)
    from the complete blocks given so far.  ``needs_input`` says whether
    more input is needed to go on; ``eof`` that the input so far ended on a
    block boundary and all its output was returned.  Output over ``limit``
    bytes in all (None: no limit) raises ``GageBPEError``."""

    def __init__(self, *, limit: int | None = None) -> None:
        self._pending = b""
        self._left = DECODE_CEILING if limit is None else min(limit, DECODE_CEILING)
        self._output = b""
        self._output_pos = 0
        self.unused_data = b""
        self.needs_input = True

    @property
    def eof(self) -> bool:
        return not self._pending and self._output_pos == len(self._output)

    def decompress(self, data: BytesLike, max_length: int = -1) -> bytes:
        if self._output_pos == len(self._output):
            self._expand(bytes(data), max_length)
        else:
            self._pending += bytes(data)
        end = len(self._output) if max_length < 0 else self._output_pos + max_length
        out = self._output[self._output_pos:end]
        self._output_pos += len(out)
        waiting = self._output_pos < len(self._output)
        self.needs_input = not waiting and (self._cut_short or not self._pending)
        return out

    def _expand(self, data, max_length):
        """Expand the complete blocks of the pending input, until at least
        ``max_length`` bytes are out (all of them if negative)."""
        buffer = self._pending + data
        enough = max_length if max_length >= 0 else DECODE_CEILING
        status, out, consumed = _gage1994.expand(_array(buffer), self._left, enough)
        self._pending = buffer[consumed:]
        self._left -= len(out)
        self._cut_short = status in _CUT_SHORT and len(self._pending) < _MAX_BLOCK_BYTES
        if status != _gage1994.OK and not self._cut_short:
            raise GageBPEError(f"not a valid 1994 BPE file: {_PROBLEMS[status]}")
        self._output, self._output_pos = out.tobytes(), 0

    _cut_short = False

    def flush(self) -> bytes:
        """Check that the input ended where a block ends: ``EOFError`` if it
        ended inside one."""
        if self._pending and not self.needs_input:
            raise ValueError("output is still waiting: call decompress(b'') first")
        if self._pending:
            status = _gage1994.expand(_array(self._pending), self._left, DECODE_CEILING)[0]
            raise EOFError(f"{TRUNCATED} ({_PROBLEMS.get(status, 'cut short')})")
        return b""
