"""The container format, version 14 (docs/FORMAT.md, section 3): the parts
of a stream, built and checked, and the one parser of its layout.

    stream = header block* end-of-blocks index footer
           | preamble block            (versions 4 to 6: a one-block stream)
           | preamble compact-block    (versions 7 and 8: a one-block stream)
           | short-magic compact-block (version 9: a one-block stream)
           | short-magic end-of-blocks (version 9: the empty stream)
           | fb compact-block          (version 10: its coding byte tagged)
           | fb 50                     (version 10: the empty stream)
           | fb sized-block            (versions 11 and 12: coding and size in one byte)
           | fc primed-block           (version 13: a MIXED_PRIMED block)
           | fb tagged-block           (version 14: a SORTED_LONG or CONTEXT_LONG block)

Every reader of streams is built on ``Parser``: the one-shot and the
incremental decompressors, the file reader, and ``describe`` (``gagebpe
-l``).  All integers are little-endian.

Imports ``_errors`` and ``plain`` (whether the kernels are loaded); and
only when they are needed, so that importing gagebpe compiles and loads no
kernel, ``format.codings.mixed`` or ``plain.stream`` (a MIXED_DELIMITED or
MIXED_PRIMED payload is measured by decoding it) and ``kernels.xxh64`` or
``plain.xxh64`` (a block's data check): the kernels' where Numba is
loaded, else the plain path's, which give the same answers.
"""
import struct
import zlib
from typing import NamedTuple

from .._errors import BAD_END, BAD_MAGIC, TRUNCATED, UNKNOWN_CODING, GageBPEError
from ..plain import kernels_loaded

MAGIC = b"GBPE"
# The short layout's.  Its first byte, SHORT_MARK, never occurs in UTF-8
# text, and differs from MAGIC's, so two bytes tell the layouts apart.  In
# version 10 the second byte is the block's coding byte, tagged: TAGGED
# plus the coding (END_OF_BLOCKS for the empty stream), so a stream of one
# small block spends one byte less on framing than in version 9.
SHORT_MAGIC = b"\xfbG"  # version 9's
SHORT_MARK = SHORT_MAGIC[0]
TAGGED = 0x50
TAGS = 16  # tagged coding bytes, 50 to 5f (12 and 13 name no coding; 14 and 15 version 14's)
# Version 13's short stream begins with PRIMED_MARK, which never occurs in
# UTF-8 text either: one byte names both the layout and the block's coding,
# MIXED_PRIMED, so its framing is zlib's 6 bytes up to 127 bytes of data.
PRIMED_MARK = 0xFC
PRIMED_LARGEST = 4096  # bytes in a MIXED_PRIMED block, at most
# A MIXED_PRIMED block of more bytes than this sends its payload's size: a
# reader fed a byte at a time measures a delimited payload again at each
# byte, by decoding it, which only a short one makes cheap.
PRIMED_DELIMITED_LARGEST = 128
FOOTER_MAGIC = b"EPBG"
# Written: the lowest version that holds the stream.  Version 1 checks
# blocks with CRC32, later ones with XXH64; 3 adds FILTERED, CONTEXT and
# FOLDED; 4 adds the one-block layout, for a stream of one block (23
# bytes of framing instead of 62); 5 adds
# REPEATS, in either layout; 6 adds LZ; 7 gives a one-block stream a
# compact block header (sizes as varints, no header check: 15 bytes of
# framing for a chunk of a few kilobytes); 8 adds MIXED, in either layout;
# 9 adds the short layout, written for every stream of one block or none:
# a 2-byte magic, no version or flags byte, no payload size for STORED
# (8 to 11 bytes of framing where version 7 took 13 to 15; zlib takes 6),
# and MIXED_MATCH, in either layout; 10 tags the short layout's coding
# byte and drops the magic's second byte (7 to 10 bytes of framing), and
# exists only in that layout; 11, likewise, names a small STORED or
# MIXED_MATCH block's coding and size in that one byte (6 and 7 bytes of
# framing, where inputs of a few dozen bytes need every one); 12 adds
# MIXED_DELIMITED, a sized block of up to 64 bytes whose payload ends
# where its coded bits do (6 bytes of framing, zlib's); 13 adds
# MIXED_PRIMED, a block of up to 4 KiB coded by a model that has first
# learnt a fixed text, in its own short stream (6 or 7 bytes of framing);
# 14 adds SORTED_LONG and CONTEXT_LONG, whose tables hold long rules, in
# either layout (tagged in the short one).
VERSION = 3
ONE_BLOCK_VERSION = 4
REPEATS_VERSION = 5
LZ_VERSION = 6
COMPACT_VERSION = 7
MIXED_VERSION = 8
SHORT_VERSION = 9
MATCH_VERSION = SHORT_VERSION  # 9 brought both
TAGGED_VERSION = 10
SIZED_VERSION = 11
DELIMITED_VERSION = 12
PRIMED_VERSION = 13
LONG_VERSION = 14
VERSIONS = (1, 2, 3, 4, 5, 6, 7, 8, 9, LONG_VERSION)  # of the block layout
SHORT_VERSIONS = (SHORT_VERSION, TAGGED_VERSION, SIZED_VERSION, DELIMITED_VERSION,
                  PRIMED_VERSION, LONG_VERSION)
