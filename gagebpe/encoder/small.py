"""Small inputs: what a block of at most SMALL_BLOCK bytes
(``encoder.levels``, whose rows for such blocks name this policy) that LZ
codes best is coded as, and the single stream of a whole input that small
(docs/DESIGN.md, "Small inputs").

Both the kernels (``encoder.block``, ``encoder.stream``) and the plain
path (``_plain_jobs``, which a small command-line job takes instead of
loading Numba) run this policy, each with its own ``Coders``: the same
choices over the same payloads, so either writes the same bytes.

A block "LZ codes alone" where it has at most TINY bytes, or more than
PACKED_VALUES byte values and no filter's lag: text, source code, logs,
most binaries.  Such a block is coded as LZ (a quick parse), or STORED if
that is no smaller; at the levels that mix (6 to 9) also as MIXED, where
it has at most BOTH_MODELS bytes, or at most MIXED_MAX and does not look
like text, and that is smaller still.  A whole input that small is then
also tried as MIXED_PRIMED, where it has at most BOTH_MODELS bytes, or at
most MIXED_MAX and looks like text; the shorter stream is kept, the
unprimed on a tie.  Other small blocks (DNA, records of a fixed length)
take the grammar codings, which only the kernels have (``encoder.block``).
Nothing this module imports loads NumPy: the plain path runs it.
"""
from typing import Callable, NamedTuple

from ..format import container
from ..format.codings.registry import LZ, MIXED, MIXED_PRIMED, STORED
from ..plain import lags
from .levels import BOTH_MODELS, MIXED_MAX, PACKED_VALUES, TEXT_OTHER, TINY

# The bytes of text: tabs, line ends, printable ASCII and the bytes of
# UTF-8's other characters.
TEXT_BYTES = bytes([9, 10, 13, *range(32, 127), *range(128, 256)])


class Coders(NamedTuple):
    """One path's coders, each taking the block's bytes."""
    lz: Callable  # the LZ payload, by a quick parse
    mixed: Callable  # the MIXED payload, or None where not smaller
    primed: Callable  # the MIXED_PRIMED payload, or None
    check: Callable  # the block's data check
    repeat_counts: Callable  # (bytes, max lag) -> repeat counts (``plain.lags``)
    histogram: Callable  # bytes -> the count of each byte value, a list
    choose_lag: Callable  # ``plain.lags.choose``, or it compiled


def lz_alone(data, coders):
    """Whether block ``data`` is one that LZ codes alone: at most TINY
    bytes, or more than PACKED_VALUES byte values and no filter's lag."""
    if len(data) <= TINY:
        return True
    freq = coders.histogram(data)
    return 256 - freq.count(0) > PACKED_VALUES and not lags.best_lag(
        data, coders.repeat_counts, freq, coders.choose_lag)


def looks_like_text(data):
    """Whether ``data`` has more than PACKED_VALUES byte values, and at most
    one byte in TEXT_OTHER of it is not a text byte."""
    return (TEXT_OTHER * len(data.translate(None, TEXT_BYTES)) <= len(data)
            and len(set(data)) > PACKED_VALUES)


def encode_block(data, mixed, coders):
    """``(coding, payload)`` of a block (bytes, 1 to SMALL_BLOCK of them)
    that LZ codes alone; ``mixed``: the level tries MIXED."""
    payload = coders.lz(data)
    best = (LZ, payload) if len(payload) < len(data) else (STORED, data)
    if mixed and (len(data) <= BOTH_MODELS
                  or len(data) <= MIXED_MAX and not looks_like_text(data)):
        payload = coders.mixed(data)
        if payload and len(payload) < len(best[1]):
            best = (MIXED, payload)
    return best


def single_stream(data, block, mixed, coders):
    """The single stream of the whole input ``data`` (bytes-like), coded as
    ``block`` (framed by ``container.block``; None for no data); with
    ``mixed``, MIXED_PRIMED is tried too."""
    stream = container.single_stream(block)
    if not (mixed and 0 < len(data) <= MIXED_MAX):
        return stream
    data = bytes(data)
    if len(data) <= BOTH_MODELS or looks_like_text(data):
        payload = coders.primed(data)
        if payload is not None:
            primed = container.single_stream(frame(data, MIXED_PRIMED, payload, coders))
            stream = min(stream, primed, key=len)
    return stream


def frame(data, coding, payload, coders):
    """The block (``container.block``) of ``data`` coded as ``payload``."""
    return container.block(coding, payload, data, coders.check(data))


def compress(data, mixed, coders):
    """The single stream of ``data`` (bytes, at most SMALL_BLOCK of them,
    empty or one that LZ codes alone)."""
    block = frame(data, *encode_block(data, mixed, coders), coders) if data else None
    return single_stream(data, block, mixed, coders)
