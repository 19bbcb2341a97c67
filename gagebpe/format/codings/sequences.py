"""The SEQUENCES block coding (docs/FORMAT.md, section 4.17): LZ_PARTS's
tokens as literals and sequences (``kernels.sequences``), which decode
without a literal-or-copy choice per token.

    payload = part...
    part    = size:varint  literals:varint  sequences:varint
              run_slots:u8  length_symbols:u8  distance_slots:u8
              stream_size:varint * 7  lengths  runs  distances  literals * 4

``lengths`` begins with the code-length table of the literal, run,
length and distance codes; each literal stream holds a quarter of the
part's literals.  The parts are LZ_PARTS's (``format.codings.lz.parts``),
the same parse, joined where that codes smaller.
"""
import numpy as np

from ...kernels import sequences as _sequences
from ...plain.varint import varint
from ..._jit import njit
from . import problems as _problems
from .registry import SEQUENCES


def encode(parts, longest=_sequences.SEQUENCE_CODE):
    """The SEQUENCES payload of a block's ``parts`` (``format.codings.lz.parts``),
    each joined to the one before where one part codes both smaller:
    LZ_PARTS joins them by its own costs, and a SEQUENCES part's head and
    tables cost more (kennedy.xls: 16 parts become 2, 1.3% smaller).
    ``longest``: the longest run, length and distance code (a benchmark
    tries others)."""
    coded = []  # (size, tokens, payload)
    for part in parts:
        tokens = part.tokens()
        payload = _payload(part.size, tokens, longest)
        if coded:
            size, before, payload_before = coded[-1]
            joined = [np.concatenate(pair) for pair in zip(before, tokens)]
            joined_payload = _payload(size + part.size, joined, longest)
            if len(joined_payload) <= len(payload_before) + len(payload):
                coded[-1] = size + part.size, joined, joined_payload
                continue
        coded.append((part.size, tokens, payload))
    return b"".join(payload for _, _, payload in coded)


def _payload(size, tokens, longest):
    """A part of ``size`` bytes whose tokens have these symbols."""
    (streams, sizes, n_literals, n_sequences, run_slots, length_symbols,
     distance_slots) = _sequences.pack(*tokens, longest)
    head = (varint(size) + varint(n_literals) + varint(n_sequences)
            + bytes([run_slots, length_symbols, distance_slots])
            + b"".join(varint(int(s)) for s in sizes))
    return head + streams.tobytes()


@njit(cache=True, nogil=True)
def decode_block(payload, size, out, coding):
    """A SEQUENCES block's bytes into ``out`` (``size`` bytes); 0 or its
    problem (``format.codings.problems``)."""
    problem = _sequences.decode_payload(payload, out[:size])
    return _problems.at(coding, _problems.SEQUENCES + problem) if problem else 0


DECODERS = {SEQUENCES: decode_block}