TAGGED_VERSIONS = (TAGGED_VERSION, LONG_VERSION)  # their short stream's coding byte is tagged
SIZED_VERSIONS = (SIZED_VERSION, DELIMITED_VERSION)
ONE_BLOCK_VERSIONS = (ONE_BLOCK_VERSION, REPEATS_VERSION, LZ_VERSION, COMPACT_VERSION,
                      MIXED_VERSION)
# one-block preambles followed by a compact block header (the short
# layout's block header is compact too)
COMPACT_VERSIONS = (COMPACT_VERSION, MIXED_VERSION)
ONE_BLOCK = 1  # the flag of the one-block layout (ONE_BLOCK_VERSIONS)
MAX_BLOCK_SIZE = 1 << 26

# Block codings (section 4); 0 marks the end of the blocks.
(END_OF_BLOCKS, STORED, PACKED, HUFFMAN, SORTED, FILTERED, CONTEXT, FOLDED, REPEATS,
 LZ, MIXED, MIXED_MATCH, MIXED_DELIMITED, MIXED_PRIMED, SORTED_LONG, CONTEXT_LONG) = range(16)
LONG_CODINGS = (SORTED_LONG, CONTEXT_LONG)
CODINGS = {1: (STORED, PACKED, HUFFMAN, SORTED), 2: (STORED, PACKED, HUFFMAN, SORTED),
           3: (STORED, PACKED, HUFFMAN, SORTED, FILTERED, CONTEXT, FOLDED)}
CODINGS[4] = CODINGS[3]
CODINGS[5] = CODINGS[4] + (REPEATS,)
CODINGS[6] = CODINGS[5] + (LZ,)
CODINGS[7] = CODINGS[6]
CODINGS[8] = CODINGS[7] + (MIXED,)
CODINGS[9] = CODINGS[8] + (MIXED_MATCH,)
CODINGS[10] = CODINGS[9]
# Sized coding bytes: for each coding that has them, the byte of a block
# of 1 byte, and the largest size named (its byte is first + largest - 1).
# Version 11's take 60 to ff, version 12's 00 to 3f.
SIZED = {STORED: (0x60, 32), MIXED_MATCH: (0x80, 128), MIXED_DELIMITED: (0x00, 64)}
CODINGS[11] = (STORED, MIXED_MATCH)
CODINGS[12] = (MIXED_DELIMITED,)
CODINGS[13] = (MIXED_PRIMED,)
CODINGS[14] = CODINGS[9] + LONG_CODINGS
# The codings whose payload may end where its coded bits do (``delimited``).
DELIMITED = (MIXED_DELIMITED, MIXED_PRIMED)
# The version that brought each coding written since version 3.
SINCE = {REPEATS: REPEATS_VERSION, LZ: LZ_VERSION, MIXED: MIXED_VERSION,
         MIXED_MATCH: MATCH_VERSION, SORTED_LONG: LONG_VERSION, CONTEXT_LONG: LONG_VERSION}
# Where a block's merge (or long rule) count lies in its payload (u32).
MERGE_COUNT_AT = {PACKED: 0, HUFFMAN: 0, SORTED: 0, CONTEXT: 0, SORTED_LONG: 0,
                  CONTEXT_LONG: 0}
