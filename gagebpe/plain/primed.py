"""The MIXED_PRIMED model after the priming text (docs/FORMAT.md, section
4.13): made once, when the package is built, and read from ``primed.bin``
beside this module by both the plain path and the kernels, so that no
process learns the text again.

    python -m gagebpe.plain.primed      # write primed.bin anew

The file is the model's tables in a fixed order, little-endian, zlib
compressed; ``compute`` makes them from the text, and a test holds the
file, ``compute`` and the kernel's ``kernels.mixing.primed`` to the same numbers.
"""
import os
import sys
import zlib
from array import array

from .priming_text import PRIMING_TEXT
from . import mixing
from .tables import PRIMED_BITS, PRIMED_COUNT, PRIMED_MATCH_BITS, PRIMED_MAX_SIZE

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "primed.bin")
# (field, array type code) in the file's order; then history, ptr, length.
FIELDS = (("order0", "H"), ("seen0", "B"), ("probs", "H"), ("seen", "B"), ("weights", "q"),
          ("last", "I"), ("match_probs", "H"), ("match_seen", "B"))
_loaded = []


def compute(text=PRIMING_TEXT):
    """The model after ``text``, its counts capped at PRIMED_COUNT."""
    model = mixing.Model(PRIMED_BITS, PRIMED_MATCH_BITS)
    mixing.code(model, text, 0, None, False)
    for name in ("seen0", "seen", "match_seen"):
        setattr(model, name, [min(n, PRIMED_COUNT) for n in getattr(model, name)])
    return model


def dump(model):
    parts = []
    for name, code in FIELDS:
        values = array(code, _flat(getattr(model, name)))
        if sys.byteorder == "big":
            values.byteswap()
        parts.append(values.tobytes())
    tail = array("q", (model.history, model.ptr, model.length))
    if sys.byteorder == "big":
        tail.byteswap()
    return zlib.compress(b"".join(parts) + tail.tobytes(), 9)


def load(path=FILE):
    """The primed model as the file holds it (made once per process)."""
    if _loaded:
        return _loaded[0]
    with open(path, "rb") as f:
        raw = memoryview(zlib.decompress(f.read()))
    model = mixing.Model(PRIMED_BITS, PRIMED_MATCH_BITS)
    at = 0
    for name, code in FIELDS:
        values = array(code)
        size = len(_flat(getattr(model, name))) * values.itemsize
        values.frombytes(raw[at:at + size])
        if sys.byteorder == "big":
            values.byteswap()
        setattr(model, name, _shaped(values.tolist(), getattr(model, name)))
        at += size
    tail = array("q")
    tail.frombytes(raw[at:at + 3 * tail.itemsize])
    if sys.byteorder == "big":
        tail.byteswap()
    model.history, model.ptr, model.length = tail
    _loaded.append(model)
    return model


def encode(data):
    """The MIXED_PRIMED payload of ``data`` (1 to PRIMED_MAX_SIZE bytes);
    None where it would not be smaller than ``data``."""
    text = PRIMING_TEXT
    payload = bytearray()
    n = mixing.code(load().copy(), text + bytes(data), len(text), payload, False)
    return bytes(payload) if 0 < n < len(data) else None


def decode(payload, size):
    """``(problem, end, bytes)``: ``size`` bytes decoded from the
    MIXED_PRIMED ``payload``, as the kernel's ``decode_primed`` reports them."""
    if size > PRIMED_MAX_SIZE:
        return 3, 0, b""
    text = PRIMING_TEXT
    buf = bytearray(text) + bytearray(size)
    problem, end = mixing.code(load().copy(), buf, len(text), payload, True)
    return problem, end, bytes(buf[len(text):])


def _flat(values):
    """A table as one list: the weights' rows joined."""
    return [v for row in values for v in row] if isinstance(values[0], list) else values


def _shaped(values, like):
    """``values`` in the shape of ``like`` (rows of the weights)."""
    if not isinstance(like[0], list):
        return values
    width = len(like[0])
    return [values[i:i + width] for i in range(0, len(values), width)]


def main():
    data = dump(compute())
    with open(FILE, "wb") as f:
        f.write(data)
    print(f"{FILE}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
