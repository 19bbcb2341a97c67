"""Filters: reversible byte transforms that expose fixed-stride structure
to the merge engine, and how a block's filter is chosen.

Records of a fixed length (spreadsheet cells, image rows, tables of
numbers) repeat byte for byte at one distance, the record length, but
their neighbouring bytes differ, so adjacent pairs see little of it.  A
filter with lag L rewrites byte i as its difference (DELTA: ``x[i] -
x[i-L]`` mod 256) or its exclusive or (XOR) with byte i - L; equal bytes at
that distance become zeros, which the merges then collapse.  The first L
bytes are kept as they are.  Undoing a filter is one sequential pass.

Choosing: the lag is the distance, up to MAX_LAG, at which a sample of the
block most often repeats a byte (the shortest of those about as good); a
filter is considered only where that share is high and well above what the
byte frequencies alone would give (``plain.lags``, which decides it in
integers for this module and the plain path alike).
"""
import numpy as np

from .._jit import njit
from .unaligned import load8, store8
from ..plain import lags

DELTA, XOR = 1, 2
FILTERS = (DELTA, XOR)
MAX_LAG = lags.MAX_LAG
# The sample: SAMPLE_SLICES slices of SAMPLE_SLICE bytes spread over the block.
SAMPLE_SLICES = 4
SAMPLE_SLICE = 1 << 14


LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
HIGH = np.uint64(0x8080808080808080)
ONES = np.uint64(0x0101010101010101)


@njit(cache=True, nogil=True, inline='always')
def _zero_bytes(x):
    """How many of the eight bytes of ``x`` are zero (exactly: no borrow
    crosses from one byte into the next)."""
    high = ~(((x & LOW7) + LOW7) | x | LOW7)  # high bit of each zero byte
    return np.int64(((high >> np.uint64(7)) * ONES) >> np.uint64(56))


@njit(cache=True, nogil=True)
def repeat_counts(sample, max_lag):
    """``counts[L]``: how many bytes of ``sample`` (uint8) equal the byte L
    before them, for L in 1..max_lag (``counts[0]`` is 0); eight bytes
    compared at a time."""
    counts = np.zeros(max_lag + 1, np.int64)
    n = len(sample)
    for lag in range(1, min(max_lag, n - 1) + 1):
        c = 0
        i = lag
        while i + 8 <= n:
            at = np.uint64(i)
            c += _zero_bytes(load8(sample, at) ^ load8(sample, at - np.uint64(lag)))
            i += 8
        while i < n:
            c += sample[i] == sample[i - lag]
            i += 1
        counts[lag] = c
    return counts


@njit(cache=True, nogil=True, inline='always')
def _undo8(kind, y, x):
    """Eight bytes ``y`` unfiltered against the eight ``x`` one lag before:
    DELTA adds bytewise, without carries between bytes."""
    if kind == DELTA:
        return ((y & LOW7) + (x & LOW7)) ^ ((y ^ x) & HIGH)
    return y ^ x


@njit(cache=True, nogil=True)
def unfilter(out, kind, lag):
    """Undo filter ``kind`` with ``lag`` in place, front to back, eight
    bytes at a time where the lag allows (a byte depends only on the byte
    one lag before).  An 8-byte load must read what one earlier store
    wrote, or lie well behind the recent stores, for the processor to
    forward it instead of waiting: so a lag that is a multiple of 8 or at
    least 64 streams, and a shorter one covers each record with 8-byte
    windows at the same offsets in every record (the last overlapping the
    one before), all loaded before any is stored."""
    n = len(out)
    done = lag
    if lag % 8 == 0 or lag >= 64:
        for start in range(lag, n - 7, 8):
            at = np.uint64(start)
            store8(out, at, _undo8(kind, load8(out, at), load8(out, at - np.uint64(lag))))
            done = start + 8
    elif lag > 8:
        windows = (lag + 7) // 8
        offsets = np.empty(windows, np.uint64)
        for w in range(windows):
            offsets[w] = min(8 * w, lag - 8)
        ys = np.empty(windows, np.uint64)
        step = np.uint64(lag)
        for start in range(lag, n - lag + 1, lag):
            at = np.uint64(start)
            for w in range(windows):
                ys[w] = load8(out, at + offsets[w])
            for w in range(windows):
                store8(out, at + offsets[w],
                       _undo8(kind, ys[w], load8(out, at - step + offsets[w])))
            done = start + lag
    for i in range(done, n):
        if kind == DELTA:
            out[i] = (out[i] + out[i - lag]) & 255
        else:
            out[i] = out[i] ^ out[i - lag]


def apply(data, kind, lag):
    """The bytes of ``data`` (bytes-like) through filter ``kind`` with ``lag``."""
    a = np.frombuffer(data, np.uint8)
    out = a.copy()
    if kind == DELTA:
        out[lag:] = a[lag:] - a[:-lag]
    else:
        out[lag:] = a[lag:] ^ a[:-lag]
    return out.tobytes()


def sample(data, slices=SAMPLE_SLICES, size=SAMPLE_SLICE):
    """``slices`` slices of ``size`` bytes spread evenly over ``data``, or
    all of it where it is no longer."""
    if len(data) <= slices * size:
        return bytes(data)
    step = len(data) // slices
    return b"".join(data[i * step:i * step + size] for i in range(slices))


# The plain path's rule, compiled: the same integer arithmetic, which fits
# in 64 bits for samples of up to a million bytes.
choose = njit(cache=True, nogil=True)(lags.choose)


def best_lag(data):
    """The lag worth filtering ``data`` with, or 0 where none qualifies
    (``plain.lags``: its sample's repeat counts, by this kernel)."""
    data = sample(data)
    return lags.best_lag(data, counts, histogram(data), choose)


def histogram(data):
    """The byte counts of ``data`` (bytes-like) as a list."""
    return np.bincount(np.frombuffer(data, np.uint8), minlength=256).tolist()


def counts(data, max_lag):
    """``repeat_counts`` of ``data`` (bytes-like), by the kernel."""
    return repeat_counts(np.frombuffer(data, np.uint8), max_lag)