# The codings around another: where the inner coding's number and its
# payload lie in theirs.
INNER_AT = {FILTERED: (3, 4), FOLDED: (6, 7), REPEATS: (0, 13)}
MERGE_COUNT_END = 13 + 7 + 4  # REPEATS over FOLDED

# magic, version, flags, reserved, max block size, CRC32 of the 12 before
HEADER = struct.Struct("<4sBBHII")
# a one-block stream's: magic, version 4 to 8, flags ONE_BLOCK; its block follows
PREAMBLE = struct.Struct("<4sBB")
# coding, original size, payload size, check of the original bytes,
# CRC32 of the 13 bytes before
BLOCK_HEADER = struct.Struct("<BIIII")
# Versions 7 to 12's one block: coding:u8 (tagged in version 10; in 11
# and 12 sized, naming the size too), size and payload size as varints
# (VARINT_BYTES at most; versions 9 to 13 send no payload size for STORED,
# whose payload is its data, nor for a delimited payload, which ends
# itself), check of the original bytes:u32; then the payload.
VARINT_BYTES = 4  # 28 bits: past MAX_BLOCK_SIZE
SMALLEST_STREAM = 2  # the empty stream, version 10
# per block: its bytes in the stream (header included), its original size
INDEX_ENTRY = struct.Struct("<II")
# block count, total original size, CRC32 of the trailer before it, magic
FOOTER = struct.Struct("<IQI4s")


def _crc(*parts):
    crc = 0
    for part in parts:
        crc = zlib.crc32(part, crc)
    return crc


def _with_crc(head):
    """``head`` followed by its CRC32."""
    return head + struct.pack("<I", _crc(head))


# -- writing ----------------------------------------------------------------------

def stream_header(max_block_size, version=VERSION):
    return _with_crc(HEADER.pack(MAGIC, version, 0, 0, max_block_size, 0)[:-4])


def block(coding, payload, data, data_check=None):
    """One block of the stream, header and check included: ``payload`` in
    ``coding`` holds ``data`` (non-empty), whose check is ``data_check``
    (None: computed here)."""
    if data_check is None:
        from ..kernels.xxh64 import block_check
        data_check = block_check(data)
    head = BLOCK_HEADER.pack(coding, len(data), len(payload), data_check, 0)[:-4]
    return _with_crc(head) + payload


def one_block_stream(block):
    """The stream (the short layout: version 13 for MIXED_PRIMED, 11 or 12
    where the block's coding and size fit one sized byte, else 10, or 14
    for a long rules' coding) of ``block``, framed by ``block()``."""
    coding, size, payload_size, data_check, _ = BLOCK_HEADER.unpack_from(block)
    payload_sizes = varint(payload_size) if sends_payload_size(coding, size) else b""
    first, largest = SIZED.get(coding, (0, 0))
    if coding == MIXED_PRIMED:
        head = bytes([PRIMED_MARK]) + varint(size) + payload_sizes
    elif size <= largest:
        head = bytes([SHORT_MARK, first + size - 1]) + payload_sizes
    else:
        head = bytes([SHORT_MARK, TAGGED + coding]) + varint(size) + payload_sizes
    return head + struct.pack("<I", data_check) + block[BLOCK_HEADER.size:]


def delimited(coding, size):
    """Whether the payload of a short stream's block of ``coding`` and
    ``size`` bytes ends where its coded bits do, its size not sent: a
    MIXED_DELIMITED one's, and a MIXED_PRIMED one's of up to
    PRIMED_DELIMITED_LARGEST bytes."""
    return coding == MIXED_DELIMITED or (coding == MIXED_PRIMED
                                         and size <= PRIMED_DELIMITED_LARGEST)


def sends_payload_size(coding, size):
    """Whether a short stream's block of ``coding`` and ``size`` bytes
    sends its payload's size: not a STORED one, whose payload is its
    data, nor a delimited one."""
    return coding != STORED and not delimited(coding, size)


def sized(byte):
    """``(coding, size)`` that a sized coding ``byte`` (versions 11 and 12)
    names, or ``(None, 0)`` for a byte out of their range."""
    for coding, (first, largest) in SIZED.items():
        if first <= byte < first + largest:
            return coding, byte - first + 1
    return None, 0


