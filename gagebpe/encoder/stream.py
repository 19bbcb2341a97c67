"""Compressing into gagebpe streams, in the shape of ``lzma``: the one-shot
``compress`` (which also writes the 1994 format, by name) and the
incremental ``Compressor``, which cuts its input into blocks and codes
them, on threads if asked.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from . import block as _block, small as _small
from ..format import container as _container, gage1994 as _gage1994_stream
from ..format.codings import lz as _coding_lz
from ..format.codings.registry import STORED
from .._arguments import check_format, check_threads
from .levels import (DICTIONARY_ALONE, DICTIONARY_COPIES, LEVELS, OWN_COPIES, SMALL_BLOCK,
                     settings)
from .._types import BytesLike

if TYPE_CHECKING:
    from ..format.dictionary import DictionaryLike


def _check_block_size(block_size):
    if not 0 < block_size <= _container.MAX_BLOCK_SIZE:
        raise ValueError(
            f"block_size must be between 1 and {_container.MAX_BLOCK_SIZE}")
    return block_size


# -- compressing ------------------------------------------------------------------

class _BlockCoder:
    """Codes whole blocks at one level, on ``threads`` threads; with a
    ``dictionary``, each block also by the dictionary, the smaller kept
    (blocks of up to DICTIONARY_ALONE bytes by the dictionary or stored)."""

    def __init__(self, level, threads, dictionary=None):
        self.level = (level if dictionary is None
                      else level.with_dictionary(content=bool(dictionary.content)))
        self.threads = threads
        self.dictionary = dictionary
        self._executor = None

    def code(self, views):
        """The framed blocks of the buffers ``views``, in order.  Views are
        released before returning: a worker thread may hold its argument a
        moment after its result is in, and an unreleased view would keep
        the caller's buffer from being resized."""
        try:
            return self._code(views)
        finally:
            for view in views:
                if isinstance(view, memoryview):
                    view.release()

    def _code(self, views):
        if self.dictionary is None:
            return self._by_level(views)
        blocks, own = _records(views, self.dictionary)
        payloads = [len(block) - _container.BLOCK_HEADER.size for block in blocks]
        tried = [i for i, view in enumerate(views)
                 if _level_may_gain(self.level, view, own[i], payloads[i])]
        for i, block in zip(tried, self._by_level([views[i] for i in tried],
                                                  [payloads[i] for i in tried])):
            blocks[i] = min(blocks[i], block, key=len)
        return blocks

    def _by_level(self, views, beats=None):
        """The framed blocks of ``views`` by the level, each of use only
        under its ``beats`` bytes if given (``encoder.block.encode``)."""
        level = self.level
        beats = beats or [None] * len(views)
        if self.threads == 1 or len(views) < 2:
            return [self._one(view, None, beat) for view, beat in zip(views, beats)]
        if self._executor is None:
            self._executor = ThreadPoolExecutor(self.threads)
        merges = list(self._executor.map(
            lambda v: _block.worth_merging(v, level.row(len(v))), views))
        # Longest first: the blocks that merge, largest first, then the
        # rest, so that no thread starts a long block as the others end.
        order = sorted(range(len(views)), key=lambda i: (not merges[i], -len(views[i])))
        futures = {i: self._executor.submit(self._one, views[i], merges[i], beats[i])
                   for i in order}
        return [futures[i].result() for i in range(len(views))]

    def _one(self, data, merge, beat=None):
        return _framed(data, self.level, merge, beat)

    def close(self):
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None


