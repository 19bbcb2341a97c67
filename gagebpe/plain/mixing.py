"""The context-mixing model of the MIXED and MIXED_PRIMED codings in plain
Python: the same integers as the kernel (``gagebpe.kernels.mixing``,
docs/FORMAT.md sections 4.12 and 4.13), computed on
Python ints and lists so that a small input is coded without NumPy or
Numba.

The kernel's model is a tuple of arrays; here it is a ``Model`` of flat
lists (the three hashed orders side by side in one list), and one loop
codes or decodes, written out in full: a function call per bit would cost
as much as the bit.  Encoding and decoding differ only in where each bit
comes from, so they share that loop.
"""
from .tables import match_length
from .tables import (BIAS, BIT_HASH, CONTEXT_HASH, INPUTS, LEARNING, LIMIT, MASK32, MATCH_START,
                     MAX_MATCH, MAX_MATCH_BITS, MAX_SIZE, MAX_SLOT_BITS, MIN_MATCH, MIN_SLOT_BITS,
                     ORDERS, RATE, SLOT_BITS_EXTRA, SQUASH, STRETCH, TOP, WEIGHT_START)

MIXERS = 2 * (ORDERS + 1)  # by how many orders are seen, and whether a match predicts


def slot_bits(size):
    return min(MAX_SLOT_BITS, max(MIN_SLOT_BITS, size.bit_length() + SLOT_BITS_EXTRA))


def match_bits(size):
    return min(MAX_MATCH_BITS, size.bit_length() + 1)


class Model:
    """The model's state: its tables as flat lists (the weights as a list of
    rows, one for each mixer), and where the history, the match and its
    length stand.  ``copy()`` gives a model that learns on its own."""

    __slots__ = ("order0", "seen0", "probs", "seen", "weights", "last", "match_probs",
                 "match_seen", "bits", "mbits", "history", "ptr", "length")

    def __init__(self, bits, mbits):
        self.order0 = [32768] * 256
        self.seen0 = [0] * 256
        self.probs = [32768] * (3 << bits)
        self.seen = [0] * (3 << bits)
        self.weights = [[WEIGHT_START] * INPUTS for _ in range(MIXERS)]
        self.last = [0] * (1 << mbits)
        self.match_probs = [MATCH_START] * (MAX_MATCH + 1)
        self.match_seen = [0] * (MAX_MATCH + 1)
        self.bits, self.mbits = bits, mbits
        self.history = self.ptr = self.length = 0

    def copy(self):
        other = Model.__new__(Model)
        for name in Model.__slots__:
            value = getattr(self, name)
            setattr(other, name, value[:] if isinstance(value, list) else value)
        other.weights = [row[:] for row in self.weights]
        return other


def for_block(size):
    """A model that has seen nothing, sized for a block of ``size`` bytes."""
    return Model(slot_bits(size), match_bits(size))


