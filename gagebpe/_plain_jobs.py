"""Small jobs without Numba or NumPy, for the command line: a whole input
of at most ``encoder.levels.SMALL_BLOCK`` bytes that LZ codes alone,
compressed by the small-input policy with plain coders (the same bytes as
the kernels write: ``encoder.small``); and streams of STORED, LZ, LZ_PARTS,
SEQUENCES, MIXED and MIXED_PRIMED blocks decoded.

Whatever this module does not take it declines, returning None: an input
a grammar codes better, a stream with other codings, or one with any
fault.  The caller then takes the kernels, which also say what is wrong
with a faulty stream, so errors keep one source.  Nothing this module
imports loads NumPy (tests/encoder/test_plain.py holds it to that).
"""
from ._errors import GageBPEError
from .encoder import levels as _levels, small as _small
from .format.container import BlockHeader, Parser, Payload
from .format.codings.registry import LZ, LZ_PARTS, MIXED, MIXED_PRIMED, SEQUENCES, STORED
from .plain import lags, lz, mixing, primed, sequences, xxh64

LARGEST = _levels.SMALL_BLOCK  # bytes of the largest input ``compress`` takes
CODERS = _small.Coders(lz=lambda data: lz.encode(data, _levels.QUICK.candidates,
                                                  _levels.QUICK.passes),
                       mixed=mixing.encode, primed=primed.encode,
                       check=xxh64.block_check,
                       repeat_counts=lags.repeat_counts, histogram=lz.histogram,
                       choose_lag=lags.choose)
# Seconds a byte takes here, for the command line to weigh this path
# against loading the kernels (measured on text, median of runs).
LZ_SECONDS = 15e-6  # compressing, a quick parse
MIXED_SECONDS = 35e-6  # coding or decoding, each model
DECODE_SECONDS = 1e-6  # decoding LZ


def compress(data, level=None):
    """The stream of ``data`` (bytes) at ``level``, as ``gagebpe.compress``
    writes it; None where ``data`` is not a small input this path takes."""
    if len(data) > _levels.SMALL_BLOCK or data and not _small.lz_alone(data, CODERS):
        return None
    return _small.compress(data, _levels.settings(level).mixed, CODERS)


def compress_seconds(size, level=None):
    """About how long ``compress`` takes on ``size`` bytes at ``level``."""
    models = 1 if _levels.settings(level).mixed and size <= _small.MIXED_MAX else 0
    return size * (LZ_SECONDS + models * MIXED_SECONDS)


def decompress(data):
    """The bytes of ``data``, one or more concatenated streams, if each
    block is STORED, LZ, LZ_PARTS, SEQUENCES, MIXED or MIXED_PRIMED and all
    is well;
    else None."""
    out = []
    for unit in _units(data):
        if unit is None:
            return None
        if isinstance(unit, Payload):
            block = _decode(unit.block, bytes(unit.data))
            if block is None:
                return None
            out.append(block)
    return b"".join(out)


def decompress_seconds(data):
    """About how long ``decompress`` takes on ``data``; None where it
    would decline it (from the block headers alone)."""
    seconds = 0.0
    for unit in _units(data):
        if unit is None:
            return None
        if isinstance(unit, BlockHeader):
            per_byte = _SECONDS.get(unit.coding)
            if per_byte is None:
                return None
            seconds += unit.size * per_byte
    return seconds


def _units(data):
    """The units (``format.container.Parser``'s) of the concatenated streams
    ``data``, each checked as it is parsed; None, and no more, at the first
    fault or where the input ends early."""
    view = memoryview(bytes(data))
    pos = 0
    try:
        while True:
            parser = Parser()
            while not parser.done:
                unit, n = parser.parse(view[pos:], final=True)
                if unit is None:
                    yield None
                    return
                pos += n
                yield unit
            if pos == len(view):
                return
    except (GageBPEError, EOFError):
        yield None


_SECONDS = {STORED: 0.0, LZ: DECODE_SECONDS, LZ_PARTS: DECODE_SECONDS,
            SEQUENCES: DECODE_SECONDS, MIXED: MIXED_SECONDS, MIXED_PRIMED: MIXED_SECONDS}


def _decode(block, payload):
    """The checked bytes of one block, or None."""
    coding, size = block.coding, block.size
    if coding == STORED:
        problem, out = 0, payload
    elif coding == LZ:
        problem, out = lz.decode(payload, size)
    elif coding == LZ_PARTS:
        problem, out = lz.decode_parts(payload, size)
    elif coding == SEQUENCES:
        problem, out = sequences.decode(payload, size)
    elif coding in (MIXED, MIXED_PRIMED):
        problem, _, out = (mixing if coding == MIXED else primed).decode(payload, size)
    else:
        return None
    if problem or len(out) != size or xxh64.block_check(out) != block.data_check:
        return None
    return out
