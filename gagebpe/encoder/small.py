"""Small inputs: what a block of at most SMALL_BLOCK bytes that LZ codes
best is coded as, and the short stream of a whole input that small.

Both the kernels (``encoder.block``, ``encoder.stream``) and the plain path
(``gagebpe.plain.stream``, which a small command-line job takes instead
of loading Numba) run this policy, each with its own ``Coders``: the
same choices over the same payloads, so either writes the same bytes
(docs/DESIGN.md, "Small inputs").

A block "LZ codes alone" where it has at most TINY bytes, or more than
PACKED_VALUES byte values and no filter's lag: text, source code, logs,
most binaries.  Such a block
is coded as LZ (a quick parse), or STORED if that is no smaller, and at
the levels that mix (6 to 9), as MIXED_MATCH where that is smaller still
and the block has at most DELIMITED_MAX bytes, or at most MIXED_MAX and
does not look like text.  A whole input that small is then also tried as
MIXED_DELIMITED (up to DELIMITED_MAX bytes) and MIXED_PRIMED (up to
DELIMITED_MAX, or MIXED_MAX where it looks like text), and the shortest
stream is kept, the earlier on a tie.  Other small blocks (DNA, records of a fixed length)
take the grammar codings, which only the kernels have (``encoder.block``).

Imports ``format.container``, ``encoder.levels`` and ``plain.lags``, none of which
loads NumPy.
"""
from typing import Callable, NamedTuple

from ..format import container as _container
from ..format.container import LZ, MIXED_DELIMITED, MIXED_MATCH, MIXED_PRIMED, STORED
from .levels import MIXED_MAX
from ..plain import lags

SMALL_BLOCK = 4 << 10
PACKED_VALUES = 16
# Up to TINY bytes no grammar coding pays for its tables, whatever the
# bytes (DNA, records and runs included: pieces of 256 bytes of them were
# never coded smaller by one).
TINY = 256
DELIMITED_MAX = _container.SIZED[MIXED_DELIMITED][1]
# Past DELIMITED_MAX bytes a block is coded by one mixing model, not two:
# MIXED_PRIMED where it looks like text (at most one byte in TEXT_OTHER
# outside TEXT_BYTES), else MIXED_MATCH, whose model knows nothing of text
# and so wastes less on binary data (docs/DESIGN.md, "Small inputs", says
# what coding both would gain, in twice the time).
TEXT_BYTES = bytes([9, 10, 13, *range(32, 127), *range(128, 256)])
TEXT_OTHER = 20


class Coders(NamedTuple):
    """One path's coders, each taking the block's bytes."""
    lz: Callable  # the LZ payload, by a quick parse
    mixed: Callable  # the MIXED_MATCH payload, or None where not smaller
    delimited: Callable  # the MIXED_DELIMITED payload, or None
    primed: Callable  # the MIXED_PRIMED payload, or None
    check: Callable  # the block's data check
    repeat_counts: Callable  # (bytes, max lag) -> repeat counts (``plain.lags``)
    histogram: Callable  # bytes -> the count of each byte value


def lz_alone(data, coders):
    """Whether block ``data`` is one that LZ codes alone: at most TINY
    bytes, or more than PACKED_VALUES byte values and no filter's lag."""
    return len(data) <= TINY or (len(set(data)) > PACKED_VALUES and not lags.best_lag(
        data, coders.repeat_counts, coders.histogram))


def looks_like_text(data):
    """Whether ``data`` has more than PACKED_VALUES byte values, and at most
    one byte in TEXT_OTHER of it is not a text byte."""
    return (TEXT_OTHER * len(data.translate(None, TEXT_BYTES)) <= len(data)
            and len(set(data)) > PACKED_VALUES)


def encode_block(data, mixed, coders):
    """``(coding, payload)`` of a block (bytes, 1 to SMALL_BLOCK of them)
    that LZ codes alone; ``mixed``: the level tries MIXED_MATCH."""
    payload = coders.lz(data)
    best = (LZ, payload) if len(payload) < len(data) else (STORED, data)
    if mixed and (len(data) <= DELIMITED_MAX
                  or len(data) <= MIXED_MAX and not looks_like_text(data)):
        payload = coders.mixed(data)
        if payload and len(payload) < len(best[1]):
            best = (MIXED_MATCH, payload)
    return best


def short_stream(data, block, mixed, coders):
    """The short stream of the whole input ``data`` (bytes-like), coded as
    the framed ``block`` (``frame``; None for no data); with ``mixed``,
    MIXED_DELIMITED and MIXED_PRIMED are tried too."""
    stream = _container.short_stream([block] if block else [])
    if not mixed or not 0 < len(data) <= MIXED_MAX:
        return stream
    data = bytes(data)
    primed = len(data) <= DELIMITED_MAX or looks_like_text(data)
    for coding, largest, encode in ((MIXED_DELIMITED, DELIMITED_MAX, coders.delimited),
                                    (MIXED_PRIMED, MIXED_MAX if primed else 0, coders.primed)):
        payload = encode(data) if len(data) <= largest else None
        if payload is not None:
            stream = min(stream, _container.short_stream([frame(data, coding, payload, coders)]),
                         key=len)
    return stream


def frame(data, coding, payload, coders):
    """The block (``format.container.block``) of ``data`` coded as ``payload``."""
    return _container.block(coding, payload, data, coders.check(data))


def compress(data, mixed, coders):
    """The short stream of ``data`` (bytes, at most SMALL_BLOCK of them,
    empty or one that LZ codes alone)."""
    block = frame(data, *encode_block(data, mixed, coders), coders) if data else None
    return short_stream(data, block, mixed, coders)