def short_stream(blocks):
    """The stream (the short layout, version 10 to 13) of ``blocks``: none,
    or one framed by ``block()``."""
    return one_block_stream(blocks[0]) if blocks else bytes([SHORT_MARK, TAGGED])


def version_of(blocks):
    """The lowest version that holds ``blocks`` (each framed by ``block()``)
    in the block layout."""
    return max([VERSION] + [SINCE.get(coding, 0) for block in blocks
                            for coding in codings_of(block[0], block[BLOCK_HEADER.size:])])


def codings_of(coding, payload):
    """The codings of a block of ``coding`` and ``payload``: its own, then
    its inner coding's, and so on, as far as ``payload`` holds them."""
    codings = [coding]
    while codings[-1] in INNER_AT and len(payload) >= INNER_AT[codings[-1]][1]:
        coding_at, inner_at = INNER_AT[codings[-1]]
        codings.append(payload[coding_at])
        payload = payload[inner_at:]
    return codings


def varint(value):
    """``value`` as LEB128: 7 bits a byte, least significant first, the
    high bit set on every byte but the last."""
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def read_varint(view, at):
    """``(value, end)``: the varint at ``view[at:]`` and where it ends, or
    ``(None, at)`` while ``view`` holds only part of it.  Raises
    ``GageBPEError`` for one longer than VARINT_BYTES or not the shortest
    (a last byte of 0), so each value has one writing."""
    value = 0
    for i in range(VARINT_BYTES):
        if at + i >= len(view):
            return None, at
        byte = view[at + i]
        value |= (byte & 0x7F) << (7 * i)
        if byte < 0x80:
            if byte == 0 and i:
                raise GageBPEError("block size not in its shortest form")
            return value, at + i + 1
    raise GageBPEError("block size longer than 4 bytes")


def trailer(index):
    """The trailer for blocks ``index = [(stream bytes, size), ...]``."""
    entries = [value for entry in index for value in entry]
    body = struct.pack(f"<B{len(entries)}I", END_OF_BLOCKS, *entries)
    counts = struct.pack("<IQ", len(index), sum(entries[1::2]))
    return body + counts + struct.pack("<I4s", _crc(body, counts), FOOTER_MAGIC)


def trailer_size(n_blocks):
    return 1 + n_blocks * INDEX_ENTRY.size + FOOTER.size


def merge_count(coding, payload_head):
    """The number of merges of a block, from its coding and the first
    MERGE_COUNT_END bytes of its payload (fewer if it has fewer)."""
    if coding in (STORED, LZ, MIXED, MIXED_MATCH) + DELIMITED:
        return 0
    if coding in INNER_AT:
        coding_at, inner_at = INNER_AT[coding]
        if len(payload_head) < inner_at:
            raise GageBPEError("block shorter than its header")
        return merge_count(payload_head[coding_at], payload_head[inner_at:])
    at = MERGE_COUNT_AT.get(coding)
    if at is None:
        raise GageBPEError(UNKNOWN_CODING.format(coding))
    if len(payload_head) < at + 4:
        raise GageBPEError("block shorter than its header")
    return struct.unpack_from("<I", payload_head, at)[0]


def check_data(data, data_check, version):
    """Raise ``GageBPEError`` unless the decoded bytes ``data`` have the
    block's check (CRC32 in version 1, XXH32L in versions 2 and 3)."""
    if version == 1:
        check = _crc(data)
    elif kernels_loaded():
        from ..kernels.xxh64 import block_check
        check = block_check(data)
    else:
        from ..plain.xxh64 import block_check
        check = block_check(data)
    if check != data_check:
        raise GageBPEError("block check failed: data corrupt")


# -- reading ----------------------------------------------------------------------

class Header(NamedTuple):
    version: int
    max_block_size: int


class BlockHeader(NamedTuple):
    coding: int
    size: int  # original bytes
    payload_size: int
    data_check: int


class Payload(NamedTuple):
    """A block's payload (a slice of the parser's input) and its header."""
    block: BlockHeader
    data: memoryview


class End(NamedTuple):
    """The end of the stream (the trailer, checked against the blocks):
    ``index`` lists each block's ``(bytes in the stream, original size)``;
    ``stream_bytes`` is the length of the whole stream."""
    index: list
    stream_bytes: int


