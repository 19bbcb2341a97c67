"""The container of format 1.0 (docs/FORMAT.md, section 3): the parts of
a stream, built and checked, and the one parser of its layout.

    stream = magic descriptor [dictionary_id] (single | blocks)
    single = 00 | coding size [payload_size] data_check payload
    blocks = max_block_size header_check block* 00 index footer

Every reader of streams is built on ``Parser``: the one-shot and the
incremental decompressors, the file reader, ``describe`` (``gagebpe -l``)
and the plain path.  The single layout's block is read by one function,
``single_block``, which the parser calls and the decoders that read a
single stream in a kernel compile (``decoder.layout``).  All integers are
little-endian.
"""
import struct
import zlib
from typing import BinaryIO, NamedTuple

from .._errors import BAD_END, BAD_MAGIC, TRUNCATED, GageBPEError
from ..plain import kernels_loaded
from ..plain.varint import VARINT_BYTES, put_varint, varint_at
from ..plain.varint import varint  # noqa: F401 -- where the tests and vectors take it
from .codings.registry import END_OF_BLOCKS, HEAD_BYTES, STORED, check_coding, merge_count

MAGIC = b"\x89GBP"
FOOTER_MAGIC = MAGIC[::-1]
# The descriptor byte (section 3.2).
LAYOUT_BLOCKS = 0x01  # else the single layout
DICTIONARY = 0x02  # a dictionary id follows
RESERVED = 0x0C
REVISION_SHIFT = 4
REVISION = 0  # the highest this gagebpe reads, and the one it writes
MAX_BLOCK_SIZE = 1 << 26
SINGLE_AT = len(MAGIC) + 1  # where a single stream's block begins, without a dictionary
DICTIONARY_ID = struct.Struct("<I")
# The block layout: max block size, then the CRC32 of the header's bytes before it.
BLOCKS_HEAD = struct.Struct("<I")
CHECK = struct.Struct("<I")
# coding, original size, payload size, check of the original bytes,
# CRC32 of the 13 bytes before
BLOCK_HEADER = struct.Struct("<BIIII")
# per block: its bytes in the stream (header included), its original size
INDEX_ENTRY = struct.Struct("<II")
# block count, total original size, CRC32 of the trailer before it, magic
FOOTER = struct.Struct("<IQI4s")
EMPTY_STREAM = MAGIC + bytes([0, END_OF_BLOCKS])
MALFORMED_SIZE = "a size is longer than 4 bytes or not in its shortest form"


def crc(*parts):
    value = 0
    for part in parts:
        value = zlib.crc32(part, value)
    return value


def descriptor(blocks, dictionary_id=None):
    return (LAYOUT_BLOCKS if blocks else 0) | (DICTIONARY if dictionary_id is not None else 0)


# -- writing ----------------------------------------------------------------------

def _head(blocks, dictionary_id):
    """The magic, the descriptor and the dictionary id, if any."""
    head = MAGIC + bytes([descriptor(blocks, dictionary_id)])
    return head if dictionary_id is None else head + DICTIONARY_ID.pack(dictionary_id)


def stream_header(max_block_size, dictionary_id=None):
    """The header of a stream of the block layout (naming the dictionary
    ``dictionary_id``, if not None)."""
    head = _head(True, dictionary_id) + BLOCKS_HEAD.pack(max_block_size)
    return head + CHECK.pack(crc(head))


def block(coding, payload, data, data_check=None):
    """One block of the block layout, its 17-byte header and its payload:
    ``payload`` in ``coding`` holds ``data`` (non-empty), whose check is
    ``data_check`` (None: computed here).  Also the form in which a block
    is handed to ``single_stream``."""
    if data_check is None:
        data_check = block_check(data)
    head = BLOCK_HEADER.pack(coding, len(data), len(payload), data_check, 0)[:-4]
    return head + CHECK.pack(crc(head)) + payload


def single_stream(framed, dictionary_id=None):
    """The stream of the single layout of one block framed by ``block()``,
    or of none (``framed`` None), naming the dictionary ``dictionary_id``
    if not None."""
    if framed is None:
        return _head(False, dictionary_id) + bytes([END_OF_BLOCKS])
    header = bytearray(SINGLE_HEADER_MOST)
    end = put_single_block(header, 0, *BLOCK_HEADER.unpack_from(framed)[:4])
    return _head(False, dictionary_id) + header[:end] + framed[BLOCK_HEADER.size:]


