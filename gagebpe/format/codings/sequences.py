"""The SEQUENCES block coding (docs/FORMAT.md, section 4.17): LZ_PARTS's
tokens as literals and sequences (``kernels.sequences``), which decode
without a literal-or-copy choice per token.

    payload = part...
    part    = size:varint  literals:varint  sequences:varint
              run_slots:u8  length_symbols:u8  distance_slots:u8
              stream_size:varint * 7  lengths  runs  distances  literals * 4

``lengths`` begins with the code-length table of the literal, run,
length and distance codes; each literal stream holds a quarter of the
part's literals.  The parts are LZ_PARTS's (``format.codings.lz.parts``):
the same parse, the same joins.
"""
from ...kernels import sequences as _sequences
from ...plain.varint import varint
from ..._jit import njit
from . import problems as _problems
from .registry import SEQUENCES


def encode(parts):
    """The SEQUENCES payload of a block's ``parts`` (``format.codings.lz.parts``)."""
    return b"".join(_payload(part.size, part.tokens()) for part in parts)


def _payload(size, tokens):
    """A part of ``size`` bytes whose tokens have these symbols."""
    (streams, sizes, n_literals, n_sequences, run_slots, length_symbols,
     distance_slots) = _sequences.pack(*tokens)
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