_HEADER, _BLOCKS, _PAYLOAD, _DONE, _ONE_BLOCK, _ONE_BLOCK_END = range(6)


class Parser:
    """The layout of one stream, parsed as its bytes arrive.

    ``parse(view, final=False)`` reads the next unit from the start of
    ``view`` (the input not yet taken, all there will be if ``final``) and
    returns ``(unit, n)``: the unit and the bytes it took, or ``(None, 0)``
    while ``view`` does not hold all of it.  The
    units come in stream order: a ``Header``; for each block a
    ``BlockHeader`` and then its ``Payload``; and the ``End``.  A
    one-block stream has no trailer: its ``End`` takes no bytes.  A reader
    that has no use for a payload may skip its bytes itself and call
    ``skip_payload``.  Every header, the index and the footer are checked
    as they are parsed; ``GageBPEError`` names the first fault.
    """

    def __init__(self):
        self._state = _HEADER
        self.header = None
        self.block = None  # the BlockHeader whose payload comes next
        self.index = []
        self._one_block = False
        self._preamble_size = 0  # of a one-block stream
        self._compact = False  # its block header: sizes as varints (versions 7 to 9)
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
            if len(head) and head[0] == PRIMED_MARK:
                return 1  # no more: the block's header begins with this byte
            if len(head) and head[0] == SHORT_MARK:
                # version 10's magic is one byte, but the second tells it
                return 1 if len(head) > 1 and head[1] != SHORT_MAGIC[1] else 2
            if len(head) >= PREAMBLE.size and _is_preamble(head):
                return PREAMBLE.size
            return HEADER.size if len(head) >= PREAMBLE.size else PREAMBLE.size
        if self._state == _PAYLOAD:
            return self.block.payload_size
        if self._state == _ONE_BLOCK:
            if not len(head) or (self.header.version in SHORT_VERSIONS
                                 and self._coding(head[0]) == END_OF_BLOCKS):
                return 1
            if self._compact:
                coding = self._coding(head[0])
                size, _ = self._size(head)
                if size is None:
                    return max(len(head) + 1, 6)  # a coding, a size and a check at least
                n = _compact_header_size(head, self._size_fields(coding, size))
                if self._delimited(coding, size) and n <= len(head):  # and its payload
                    payload_size = self._measured(coding, head[n:], size, False)
                    return len(head) + 1 if payload_size is None else n + payload_size
                return n
            return BLOCK_HEADER.size
        if self._state == _ONE_BLOCK_END:
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
            return Payload(self.block, view[:n]), n
        if self._state == _ONE_BLOCK:
            if self._compact:
                return self._parse_compact_header(view, final)
            return self._parse_block_header(view)
        if self._state == _ONE_BLOCK_END:
            self._state = _DONE
            return End(self.index, self._preamble_size + self.index[0][0]), 0
        raise ValueError("the stream has ended")

    def skip_payload(self):
        """The current block's payload was taken without ``parse``."""
        self.index.append((self._block_header_size + self.block.payload_size, self.block.size))
        self._state = _ONE_BLOCK_END if self._state == _PAYLOAD and self._one_block else _BLOCKS

    def _parse_header(self, view):
        # Say "not gagebpe" as soon as the bytes show it.
        head = bytes(view[:len(MAGIC)])
        if head[:1] == bytes([PRIMED_MARK]):  # the block's header begins here
            return self._one_block_next(PRIMED_VERSION, 0)
        if head[:1] == SHORT_MAGIC[:1]:
            if len(head) < 2:
                return None, 0
            if head[1] == SHORT_MAGIC[1]:
                return self._one_block_next(SHORT_VERSION, len(SHORT_MAGIC))
            if TAGGED <= head[1] < TAGGED + TAGS:  # the block's coding byte
                return self._one_block_next(
                    LONG_VERSION if head[1] - TAGGED in LONG_CODINGS else TAGGED_VERSION, 1)
            coding, _ = sized(head[1])  # its coding and size
            if coding is not None:
                return self._one_block_next(
                    DELIMITED_VERSION if coding == MIXED_DELIMITED else SIZED_VERSION, 1)
            raise GageBPEError(BAD_MAGIC)
        if not MAGIC.startswith(head):
            raise GageBPEError(BAD_MAGIC)
        if len(view) >= PREAMBLE.size and _is_preamble(view):
            return self._parse_preamble(view[4], view[5])
        if len(view) < HEADER.size:
            return None, 0
        magic, version, flags, reserved, max_block_size, crc = HEADER.unpack_from(view)
        if crc != _crc(view[:HEADER.size - 4]):
            raise GageBPEError("stream header check failed")
        if version not in VERSIONS:
            raise GageBPEError(f"unsupported format version {version}")
        if flags or reserved:
            raise GageBPEError("reserved header bits are set")
        if not 0 < max_block_size <= MAX_BLOCK_SIZE:
            raise GageBPEError(f"maximum block size {max_block_size} out of range")
        self.header = Header(version, max_block_size)
        self._state = _BLOCKS
        return self.header, HEADER.size

    def _parse_preamble(self, version, flags):
        """A one-block stream: its block, of any size a block may have, is
        next, and then its end."""
        if flags != ONE_BLOCK:
            raise GageBPEError("reserved header bits are set")
        return self._one_block_next(version, PREAMBLE.size)

    def _one_block_next(self, version, preamble_size):
        """The ``Header`` of a one-block stream of ``version`` whose
        preamble (or short magic) takes ``preamble_size`` bytes."""
        self.header = Header(version, MAX_BLOCK_SIZE)
        self._one_block = True
        self._preamble_size = preamble_size
        self._compact = version >= COMPACT_VERSION
        self._state = _ONE_BLOCK
        return self.header, preamble_size

    def _parse_block_header(self, view):
        if len(view) < BLOCK_HEADER.size:
            return None, 0
        coding, size, payload_size, data_check, crc = BLOCK_HEADER.unpack_from(view)
        if crc != _crc(view[:BLOCK_HEADER.size - 4]):
            raise GageBPEError("block header check failed")
        return self._block_header(coding, size, payload_size, data_check, BLOCK_HEADER.size)

    def _parse_compact_header(self, view, final):
        """Versions 7 to 13's block header.  It has no check of its own: a
        wrong size or coding fails the decoding or the data check.  In
        versions 9 and 10, END_OF_BLOCKS in place of a coding ends the
        empty stream; in versions 11 and 12 the first byte names the size
        too.  A delimited block (versions 12 and 13) sends no payload
        size: its payload is measured, so its header is parsed only once
        the payload is here too."""
        if not len(view):
            return None, 0
        coding = self._coding(view[0])
        if self.header.version in SHORT_VERSIONS and coding == END_OF_BLOCKS:
            self._state = _DONE
            return End([], self._preamble_size + 1), 1
        if coding not in CODINGS[self.header.version]:  # before a payload is measured
            raise GageBPEError(UNKNOWN_CODING.format(coding))
        size, at = self._size(view)
        if size is None:
            return None, 0
        if self._delimited(coding, size):
            payload_size = (self._measured(coding, view[at + 4:], size, final)
                            if len(view) >= at + 4 else None)
        elif self._sends_payload_size(coding, size):
            payload_size, at = read_varint(view, at)
        else:
            payload_size = size
        if payload_size is None or len(view) < at + 4:
            return None, 0
        data_check = struct.unpack_from("<I", view, at)[0]
        return self._block_header(coding, size, payload_size, data_check, at + 4)

    def _size(self, view):
        """``(size, end)``: the block size that the compact block header at
        ``view`` declares and where it ends, or ``(None, 1)`` while
        ``view`` holds only part of it."""
        if self.header.version in SIZED_VERSIONS:
            return sized(view[0])[1], 1
        size, end = read_varint(view, 1)
        if self.header.version == PRIMED_VERSION and size is not None and not (
                0 < size <= PRIMED_LARGEST):
            raise GageBPEError(f"MIXED_PRIMED block size {size} out of range")
        return size, end

    def _delimited(self, coding, size):
        return self.header.version in SHORT_VERSIONS and delimited(coding, size)

    @staticmethod
    def _measured(coding, view, size, final):
        """The length of the delimited payload of ``coding`` of a block of
        ``size`` bytes at ``view``, found by decoding it: by the kernel
        once Numba is loaded, else in plain Python (the same answer)."""
        if kernels_loaded():  # imported at first use: see the docstring
            from .codings.mixed import delimited_size
        else:
            from ..plain.stream import delimited_size
        return delimited_size(view, size, final, coding == MIXED_PRIMED)

    def _coding(self, byte):
        """The coding that a compact block header's first ``byte`` names."""
        if self.header.version == PRIMED_VERSION:
            return MIXED_PRIMED if byte == PRIMED_MARK else None
        if self.header.version in SIZED_VERSIONS:
            return sized(byte)[0]
        return byte - TAGGED if self.header.version in TAGGED_VERSIONS else byte

    def _sends_payload_size(self, coding, size):
        """Whether a compact block header of ``coding`` and ``size`` bytes
        holds its payload size: in the short layout, as
        ``sends_payload_size`` says."""
        return self.header.version not in SHORT_VERSIONS or sends_payload_size(coding, size)

    def _size_fields(self, coding, size):
        """How many sizes (varints) a compact block header of ``coding``
        and ``size`` bytes holds: in versions 11 and 12 its first byte
        names the size."""
        return ((self.header.version not in SIZED_VERSIONS)
                + self._sends_payload_size(coding, size))

    def _block_header(self, coding, size, payload_size, data_check, n):
        """The block header of ``n`` bytes that holds these fields, checked."""
        if coding not in CODINGS[self.header.version]:
            raise GageBPEError(UNKNOWN_CODING.format(coding))
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
        stream_bytes = HEADER.size + sum(size for size, _ in self.index) + n
        return End(self.index, stream_bytes), n


