"""Trained dictionaries (docs/FORMAT.md, section 10): ``Dictionary``, its
bytes, and the tables its records are coded and decoded with.

    dictionary = magic:4 ("\\x89GBD")  revision:u8  n_merges:u32  table_bytes:u32
                 merge_table  [content]  code_lengths  id:u32
    content    = content_bytes:u32  content  lz_bytes:u32  lz_code_lengths  (revision 1)

A dictionary is a grammar without ids: merges learned on sample records,
applied to every record by rank as a tokenizer applies its merges, and one
code for the symbols, so that a record's payload is only its ids' codes
(the DICTIONARY_IDS coding, ``format.codings.dictionary_ids``).  Where
raw content helps, a dictionary also holds some, with two LZ codes, and a
record may instead be copies from that content and literals in those codes
(DICTIONARY_LZ, ``format.codings.dictionary_lz``), or its ids and such
copies, in a code made from those two (DICTIONARY_IDS_LZ,
``format.codings.dictionary_ids_lz``).  Its id
is the low half of the XXH64 of its bytes before the id, which a reader
checks: a damaged dictionary is refused on load, and two dictionaries
differ in id wherever they differ at all.
"""
import functools
import struct
import threading
from typing import Union

import numpy as np
import numpy.typing as npt

from .._errors import UNDEFINED_MERGE, GageBPEError
from ..kernels import (bits as _bits, coded_sequence as _coded_sequence,
                       dictionary as _kernels, expand as _expand, huffman as _huffman,
                       ids_lz as _ids_lz, lz as _lz, packed as _packed,
                       rank_merge as _rank_merge)
from ..kernels.xxh64 import block_check
from . import container as _container
from .codings import dictionary_records as _records
from .codings.registry import DICTIONARY_IDS, DICTIONARY_IDS_LZ, DICTIONARY_LZ

MAGIC = b"\x89GBD"
# The latest revision this reader reads: 0 holds no content, 1 content and
# its LZ codes (written only where the dictionary has content).
REVISION = 1
HEAD = struct.Struct("<4sBII")  # magic, revision, merges, bytes of the merge table
ID = struct.Struct("<I")
SIZE = struct.Struct("<I")  # of the content, and of its codes' lengths
MAX_CONTENT = 1 << 24
# The content's codes: LZ_PARTS's literal/length symbols, then its distance
# symbols (three repeats), every length at most kernels.lz.MAX_CODE.
LITERAL_SYMBOLS = _lz.LITERALS + _lz.SLOTS
LZ_SYMBOLS = LITERAL_SYMBOLS + _lz.REPS + _lz.SLOTS
MAX_MERGES = 1 << 20
# Records of up to this many bytes are parsed with a dictionary's first
# content finder (``Dictionary.content_finder``).
FINDER_ROOM = 4096
# The phrases of a dictionary's coded symbols, laid end to end, may take
# no more: a decoder holds them all (a forged table of nested doublings
# would otherwise ask for more memory than there is).
MAX_PHRASES = 1 << 26
# Held while an array whose address kernels are handed is kept: two threads
# may build one at once (``functools.cached_property`` locks nothing since
# Python 3.12), and the address given out must stay the array kept, never
# one a second thread dropped.
_KEEPING = threading.Lock()
N_BYTES = _kernels.N_BYTES