def put_single_block(out, at, coding, size, payload_size, data_check):
    """Write the single layout's block header at ``out[at:]`` (a bytearray
    or uint8 array with SINGLE_HEADER_MOST bytes of room): where its
    payload begins.  Plain enough for Numba to compile, so that a kernel
    writes a whole stream (``encoder.records``)."""
    out[at] = coding
    at = put_varint(out, at + 1, size)
    if coding != STORED:
        at = put_varint(out, at, payload_size)
    for i in range(_CHECK_SIZE):
        out[at + i] = (data_check >> (8 * i)) & 0xFF
    return at + _CHECK_SIZE


def trailer(index):
    """The trailer for blocks ``index = [(stream bytes, size), ...]``."""
    entries = [value for entry in index for value in entry]
    body = struct.pack(f"<B{len(entries)}I", END_OF_BLOCKS, *entries)
    counts = struct.pack("<IQ", len(index), sum(entries[1::2]))
    return body + counts + struct.pack("<I4s", crc(body, counts), FOOTER_MAGIC)


def trailer_size(n_blocks):
    return 1 + n_blocks * INDEX_ENTRY.size + FOOTER.size


# ``single_block``'s answers instead of a coding
PART, MALFORMED = -1, -2
_CHECK_SIZE = CHECK.size  # a number, which a kernel can read
SINGLE_HEADER_MOST = 1 + 2 * VARINT_BYTES + CHECK.size  # a single block's header, at most


def single_block(data, at):
    """``(coding, size, payload_size, data_check, payload_at)`` of the
    single layout's block at ``data[at:]`` (bytes or a uint8 array), its
    fields not yet checked against each other; END_OF_BLOCKS and zeros
    for the empty stream's end, which takes one byte.  Instead of a
    coding: PART while ``data`` holds only part of the header, with
    ``payload_at`` the least number of bytes that may hold it; MALFORMED
    for a size that is not one of the format's varints.  Plain enough for
    Numba to compile."""
    if at >= len(data):
        return PART, 0, 0, 0, at + 1
    coding = int(data[at])
    if coding == END_OF_BLOCKS:
        return coding, 0, 0, 0, at + 1
    size, end = varint_at(data, at + 1)
    payload_size = size
    if size >= 0 and coding != STORED:
        payload_size, end = varint_at(data, end)
    if payload_size < 0:
        return payload_size, 0, 0, 0, max(len(data), end) + 1
    if end + _CHECK_SIZE > len(data):
        return PART, 0, 0, 0, end + _CHECK_SIZE
    data_check = (int(data[end]) | int(data[end + 1]) << 8 | int(data[end + 2]) << 16
                  | int(data[end + 3]) << 24)
    return coding, size, payload_size, data_check, end + _CHECK_SIZE


def block_check(data):
    """The 32-bit check of a block's bytes: the low half of their XXH64, by
    the kernel once Numba is loaded, else in plain Python."""
    if kernels_loaded():
        from ..kernels.xxh64 import block_check as check
    else:
        from ..plain.xxh64 import block_check as check
    return check(data)


def check_data(data, data_check):
    """Raise ``GageBPEError`` unless the decoded bytes ``data`` have the
    block's check."""
    if block_check(data) != data_check:
        raise GageBPEError("block check failed: data corrupt")


# -- reading ----------------------------------------------------------------------

class Header(NamedTuple):
    """A stream's descriptor, read: its layout (``blocks``), the largest
    block it may hold, and the dictionary it names (or None)."""
    blocks: bool
    max_block_size: int
    dictionary_id: object = None


class BlockHeader(NamedTuple):
    coding: int
    size: int  # original bytes
    payload_size: int
    data_check: int


class Payload(NamedTuple):
    """A block's payload (a slice of the parser's input), its header, and
    the dictionary its stream names (or None)."""
    block: BlockHeader
    data: memoryview
    dictionary: object = None


class End(NamedTuple):
    """The end of the stream (the trailer, checked against the blocks):
    ``index`` lists each block's ``(bytes in the stream, original size)``;
    ``stream_bytes`` is the length of the whole stream."""
    index: list
    stream_bytes: int


_HEADER, _SINGLE, _BLOCKS, _PAYLOAD, _SINGLE_END, _DONE = range(6)


