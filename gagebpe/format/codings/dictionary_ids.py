"""The DICTIONARY_IDS block coding (docs/FORMAT.md, section 4.15): the
block as ids of its stream's dictionary's grammar, each in the
dictionary's code; nothing else is sent.

    payload = codes of the ids, MSB-first, then zero padding to a byte

Records are coded and decoded many to a kernel call (``encode_many``,
``decode_many``): one record alone is the batch of one.

``decode_streams`` reads whole streams of one such block (what
``compress_many`` writes for a record) in that one call, their layout
included, so that a record costs no reader in Python.

Imports ``_threads``, ``_errors``, ``_jit``, ``format.container`` (the
single layout and its varints, compiled), ``format.dictionary``,
``format.registry`` and the kernels ``kernels.dictionary`` and
``kernels.coded_sequence``.
"""
import numpy as np

from ... import _threads
from ..._errors import OVER_LIMIT, GageBPEError
from ..._jit import njit
from ...kernels import dictionary as _kernels
from ...kernels.coded_sequence import u32
from ..container import MAX_BLOCK_SIZE, varint_at
from ..dictionary import Dictionary
from ..registry import DICTIONARY_IDS

_varint = njit(cache=True, nogil=True)(varint_at)
# What ``decode_streams`` found of each stream.
DECODED, NOT_A_RECORD, BAD_PAYLOAD, BAD_CHECK = range(4)
# A thread of ``decode_streams`` decodes at least this much output: less
# costs more in handing over than it saves.
THREAD_BYTES = 1 << 16


def joined(records):
    """``(data, starts)``: the records end to end, and where each starts."""
    starts = np.zeros(len(records) + 1, np.int64)
    np.cumsum(np.fromiter(map(len, records), np.int64, len(records)), out=starts[1:])
    data = np.frombuffer(b"".join(records), np.uint8)
    return data, starts


def encode_many(records, dictionary):
    """``(payloads, checks)``: each record's payload and data check."""
    data, starts = joined(records)
    payloads, payload_starts, checks = _kernels.encode_records(data, starts,
                                                               *dictionary.encoding())
    payloads = payloads.tobytes()
    return ([payloads[payload_starts[i]:payload_starts[i + 1]] for i in range(len(records))],
            checks.tolist())


def encode(data, dictionary):
    """The payload of one block of ``data``."""
    return encode_many([bytes(data)], dictionary)[0][0]


def decode_many(payloads, sizes, dictionary):
    """``(out, starts)``: the records of ``payloads``, of ``sizes`` bytes
    each, decoded end to end into the uint8 array ``out``; record i is
    ``out[starts[i]:starts[i + 1]]``.  ``GageBPEError`` for the first that
    does not decode to exactly its size."""
    data, payload_starts = joined(payloads)
    starts = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=starts[1:])
    out = np.empty(int(starts[-1]), np.uint8)
    table, phrases = dictionary.decoding()
    bad = _kernels.decode_records(data, payload_starts, np.asarray(sizes, np.int64), table,
                                  phrases, out, starts)
    if bad >= 0:
        raise GageBPEError("DICTIONARY_IDS block does not decode to its size with "
                           f"dictionary {dictionary.id:#010x}")
    return out, starts


def decode(payload, size, out, dictionary):
    """The block's bytes into ``out`` (``size`` bytes)."""
    decoded, _ = decode_many([bytes(payload)], [size], dictionary)
    out[:] = decoded
    return out


DECODERS = {DICTIONARY_IDS: decode}


@njit(cache=True, nogil=True)
def _layout(data, head):
    """``(size, payload_at, data_check)`` if ``data`` is exactly a single
    stream beginning ``head`` of one DICTIONARY_IDS block, the layout
    checked as the general reader checks it; else size -1."""
    h = head.shape[0]
    n = data.shape[0]
    if n < h + 7:
        return -1, 0, 0
    for i in range(h):
        if data[i] != head[i]:
            return -1, 0, 0
    if data[h] != DICTIONARY_IDS:
        return -1, 0, 0
    size, at = _varint(data, h + 1)
    if not 0 < size <= MAX_BLOCK_SIZE:
        return -1, 0, 0
    payload_size, at = _varint(data, at)
    if payload_size < 0 or payload_size > size or n != at + 4 + payload_size:
        return -1, 0, 0
    return size, at + 4, u32(data, at)


