"""Records: what ``compress_many`` writes with a dictionary, read without
the general reader.  A record is a single stream (docs/FORMAT.md, section
3) naming the dictionary, of one block coded DICTIONARY_IDS, DICTIONARY_LZ,
DICTIONARY_IDS_LZ, LZ or STORED (the codings a record takes;
docs/DESIGN.md, "Dictionaries"), its layout read as ``decoder.layout``
reads it, an LZ or DICTIONARY_LZ block by its coding's ``decode_block``,
a DICTIONARY_IDS_LZ block by its kernel (``kernels.ids_lz``), which reads
the payload where it lies, and a DICTIONARY_IDS block by that coding's
record kernels (``kernels.dictionary``), which read padded payloads two
at a time.

``decode_streams`` reads many records in one kernel call, their layout
and data checks included, and another makes the list of their bytes, so
that a record costs no reader and no object made in Python;
one record is read through a kernel called without Numba's dispatch
(``_jit.direct``), its dictionary's tables handed over as their address,
which makes the bytes object it returns and decodes the record into it
(``_DECODE_NEW``; ``kernels.bytes_object.new_bytes``).  A record that
fails is decoded again into a scratch buffer, to say what is wrong; a
stream that is not such a record, and a block of another coding than
DICTIONARY_IDS that fails, are left to the general reader, which says
what is wrong.
"""
import threading

import numpy as np

from .. import _threads
from .._errors import OVER_LIMIT, GageBPEError
from .._jit import direct, njit
from ..kernels import dictionary as _kernels, ids_lz as _ids_lz
from ..plain.varint import varint_at
from ..kernels.packed import at as packed_at
from ..kernels.bytes_object import (BYTES, LIST, bytes_of, contents, dropped, gil_released,
                                    gil_taken, item, list_size, new_bytes, new_list,
                                    nothing_made, set_item, storage, was_made)
from ..kernels.unaligned import copy_bytes
from ..kernels.xxh64 import data_check
from ..format.codings import dictionary_lz as _coding_dictionary_lz, lz as _coding_lz
from ..format.codings.dictionary_records import joined
from ..format.dictionary import Dictionary
from ..format.codings.registry import (DICTIONARY_IDS, DICTIONARY_IDS_LZ, DICTIONARY_LZ, LZ,
                                      STORED)
from .layout import one_block as _one_block

# What a stream was found to be.
DECODED, NOT_A_RECORD, BAD_PAYLOAD, BAD_CHECK, PAST_LIMIT, TOO_BIG = range(6)
NO_LIMIT = 1 << 62
# A thread of ``decode_streams`` decodes at least this much output: less
# costs more in handing over than it saves.
THREAD_BYTES = 1 << 16
# One record per call decodes into its thread's scratch buffer of this
# many bytes (the record and its payload), a larger one into a buffer of
# its own: a kernel that returned a new array would spend more on handing
# it to Python than on decoding a small record.
SCRATCH_BYTES = 1 << 17
# A record of one call decodes holding the GIL up to this many bytes: below,
# letting it go and taking it back costs more than the decoding another
# thread could overlap (as hashlib holds it for small inputs).
HELD_BYTES = 1 << 12
_thread = threading.local()


@njit(cache=True, nogil=True)
def _layout(data, head):
    """``(coding, size, payload_at, data_check)`` if ``data`` is exactly a
    single stream beginning ``head`` of one block of a record's coding
    (``layout.one_block``); else size -1."""
    coding, size, payload_at, data_check = _one_block(data, head)
    if (coding != DICTIONARY_IDS and coding != LZ and coding != DICTIONARY_LZ
            and coding != DICTIONARY_IDS_LZ and coding != STORED):
        return coding, -1, 0, 0
    return coding, size, payload_at, data_check


@njit(cache=True, nogil=True)
def _decode_block(coding, padded, first, last, out, pos, size, decoder, check):
    """``found`` of the payload ``padded[first:last]`` (which has
    ``kernels.dictionary.PADDING`` bytes after it) of a block in ``coding``
    decoded into ``out[pos:pos + size]`` with ``decoder``'s dictionary
    (``_found``)."""
    if coding == DICTIONARY_IDS:
        _, table, phrases = _kernels.unpacked(decoder)
        ok = _kernels.decode_record(padded, first, last, out, pos, size, table, phrases)
    elif coding == STORED:
        ok = last - first == size
        if ok:
            copy_bytes(out, pos, padded, first, size)
    elif coding == LZ:
        ok = _coding_lz.decode_block(padded[first:last], size, out[pos:pos + size], coding) == 0
    elif coding == DICTIONARY_LZ:
        ok = _coding_dictionary_lz.decode_block(padded[first:last], size, out[pos:pos + size],
                                                coding, decoder) == 0
    else:
        table, distance_table, phrases, content = _kernels.ids_lz_unpacked(decoder)
        ok = table.shape[0] > 0 and _ids_lz.decode(padded, first, last, out, pos, size, table,
                                                    distance_table, phrases, content)
    return _found(coding, ok, out, pos, size, check)


