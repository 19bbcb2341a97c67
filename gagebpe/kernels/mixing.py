"""Context mixing: the kernel of the MIXED and MIXED_PRIMED codings
(docs/FORMAT.md, sections 4.12 and 4.13), for blocks too small for a
grammar's or an LZ coding's tables to pay.

Each bit of the block is coded by a binary arithmetic coder with the
probability a model gives it.  The model predicts from what followed the
last 0, 1, 2 and 3 bytes before it (with the bits of the current byte
so far), each context's prediction learnt from its own history, and from
a match model, which finds the last earlier occurrence of the 3 bytes
before and predicts that the bytes after it come again, as sure as that
prediction has proved at the match's length; it mixes the inputs by
weights that are themselves learnt as the block goes.  Nothing is sent
but the coded bits: the model starts knowing nothing and learns as fast
as the data arrives, which is what a block of a few hundred bytes needs,
and costs about 250 ns a byte each way, which only such a block can
afford.

MIXED_PRIMED's model has first learnt a fixed text (``primed``): a block
of a few dozen bytes of text then codes about a seventh smaller, since
the model no longer spends its first bits learning what every text
teaches.  The coding loops take the block after the text (``first``), the
model carrying on from where the text left it.

Every number here is an integer so that encoder and decoder, on any
machine, make the same predictions: the format specifies them exactly.
The encoder and decoder share every step of the model, so they cannot
drift apart.
"""
import numpy as np

from .._jit import jitable, njit
from ..plain import tables
from ..plain.tables import (BIAS, BIT_HASH, CONTEXT_HASH, HASHED, INPUTS, LEARNING, LIMIT, MASK32,
                            MATCH_START, MAX_MATCH, MAX_MATCH_BITS, MAX_SIZE, MAX_SLOT_BITS,
                            MIN_MATCH, MIN_SLOT_BITS, ORDERS, PRIMED_BITS, PRIMED_COUNT,
                            PRIMED_MATCH_BITS, PRIMED_MAX_SIZE,
                            SLOT_BITS_EXTRA, TOP, WEIGHT_START)
from .unaligned import copy_bytes

match_length = jitable(tables.match_length)

BIAS_AT, MATCH_AT = ORDERS, ORDERS + 1
RATE = np.array(tables.RATE, np.int64)
SQUASH = np.array(tables.SQUASH, np.int64)
STRETCH = np.array(tables.STRETCH, np.int64)


@njit(cache=True, nogil=True)
def slot_bits(size):
    """log2 of the slots of each hashed table for a block of ``size`` bytes."""
    bits = 0
    while size >> bits:
        bits += 1
    return min(MAX_SLOT_BITS, max(MIN_SLOT_BITS, bits + SLOT_BITS_EXTRA))


@njit(cache=True, nogil=True)
def match_bits(size):
    """log2 of the match model's slots for a block of ``size`` bytes."""
    bits = 1
    while size >> (bits - 1):
        bits += 1
    return min(MAX_MATCH_BITS, bits)


@njit(cache=True, nogil=True)
def _model(bits, mbits):
    """A model that has seen nothing, with hashed tables of 2^``bits`` slots:
    ``(order-0 probabilities, their counts, hashed probabilities, their
    counts, weights, inputs, slots, context hashes, match positions, match
    probabilities, their counts)``; the match table of 2^``mbits`` slots."""
    inputs = np.zeros(INPUTS, np.int64)
    inputs[BIAS_AT] = BIAS
    return (np.full(256, 32768, np.int64), np.zeros(256, np.int64),
            np.full((HASHED, 1 << bits), 32768, np.uint16),
            np.zeros((HASHED, 1 << bits), np.uint8),
            np.full((2 * (ORDERS + 1), INPUTS), WEIGHT_START, np.int64), inputs,
            np.zeros(HASHED, np.int64), np.zeros(HASHED, np.int64),
            np.zeros(1 << mbits, np.int32),
            np.full(MAX_MATCH + 1, MATCH_START, np.int64), np.zeros(MAX_MATCH + 1, np.int64))


@njit(inline="always")
def _next_byte(model, history):
    """Point the hashed contexts at the bytes ``history`` (the last 3, the
    latest lowest)."""
    hashes = model[7]
    for k in range(HASHED):
        context = (history & ((1 << (8 * k + 8)) - 1)) | ((k + 1) << 24)
        hashes[k] = (context * CONTEXT_HASH) & MASK32


@njit(inline="always")
def _next_match(model, block, i, history, at, length, shift):
    """The match for byte ``i`` of ``block``, whose bytes before it are
    known, after the match ``(at, length)`` for the byte before:
    ``(at, length)``, ``block[at]`` the byte it predicts, length 0 for none.
    A match that held goes on a byte; else the last earlier occurrence of
    the 3 bytes before (``history``) is one, if at least MIN_MATCH bytes
    before it agree.  Either way that occurrence becomes the last.  ``shift``:
    32 less log2 of the match table's slots."""
    last = model[8]
    if length:
        at += 1
        length = min(length + 1, MAX_MATCH)
    if i >= 3:
        h = ((history * CONTEXT_HASH) & MASK32) >> shift
        if length == 0 and last[h]:
            start = np.int64(last[h]) - 1
            k = match_length(block, start, i)
            if k >= MIN_MATCH:
                at, length = start, k
        last[h] = i + 1
    return at, length


