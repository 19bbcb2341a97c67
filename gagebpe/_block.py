"""One block: bytes <-> (coding, payload).

Encoding is a pipeline, top to bottom:

1. probe: at levels that ask for it, a large block whose sample does not
   gain from merging is not merged (random or compressed data, DNA);
2. build the grammar (``_grammar``: full-pass merges, then incremental);
3. for each coding, keep the prefix of merges worth keeping (``_prefix``)
   and code the block (``_coding_stored``, ``_coding_packed``,
   ``_coding_sorted``);
4. take the smallest payload, the faster to decode on a tie.

Framing and checking the block is the container's (``_container``).
Decoding dispatches on the coding number (HUFFMAN, which gagebpe 0.1
wrote, is still read).

Imports ``_errors``, ``_container`` (the coding numbers), ``_grammar``,
``_prefix`` and the coding modules.
"""
import numpy as np

from . import (_coding_huffman, _coding_packed, _coding_sorted, _coding_stored,
               _grammar, _prefix)
from ._container import HUFFMAN, PACKED, SORTED, STORED
from ._errors import UNKNOWN_CODING, GageBPEError

DECODERS = {STORED: _coding_stored.decode, PACKED: _coding_packed.decode,
            HUFFMAN: _coding_huffman.decode, SORTED: _coding_sorted.decode}
# The grammar codings gagebpe writes, each with how it chooses its prefix.
GRAMMAR_CODINGS = ((PACKED, _prefix.for_packed, _coding_packed.encode),
                   (SORTED, _prefix.for_sorted, _coding_sorted.encode))

# Probing: PROBE_SLICES slices of PROBE_SLICE bytes spread over a block of
# at least PROBE_FROM bytes.  A block whose merges save less than PROBE_GAIN
# of the sample's estimated size is coded without merges: the engine's time
# there buys nothing.
PROBE_SLICES = 4
PROBE_SLICE = 1 << 16
PROBE_FROM = 4 * PROBE_SLICES * PROBE_SLICE
PROBE_GAIN = 0.01


def worth_merging(data, min_count, probe):
    """Whether to build a grammar for block ``data``: yes, unless ``probe``
    is set and merging a sample of a large block does not pay."""
    return not (probe and len(data) >= PROBE_FROM
                and not merges_pay(probe_sample(data), min_count))


def probe_sample(data):
    step = len(data) // PROBE_SLICES
    return b"".join(data[i * step:i * step + PROBE_SLICE] for i in range(PROBE_SLICES))


def merges_pay(data, min_count):
    """Whether merging saves at least PROBE_GAIN of ``data``'s estimated
    coded size."""
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    bits = _prefix.sorted_bits(_grammar.build(data, min_count), hist)
    return bits.min() < (1 - PROBE_GAIN) * bits[0]


def encode(data, min_count=2, probe=False, merge=None):
    """``(coding, payload)`` for one block: the smallest of its codings,
    preferring the faster to decode on a tie (STORED, PACKED, SORTED).
    ``merge``: whether to build a grammar; None decides by
    ``worth_merging(data, min_count, probe)``."""
    data = bytes(data)
    if not data:
        return STORED, data
    if merge is None:
        merge = worth_merging(data, min_count, probe)
    grammar = _grammar.build(data, min_count) if merge else _grammar.unmerged(data)
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    best = (STORED, _coding_stored.encode(data))
    for coding, prefix, encode_grammar in GRAMMAR_CODINGS:
        payload = encode_grammar(_grammar.truncate(grammar, prefix(grammar, hist)), hist)
        if payload is not None and len(payload) < len(best[1]):
            best = (coding, payload)
    return best


def decode(coding, payload, size, out):
    """The bytes of one block into ``out`` (``size`` writable bytes, which
    the decoders fill and write nothing past); ``GageBPEError`` if the
    payload is malformed."""
    if coding not in DECODERS:
        raise GageBPEError(UNKNOWN_CODING.format(coding))
    if len(out) != size:
        raise ValueError("out must hold exactly the block's size")
    return DECODERS[coding](payload, size, out)
