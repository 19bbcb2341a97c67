"""The fixed numbers of the context-mixing model, as plain Python: the
format's constants (docs/FORMAT.md, sections 4.12 and 4.13), the squash,
stretch and rate tables built from them, what a decoder reports, and the
match model's check of a candidate (``match_length``, which the kernel
calls too).
``gagebpe.kernels.mixing`` takes them from here, so the kernel and the plain
model cannot disagree.
"""
ORDERS = 4  # contexts of the last 0, 1, 2 and 3 bytes
HASHED = ORDERS - 1  # the orders 1-3 share a hashed table each
INPUTS = ORDERS + 2  # two more inputs: the bias, and the match model's
BIAS = 64
# A context's probability (16 bits) moves towards each bit it sees by
# 1 / (n + 1/2) after its n-th, n capped at LIMIT: fast at first, then
# averaging over the last few dozen.
LIMIT = 30
# Mixing weights (16 fractional bits) start at 0.3 and learn at LEARNING / 2^16.
WEIGHT_START = 19661
LEARNING = 82
# Hashed tables hold 2^(bit_length(size) + SLOT_BITS_EXTRA) slots, at
# least 2^MIN_SLOT_BITS: 32 to 64 for each byte of the block, against the
# 8 each order touches, so few collide.  A MIXED block holds at most
# MAX_SIZE bytes: its decoding, at about 4 MB/s, is bounded to a few tens
# of milliseconds, and its tables (MAX_SLOT_BITS) to 38 MB.
SLOT_BITS_EXTRA = 5
MIN_SLOT_BITS = 10
MAX_SIZE = 1 << 16
MAX_SLOT_BITS = 22  # slot_bits(MAX_SIZE)
# The match model: the position after each 3 bytes' last occurrence, in
# twice as many slots as the block has bytes, at most 2^MAX_MATCH_BITS (a
# table cleared per block costs its size, and a 2 KiB block's is 16 KB); a
# match is trusted by its length (MIN_MATCH up to MAX_MATCH, each with its
# own learnt probability, starting at MATCH_START), and has its own
# weights while it predicts.
MAX_MATCH_BITS = 16
MIN_MATCH = 3
MAX_MATCH = 15
MATCH_START = 49152
# MIXED_PRIMED's model learns the priming text first, in tables of fixed
# sizes, so that one primed state serves every block, each a copy of it.
# Its counts are then capped at PRIMED_COUNT, so that the block's own bytes
# soon outweigh the text's.  A block holds at most PRIMED_MAX_SIZE bytes:
# past a few kilobytes the text's head start no longer pays for its share
# of the tables.
PRIMED_BITS = 14
PRIMED_MATCH_BITS = 13
PRIMED_COUNT = 2
PRIMED_MAX_SIZE = 4096
CONTEXT_HASH = 0x9E3779B1
BIT_HASH = 0x6F4F2A35
MASK32 = 0xFFFFFFFF
TOP = 0xFF000000

PROBLEMS = (None, "MIXED block's coded bits do not end where its payload does",
            f"MIXED block larger than {MAX_SIZE} bytes",
            f"MIXED_PRIMED block larger than {PRIMED_MAX_SIZE} bytes")

# 4096 / (1 + e^(-(i - 16) / 2)), rounded, for i = 0 .. 32 (section 4.12).
SQUASH_POINTS = (1, 2, 4, 6, 10, 17, 27, 45, 74, 120, 194, 311, 488, 747, 1102, 1546, 2048,
                 2550, 2994, 3349, 3608, 3785, 3902, 3976, 4022, 4051, 4069, 4079, 4086, 4090,
                 4092, 4094, 4095)


def _squash_all():
    """squash(d) for d = -2047 .. 2047, interpolated between SQUASH_POINTS."""
    out = []
    for d in range(-2047, 2048):
        w, i = d & 127, (d >> 7) + 16
        out.append((SQUASH_POINTS[i] * (128 - w) + SQUASH_POINTS[i + 1] * w + 64) >> 7)
    return out


SQUASH = _squash_all()


def _stretch_all():
    """stretch(p) for p = 0 .. 4095: the least d with squash(d) >= p (2047
    where there is none)."""
    out, d = [], 0
    for p in range(4096):
        while d < len(SQUASH) and SQUASH[d] < p:
            d += 1
        out.append(min(d, 4094) - 2047)
    return out


STRETCH = _stretch_all()
# A probability moves towards each bit by 1 / (n + 1/2) after its n-th.
RATE = [0] + [131072 // (2 * n + 1) for n in range(1, LIMIT + 1)]


def match_length(data, start, i):
    """How many bytes before ``data[start]`` equal those before
    ``data[i]``, up to MAX_MATCH: the match model's check of its candidate
    ``start`` for position ``i``.  Plain enough for Numba."""
    k = 0
    while k < MAX_MATCH and k < start and data[start - 1 - k] == data[i - 1 - k]:
        k += 1
    return k
