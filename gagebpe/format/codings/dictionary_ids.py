"""The DICTIONARY_IDS block coding (docs/FORMAT.md, section 4.15): the
block as ids of its stream's dictionary's grammar, each in the
dictionary's code; nothing else is sent.

    payload = codes of the ids, MSB-first, then zero padding to a byte

Records are coded and decoded many to a kernel call (``encode_many``,
``decode_many``): one record alone is the batch of one.  Whole streams of
records are read by ``decoder.records``.
"""
import numpy as np

from ..._errors import GageBPEError
from ...kernels import dictionary as _kernels
from .registry import DICTIONARY_IDS


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
    bad = _kernels.decode_records(data, payload_starts, np.asarray(sizes, np.int64),
                                  dictionary.decoder, out, starts)
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