def code(model, buf, first, payload, decoding):
    """Code (or, if ``decoding``, decode) ``buf[first:]`` with ``model``,
    which has learnt ``buf[:first]`` and learns on.

    Encoding reads the bytes of ``buf`` and writes ``payload``, a bytearray;
    it returns the payload's length, or -1 where it would pass ``len(buf) -
    first`` bytes (no smaller than the block).  Decoding reads ``payload``
    (bytes; past its end 255s) and writes the bytes into ``buf`` (a
    bytearray); it returns ``(problem, end)`` as the kernel's ``decode``
    does: 0 and where the coded bits ended, or a problem number and 0.
    ``payload=None`` with ``decoding=False`` learns ``buf`` without
    writing anything (the priming).

    The kernel's helpers (``kernels.mixing``: the match model, the
    prediction, the learning) are written out here in one loop, each as
    the kernel writes it, and the three contexts' updates one after
    another, so that a plain-Python byte makes no function call."""
    order0, seen0, probs, seen, weights = (model.order0, model.seen0, model.probs, model.seen,
                                           model.weights)
    last, match_probs, match_seen = model.last, model.match_probs, model.match_seen
    history, ptr, length = model.history, model.ptr, model.length
    bits = model.bits
    shift, match_shift = 32 - bits, 32 - model.mbits
    size2, size3 = 1 << bits, 2 << bits
    stretch, squash, rate = STRETCH, SQUASH, RATE
    n = len(buf)
    room = n - first
    writing = payload is not None and not decoding
    low, high = 0, MASK32
    at = 0
    x = 0
    if decoding:
        end_of_payload = len(payload)
        for _ in range(4):
            x = (x << 8) | (payload[at] if at < end_of_payload else 255)
            at += 1
    for i in range(first, n):
        h1 = (((history & 0xFF) | 0x1000000) * CONTEXT_HASH) & MASK32
        h2 = (((history & 0xFFFF) | 0x2000000) * CONTEXT_HASH) & MASK32
        h3 = ((history | 0x3000000) * CONTEXT_HASH) & MASK32
        # The match model (``kernels.mixing._next_match``).
        if length:
            ptr += 1
            if length < MAX_MATCH:
                length += 1
        if i >= 3:
            h = ((history * CONTEXT_HASH) & MASK32) >> match_shift
            j = last[h]
            if length == 0 and j:
                start = j - 1
                k = match_length(buf, start, i)
                if k >= MIN_MATCH:
                    ptr, length = start, k
            last[h] = i + 1
        expected = buf[ptr] if length else 0
        byte = 0 if decoding else buf[i]
        partial = 1
        for j in range(7, -1, -1):
            want = (expected >> j) & 1
            if length:
                d = stretch[match_probs[length] >> 4]
                x5 = d if want else -d
                mixer = 5
            else:
                x5 = mixer = 0
            c0 = seen0[partial]
            if c0:
                x0 = stretch[order0[partial] >> 4]
                mixer += 1
            else:
                x0 = 0
            pb = partial * BIT_HASH
            s1 = ((h1 + pb) & MASK32) >> shift
            s2 = (((h2 + pb) & MASK32) >> shift) + size2
            s3 = (((h3 + pb) & MASK32) >> shift) + size3
            c1, c2, c3 = seen[s1], seen[s2], seen[s3]
            if c1:
                x1 = stretch[probs[s1] >> 4]
                mixer += 1
            else:
                x1 = 0
            if c2:
                x2 = stretch[probs[s2] >> 4]
                mixer += 1
            else:
                x2 = 0
            if c3:
                x3 = stretch[probs[s3] >> 4]
                mixer += 1
            else:
                x3 = 0
            w = weights[mixer]
            dot = (w[0] * x0 + w[1] * x1 + w[2] * x2 + w[3] * x3 + w[4] * BIAS
                   + w[5] * x5) >> 16
            p = squash[(2047 if dot > 2047 else -2047 if dot < -2047 else dot) + 2047]
            if p < 1:
                p = 1
            elif p > 4095:
                p = 4095
            middle = low + ((high - low) >> 12) * p
            if decoding:
                bit = 1 if x <= middle else 0
            else:
                bit = (byte >> j) & 1
            if bit:
                high = middle
                error = (4096 - p) * LEARNING
                target = 65535
            else:
                low = middle + 1
                error = -p * LEARNING
                target = 0
            # An input of 0 leaves its weight as it is.
            if x0:
                w[0] += (x0 * error) >> 16
            if x1:
                w[1] += (x1 * error) >> 16
            if x2:
                w[2] += (x2 * error) >> 16
            if x3:
                w[3] += (x3 * error) >> 16
            w[4] += (BIAS * error) >> 16
            if x5:
                w[5] += (x5 * error) >> 16
            c0 = c0 + 1 if c0 < LIMIT else LIMIT
            seen0[partial] = c0
            q = order0[partial]
            order0[partial] = q + (((target - q) * rate[c0]) >> 16)
            for s, c in ((s1, c1), (s2, c2), (s3, c3)):  # in this order: slots may coincide
                c = c + 1 if c < LIMIT else LIMIT
                seen[s] = c
                q = probs[s]
                probs[s] = q + (((target - q) * rate[c]) >> 16)
            if length:
                c = match_seen[length]
                c = c + 1 if c < LIMIT else LIMIT
                match_seen[length] = c
                q = match_probs[length]
                match_probs[length] = q + ((((65535 if bit == want else 0) - q) * rate[c]) >> 16)
                if bit != want:
                    length = 0
            while not (low ^ high) & TOP:
                if decoding:
                    if at > end_of_payload + 2:
                        return 1, 0
                    x = ((x << 8) & MASK32) | (payload[at] if at < end_of_payload else 255)
                elif writing:
                    if at >= room:
                        return -1
                    payload.append(high >> 24)
                at += 1
                low = (low << 8) & MASK32
                high = ((high << 8) & MASK32) | 255
            partial = (partial << 1) | bit
        if decoding:
            byte = partial & 255
            buf[i] = byte
        history = ((history << 8) | byte) & 0xFFFFFF
    model.history, model.ptr, model.length = history, ptr, length
    # The payload ends with the top byte of ``low`` (``kernels.mixing``).
    if decoding:
        end = at - 3
        if end != end_of_payload or (x >> 24) != (low >> 24):
            return 1, 0
        return 0, end
    if not writing:
        return 0
    if at >= room:
        return -1
    payload.append(low >> 24)
    return at + 1


def encode(data):
    """The MIXED payload of ``data`` (bytes, 1 to MAX_SIZE of them); None
    where it would not be smaller than ``data``."""
    payload = bytearray()
    n = code(for_block(len(data)), data, 0, payload, False)
    return bytes(payload) if 0 < n < len(data) else None


def decode(payload, size):
    """``(problem, end, bytes)``: ``size`` bytes decoded from the MIXED
    ``payload``, as the kernel's ``decode`` reports them."""
    if size > MAX_SIZE:
        return 2, 0, b""
    out = bytearray(size)
    problem, end = code(for_block(size), out, 0, payload, True)
    return problem, end, bytes(out)