class Parser:
    """The layout of one stream, parsed as its bytes arrive.

    ``parse(view, final=False)`` reads the next unit from the start of
    ``view`` (the input not yet taken, all there will be if ``final``) and
    returns ``(unit, n)``: the unit and the bytes it took, or ``(None, 0)``
    while ``view`` does not hold all of it.  The units come in stream
    order: a ``Header``; for each block a ``BlockHeader`` and then its
    ``Payload``; and the ``End``.  A single stream has no trailer: its
    ``End`` takes no bytes.  A reader that has no use for a payload may
    skip its bytes itself and call ``skip_payload``.  Every header, the
    index and the footer are checked as they are parsed; ``GageBPEError``
    names the first fault.  ``dictionaries`` maps the ids of the
    dictionaries the reader holds to them; ``dictionary`` is the one the
    stream names, once its header is read (None if it names none).
    """

    def __init__(self, dictionaries=None):
        self._state = _HEADER
        self._dictionaries = {} if dictionaries is None else dictionaries
        self.dictionary = None
        self.header = None
        self.block = None  # the BlockHeader whose payload comes next
        self.index = []
        self._head_size = 0  # bytes before the first block
        self._block_header_size = BLOCK_HEADER.size  # of the block being read

    @property
    def done(self):
        return self._state == _DONE

    @property
    def expecting_payload(self):
        return self._state == _PAYLOAD

    def wanted(self, head):
        """How many bytes the next unit takes, as far as its first bytes
        ``head`` tell (one more than ``len(head)`` where they cannot)."""
        if self._state == _HEADER:
            if len(head) <= len(MAGIC):
                return SINGLE_AT
            blocks, dictionary = head[len(MAGIC)] & LAYOUT_BLOCKS, head[len(MAGIC)] & DICTIONARY
            return (SINGLE_AT + (DICTIONARY_ID.size if dictionary else 0)
                    + (BLOCKS_HEAD.size + CHECK.size if blocks else 0))
        if self._state == _PAYLOAD:
            return self.block.payload_size
        if self._state == _SINGLE:
            coding, *_, payload_at = single_block(head, 0)
            return len(head) if coding == MALFORMED else payload_at
        if self._state == _SINGLE_END:
            return 0
        if not len(head):
            return 1
        return trailer_size(len(self.index)) if head[0] == END_OF_BLOCKS else BLOCK_HEADER.size

    def parse(self, view, final=False):
        if self._state == _HEADER:
            return self._parse_header(view)
        if self._state == _BLOCKS:
            if not len(view):
                return None, 0
            if view[0] == END_OF_BLOCKS:
                return self._parse_trailer(view)
            return self._parse_block_header(view)
        if self._state == _PAYLOAD:
            n = self.block.payload_size
            if len(view) < n:
                return None, 0
            self.skip_payload()
            return Payload(self.block, view[:n], self.dictionary), n
        if self._state == _SINGLE:
            return self._parse_single(view)
        if self._state == _SINGLE_END:
            self._state = _DONE
            return End(self.index, self._head_size + self.index[0][0]), 0
        raise ValueError("the stream has ended")

    def skip_payload(self):
        """The current block's payload was taken without ``parse``."""
        self.index.append((self._block_header_size + self.block.payload_size, self.block.size))
        self._state = _SINGLE_END if not self.header.blocks else _BLOCKS

    def _parse_header(self, view):
        # Say "not gagebpe" as soon as the bytes show it.
        if not MAGIC.startswith(bytes(view[:len(MAGIC)])):
            raise GageBPEError(BAD_MAGIC)
        if len(view) < SINGLE_AT:
            return None, 0
        flags = view[len(MAGIC)]
        if flags & RESERVED:
            bit = (flags & RESERVED).bit_length() - 1
            raise GageBPEError(f"reserved descriptor bit {bit} is set")
        revision = flags >> REVISION_SHIFT
        if revision > REVISION:
            raise GageBPEError(f"the stream is of format revision {revision}; this gagebpe "
                               f"reads format 1.0 (revision {REVISION}): it needs a later gagebpe")
        at = SINGLE_AT
        dictionary_id = None
        if flags & DICTIONARY:
            if len(view) < at + DICTIONARY_ID.size:
                return None, 0
            dictionary_id, = DICTIONARY_ID.unpack_from(view, at)
            at += DICTIONARY_ID.size
            if dictionary_id not in self._dictionaries:
                given = ", ".join(f"{d:#010x}" for d in self._dictionaries)
                raise GageBPEError(f"the stream needs dictionary {dictionary_id:#010x}, "
                                   f"which was not given" + (f" (given: {given})" if given
                                                             else ""))
            self.dictionary = self._dictionaries[dictionary_id]
        if not flags & LAYOUT_BLOCKS:
            self.header = Header(False, MAX_BLOCK_SIZE, dictionary_id)
            self._state, self._head_size = _SINGLE, at
            return self.header, at
        if len(view) < at + BLOCKS_HEAD.size + CHECK.size:
            return None, 0
        max_block_size, = BLOCKS_HEAD.unpack_from(view, at)
        check, = CHECK.unpack_from(view, at + BLOCKS_HEAD.size)
        if check != crc(view[:at + BLOCKS_HEAD.size]):
            raise GageBPEError("stream header check failed")
        if not 0 < max_block_size <= MAX_BLOCK_SIZE:
            raise GageBPEError(f"maximum block size {max_block_size} out of range")
        at += BLOCKS_HEAD.size + CHECK.size
        self.header = Header(True, max_block_size, dictionary_id)
        self._state, self._head_size = _BLOCKS, at
        return self.header, at

    def _parse_block_header(self, view):
        if len(view) < BLOCK_HEADER.size:
            return None, 0
        coding, size, payload_size, data_check, check = BLOCK_HEADER.unpack_from(view)
        if check != crc(view[:BLOCK_HEADER.size - 4]):
            raise GageBPEError("block header check failed")
        return self._block_header(coding, size, payload_size, data_check, BLOCK_HEADER.size)

    def _parse_single(self, view):
        """The single layout's block header, which has no check of its own:
        a wrong size or coding fails the decoding or the data check.  A
        coding of 0 ends the empty stream."""
        if len(view) and view[0] != END_OF_BLOCKS:
            check_coding(view[0])
        coding, size, payload_size, data_check, n = single_block(view, 0)
        if coding == PART:
            return None, 0
        if coding == MALFORMED:
            raise GageBPEError(MALFORMED_SIZE)
        if coding == END_OF_BLOCKS:
            self._state = _DONE
            return End([], self._head_size + 1), 1
        return self._block_header(coding, size, payload_size, data_check, n)

    def _block_header(self, coding, size, payload_size, data_check, n):
        """The block header of ``n`` bytes that holds these fields, checked."""
        check_coding(coding)
        if not 0 < size <= self.header.max_block_size:
            raise GageBPEError(f"block size {size} out of range")
        # Codings are used only where they shrink the block.
        if payload_size > size:
            raise GageBPEError("block payload larger than its contents")
        self.block = BlockHeader(coding, size, payload_size, data_check)
        self._block_header_size = n
        self._state = _PAYLOAD
        return self.block, n

    def _parse_trailer(self, view):
        n = trailer_size(len(self.index))
        if len(view) < n:
            return None, 0
        if bytes(view[:n]) != trailer(self.index):
            if bytes(view[n - 4:n]) != FOOTER_MAGIC:
                raise GageBPEError(BAD_END)
            raise GageBPEError("stream index disagrees with its blocks")
        self._state = _DONE
        stream_bytes = self._head_size + sum(size for size, _ in self.index) + n
        return End(self.index, stream_bytes), n


