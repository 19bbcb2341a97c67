"""LEB128 numbers as format 1.0 writes them (docs/FORMAT.md, section 2):
7 bits a byte, least significant first, the high bit set on every byte
but the last, at most VARINT_BYTES bytes.  One reader and one writer for every place the
format has them: the container's sizes, which must be in their shortest
form, and REPEATS' copies, which need not be.  Plain enough for Numba to
compile (``kernels.varint``), and right without it over bytes and uint8
arrays alike."""

VARINT_BYTES = 4  # 28 bits: past the largest block


def varint_at(data, at, shortest=True):
    """``(value, end)``: the varint at ``data[at:]`` and where it ends;
    ``(-1, at)`` while ``data`` holds only part of it; ``(-2, at)`` for one
    longer than VARINT_BYTES, or, with ``shortest``, not in its shortest
    form (a last byte of 0 after another), so that each value has one
    writing."""
    value = 0
    for i in range(VARINT_BYTES):
        if at + i >= len(data):
            return -1, at
        byte = int(data[at + i])  # a NumPy uint8 would shift its bits out in plain Python
        value |= (byte & 0x7F) << (7 * i)
        if byte < 0x80:
            if shortest and byte == 0 and i:
                return -2, at
            return value, at + i + 1
    return -2, at


def put_varint(out, at, value):
    """Write ``value`` (at least 0) at ``out[at:]`` (a bytearray or uint8
    array with room) as the format writes it, LEB128, shortest; where it
    ends."""
    while value >= 0x80:
        out[at] = value & 0x7F | 0x80
        value >>= 7
        at += 1
    out[at] = value
    return at + 1


def varint(value):
    """``value`` (at least 0) as the format writes it (``put_varint``)."""
    out = bytearray(10)
    return bytes(out[:put_varint(out, 0, value)])