@njit(cache=True, nogil=True, inline='always')
def _found(coding, ok, out, pos, size, check):
    """What a block decoded into ``out[pos:pos + size]`` was found, ``ok``
    if it decoded to exactly that many bytes: DECODED where its bytes also
    pass their data ``check``; else, for a DICTIONARY_IDS block,
    BAD_PAYLOAD or BAD_CHECK, and for another NOT_A_RECORD (the general
    reader names its fault)."""
    if ok and data_check(out[pos:pos + size]) == check:
        return DECODED
    if coding != DICTIONARY_IDS:
        return NOT_A_RECORD
    return BAD_CHECK if ok else BAD_PAYLOAD


@njit(cache=True, nogil=True)
def _layouts(data, starts, decoder):
    """``(codings, found, payload_at, checks, out_starts)`` of the streams
    ``data[starts[i]:starts[i + 1]]``: records of ``decoder``'s dictionary
    are found DECODED (not yet so: ``_decode_some`` decodes them), with
    their codings, where their payloads start, their data checks and where
    their bytes go, end to end; the others NOT_A_RECORD."""
    head = _kernels.unpacked(decoder)[0]
    n = starts.shape[0] - 1
    codings = np.zeros(n, np.int64)
    found = np.full(n, NOT_A_RECORD, np.int64)
    payload_at = np.zeros(n, np.int64)
    checks = np.zeros(n, np.int64)
    out_starts = np.zeros(n + 1, np.int64)
    for i in range(n):
        coding, size, at, check = _layout(data[starts[i]:starts[i + 1]], head)
        if size > 0:
            codings[i], found[i] = coding, DECODED
            payload_at[i], checks[i] = starts[i] + at, check
        else:
            size = 0
        out_starts[i + 1] = out_starts[i] + size
    return codings, found, payload_at, checks, out_starts


@njit(cache=True, nogil=True)
def _decode_some(buffer, starts, first, last, codings, found, payload_at, checks, out,
                 out_starts, decoder):
    """Decode streams ``first`` to ``last - 1`` of ``_layouts`` into their
    places in ``out`` (``buffer`` is the streams' bytes padded), marking
    those that fail as ``_found`` says; DICTIONARY_IDS records two at a
    time (``kernels.dictionary.decode_two``).  Calls on disjoint ranges
    write disjoint bytes, so threads may share ``out`` and ``found``."""
    _, table, phrases = _kernels.unpacked(decoder)
    pair, firsts, lasts = np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2, np.int64)
    places, sizes = np.zeros(2, np.int64), np.zeros(2, np.int64)
    waiting = 0
    for i in range(first, last):
        if found[i] != DECODED:
            continue
        pos, end = out_starts[i], out_starts[i + 1]
        if codings[i] != DICTIONARY_IDS:
            found[i] = _decode_block(codings[i], buffer, payload_at[i], starts[i + 1], out,
                                     pos, end - pos, decoder, checks[i])
            continue
        pair[waiting], firsts[waiting], lasts[waiting] = i, payload_at[i], starts[i + 1]
        places[waiting], sizes[waiting] = pos, end - pos
        waiting += 1
        if waiting == 2:
            oks = _kernels.decode_two(buffer, firsts, lasts, places, sizes, out, table, phrases)
            for k in range(2):
                found[pair[k]] = _found(DICTIONARY_IDS, oks[k], out, places[k], sizes[k],
                                        checks[pair[k]])
            waiting = 0
    if waiting:
        found[pair[0]] = _decode_block(DICTIONARY_IDS, buffer, firsts[0], lasts[0], out,
                                       places[0], sizes[0], decoder, checks[pair[0]])


@njit(cache=True, nogil=True)
def _decode_into(data, decoder, limit, scratch):
    """The size of the one stream ``data`` (bytes or a uint8 array), a
    record decoded into ``scratch[:size]`` with ``decoder``'s dictionary,
    or minus what it was found: NOT_A_RECORD, BAD_PAYLOAD, BAD_CHECK,
    PAST_LIMIT (more than ``limit`` bytes: nothing is decoded) or TOO_BIG
    (it does not fit ``scratch`` with its payload, which is copied, padded,
    to the end of ``scratch`` first, so that a record allocates nothing)."""
    head = _kernels.unpacked(decoder)[0]
    coding, size, at, check = _layout(data, head)
    if size <= 0:
        return -NOT_A_RECORD
    if size > limit:
        return -PAST_LIMIT
    n = len(data) - at
    room = scratch.shape[0] - n - _kernels.PADDING
    if size > room:
        return -TOO_BIG
    for i in range(n):
        scratch[room + i] = data[at + i]
    scratch[room + n:] = 0
    found = _decode_block(coding, scratch, room, room + n, scratch, 0, size, decoder, check)
    return size if found == DECODED else -found