class Compressor:
    """Compress data incrementally into one gagebpe stream.

    ``compress(data)`` returns whatever output is ready (possibly ``b""``);
    ``flush()`` finishes the stream and returns the rest.  With ``threads``
    > 1 (0: one per core), the blocks of one call are compressed in
    parallel; the output is the same for any number of threads, and the
    same as ``compress`` gives for all the data at once (nothing is
    written before a second block begins, so that a stream of one block
    can take the single layout).  With a ``dictionary``, the stream names
    it, as ``compress``'s does.
    """

    def __init__(self, level: int | None = None, *, block_size: int | None = None,
                 threads: int = 1, dictionary: DictionaryLike = None) -> None:
        chosen = settings(level)
        self._block_size = _check_block_size(block_size or chosen.block_size)
        self._coder = _BlockCoder(chosen, check_threads(threads), _one(dictionary))
        self._pending = bytearray()
        self._index: list[tuple[int, int]] = []
        self._started = False
        self._finished = False

    @property
    def block_size(self) -> int:
        return self._block_size

    @property
    def threads(self) -> int:
        return self._coder.threads

    def compress(self, data: BytesLike) -> bytes:
        if self._finished:
            raise ValueError("Compressor has been flushed")
        views: list[bytearray | memoryview] = []
        with memoryview(data) as view, view.cast("B") as data:
            if self._pending and len(data):  # fill the block begun by earlier calls
                take = min(len(data), self._block_size - len(self._pending))
                self._pending += data[:take]
                data = data[take:]
                if not len(data):  # it may be the last
                    return b""
                views.append(self._pending)
                self._pending = bytearray()
            # Whole blocks straight from the caller's buffer, all but one
            # (it may be the last): no copy of the input beyond the blocks
            # being coded and that one.  All in one batch, for the threads.
            full = max(0, (len(data) - 1) // self._block_size * self._block_size)
            views += [data[start:start + self._block_size]
                      for start in range(0, full, self._block_size)]
            self._pending += data[full:]
            return b"".join(self._blocks(views)) if views else b""

    def flush(self) -> bytes:
        if self._finished:
            raise ValueError("Repeated call to flush()")
        self._finished = True
        last, self._pending = self._pending, bytearray()
        blocks = self._coder.code([last]) if last else []
        self._coder.close()
        if not self._started and len(blocks) <= 1:
            return _single_stream(blocks, last, self._coder)
        out = self._framed(blocks, [len(last)] if last else [])
        return b"".join(out + [_container.trailer(self._index)])

    def _blocks(self, views):
        sizes = [len(view) for view in views]
        return self._framed(self._coder.code(views), sizes)

    def _framed(self, blocks, sizes):
        """The stream's next pieces: its header, if not yet written, then
        the coded ``blocks`` of ``sizes`` original bytes, entered in the
        index."""
        out = []
        if not self._started:
            self._started = True
            out.append(_container.stream_header(self._block_size, _id(self._coder.dictionary)))
        self._index += [(len(block), size) for block, size in zip(blocks, sizes)]
        return out + blocks


def _single_stream(blocks, data, coder):
    """The single stream of ``data``, coded as ``blocks`` (one block or
    none) by ``coder``: ``encoder.small.single_stream``'s choice, with the
    kernels' coders; with a dictionary, that block, naming it."""
    block = blocks[0] if blocks else None
    if coder.dictionary is not None:
        return _container.single_stream(block, coder.dictionary.id)
    return _small.single_stream(data, block, coder.level.mixed, _block.CODERS)


def _id(dictionary):
    return None if dictionary is None else dictionary.id


def compress(data: BytesLike, level: int | None = None, *, block_size: int | None = None,
             threads: int = 1, format: str = "gbpe", dictionary: DictionaryLike = None) -> bytes:
    """Compress ``data`` (bytes-like) into one gagebpe stream, its blocks on
    ``threads`` threads (0: one per core); data that makes one block or
    none takes the single layout.
    ``format="gage1994"`` writes Philip Gage's 1994 format instead
    (``gagebpe.gage1994``), which has no levels or block sizes to choose.
    With a ``dictionary`` (``gagebpe.train_dictionary``'s), the stream names
    it, and decoding it needs it."""
    # A record, called as most calls are, is taken before the arguments'
    # checks, which cost a small record a sixth of its time.
    if (type(dictionary) is _Dictionary and type(data) is bytes and level is None
            and block_size is None and threads == 1 and format == "gbpe"
            and 0 < len(data) <= SMALL_BLOCK):
        return _record(data, dictionary, None)
    if check_format(format) == "gage1994":
        if level is not None or block_size is not None or dictionary is not None:
            raise ValueError("the gage1994 format has no level, block size or dictionary")
        return _gage1994_stream.compress(data)
    chosen = settings(level)
    block_size = _check_block_size(block_size or chosen.block_size)
    if (dictionary is not None and type(data) is bytes
            and 0 < len(data) <= min(SMALL_BLOCK, block_size)):
        check_threads(threads)  # a record: what compress_many gives it
        return _record(data, _one(dictionary), level)
    coder = _BlockCoder(chosen, check_threads(threads), _one(dictionary))
    with memoryview(data) as view, view.cast("B") as data:
        # Every block, the last one too, in one batch: threads share them all.
        views = [data[i:i + block_size] for i in range(0, len(data), block_size)]
        sizes = [len(view) for view in views]
        blocks = coder.code(views)
        if len(blocks) <= 1:  # a chunk: the single layout
            coder.close()
            return _single_stream(blocks, data, coder)
    coder.close()
    index = [(len(block), size) for block, size in zip(blocks, sizes)]
    return (_container.stream_header(block_size, _id(coder.dictionary))
            + b"".join(blocks)
            + _container.trailer(index))


# -- with a dictionary ------------------------------------------------------------

def _level_may_gain(level, data, own, payload):
    """Whether block ``data`` beside a dictionary, whose coding of it took
    ``payload`` bytes (its own where STORED), is also coded by its
    ``level`` (a ``Level.with_dictionary``): past DICTIONARY_ALONE bytes;
    where its row tries LZ alone (in one part), only if DICTIONARY_IDS_LZ
    copied at least OWN_COPIES of it from itself (``own``) and an LZ
    payload of it could be smaller (``kernels.lz_floor``: a record the
    dictionary codes in fewer bytes than its floor, the level never
    does)."""
    size = len(data)
    if size <= DICTIONARY_ALONE:
        return False
    if level.row(size).tries != ("lz",):
        return True
    return own >= OWN_COPIES and _coding_lz.payload_floor(data) < payload


# Each level as it is tried beside a dictionary with content or without,
# made once: a record's call costs less than making one.
_BESIDE_DICTIONARY = {(level, content): settings(level).with_dictionary(content)
                      for level in (None, *LEVELS) for content in (False, True)}


def _record(data, dictionary, level):
    """``compress``'s stream of the record ``data`` (bytes of the first size
    class, not empty) with ``dictionary`` at ``level`` (a valid level or
    None): the dictionary kernel's (``encoder.records``), or the level's
    where that may code it smaller (``_level_may_gain``) and does, as
    ``_BlockCoder`` would, at the level's form beside a dictionary made
    once."""
    if len(data) <= DICTIONARY_ALONE:  # ``_level_may_gain``'s first rule, before the look-up
        return _record_coder.alone(data, dictionary)
    stream, payload, own = _record_coder.stream(data, dictionary)
    beside = _BESIDE_DICTIONARY[level, bool(dictionary.content)]
    if not _level_may_gain(beside, data, own, payload):
        return stream
    block = _framed(data, beside, None, payload)
    return min(stream, _container.single_stream(block, dictionary.id), key=len)


def _framed(data, level, merge, beat=None):
    """The framed block of ``data`` coded by ``level`` (``merge`` and
    ``beat`` as ``encoder.block.encode`` takes them)."""
    coding, payload = _block.encode(data, level, merge, beat)
    return _container.block(coding, payload, data)


@functools.cache
def _with_dictionaries():
    """``format.dictionary`` and ``encoder.records``, imported at the first
    call with a dictionary and then at no cost (an import statement cost a
    record's call a microsecond)."""
    global _Dictionary, _record_coder
    from ..format import dictionary
    from . import records
    _Dictionary, _record_coder = dictionary.Dictionary, records
    return dictionary, records


# ``format.dictionary.Dictionary`` and ``encoder.records`` once loaded: no
# object's type is None, so ``compress`` takes no record before.
_Dictionary: Any = None
_record_coder: Any = None


def _one(dictionary):
    """The ``Dictionary`` for what a caller gave (it or its bytes), or None."""
    if dictionary is None:
        return None
    dictionaries = _with_dictionaries()[0]
    if type(dictionary) is dictionaries.Dictionary:
        return dictionary
    return next(iter(dictionaries.given(dictionary).values()))


def _records(records, dictionary):
    """``(blocks, own)``: the framed blocks (``container.block``) of the
    non-empty ``records``, each coded with ``dictionary`` by its ids
    (DICTIONARY_IDS), or, where it holds content and the record is of at
    most DICTIONARY_COPIES bytes, by copies from that (DICTIONARY_LZ) or by
    ids and copies (DICTIONARY_IDS_LZ), or STORED: the smallest, the first
    of equals; and the share of each that DICTIONARY_IDS_LZ copied from
    itself (1 where not tried)."""
    from ..format.codings import dictionary_records
    coded = dictionary_records.encode_many(records, dictionary, dictionary.codings,
                                           DICTIONARY_COPIES)
    blocks = []
    for record, coding, payload, check in zip(records, coded.codings, coded.payloads,
                                              coded.checks):
        if len(payload) >= len(record):
            coding, payload = STORED, bytes(record)
        blocks.append(_container.block(coding, payload, record, check))
    return blocks, coded.own


def _record_streams(records, dictionary):
    """The single streams of the non-empty ``records`` of at most
    DICTIONARY_ALONE bytes, each its one block of ``_records``."""
    return [_container.single_stream(block, dictionary.id)
            for block in _records(records, dictionary)[0]]


def compress_many(records: Iterable[BytesLike], level: int | None = None, *,
                  dictionary: DictionaryLike = None) -> list[bytes]:
    """``[compress(record, level, dictionary=dictionary) for record in
    records]``, each record its own stream, with the records of up to
    DICTIONARY_ALONE bytes coded together in one kernel call when a
    dictionary is given."""
    if dictionary is None:
        return [compress(record, level) for record in records]
    chosen = _one(dictionary)
    whole = [bytes(record) for record in records]
    small = [i for i, r in enumerate(whole) if 0 < len(r) <= DICTIONARY_ALONE]
    out: list = [None] * len(whole)
    for i, stream in zip(small, _record_streams([whole[i] for i in small], chosen)):
        out[i] = stream
    for i, record in enumerate(whole):
        if out[i] is None:
            out[i] = compress(record, level, dictionary=chosen)
    return out
