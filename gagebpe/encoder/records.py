"""One record per call: what ``compress`` gives a record of at most
DICTIONARY_ALONE bytes with a dictionary, its whole single stream written
by one kernel, the counterpart of ``decoder.records``.  The kernel is
called without Numba's dispatch (``_jit.direct``), takes the dictionary's
tables and the thread's content finder each as one address
(``kernels.packed``) and the record as its storage
(``kernels.bytes_object``), and returns the stream as a bytes object it
makes (``alone``), or writes it into one it is given, with the figures
the level's try needs (``stream``).  It writes the dictionary's head, the
block header by the container's own writer
(``format.container.put_single_block``), then the payload
``kernels.dictionary_records`` chose and wrote, or the record STORED.
Handing a batch's four arrays back (``encode_many``) and framing in Python
cost a record of 64 bytes more than its three parses
(docs/notes/2026-12-06-record-calls.md).
"""
import numpy as np

from .._jit import direct, jitable, njit
from ..format import container as _container
from ..format.codings.registry import DICTIONARY_IDS, DICTIONARY_IDS_LZ, DICTIONARY_LZ, STORED
from ..kernels import dictionary_records as _kernels
from ..kernels import varint as _varint  # noqa: F401 -- lets put_single_block's put_varint compile
from ..kernels.bytes_object import (BYTES, contents, fill, gil_released, gil_taken, new_bytes,
                                    nothing_made, storage, was_made)
from ..kernels.packed import at as packed_at
from ..kernels.primed_lz import unpacked_finder
from ..kernels.xxh64 import data_check

put_single_block = jitable(_container.put_single_block)
# A record's stream's bytes besides the record's, at most: its head (magic,
# descriptor, dictionary id) and its block's header.
_ROOM = (len(_container.MAGIC) + 1 + _container.DICTIONARY_ID.size
         + _container.SINGLE_HEADER_MOST)


@njit(cache=True, nogil=True)
def _encode_stream(record, tables_address, finder_address, out):
    """``_encoded`` of ``record`` (bytes, BYTES) into ``out`` (a new bytes
    object, ``fill``'s)."""
    return _encoded(contents(record), tables_address, finder_address, fill(out))


@njit(cache=True)
def _encode_new(record, tables_address, finder_address):
    """``_encoded``'s stream of ``record`` (bytes, BYTES) as a bytes
    object made here, or None where the coding raised (out of memory:
    ``stream`` then says so).  Called holding the GIL, to make the
    object; it lets it go while it codes."""
    data = contents(record)
    out = np.empty(data.shape[0] + _ROOM, np.uint8)
    state = gil_released()
    try:  # whatever happens, the GIL is taken back
        size = _encoded(data, tables_address, finder_address, out)[0]
    except Exception:
        size = 0
    gil_taken(state)
    if size == 0:
        return nothing_made()
    made = new_bytes(size)
    if was_made(made):
        storage(made, size)[:] = out[:size]
    return made


@njit(cache=True, nogil=True)
def _encoded(record, tables_address, finder_address, out):
    """``(size, payload, own)``: the single stream of ``record`` (not
    empty) written into ``out[:size]`` (of ``len(record) + _ROOM`` bytes):
    its one block coded as
    ``kernels.dictionary_records.parsed`` codes it with the dictionary's
    tables (``Dictionary.record_tables_address``), copies found by its
    content finder (``Dictionary.content_finder_address``, which has room
    for the record), or STORED where that is no smaller; its block's
    payload bytes (the record's where STORED); and the share of the record
    DICTIONARY_IDS_LZ copied from itself
    (``kernels.dictionary_records.own_share``)."""
    settings, ids_code, lz_code, ids_lz_code, head = _kernels.unpacked_tables(
        packed_at(tables_address))
    tries, c, depth = settings[0], settings[1], settings[2]
    window, chain_head, chain = unpacked_finder(packed_at(finder_address))
    n = len(record)
    for i in range(n):  # where the copy parses lay it anyway: no array of its own
        window[c + i] = record[i]
    data = window[c:c + n]
    coding, best, parses = _kernels.parsed(data, tries, ids_code,
                                           (window, c, chain_head, chain, depth), n, lz_code,
                                           ids_lz_code)
    at = head.shape[0]
    out[:at] = head
    number = STORED
    if best < n:
        number = (DICTIONARY_IDS if coding == _kernels.IDS else
                  DICTIONARY_LZ if coding == _kernels.LZ else DICTIONARY_IDS_LZ)
    at = put_single_block(out, at, number, n, best, data_check(data))
    own = _kernels.own_share(parses[2], n)
    if number == STORED:
        out[at:at + n] = data
        return at + n, n, own
    _kernels.write(out[at:at + best], coding, parses, ids_code, lz_code, ids_lz_code)
    return at + best, best, own


def stream(record, dictionary):
    """``(stream, payload, own)``: the single stream of ``record`` (bytes,
    not empty) naming ``dictionary``, its one block in the smallest of the
    dictionary's codings (``Dictionary.codings``), copies tried at any
    length, or STORED where that is no smaller, as ``compress_many``'s
    batch codes it; its block's payload bytes; and the share of the record
    DICTIONARY_IDS_LZ copied from itself."""
    n = len(record)
    out = b"\0" * (n + _ROOM)  # a new object (``_ROOM`` > 1), as ``fill`` needs
    size, payload, own = _ENCODE_STREAM(record, dictionary.record_tables_address,
                                        dictionary.content_finder_address(n), out)
    return out[:size], payload, own


def alone(record, dictionary):
    """``stream(record, dictionary)``'s stream alone, made by the kernel
    (no object to make, slice or unpack in Python: a fifth of a 64-byte
    record's call)."""
    made = _ENCODE_NEW(record, dictionary.record_tables_address,
                       dictionary.content_finder_address(len(record)))
    return made if made is not None else stream(record, dictionary)[0]


def _loading_encode_new(*arguments):
    """``_ENCODE_NEW`` until it is loaded: compiles ``_encode_new`` for its
    one signature (``_jit.direct``), then calls it."""
    global _ENCODE_NEW
    _ENCODE_NEW = direct(_encode_new, BYTES, 0, 0)
    return _ENCODE_NEW(*arguments)


_ENCODE_NEW = _loading_encode_new


def _loading_encode_stream(*arguments):
    """``_ENCODE_STREAM`` until it is loaded: compiles ``_encode_stream``
    for its one signature (``_jit.direct``), then calls it."""
    global _ENCODE_STREAM
    _ENCODE_STREAM = direct(_encode_stream, BYTES, 0, 0, BYTES)
    return _ENCODE_STREAM(*arguments)


_ENCODE_STREAM = _loading_encode_stream
