"""One record per call: what ``compress`` gives a record of at most
DICTIONARY_ALONE bytes with a dictionary, its whole single stream written
by one kernel, the counterpart of ``decoder.records``.  The kernel is
called without Numba's dispatch (``_jit.direct``) and writes into the
thread's buffer: the dictionary's head, the block header by the
container's own writer (``format.container.put_single_block``), then the
payload ``kernels.dictionary_records`` chose and wrote, or the record
STORED.  Handing a batch's four arrays back (``encode_many``) and framing
in Python cost a record of 64 bytes more than its three parses
(docs/notes/2026-12-06-record-calls.md).
"""
import threading

import numpy as np

from .._jit import direct, jitable, njit
from ..format import container as _container
from ..format.codings import dictionary_records as _codings
from ..format.codings.registry import DICTIONARY_IDS, DICTIONARY_IDS_LZ, DICTIONARY_LZ, STORED
from ..kernels import dictionary_records as _kernels
from ..kernels import varint as _varint  # noqa: F401 -- lets put_single_block's put_varint compile
from ..kernels.xxh64 import data_check

put_single_block = jitable(_container.put_single_block)
_thread = threading.local()
_NO_BYTES = np.zeros(0, np.uint8)


@njit(cache=True, nogil=True)
def _encode_stream(record, tries, ids_code, finder, most, lz_code, ids_lz_code, head, out):
    """The single stream of ``record`` (not empty) written into ``out``,
    which has room for ``head`` (the stream's bytes before its block),
    SINGLE_HEADER_MOST bytes and the record: its one block coded as
    ``kernels.dictionary_records.encode_records`` codes it, or STORED
    where that is no smaller; its size."""
    coding, best, parses = _kernels.parsed(record, tries, ids_code, finder, most, lz_code,
                                           ids_lz_code)
    n = record.shape[0]
    at = head.shape[0]
    out[:at] = head
    number = STORED
    if best < n:
        number = (DICTIONARY_IDS if coding == _kernels.IDS else
                  DICTIONARY_LZ if coding == _kernels.LZ else DICTIONARY_IDS_LZ)
    at = put_single_block(out, at, number, n, best, data_check(record))
    if number == STORED:
        out[at:at + n] = record
        return at + n
    _kernels.write(out[at:at + best], coding, parses, ids_code, lz_code, ids_lz_code)
    return at + best


def stream(record, dictionary):
    """The single stream of ``record`` (bytes, not empty) naming
    ``dictionary``, its one block in the smallest of the dictionary's
    codings (``Dictionary.codings``), copies tried at any length, or
    STORED where that is no smaller: the bytes ``compress_many`` gives it."""
    tries = _codings.tries_of(dictionary.codings)
    arguments = (np.frombuffer(record, np.uint8), tries, dictionary.encoding(),
                 *_codings.copies(dictionary, tries, len(record)), dictionary.head)
    room = len(dictionary.head) + _container.SINGLE_HEADER_MOST + len(record)
    out = getattr(_thread, "out", _NO_BYTES)
    if len(out) < room:
        out = _thread.out = np.empty(max(room, 1024), np.uint8)
    encode = _ENCODE_STREAM or _load(arguments, out)
    return out[:encode(*arguments, out)].tobytes()


def _load(arguments, out):
    """``_encode_stream`` compiled for these arguments' types, which every
    dictionary's are (``_jit.direct``)."""
    global _ENCODE_STREAM
    _ENCODE_STREAM = direct(_encode_stream, *arguments, out)
    return _ENCODE_STREAM


_ENCODE_STREAM = None