@njit(inline="always")
def _match_input(model, length, expected):
    """The match model's input: its prediction that the next bit is
    ``expected``, as sure as matches of ``length`` have proved; 0 with no
    match."""
    if length == 0:
        return 0
    d = STRETCH[model[9][length] >> 4]
    return d if expected else -d


@njit(inline="always")
def _learn_match(model, length, expected, bit):
    """Teach the match model whether ``bit`` was the ``expected`` one: the
    match's length after (0 once it fails)."""
    if length == 0:
        return 0
    probs, seen = model[9], model[10]
    n = min(seen[length] + 1, LIMIT)
    seen[length] = n
    probs[length] += (((65535 if bit == expected else 0) - probs[length]) * RATE[n]) >> 16
    return length if bit == expected else 0


@njit(inline="always")
def _predict(model, partial, shift, match_input, matching):
    """``(p, mixer)``: the 12-bit probability that the next bit is 1, after
    the byte's bits ``partial`` (under a leading 1), and the weights that
    mixed it: chosen by how many of the contexts have been seen, and
    whether a match predicts (``matching``, 0 or 1)."""
    order0, seen0, probs, seen, weights, inputs, slots, hashes, _, _, _ = model
    known = min(seen0[partial], 1)
    inputs[0] = STRETCH[order0[partial] >> 4] * known
    for k in range(HASHED):
        slot = ((hashes[k] + partial * BIT_HASH) & MASK32) >> shift
        slots[k] = slot
        was = min(np.int64(seen[k, slot]), 1)
        inputs[k + 1] = STRETCH[probs[k, slot] >> 4] * was
        known += was
    inputs[MATCH_AT] = match_input
    mixer = known + (ORDERS + 1) * matching
    dot = 0
    for m in range(INPUTS):
        dot += weights[mixer, m] * inputs[m]
    d = min(max(dot >> 16, -2047), 2047)
    return min(max(SQUASH[d + 2047], 1), 4095), mixer


@njit(inline="always")
def _learn(model, partial, mixer, p, bit):
    """Teach the model that ``bit`` followed, where it predicted ``p``."""
    order0, seen0, probs, seen, weights, inputs, slots, hashes, _, _, _ = model
    error = ((bit << 12) - p) * LEARNING
    for m in range(INPUTS):
        weights[mixer, m] += (inputs[m] * error) >> 16
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
def _take(model, partial, mixer, p, bit, low, high):
    """Narrow the coder's interval ``low .. high`` to ``bit``, which had
    probability ``p``, and teach the model: ``(low, high, partial)``."""
    middle = low + ((high - low) >> 12) * p
    if bit:
        high = middle
    else:
        low = middle + 1
    _learn(model, partial, mixer, p, bit)
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
    """Code ``block`` into ``payload``: the payload's length, or -1 if it
    would not fit."""
    bits, mbits = slot_bits(block.shape[0]), match_bits(block.shape[0])
    return _encode(block, payload, _model(bits, mbits), 32 - bits, 32 - mbits, 0, 0, 0, 0)[0]


# The coding loops are leaves: the model is a tuple of arrays, and Numba
# counted a reference to each at every step that touched it.  Without that,
# a 2 KB block codes in about two thirds of the time (decoding 2.4 -> 3.6
# MB/s, encoding 2.8 -> 4.1, medians of 6 alternating runs).
@njit(cache=True, nogil=True, leaf=True)
def _encode(block, payload, model, shift, match_shift, first, history, ptr, length):
    """Code ``block[first:]``, the model having learnt ``block[:first]``
    (``history`` and the match ``(ptr, length)`` where it left off):
    ``(the payload's length or -1, history, ptr, length)``, the last three
    where the block leaves them."""
    low, high, at = 0, MASK32, 0
    for i in range(first, block.shape[0]):
        _next_byte(model, history)
        ptr, length = _next_match(model, block, i, history, ptr, length, match_shift)
        expected = np.int64(block[ptr]) if length else 0
        byte = np.int64(block[i])
        partial = 1
        for j in range(8):
            want = (expected >> (7 - j)) & 1
            p, mixer = _predict(model, partial, shift, _match_input(model, length, want),
                                min(length, 1))
            bit = (byte >> (7 - j)) & 1
            low, high, partial = _take(model, partial, mixer, p, bit, low, high)
            length = _learn_match(model, length, want, bit)
            while _settled(low, high):
                if at >= payload.shape[0]:
                    return -1, history, ptr, length
                payload[at] = high >> 24
                at += 1
                low, high = _shifted(low, high)
        history = ((history << 8) | byte) & 0xFFFFFF
    # The payload ends with the top byte of ``low``: read with 255s after
    # it, it lies in the last interval.
    if at >= payload.shape[0]:
        return -1, history, ptr, length
    payload[at] = low >> 24
    return at + 1, history, ptr, length