def _need(data, n):
    """``data``, which must have ``n`` bytes: else the input was cut short."""
    if len(data) < n:
        raise EOFError(TRUNCATED)
    return data


# -- what a file holds ------------------------------------------------------------

class StreamInfo(NamedTuple):
    version: str  # the format's: "1.0"
    blocks: int
    size: int  # original bytes
    stream_bytes: int
    merges: int  # rules over all blocks
    dictionary_id: int | None = None  # of the dictionary the stream names


class _AnyDictionary(dict):
    """What ``describe`` holds: every dictionary a stream may name, as none
    (it decodes no block, so it needs none)."""

    def __contains__(self, dictionary_id):
        return True

    def __missing__(self, dictionary_id):
        return None


def describe(fp: BinaryIO) -> list[StreamInfo]:
    """``[StreamInfo, ...]`` for the concatenated streams of the binary file
    ``fp``, read from its current position to its end, checking every
    header and the trailers but decoding no block (payloads are skipped,
    by seeking where ``fp`` can), so streams that name a dictionary are
    described without it.  Raises as decoding would: ``GageBPEError`` for
    malformed data, ``EOFError`` if cut short."""
    streams = []
    while True:
        data = fp.read(len(EMPTY_STREAM))  # no further: a stream may be that short
        if not data and streams:
            return streams
        parser, merges = Parser(_AnyDictionary()), 0
        while not parser.done:
            if parser.expecting_payload:
                n = parser.block.payload_size
                taken, data = data[:n], data[n:]
                want = min(HEAD_BYTES, n)
                if len(taken) < want:
                    taken += _need(fp.read(want - len(taken)), want - len(taken))
                merges += merge_count(parser.block.coding, taken[:want])
                _skip(fp, n - len(taken))
                parser.skip_payload()
                continue
            # Read no byte past the unit, so the next one starts at ``fp``.
            while (n := parser.wanted(data)) > len(data):
                data += _need(fp.read(n - len(data)), n - len(data))
            unit, n = parser.parse(memoryview(data))
            data = data[n:]
        streams.append(StreamInfo("1.0", len(unit.index), sum(size for _, size in unit.index),
                                  unit.stream_bytes, merges, parser.header.dictionary_id))


def _skip(fp, n):
    if fp.seekable():
        fp.seek(n, 1)  # a short file shows at the next read
        return
    while n > 0:
        n -= len(_need(fp.read(min(n, 1 << 20)), 1))