@njit(cache=True, nogil=True)
def _layouts(data, starts, head):
    """``(found, payload_at, checks, out_starts)`` of the streams
    ``data[starts[i]:starts[i + 1]]``: those that are each one
    DICTIONARY_IDS block of the dictionary ``head`` names are found
    DECODED (not yet so: ``_decode_some`` decodes them), with where their
    payloads start, their data checks and where their bytes go, end to
    end; the others NOT_A_RECORD, left to the general reader."""
    n = starts.shape[0] - 1
    found = np.full(n, NOT_A_RECORD, np.int64)
    payload_at = np.zeros(n, np.int64)
    checks = np.zeros(n, np.int64)
    out_starts = np.zeros(n + 1, np.int64)
    for i in range(n):
        size, at, check = _layout(data[starts[i]:starts[i + 1]], head)
        if size > 0:
            found[i], payload_at[i], checks[i] = DECODED, starts[i] + at, check
        else:
            size = 0
        out_starts[i + 1] = out_starts[i] + size
    return found, payload_at, checks, out_starts


@njit(cache=True, nogil=True)
def _decode_some(buffer, starts, first, last, found, payload_at, checks, out, out_starts, table,
                 phrases):
    """Decode streams ``first`` to ``last - 1`` of ``_layouts`` into their
    places in ``out`` (``buffer`` is the streams' bytes padded), marking
    those that fail BAD_PAYLOAD or BAD_CHECK.  Calls on disjoint ranges
    write disjoint bytes, so threads may share ``out`` and ``found``."""
    for i in range(first, last):
        if found[i] != DECODED:
            continue
        if not _kernels.decode_record(buffer, payload_at[i], starts[i + 1], out, out_starts[i],
                                      out_starts[i + 1] - out_starts[i], table, phrases):
            found[i] = BAD_PAYLOAD
        elif _kernels.check(out[out_starts[i]:out_starts[i + 1]]) != checks[i]:
            found[i] = BAD_CHECK


@njit(cache=True, nogil=True)
def _decode_stream(data, head, table, phrases, limit):
    """``_decode_streams`` of the one stream ``data``, with no more
    allocations than its output and its padded payload: ``(out,
    found)``; out is empty past ``limit``."""
    size, at, check = _layout(data, head)
    if size <= 0:
        return data[:0], NOT_A_RECORD
    if size > limit:
        return data[:0], DECODED
    out = np.empty(size, np.uint8)
    buffer = _kernels.padded(data[at:])
    if not _kernels.decode_record(buffer, 0, data.shape[0] - at, out, 0, size, table, phrases):
        return out, BAD_PAYLOAD
    return out, (DECODED if _kernels.check(out) == check else BAD_CHECK)


def decode_stream(blob, dictionary, limit):
    """``decode_streams`` of the one stream ``blob``: its bytes, or None."""
    table, phrases = dictionary.decoding()
    out, found = _decode_stream(np.frombuffer(blob, np.uint8), dictionary.head, table, phrases,
                                min(limit, 1 << 62))
    if found == DECODED:
        if not len(out):
            raise GageBPEError(OVER_LIMIT)
        return out.tobytes()
    _raise(found, dictionary)
    return None


def decode_record(blob, dictionary, limit):
    """``decode_stream``, or None before anything is done where
    ``dictionary`` is not a ``Dictionary`` or ``limit`` is not a valid limit
    (the general reader then takes them, and says what is wrong)."""
    if type(dictionary) is not Dictionary:
        return None
    if limit is None:
        limit = 1 << 62
    elif type(limit) is not int or limit < 0:
        return None
    return decode_stream(blob, dictionary, limit)


def _raise(found, dictionary):
    if found == BAD_PAYLOAD:
        raise GageBPEError("DICTIONARY_IDS block does not decode to its size with "
                           f"dictionary {dictionary.id:#010x}")
    if found == BAD_CHECK:
        raise GageBPEError("block check failed: data corrupt")


def decode_streams(blobs, dictionary, limit, threads=1):
    """For each of ``blobs`` (bytes): its decompressed bytes if it is a
    single stream of one DICTIONARY_IDS block naming ``dictionary``, else
    None.  ``GageBPEError`` for such a stream that fails its decoding or
    its check, or if their output would pass ``limit`` bytes in all.  Up
    to ``threads`` threads decode, each at least THREAD_BYTES of output."""
    data, starts = joined(blobs)
    found, payload_at, checks, out_starts = _layouts(data, starts, dictionary.head)
    if out_starts[-1] > limit:
        raise GageBPEError(OVER_LIMIT)
    out = np.empty(out_starts[-1], np.uint8)
    buffer = _kernels.padded(data)
    state = (found, payload_at, checks, out, out_starts, *dictionary.decoding())

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
    buffer = out.tobytes()
    return [buffer[a:b] if f == DECODED else None
            for f, a, b in zip(found.tolist(), out_starts.tolist(), out_starts[1:].tolist())]