@njit(cache=True)
def _decode_new(data, decoder_address, limit):
    """The bytes of the one stream ``data`` (BYTES) if it is a record of
    at most ``limit`` bytes of the dictionary whose ``decoder_address`` is
    given, decoded into a bytes object made here; else None
    (``decode_record`` says what is wrong).  Called holding the GIL, to
    make the object; it lets it go while it decodes a record larger than
    HELD_BYTES."""
    decoder = packed_at(decoder_address)
    payload = contents(data)
    coding, size, at, check = _layout(payload, _kernels.unpacked(decoder)[0])
    if size <= 0 or size > limit:
        return nothing_made()
    made = new_bytes(size)
    if not was_made(made):
        return made
    output = storage(made, size)
    if size <= HELD_BYTES:
        found = _decode_one(coding, payload, at, output, size, decoder, check)
    else:
        state = gil_released()
        try:  # whatever happens, the GIL is taken back
            found = _decode_one(coding, payload, at, output, size, decoder, check)
        except Exception:  # (out of memory) the general reader says what
            found = NOT_A_RECORD
        gil_taken(state)
    return made if found == DECODED else dropped(made)


@njit(cache=True, nogil=True)
def _decode_one(coding, payload, at, output, size, decoder, check):
    """``_found`` of the record whose payload begins at ``payload[at]``
    and runs to its end, decoded into ``output[:size]``."""
    if coding != DICTIONARY_IDS:  # their kernels pad the payload themselves
        return _decode_block(coding, payload, at, payload.shape[0], output, 0, size, decoder,
                             check)
    _, table, phrases = _kernels.unpacked(decoder)
    return _found(coding, _kernels.decode_unpadded(payload, at, output, table, phrases),
                  output, 0, size, check)


def _load():
    """``_decode_into`` and ``_decode_new`` for one record
    (``_jit.direct``), loaded once."""
    global _DECODE_INTO, _DECODE_NEW
    _DECODE_INTO = direct(_decode_into, b"", np.zeros(1, np.int64), NO_LIMIT,
                          np.zeros(1, np.uint8))
    _DECODE_NEW = direct(_decode_new, BYTES, 0, NO_LIMIT)


def _loading_joined(blobs):
    """``_JOINED`` until it is loaded: compiles ``_joined`` for a list
    handed over as it is (``_jit.direct``: Numba's own typing would read
    every item), then calls it."""
    global _JOINED
    _JOINED = direct(_joined, LIST) if LIST is not None else _joined
    return _JOINED(blobs)


_JOINED = _loading_joined


def _loading_decode_new(blob, decoder_address, limit):
    """``_DECODE_NEW`` until it is loaded: loads it, then calls it."""
    _load()
    return _DECODE_NEW(blob, decoder_address, limit)


_DECODE_INTO, _DECODE_NEW = None, _loading_decode_new


def decode_record(blob, dictionary, limit):
    """The bytes of ``blob`` if it is a record of ``dictionary``, else None;
    None too, before anything is done, where ``blob`` is not bytes,
    ``dictionary`` is not a ``Dictionary`` or ``limit`` (None for none) is
    not a valid limit: the general reader then takes them, and says what
    is wrong.  ``GageBPEError`` for a record that fails its decoding or its
    check, or whose output would pass ``limit``; such a record is decoded
    again into the thread's scratch buffer, to find what is wrong."""
    limit = _checked_limit(blob, dictionary, limit)
    if limit is None:
        return None
    if (out := _DECODE_NEW(blob, dictionary.decoder_address, limit)) is not None:
        return out
    try:
        scratch, view = _thread.scratch
    except AttributeError:
        scratch = np.empty(SCRATCH_BYTES, np.uint8)
        scratch, view = _thread.scratch = scratch, memoryview(scratch)
    size = _DECODE_INTO(blob, dictionary.decoder, limit, scratch)
    if size > 0:  # a record is never empty
        return view[:size].tobytes()
    if size == -TOO_BIG:
        size = varint_at(blob, len(dictionary.head) + 1)[0]
        scratch = np.empty(size + len(blob) + _kernels.PADDING, np.uint8)
        size = _DECODE_INTO(blob, dictionary.decoder, limit, scratch)
        if size > 0:
            return scratch[:size].tobytes()
    if size == -NOT_A_RECORD:
        return None
    _raise(-size, dictionary)


