"""What a block's decoder can find wrong, numbered once for every coding.

Each coding's decoding kernel (its module's ``decode_block``) returns 0 or
a *problem*: ``at(coding, number, detail)``, the coding whose payload is
at fault (a wrapper's inner coding names itself), one of the numbers
below, and a detail the message may show.  ``raise_problem`` turns it
into the ``GageBPEError`` that names it.  The kernels' own problem numbers
(``kernels.coded_sequence``, ``kernels.lz``, ``plain.tables`` for the
mixing model, ``kernels.repeats``, ``kernels.sequences``) are taken in at an offset each, so that
those kernels keep their small numbering and nothing is renumbered twice.
"""
from ..._errors import UNDEFINED_MERGE, UNDEFINED_SYMBOL, WRONG_SIZE, GageBPEError
from ..._jit import njit
from ...kernels import coded_sequence as _sequence, lz as _lz, repeats as _repeats
from ...kernels import sequences as _sequences
from ...plain import tables as _mixing
from .registry import name

_OWN = (
    None,
    "{coding} block shorter than its header",
    "block counts disagree with its size",
    "class bitmap marks a byte value the block does not hold",
    "{coding} block length disagrees with its size",
    "{coding} block padding bits are not zero",
    UNDEFINED_MERGE,
    f"{UNDEFINED_SYMBOL} or expands past the declared size",
    WRONG_SIZE,
    "{coding} block holds coding {detail}, which it may not wrap",
    "unknown filter {detail}",
    "filter lag is zero",
    "FOLDED block's markers are the same byte",
    "FOLDED block's folded size disagrees with its size",
    "FOLDED block does not unfold to its size",
    "REPEATS block's literal size disagrees with its size",
    "REPEATS block's copy count disagrees with its size",
    "REPEATS block's copies disagree with their count",
    "REPEATS block's copies overrun it",
    "{coding} block does not decode to its size with dictionary {dictionary}",
    "{coding} block, but dictionary {dictionary} holds no content",
)
(SHORT_HEAD, COUNTS, CLASSES, LENGTH, PADDING, BAD_MERGE, BAD_SYMBOL, BAD_SIZE, INNER,
 FILTER, LAG, MARKERS, FOLDED_SIZE, UNFOLDED, LITERAL_SIZE, COPY_COUNT, COPIES_BYTES,
 COPIES_OVERRUN, NOT_DECODED, NO_CONTENT) = range(1, len(_OWN))
# ``kernels.repeats.restore``'s numbers, BAD_COPIES and BAD_LITERALS.
_REPEATS = (None, "REPEATS block's copies are malformed",
            "REPEATS block's literals do not fill it")
# Where each kernel family's numbers begin.
SEQUENCE, LZ, MIXING, REPEATS, SEQUENCES = 32, 64, 96, 128, 160
_MESSAGES = {number: text for number, text in enumerate(_OWN) if text}
for _base, _texts in ((SEQUENCE, _sequence.PROBLEMS), (LZ, _lz.PROBLEMS),
                      (MIXING, _mixing.PROBLEMS), (REPEATS, _REPEATS),
                      (SEQUENCES, _sequences.PROBLEMS)):
    _MESSAGES.update({_base + i: text for i, text in enumerate(_texts) if text})
assert len(_OWN) <= SEQUENCE and len(_sequence.PROBLEMS) <= LZ - SEQUENCE
assert len(_lz.PROBLEMS) <= MIXING - LZ and _repeats.BAD_LITERALS == 2
assert len(_sequences.PROBLEMS) <= 256 - SEQUENCES


@njit(cache=True, nogil=True, inline="always")
def at(coding, number, detail=0):
    """The problem ``number`` of a block of ``coding`` (never 0)."""
    return (detail << 16) | (coding << 8) | number


def message(problem, dictionary_id=None):
    """What ``problem`` (non-zero) says; ``dictionary_id``: the stream's."""
    coding, number, detail = (problem >> 8) & 0xFF, problem & 0xFF, problem >> 16
    dictionary = "?" if dictionary_id is None else f"{dictionary_id:#010x}"
    return _MESSAGES[number].format(coding=name(coding), detail=detail, dictionary=dictionary)


def raise_problem(problem, dictionary_id=None):
    """Raise the ``GageBPEError`` that ``problem`` stands for, if any."""
    if problem:
        raise GageBPEError(message(problem, dictionary_id))