class Dictionary:
    """A trained dictionary: ``merges`` (int32, one row ``(left, right)``
    per merge; merge k makes symbol 256 + k) and ``lengths`` (uint8, the
    code length of each symbol, 0 for none); ``content`` (bytes, b"" for
    none) and ``lz_lengths``, its two LZ codes' lengths.  ``id`` names it in the
    streams it codes; ``bytes(d)`` is its serialized form and
    ``Dictionary.from_bytes`` reads one back, refusing a damaged one with
    ``GageBPEError``; the constructor raises ``ValueError`` for merges
    that name a symbol not made before them or lengths not one a symbol.
    Build one with ``gagebpe.train_dictionary``."""

    def __init__(self, merges: npt.ArrayLike, lengths: npt.ArrayLike, content: bytes = b"",
                 lz_lengths: npt.ArrayLike | None = None) -> None:
        self.merges = np.ascontiguousarray(merges, np.int32).reshape(-1, 2)
        self.lengths = np.ascontiguousarray(lengths, np.uint8)
        # The kernels index their tables by these symbols unchecked.
        made = N_BYTES + np.arange(len(self.merges)).reshape(-1, 1)
        if ((self.merges < 0) | (self.merges >= made)).any():
            raise ValueError("a merge names a symbol not made before it")
        if self.lengths.shape != (N_BYTES + len(self.merges),):
            raise ValueError(f"{N_BYTES + len(self.merges)} code lengths wanted, one a symbol")
        # Raw content for records' copies (revision 1), and the lengths of
        # the two LZ codes they are written in (LZ_SYMBOLS of them); none: b"".
        self.content = bytes(content)
        self.lz_lengths = (np.ascontiguousarray(lz_lengths, np.uint8) if self.content
                           else np.zeros(0, np.uint8))
        self._bytes = _serialize(self.merges, self.lengths, self.content, self.lz_lengths)
        self.id, = ID.unpack_from(self._bytes, len(self._bytes) - ID.size)
        # The first bytes of a single stream naming it, as its readers match them.
        self.head = np.frombuffer(_container.single_stream(None, self.id)[:-1], np.uint8)
        self.size_at = len(self.head) + 1  # where a record's size is (decoder.records)
        self._encoding: tuple | None = None
        self._ids_lz: tuple | None = None
        self._finders = threading.local()
        # The arrays whose addresses kernels are handed: set once, never
        # replaced (``_KEEPING``).
        self._record_tables: np.ndarray | None = None
        self._decoder_kept: np.ndarray | None = None

    def with_content(self, content: bytes, lz_lengths: npt.ArrayLike) -> "Dictionary":
        """This dictionary with ``content`` (1 to MAX_CONTENT bytes) and its
        codes' ``lz_lengths`` (LZ_SYMBOLS of them, as docs/FORMAT.md section
        10 says); ValueError for others."""
        lz_lengths = np.ascontiguousarray(lz_lengths, np.uint8)
        if not 0 < len(content) <= MAX_CONTENT:
            raise ValueError(f"content must hold 1 to {MAX_CONTENT} bytes")
        if len(lz_lengths) != LZ_SYMBOLS or lz_lengths.max() > _lz.MAX_CODE:
            raise ValueError(f"lz_lengths must hold {LZ_SYMBOLS} code lengths of at most "
                             f"{_lz.MAX_CODE} bits")
        try:
            _lz_lengths(np.frombuffer(_coded_sequence.lengths_section(lz_lengths), np.uint8))
        except GageBPEError as e:
            raise ValueError(str(e)) from None
        return Dictionary(self.merges, self.lengths, content, lz_lengths)

    @classmethod
    def from_counts(cls, merges: npt.ArrayLike, counts: npt.ArrayLike,
                    smoothing: float = 1) -> "Dictionary":
        """The dictionary of ``merges`` whose code fits how often each symbol
        was a token (``counts``), each counted ``smoothing`` more (a
        multiple of 1/2; docs/DESIGN.md, "Dictionaries"): every byte value
        gets a code, so that any record can be coded, and so does every
        merge whose phrase fits in the MAX_PHRASES a decoder holds."""
        return cls(merges, code_lengths(merges, counts, smoothing))

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview) -> "Dictionary":
        """The dictionary ``bytes(d)`` gave, checked throughout."""
        data = bytes(data)
        if len(data) < HEAD.size + ID.size:
            raise GageBPEError("dictionary shorter than its header")
        magic, revision, n_merges, table_bytes = HEAD.unpack_from(data)
        if magic != MAGIC:
            raise GageBPEError("not a gagebpe dictionary (bad magic bytes)")
        if revision > REVISION:
            raise GageBPEError(f"the dictionary is of revision {revision}: it needs a later "
                               "gagebpe")
        if ID.unpack_from(data, len(data) - ID.size)[0] != block_check(data[:-ID.size]):
            raise GageBPEError("dictionary check failed: dictionary corrupt")
        if n_merges > MAX_MERGES:
            raise GageBPEError(f"dictionary of {n_merges} merges: at most {MAX_MERGES}")
        table_bits = int(_bits.merge_table_bits(N_BYTES, n_merges))
        if table_bytes != (table_bits + 7) // 8 or HEAD.size + table_bytes > len(data) - ID.size:
            raise GageBPEError("dictionary merge table size disagrees with its merges")
        body = np.frombuffer(data, np.uint8)[:len(data) - ID.size]
        table = body[HEAD.size:HEAD.size + table_bytes]
        merges = np.empty((n_merges, 2), np.int32)
        if not _bits.unpack_merges(table, N_BYTES, merges):
            raise GageBPEError(UNDEFINED_MERGE)
        if table_bits % 8 and table[-1] >> (table_bits % 8):
            raise GageBPEError("dictionary padding bits are not zero")
        at = HEAD.size + table_bytes
        content, lz_lengths = b"", None
        if revision == 1:
            content, at = _sized(body, at, "content")
            if not 0 < len(content) <= MAX_CONTENT:
                raise GageBPEError(f"dictionary content of {len(content)} bytes: 1 to "
                                   f"{MAX_CONTENT} it may hold")
            section, at = _sized(body, at, "content's code lengths")
            lz_lengths = _lz_lengths(section)
        lengths = np.empty(N_BYTES + n_merges, np.uint8)
        _coded_sequence.raise_problem(_coded_sequence.read_lengths(body[at:], 1, lengths))
        if not _huffman.is_complete(lengths) or not lengths[:N_BYTES].all():
            raise GageBPEError("dictionary code is not complete over every byte value")
        dictionary = cls(merges, lengths, bytes(content), lz_lengths)
        if dictionary._bytes != data:  # one writing per dictionary
            raise GageBPEError("dictionary is not in its canonical form")
        dictionary.decoder  # built now: its phrases must fit
        return dictionary

    def __bytes__(self) -> bytes:
        return self._bytes

    def __len__(self) -> int:
        return len(self._bytes)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dictionary) and other._bytes == self._bytes

    def __hash__(self) -> int:
        return hash(self._bytes)

    def __reduce__(self):
        # Pickled and copied as its bytes: its tables are built anew where it
        # lands (an address, ``decoder_address``, means nothing elsewhere).
        return Dictionary.from_bytes, (self._bytes,)

    def __repr__(self) -> str:
        content = f", {len(self.content)} of content" if self.content else ""
        return (f"<gagebpe.Dictionary {self.id:#010x}: {len(self.merges)} merges{content}, "
                f"{len(self)} bytes>")

    def encoding(self) -> tuple:
        """The tables records are coded with (built once)."""
        if self._encoding is None:
            self._encoding = (_huffman.canonical_codes(self.lengths).reshape(1, -1),
                              self.lengths.reshape(1, -1),
                              *_kernels.parse_tables(self.merges, self.lengths, MAX_PHRASES))
        return self._encoding

    def lz_encoding(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(content, literal/length code lengths, distance code lengths)``
        of DICTIONARY_LZ records (the content a uint8 array)."""
        return (np.frombuffer(self.content, np.uint8), self.lz_lengths[:LITERAL_SYMBOLS],
                self.lz_lengths[LITERAL_SYMBOLS:])

    @functools.cached_property
    def lz_codes(self) -> tuple:
        """The content's two codes (literal/length, distance) as DICTIONARY_LZ
        records are coded in them, each ``kernels.huffman.prepared``."""
        return _huffman.prepared(*self.lz_encoding()[1:])

    def ids_lz_encoding(self) -> tuple | None:
        """The codes DICTIONARY_IDS_LZ records are coded in, the block
        code's (``kernels.ids_lz.code_lengths``) and the content's distance
        code, each ``kernels.huffman.prepared``; or None where the
        dictionary takes none (no content, or no copy has a code)."""
        if self._ids_lz is None:
            self._ids_lz = ()
            if self.content:
                lengths = _ids_lz.code_lengths(self.lengths, self.lz_lengths[:LITERAL_SYMBOLS])
                if len(lengths):
                    self._ids_lz = _huffman.prepared(lengths,
                                                     self.lz_lengths[LITERAL_SYMBOLS:])
        return self._ids_lz or None

    @functools.cached_property
    def codings(self) -> tuple[int, ...]:
        """The codings its records are tried in: DICTIONARY_IDS;
        DICTIONARY_LZ only where its content's codes give every symbol a
        code (the format lets them leave some out, and that coding's parse
        cannot price a symbol it may not use); DICTIONARY_IDS_LZ where it
        takes it (its parse leaves out what has no code)."""
        codings = [DICTIONARY_IDS]
        if self.content and self.lz_lengths.all():
            codings.append(DICTIONARY_LZ)
        if self.ids_lz_encoding() is not None:
            codings.append(DICTIONARY_IDS_LZ)
        return tuple(codings)

    def content_finder(self, most: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``kernels.primed_lz.content_finder``'s ``(window, head, chain)``
        of the content, for records of up to ``most`` bytes: built once per
        thread (a record's parse chains its own positions onto it and
        unchains them after, so a finder serves one record at a time), and
        again only for a record longer than any before."""
        return self._finder(most)[1:4]

    def content_finder_address(self, most: int) -> int:
        """Where ``content_finder(most)``'s three arrays lie, packed in one
        (``kernels.packed``), as one record's kernel takes them."""
        found = getattr(self._finders, "found", None)  # ``_finder``'s, without its call
        return (found if found is not None and found[4] >= most else self._finder(most))[0]

    def _finder(self, most):
        """``(address, window, head, chain, room)`` of this thread's finder,
        which has room for records of ``room`` bytes."""
        found = getattr(self._finders, "found", None)
        if found is None or found[4] < most:
            from ..kernels import primed_lz
            room = max(most, FINDER_ROOM)
            packed = _packed.pack(primed_lz.content_finder(self.lz_encoding()[0], room))
            # The views keep ``packed``, and so the address, alive.
            found = self._finders.found = (packed.ctypes.data,
                                            *primed_lz.unpacked_finder(packed), room)
        return found

    @functools.cached_property
    def record_tables_address(self) -> int:
        """Where the tables one record per call is coded with lie, packed
        in one array (``format.codings.dictionary_records.packed_tables``),
        as that record's kernel takes them; ``encoding()`` reads its tables
        from that array from then on, so that they are not held twice."""
        tables, encoding = _records.packed_tables(self)
        with _KEEPING:
            if self._record_tables is None:
                self._record_tables, self._encoding = tables, encoding
        return self._record_tables.ctypes.data

    @functools.cached_property
    def decoder(self) -> np.ndarray:
        """The tables records are decoded with, and the head of their
        streams, as one array (``kernels.dictionary.decoder``; built at the
        first use, then an attribute like any other, read on every record);
        ``GageBPEError`` if the phrases pass MAX_PHRASES."""
        table, phrases, entries = _kernels.phrases(self.merges, self.lengths, MAX_PHRASES)
        if not len(phrases):
            raise GageBPEError("dictionary phrases are too long")
        content, literal_lengths, distance_lengths = self.lz_encoding()
        literal = distance = ids_lz = ids_lz_distance = np.zeros(0, np.int64)
        if len(content):
            _, literal, distance = _lz.decoding_tables(literal_lengths, distance_lengths,
                                                       _lz.REPS, True)
        ids_lz_encoding = self.ids_lz_encoding()
        if ids_lz_encoding is not None:
            ids_lz, ids_lz_distance = _ids_lz.decoding_tables(ids_lz_encoding[1],
                                                              ids_lz_encoding[4], entries)
        return _kernels.decoder(self.head, table, phrases, literal, distance, content, ids_lz,
                                ids_lz_distance)

    @functools.cached_property
    def decoder_address(self) -> int:
        """Where ``decoder``'s first word lies, as one record's kernel takes
        it (``kernels.packed.at``); the array it points to is kept
        with it, so that it lives as long as this dictionary even if
        ``decoder`` is deleted."""
        with _KEEPING:
            if self._decoder_kept is None:
                self._decoder_kept = self.decoder
        return self._decoder_kept.ctypes.data


def _sized(body, at, what):
    """``(the bytes of a u32-sized field at body[at:], where it ends)``."""
    if at + SIZE.size > len(body):
        raise GageBPEError(f"dictionary ends inside its {what}")
    size, = SIZE.unpack_from(body, at)
    at += SIZE.size
    if size > len(body) - at:
        raise GageBPEError(f"dictionary ends inside its {what}")
    return body[at:at + size], at + size


def _lz_lengths(section):
    """The content's code lengths from their code_lengths section, each code
    checked complete and no code longer than an LZ decoder reads."""
    lengths = np.empty(LZ_SYMBOLS, np.uint8)
    _coded_sequence.raise_problem(_coded_sequence.read_lengths(section, 1, lengths))
    if (lengths.max() > _lz.MAX_CODE or not _huffman.is_complete(lengths[:LITERAL_SYMBOLS])
            or not _huffman.is_complete(lengths[LITERAL_SYMBOLS:])):
        raise GageBPEError("dictionary content's codes are not complete codes of at most "
                           f"{_lz.MAX_CODE} bits")
    return lengths


def code_lengths(merges, counts, smoothing=1):
    """``Dictionary.from_counts``'s code lengths of each symbol."""
    if not round(2 * smoothing) >= 1:
        raise ValueError("smoothing must be at least 1/2")
    merges = np.ascontiguousarray(merges, np.int32).reshape(-1, 2)
    counts = np.array(counts, np.int64)
    sizes = _expand.symbol_lengths(merges, N_BYTES, MAX_PHRASES)
    unused = counts == 0
    unused[:N_BYTES] = False
    room = MAX_PHRASES - int(sizes[~unused].sum())
    coded = ~unused | (np.cumsum(np.where(unused, sizes, 0)) <= room)
    halves = 2 * counts + np.where(coded, round(2 * smoothing), 0)
    return _huffman.code_lengths(halves, _huffman.MAX_LENGTH)


def merge_tables(merges):
    """``(keys, vals, ranks, results)``: ``merges`` as ``kernels.rank_merge``
    applies them, merge k at rank k making symbol 256 + k."""
    keys, vals = _rank_merge.merge_table(merges[:, 0].copy(), merges[:, 1].copy())
    ranks = np.arange(len(merges), dtype=np.int64)
    return keys, vals, ranks, (N_BYTES + ranks).astype(np.int32)


def serialized_size(n_merges, lengths):
    """``len(Dictionary(merges, lengths))`` for ``n_merges`` merges and no
    content, without making it (a trainer tries several sizes)."""
    return (HEAD.size + _table_bytes(n_merges) + len(_coded_sequence.lengths_section(lengths))
            + ID.size)


def _table_bytes(n_merges):
    return (_bits.merge_table_bits(N_BYTES, n_merges) + 7) // 8


def _serialize(merges, lengths, content, lz_lengths):
    table = np.zeros(_table_bytes(len(merges)), np.uint8)
    _bits.pack_merges(merges, N_BYTES, table)
    body = HEAD.pack(MAGIC, 1 if content else 0, len(merges), len(table)) + table.tobytes()
    if content:
        section = _coded_sequence.lengths_section(lz_lengths)
        body += SIZE.pack(len(content)) + content + SIZE.pack(len(section)) + section
    body += _coded_sequence.lengths_section(lengths)
    return body + ID.pack(block_check(body))


# A dictionary as every entry point takes it: a ``Dictionary``, its bytes,
# or None for none.
DictionaryLike = Union[Dictionary, bytes, bytearray, memoryview, None]


def given(dictionary):
    """A reader's ``{id: Dictionary}`` for the ``dictionary`` a caller gave:
    None, a ``Dictionary`` or its bytes."""
    if dictionary is None:
        return {}
    if type(dictionary) is not Dictionary:
        if not isinstance(dictionary, (bytes, bytearray, memoryview)):
            raise TypeError("dictionary must be a gagebpe.Dictionary or its bytes")
        dictionary = Dictionary.from_bytes(dictionary)
    return {dictionary.id: dictionary}