def _checked_limit(blob, dictionary, limit):
    """``decode_record``'s ``limit`` as its kernel takes it, or None where
    the general reader is to take the call; the kernel loaded."""
    if type(blob) is not bytes or type(dictionary) is not Dictionary:
        return None
    if _DECODE_INTO is None:
        _load()
    if limit is None:
        return NO_LIMIT
    if type(limit) is not int or limit < 0:
        return None
    return min(limit, NO_LIMIT)


def _raise(found, dictionary):
    if found == PAST_LIMIT:
        raise GageBPEError(OVER_LIMIT)
    if found == BAD_PAYLOAD:
        raise GageBPEError("DICTIONARY_IDS block does not decode to its size with "
                           f"dictionary {dictionary.id:#010x}")
    if found == BAD_CHECK:
        raise GageBPEError("block check failed: data corrupt")


def decode_streams(blobs, dictionary, limit, threads=1):
    """``(out, others, size)``: for each of ``blobs`` (bytes-like), its
    decompressed bytes if it is a record of ``dictionary``, else its index
    in ``others`` (its place in ``out`` is the caller's to fill); ``size``
    is the bytes decoded in all.
    ``GageBPEError`` for a DICTIONARY_IDS record that fails its decoding or
    its check, or if the records' output would pass ``limit`` bytes in
    all.  Up to ``threads`` threads decode, each at least THREAD_BYTES of
    output."""
    buffer, starts = _JOINED(blobs)
    if not len(starts):  # not all bytes
        data, starts = joined(blobs)
        if starts[-1] != len(data):  # buffers of wider items: their bytes, not their items
            data, starts = joined(list(map(bytes, blobs)))
        buffer = _kernels.padded(data)
    decoder = dictionary.decoder
    codings, found, payload_at, checks, out_starts = _layouts(buffer[:starts[-1]], starts,
                                                              decoder)
    if out_starts[-1] > limit:
        raise GageBPEError(OVER_LIMIT)
    out = np.empty(out_starts[-1], np.uint8)
    state = (codings, found, payload_at, checks, out, out_starts, decoder)

    def decode(first, last):
        _decode_some(buffer, starts, first, last, *state)

    parts = max(1, min(threads, int(out_starts[-1]) // THREAD_BYTES))
    if parts == 1:
        decode(0, len(blobs))
    else:  # cut where the output crosses each part's share, so parts cost alike
        shares = out_starts[-1] * np.arange(1, parts) // parts
        cuts = [0, *np.searchsorted(out_starts, shares).tolist(), len(blobs)]
        list(_threads.pool(parts).map(decode, cuts[:-1], cuts[1:]))
    if (found >= BAD_PAYLOAD).any():
        _raise(BAD_PAYLOAD if (found == BAD_PAYLOAD).any() else BAD_CHECK, dictionary)
    decoded = found == DECODED
    outputs = _outputs(out, out_starts)
    if outputs is None:
        raise MemoryError("no memory for the records' bytes")
    return (outputs, np.flatnonzero(~decoded).tolist(),
            int(np.diff(out_starts)[decoded].sum()))


@njit(cache=True)
def _joined(blobs):
    """``(buffer, starts)``: the list ``blobs`` end to end, padded as
    ``kernels.dictionary.padded`` pads, and where each starts; ``starts``
    empty where one is not bytes.  (In Python, the records' lengths and
    their join cost a 64-byte record a tenth of its time.)  It holds the
    GIL, to read the list."""
    n = list_size(blobs)
    starts = np.zeros(n + 1, np.int64)
    for i in range(n):
        size = contents(item(blobs, i)).shape[0]
        if size < 0:
            return np.zeros(0, np.uint8), np.zeros(0, np.int64)
        starts[i + 1] = starts[i] + size
    buffer = np.empty(starts[n] + _kernels.PADDING, np.uint8)
    for i in range(n):
        copy_bytes(buffer, starts[i], contents(item(blobs, i)), 0, starts[i + 1] - starts[i])
    buffer[starts[n]:] = 0
    return buffer, starts


@njit(cache=True)
def _outputs(out, out_starts):
    """``out[out_starts[i]:out_starts[i + 1]]`` for each i, as a list of
    bytes objects made here (in Python, slicing one bytes object of
    ``out`` cost a 256-byte record a sixth of its time); None where there
    is no memory for them.  It holds the GIL, to make them."""
    n = out_starts.shape[0] - 1
    made = new_list(n)
    if not was_made(made):
        return made
    for i in range(n):
        item = bytes_of(out[out_starts[i]:out_starts[i + 1]])
        if not was_made(item):
            return dropped(made)
        set_item(made, i, item)
    return made
