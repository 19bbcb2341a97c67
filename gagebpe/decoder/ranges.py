"""Random access into gbpe files: the map of a seekable file's blocks, and
reads of byte ranges that decode only the blocks that hold them.

``BlockMap.scan`` walks the concatenated streams of a file with the
container's ``Parser``, reading each stream's header, each block's header
and each trailer, and seeking past every payload: the map costs a few
bytes a block, and every field in it was checked as decoding checks it
(each trailer must be exactly the one its blocks imply), so a corrupt or
forged index is refused before any range is read, never trusted into a
wrong answer.  ``BlockMap.read`` decodes the blocks a range touches, each
checked whole against its data check, and keeps the last one: one block
of memory.  docs/DESIGN.md, "Random access", says what a read costs.
"""
import bisect
import io

from .._errors import OVER_LIMIT, TRUNCATED, GageBPEError
from ..format.container import Parser, Payload
from .stream import decode_block


class BlockMap:
    """Where the blocks of a seekable binary file's gbpe streams lie.

    ``size`` is the original bytes of all the streams; ``read(offset,
    size)`` returns the original bytes ``[offset, offset + size)`` (fewer
    past the end), decoding only the blocks that hold them.  Raises
    ``GageBPEError`` for a block that fails its checks and ``EOFError``
    for a file cut short since the scan."""

    def __init__(self, fp, places, starts):
        self._fp = fp
        self._places = places  # per block: (file offset of its payload, BlockHeader, dictionary)
        self._starts = starts  # per block, and one past the last: original offsets
        self._last = (-1, None)  # the block decoded last, and its bytes

    @classmethod
    def scan(cls, fp, limit=None, dictionaries=None):
        """The map of the streams in ``fp`` from its current position to
        its end; more than ``limit`` original bytes in all (None: no limit)
        raise ``GageBPEError``, as do malformed streams and bytes after the
        last stream that are not one; ``EOFError`` a file cut short.
        ``dictionaries``: the ``{id: Dictionary}`` the streams may name."""
        at = fp.tell()
        end = fp.seek(0, io.SEEK_END)
        fp.seek(at)
        places, starts = [], [0]
        while True:
            at = _scan_stream(fp, at, end, places, starts, dictionaries)
            if limit is not None and starts[-1] > limit:
                raise GageBPEError(OVER_LIMIT)
            if at == end:
                return cls(fp, places, starts)

    @property
    def size(self):
        return self._starts[-1]

    @property
    def blocks(self):
        return len(self._places)

    def block_of(self, offset):
        """The number of the block that holds original byte ``offset``."""
        return bisect.bisect_right(self._starts, offset) - 1

    def block_bytes(self, k):
        """The compressed bytes block ``k``'s payload takes."""
        return self._places[k][1].payload_size

    def read(self, offset, size):
        if offset < 0 or size < 0:
            raise ValueError("offset and size must not be negative")
        end = min(offset + size, self.size)
        pieces = []
        while offset < end:
            k = self.block_of(offset)
            data = self.decode(k)
            start = self._starts[k]
            piece = data[offset - start:min(end, self._starts[k + 1]) - start]
            pieces.append(piece.tobytes())
            offset += len(piece)
        return b"".join(pieces)

    def decode(self, k):
        """Block ``k``'s original bytes (a uint8 array), checked."""
        if self._last[0] != k:
            self._last = (-1, None)  # free the old block before decoding the new
            at, header, dictionary = self._places[k]
            self._fp.seek(at)
            data = self._fp.read(header.payload_size)
            if len(data) < header.payload_size:
                raise EOFError(TRUNCATED)
            self._last = (k, decode_block(Payload(header, memoryview(data), dictionary)))
        return self._last[1]


def _scan_stream(fp, at, end, places, starts, dictionaries):
    """Map the stream at file offset ``at``, appending its blocks' places
    and ends; return where it ends."""
    parser = Parser(dictionaries)
    while not parser.done:
        if parser.expecting_payload:
            header = parser.block
            if at + header.payload_size > end:
                raise EOFError(TRUNCATED)
            places.append((at, header, parser.dictionary))
            starts.append(starts[-1] + header.size)
            at += header.payload_size
            fp.seek(at)
            parser.skip_payload()
            continue
        data = b""  # read no byte past the unit
        while (n := parser.wanted(data)) > len(data):
            more = fp.read(n - len(data))
            if not more:
                parser.parse(memoryview(data), final=True)  # names bytes that are no stream
                raise EOFError(TRUNCATED)
            data += more
        _, n = parser.parse(memoryview(data))
        at += n
        fp.seek(at)
    return at
