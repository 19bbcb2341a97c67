"""Context mixing: the kernel of the MIXED coding (docs/FORMAT.md, section
4.12), for blocks too small for a grammar's or an LZ coding's tables to pay.

Each bit of the block is coded by a binary arithmetic coder with the
probability a model gives it.  The model predicts from what followed the
last 0, 1, 2 and 3 bytes before it (with the bits of the current byte
so far), each context's prediction learnt from its own history, and mixes
the four by weights that are themselves learnt as the block goes.  Nothing
is sent but the coded bits: the model starts knowing nothing and learns as
fast as the data arrives, which is what a block of a few hundred bytes
needs, and costs about 100 ns a byte each way, which only such a block can
afford.

Every number here is an integer so that encoder and decoder, on any
machine, make the same predictions: the format specifies them exactly.
One kernel runs both ways (``run``), so they cannot drift apart.

Imports ``_jit``.
"""
import numpy as np

from ._jit import njit

ORDERS = 4  # contexts of the last 0, 1, 2 and 3 bytes
HASHED = ORDERS - 1  # the orders 1-3 share a hashed table each
INPUTS = ORDERS + 1  # one more input: the bias
BIAS = 64
# A context's probability (16 bits) moves towards each bit it sees by
# 1 / (n + 1/2) after its n-th, n capped at LIMIT: fast at first, then
# averaging over the last few dozen.
LIMIT = 30
RATE = np.array([0] + [131072 // (2 * n + 1) for n in range(1, LIMIT + 1)], np.int64)
# Mixing weights (16 fractional bits) start at 0.3 and learn at LEARNING / 2^16.
WEIGHT_START = 19661
LEARNING = 82
# Hashed tables hold 2^(bit_length(size) + SLOT_BITS_EXTRA) slots, at
# least 2^MIN_SLOT_BITS: 32 to 64 for each byte of the block, against the
# 8 each order touches, so few collide.  A MIXED block holds at most
# MAX_SIZE bytes: its decoding, at about 3 MB/s, is bounded to a few tens
# of milliseconds, and its tables (MAX_SLOT_BITS) to 38 MB.
SLOT_BITS_EXTRA = 5
MIN_SLOT_BITS = 10
MAX_SIZE = 1 << 16
MAX_SLOT_BITS = 22  # slot_bits(MAX_SIZE)
CONTEXT_HASH = 0x9E3779B1
BIT_HASH = 0x6F4F2A35
MASK32 = 0xFFFFFFFF
TOP = 0xFF000000

PROBLEMS = (None, "MIXED block's coded bits do not end where its payload does",
            f"MIXED block larger than {MAX_SIZE} bytes")


def _squash_points():
    """4096 / (1 + e^(-x/256)) at x = -2048, -1920, ..., 2048, rounded."""
    x = (np.arange(33) - 16) * 128
    return np.rint(4096 / (1 + np.exp(-x / 256))).astype(np.int64)


SQUASH_POINTS = _squash_points()


def _squash_all():
    """squash(d) for d = -2047 .. 2047: the logistic curve, interpolated
    between SQUASH_POINTS."""
    d = np.arange(-2047, 2048)
    w, i = d & 127, (d >> 7) + 16
    return (SQUASH_POINTS[i] * (128 - w) + SQUASH_POINTS[i + 1] * w + 64) >> 7


SQUASH = _squash_all()


def _stretch_all():
    """stretch(p) for p = 0 .. 4095: the least d with squash(d) >= p (2047
    where there is none), squash's inverse."""
    return np.minimum(np.searchsorted(SQUASH, np.arange(4096)), 4094).astype(np.int64) - 2047


STRETCH = _stretch_all()


@njit(cache=True, nogil=True)
def slot_bits(size):
    """log2 of the slots of each hashed table for a block of ``size`` bytes."""
    bits = 0
    while size >> bits:
        bits += 1
    return min(MAX_SLOT_BITS, max(MIN_SLOT_BITS, bits + SLOT_BITS_EXTRA))


@njit(cache=True, nogil=True)
def _model(bits):
    """A model that has seen nothing, with hashed tables of 2^``bits`` slots:
    ``(order-0 probabilities, their counts, hashed probabilities, their
    counts, weights, inputs, slots, context hashes)``."""
    inputs = np.zeros(INPUTS, np.int64)
    inputs[ORDERS] = BIAS
    return (np.full(256, 32768, np.int64), np.zeros(256, np.int64),
            np.full((HASHED, 1 << bits), 32768, np.uint16),
            np.zeros((HASHED, 1 << bits), np.uint8),
            np.full((ORDERS + 1, INPUTS), WEIGHT_START, np.int64), inputs,
            np.zeros(HASHED, np.int64), np.zeros(HASHED, np.int64))


@njit(inline="always")
def _next_byte(model, history):
    """Point the hashed contexts at the bytes ``history`` (the last 3, the
    latest lowest)."""
    hashes = model[7]
    for k in range(HASHED):
        context = (history & ((1 << (8 * k + 8)) - 1)) | ((k + 1) << 24)
        hashes[k] = (context * CONTEXT_HASH) & MASK32


@njit(inline="always")
def _predict(model, partial, shift):
    """``(p, known)``: the 12-bit probability that the next bit is 1, after
    the byte's bits ``partial`` (under a leading 1), and how many of the
    contexts have been seen (which weights mixed them)."""
    order0, seen0, probs, seen, weights, inputs, slots, hashes = model
    known = min(seen0[partial], 1)
    inputs[0] = STRETCH[order0[partial] >> 4] * known
    for k in range(HASHED):
        slot = ((hashes[k] + partial * BIT_HASH) & MASK32) >> shift
        slots[k] = slot
        was = min(np.int64(seen[k, slot]), 1)
        inputs[k + 1] = STRETCH[probs[k, slot] >> 4] * was
        known += was
    dot = 0
    for m in range(INPUTS):
        dot += weights[known, m] * inputs[m]
    d = min(max(dot >> 16, -2047), 2047)
    return min(max(SQUASH[d + 2047], 1), 4095), known


@njit(inline="always")
def _learn(model, partial, known, p, bit):
    """Teach the model that ``bit`` followed, where it predicted ``p``."""
    order0, seen0, probs, seen, weights, inputs, slots, hashes = model
    error = ((bit << 12) - p) * LEARNING
    for m in range(INPUTS):
        weights[known, m] += (inputs[m] * error) >> 16
    target = 65535 * bit
    n = min(seen0[partial] + 1, LIMIT)
    seen0[partial] = n
    order0[partial] += ((target - order0[partial]) * RATE[n]) >> 16
    for k in range(HASHED):
        slot = slots[k]
        n = min(np.int64(seen[k, slot]) + 1, LIMIT)
        seen[k, slot] = n
        old = np.int64(probs[k, slot])
        probs[k, slot] = old + (((target - old) * RATE[n]) >> 16)


@njit(inline="always")
def _take(model, partial, known, p, bit, low, high):
    """Narrow the coder's interval ``low .. high`` to ``bit``, which had
    probability ``p``, and teach the model: ``(low, high, partial)``."""
    middle = low + ((high - low) >> 12) * p
    if bit:
        high = middle
    else:
        low = middle + 1
    _learn(model, partial, known, p, bit)
    return low, high, (partial << 1) | bit


@njit(inline="always")
def _settled(low, high):
    """Whether the interval's top byte is settled, to be shifted out."""
    return ((low ^ high) & TOP) == 0


@njit(inline="always")
def _shifted(low, high):
    return (low << 8) & MASK32, ((high << 8) & MASK32) | 255


@njit(cache=True, nogil=True)
def encode(block, payload):
    """Code ``block`` into ``payload``; the payload's length, or -1 if it
    would not fit."""
    bits = slot_bits(block.shape[0])
    model, shift = _model(bits), 32 - bits
    low, high, at, history = 0, MASK32, 0, 0
    for i in range(block.shape[0]):
        _next_byte(model, history)
        byte = np.int64(block[i])
        partial = 1
        for j in range(8):
            p, known = _predict(model, partial, shift)
            low, high, partial = _take(model, partial, known, p, (byte >> (7 - j)) & 1,
                                       low, high)
            while _settled(low, high):
                if at >= payload.shape[0]:
                    return -1
                payload[at] = high >> 24
                at += 1
                low, high = _shifted(low, high)
        history = ((history << 8) | byte) & 0xFFFFFF
    if at >= payload.shape[0]:
        return -1
    payload[at] = low >> 24
    return at + 1


@njit(cache=True, nogil=True)
def decode(payload, block):
    """Decode ``payload`` into ``block`` (its length says how many bytes);
    0, or a PROBLEMS index.  Bytes past the payload read as 255."""
    if block.shape[0] > MAX_SIZE:
        return 2
    bits = slot_bits(block.shape[0])
    model, shift, n = _model(bits), 32 - bits, payload.shape[0]
    low, high, x, at, history = 0, MASK32, 0, 0, 0
    for _ in range(4):
        x = (x << 8) | (np.int64(payload[at]) if at < n else 255)
        at += 1
    for i in range(block.shape[0]):
        _next_byte(model, history)
        partial = 1
        for _ in range(8):
            p, known = _predict(model, partial, shift)
            bit = 1 if x <= low + ((high - low) >> 12) * p else 0
            low, high, partial = _take(model, partial, known, p, bit, low, high)
            while _settled(low, high):
                if at > n + 2:  # past where any payload's coded bits end
                    return 1
                x = ((x << 8) & MASK32) | (np.int64(payload[at]) if at < n else 255)
                at += 1
                low, high = _shifted(low, high)
        byte = partial & 255
        block[i] = byte
        history = ((history << 8) | byte) & 0xFFFFFF
    # The coder reads 4 bytes ahead: a payload ends with the byte that
    # settles the last interval, and nothing after it.
    last = at - 4
    if n != last + 1 or payload[last] != low >> 24:
        return 1
    return 0
