"""Philip Gage's 1994 BPE format, read and written byte for byte.

    gagebpe.gage1994.compress(data) == what the 1994 program writes
    gagebpe.gage1994.decompress(blob) == data

Also ``gagebpe.compress(data, format="gage1994")`` and the command line's
``--format gage1994`` (suffix ``.bpe``).  The format has no magic number,
so gagebpe never guesses it: the caller names it (the command line goes by
the ``.bpe`` suffix).  Where the 1994 program fails, gagebpe does not
share the fault: its expander overruns a 30-entry stack on pairs nested
deeper than 15, which gagebpe expands correctly; its compressor loops
forever once a block has more than 4096 distinct adjacent pairs, where
gagebpe leaves the pairs that find no hash slot uncounted, so its output
there is valid 1994 format that the original program would never have
finished writing.  Blocks that would expand past 64 KiB are refused as
malformed (the 1994 program writes at most 5000 bytes per block).
"""
import numpy as np

from . import _gage1994
from ._errors import DEFAULT_MAX_LENGTH, TRUNCATED, GageBPEError

SUFFIX = ".bpe"
MAX_OUTPUT = 1 << 40

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


def compress(data):
    """``data`` (bytes-like) in the 1994 format."""
    out, _ = _gage1994.compress(_array(data), True)
    return out.tobytes()


def decompress(data, max_length=DEFAULT_MAX_LENGTH):
    """The bytes of a 1994-format file.  Malformed data raises
    ``GageBPEError`` (``EOFError`` if it is cut short), each block checked
    before it is expanded; more than ``max_length`` bytes of output (None:
    no limit) raises ``GageBPEError`` too."""
    d = Decompressor(MAX_OUTPUT if max_length is None else max_length)
    return d.decompress(data) + d.flush()


class Compressor:
    """Incremental ``compress``: ``compress(data)`` returns the blocks that
    are complete, ``flush()`` the rest; at most one block's input waits."""

    def __init__(self):
        self._pending = b""

    def compress(self, data):
        return self._run(bytes(data), False)

    def flush(self):
        return self._run(b"", True)

    def _run(self, data, final):
        buffer = self._pending + data
        out, consumed = _gage1994.compress(_array(buffer), final)
        self._pending = buffer[consumed:]
        return out.tobytes()


class Decompressor:
    """Incremental ``decompress``: ``decompress(data, max_length=-1)``
    returns the output of complete blocks, stopping once ``max_length``
    bytes are out (one block may pass it: blocks expand to at most 64 KiB);
    ``needs_input`` says whether more input is needed to go on; ``flush()``
    checks that no block was left cut short.  Output over ``limit`` bytes in
    all raises ``GageBPEError``."""

    def __init__(self, limit=MAX_OUTPUT):
        self._pending = b""
        self._left = limit
        self.needs_input = True

    def decompress(self, data, max_length=-1):
        buffer = self._pending + bytes(data)
        enough = max_length if max_length >= 0 else MAX_OUTPUT
        status, out, consumed = _gage1994.expand(_array(buffer), self._left, enough)
        self._pending = buffer[consumed:]
        self._left -= len(out)
        cut_short = status in _CUT_SHORT and len(self._pending) < _MAX_BLOCK_BYTES
        if status != _gage1994.OK and not cut_short:
            raise GageBPEError(f"not a valid 1994 BPE file: {_PROBLEMS[status]}")
        self.needs_input = cut_short or not self._pending
        return out.tobytes()

    def flush(self):
        """Check that the input ended where a block ends."""
        if self._pending and not self.needs_input:
            raise ValueError("output is still waiting: call decompress(b'') first")
        if self._pending:
            status = _gage1994.expand(_array(self._pending), self._left, MAX_OUTPUT)[0]
            raise EOFError(f"{TRUNCATED} ({_PROBLEMS.get(status, 'cut short')})")
        return b""