def _is_preamble(head):
    """Whether the first 6 bytes ``head`` of a stream are a one-block
    stream's preamble (its magic not checked here)."""
    return head[4] in ONE_BLOCK_VERSIONS and head[5] & ONE_BLOCK


def _compact_header_size(head, fields):
    """The length of the version 7 to 11 block header of ``fields`` sizes
    that begins ``head``, or one more than ``len(head)`` where ``head``
    does not tell it."""
    at = 1
    for _ in range(fields):
        value, end = read_varint(head, at)
        if value is None:
            return max(len(head) + 1, 1 + fields + 4)
        at = end
    return at + 4


def _need(data, n):
    """``data``, which must have ``n`` bytes: else the input was cut short."""
    if len(data) < n:
        raise EOFError(TRUNCATED)
    return data


# -- what a file holds ------------------------------------------------------------

class StreamInfo(NamedTuple):
    version: int
    blocks: int
    size: int  # original bytes
    stream_bytes: int
    merges: int  # over all blocks


def describe(fp):
    """``[StreamInfo, ...]`` for the concatenated streams of the binary file
    ``fp``, read from its current position to its end, checking every
    header and the trailers but decoding no block (payloads are skipped,
    by seeking where ``fp`` can).  Raises as decoding would:
    ``GageBPEError`` for malformed data, ``EOFError`` if cut short."""
    streams = []
    while True:
        data = fp.read(SMALLEST_STREAM)  # no further: a stream may be that short
        if not data and streams:
            return streams
        parser, merges, header, version = Parser(), 0, None, 0
        while not parser.done:
            if parser.expecting_payload:
                # Read only to find where a delimited payload ends.
                n = parser.block.payload_size
                taken, data = data[:n], data[n:]
                want = min(MERGE_COUNT_END, n)
                if len(taken) < want:
                    taken += _need(fp.read(want - len(taken)), want - len(taken))
                merges += merge_count(parser.block.coding, taken[:want])
                # A short stream's tagged byte names a wrapper's coding, not
                # the version 14 coding it may wrap.
                version = max(version, *(SINCE.get(coding, 0) for coding in
                                         codings_of(parser.block.coding, taken[:want])))
                _skip(fp, n - len(taken))
                parser.skip_payload()
                continue
            # Read no byte past the unit, so the next one starts at ``fp``.
            while (n := parser.wanted(data)) > len(data):
                data += _need(fp.read(n - len(data)), n - len(data))
            unit, n = parser.parse(memoryview(data))
            data = data[n:]
            header = header or unit
            version = max(version, header.version)
        streams.append(StreamInfo(version, len(unit.index),
                                  sum(size for _, size in unit.index), unit.stream_bytes, merges))


def _skip(fp, n):
    if fp.seekable():
        fp.seek(n, 1)  # a short file shows at the next read
        return
    while n > 0:
        n -= len(_need(fp.read(min(n, 1 << 20)), 1))