@njit(cache=True, nogil=True)
def decode(payload, block):
    """Decode ``payload`` into ``block`` (its length says how many bytes):
    ``(0, end)``, where the payload ended, or ``(a PROBLEMS index, 0)``.
    Bytes past ``payload`` read as 255; the payload must end exactly where
    the coded bits do."""
    if block.shape[0] > MAX_SIZE:
        return 2, 0
    bits, mbits = slot_bits(block.shape[0]), match_bits(block.shape[0])
    return _decode(payload, block, _model(bits, mbits), 32 - bits, 32 - mbits, 0, 0, 0, 0)


@njit(cache=True, nogil=True, leaf=True)
def _decode(payload, block, model, shift, match_shift, first, history, ptr, length):
    """Decode ``block[first:]``, the model having learnt ``block[:first]``."""
    n = payload.shape[0]
    low, high, x, at = 0, MASK32, 0, 0
    for _ in range(4):
        x = (x << 8) | (np.int64(payload[at]) if at < n else 255)
        at += 1
    for i in range(first, block.shape[0]):
        _next_byte(model, history)
        ptr, length = _next_match(model, block, i, history, ptr, length, match_shift)
        expected = np.int64(block[ptr]) if length else 0
        partial = 1
        for j in range(8):
            want = (expected >> (7 - j)) & 1
            p, mixer = _predict(model, partial, shift, _match_input(model, length, want),
                                min(length, 1))
            bit = 1 if x <= low + ((high - low) >> 12) * p else 0
            low, high, partial = _take(model, partial, mixer, p, bit, low, high)
            length = _learn_match(model, length, want, bit)
            while _settled(low, high):
                if at > n + 2:  # past where any payload's coded bits end
                    return 1, 0
                x = ((x << 8) & MASK32) | (np.int64(payload[at]) if at < n else 255)
                at += 1
                low, high = _shifted(low, high)
        byte = partial & 255
        block[i] = byte
        history = ((history << 8) | byte) & 0xFFFFFF
    # The coder reads 4 bytes ahead: a payload ends with the top byte of
    # ``low``, and nothing after it.
    end = at - 3
    if end != n or (x >> 24) != (low >> 24):
        return 1, 0
    return 0, end


@njit(cache=True, nogil=True)
def primed(text):
    """The MIXED_PRIMED coding's model after the priming ``text``, its
    counts capped at PRIMED_COUNT: ``(model, history, ptr, length)``, to be
    copied for each block (``encode_primed``, ``decode_primed``).  It
    learns the text by coding it, and throws the coded bits away."""
    model = _model(PRIMED_BITS, PRIMED_MATCH_BITS)
    scratch = np.empty(2 * text.shape[0] + 16, np.uint8)
    _, history, ptr, length = _encode(text, scratch, model, 32 - PRIMED_BITS,
                                      32 - PRIMED_MATCH_BITS, 0, 0, 0, 0)
    model[1][:] = np.minimum(model[1], PRIMED_COUNT)
    model[3][:] = np.minimum(model[3], PRIMED_COUNT)
    model[10][:] = np.minimum(model[10], PRIMED_COUNT)
    return model, history, ptr, length


@njit(inline="always")
def _copied(model):
    return (model[0].copy(), model[1].copy(), model[2].copy(), model[3].copy(),
            model[4].copy(), model[5].copy(), model[6].copy(), model[7].copy(),
            model[8].copy(), model[9].copy(), model[10].copy())


@njit(inline="always")
def _after(text, size):
    """A buffer of ``size`` bytes more than the priming ``text``, which
    fills its start: the coding loops see the block after the text."""
    text_and_block = np.empty(text.shape[0] + size, np.uint8)
    copy_bytes(text_and_block, 0, text, 0, text.shape[0])
    return text_and_block


@njit(cache=True, nogil=True)
def encode_primed(block, payload, text, state):
    """Code ``block`` as if it followed the priming ``text``, from the
    model ``state`` (``primed(text)``) into ``payload``: its length, or -1
    if it would not fit."""
    text_and_block = _after(text, block.shape[0])
    copy_bytes(text_and_block, text.shape[0], block, 0, block.shape[0])
    model, history, ptr, length = state
    return _encode(text_and_block, payload, _copied(model), 32 - PRIMED_BITS,
                   32 - PRIMED_MATCH_BITS, text.shape[0], history, ptr, length)[0]


@njit(cache=True, nogil=True)
def decode_primed(payload, block, text, state):
    """Decode ``payload`` into ``block`` (its length says how many bytes)
    as if it followed the priming ``text``, from the model ``state``
    (``primed(text)``): as ``decode``."""
    if block.shape[0] > PRIMED_MAX_SIZE:
        return 3, 0
    text_and_block = _after(text, block.shape[0])
    model, history, ptr, length = state
    problem, end = _decode(payload, text_and_block, _copied(model), 32 - PRIMED_BITS,
                           32 - PRIMED_MATCH_BITS, text.shape[0], history, ptr, length)
    copy_bytes(block, 0, text_and_block, text.shape[0], block.shape[0])
    return problem, end
