"""One block, coded as its level's row for its size says
(``encoder.levels``): the row's tries, each a way to code the block, and
the smallest payload kept, the earlier try's on a tie (docs/DESIGN.md,
"Levels").

The tries, in the order a row lists them:

- ``grammar``: build the block's grammar by count, for each smallest pair
  count the row names, and code it in the smallest of STORED and the
  grammar codings (PACKED, SORTED, CONTEXT where the row says, their
  long-rule forms); through a filter where the block repeats bytes at a
  fixed distance (FILTERED), case-folded too where the row folds
  (FOLDED); not merged at all where the row probes and a probe says
  merging gains nothing;
- ``gain``: the same with a grammar built by gain, for a block without a
  filter's lag;
- ``repeats``: the block with its long repeats taken out as copies
  (REPEATS), the rest coded by the grammar tries of its own row;
- ``lz``: literals and copies by the row's parse: LZ for a block parsed
  whole; for one parsed in segments, SEQUENCES, or LZ_PARTS where that
  is more than the parse's ``slack`` smaller;
- ``mixed``: a block of at most the row's ``mixed_max`` bytes coded by
  context mixing (MIXED).

Before them, the row's gates: a block whose bytes' frequencies could
save less than ``entropic_below`` of its size (``kernels.incompressible``)
is STORED, or where it repeats itself, coded by ``encode_entropic``; one
whose frequencies save less than ``greedy_below`` is coded LZ by its
greedy copies (``encode_greedy``); a
block that LZ codes alone (text, source, logs) takes the small-input
policy (``encoder.small``, which the plain path runs too) where the row
says ``small``, or is tried by ``lz`` and ``mixed`` only under
``alone_below`` bytes; and a sample of the block decides whether ``lz``
is tried, or alone (``lz_keep``, ``lz_alone``).
One ``Builds`` per block holds its grammars, so that every try and every
count builds each input once.
"""
from functools import partial
from typing import NamedTuple

import numpy as np

from ..format.codings import (context as _coding_context, filtered as _coding_filtered,
                              folded as _coding_folded, lz as _coding_lz, mixed as _coding_mixed,
                              packed as _coding_packed, repeats as _coding_repeats,
                              sequences as _coding_sequences, sorted_rules as _coding_sorted,
                              stored as _coding_stored)
from ..format.codings.registry import (CONTEXT, CONTEXT_LONG, FILTERED, FOLDED, LZ, LZ_PARTS,
                                       MIXED, PACKED, REPEATS, SEQUENCES, SORTED, SORTED_LONG,
                                       STORED)
from ..kernels import case as _case, cutoff as _cutoff, filters as _filters, grammar as _grammar
from ..kernels import incompressible as _incompressible
from ..kernels.xxh64 import block_check
from . import small as _small
from .levels import ENTROPIC_COPY, FIRST_PASS_SLACK, GREEDY_COPY, QUICK, SAMPLE

# The small-input policy's coders (``encoder.small``), the kernels'; looked
# up at each call, so that tests may replace one.
CODERS = _small.Coders(
    lz=lambda data: _coding_lz.encode(data, QUICK)[1],
    mixed=lambda data: _coding_mixed.encode(data),
    primed=lambda data: encode_primed(data),
    check=block_check,
    repeat_counts=_filters.counts, histogram=_filters.histogram, choose_lag=_filters.choose)
# The grammar codings gagebpe writes, each with how it chooses its prefix,
# fastest to decode first.
GRAMMAR_CODINGS = ((PACKED, _cutoff.for_packed, _coding_packed.encode),
                   (SORTED, _cutoff.for_sorted, _coding_sorted.encode),
                   (CONTEXT, _cutoff.for_sorted, _coding_context.encode))
# SORTED and CONTEXT with a table of long rules.
LONG_FORM = {SORTED: SORTED_LONG, CONTEXT: CONTEXT_LONG}

# A probe, or a row's gate, reads PROBE_SLICES slices of PROBE_SLICE bytes
# spread over the block.
PROBE_SLICES = 4
PROBE_SLICE = 1 << 16
# Text shows that merging pays within its first few merges: a probe builds
# these first, and the rest only if they do not already save enough (the
# estimate after a prefix of merges does not depend on later ones, so the
# answer is the same).  The default level's probes of bible.txt and
# world192.txt took 53 and 73 ms, and take 5.
QUICK_PROBE_MERGES = 8


def worth_merging(data, row):
    """Whether to build a grammar for block ``data``: yes, unless its
    ``row`` probes and merging a sample of the block does not save the
    share ``row.probe`` of its estimated size."""
    return not (row.probe and not merges_pay(probe_sample(data), row.counts[0], row.probe))


def probe_sample(data):
    return _filters.sample(data, PROBE_SLICES, PROBE_SLICE)


def merges_pay(data, min_count, gain):
    """Whether merging saves at least the share ``gain`` of ``data``'s
    estimated coded size."""
    for max_merges in (QUICK_PROBE_MERGES, None):
        bits = estimated_bits(data, min_count, partial(_grammar.build, max_merges=max_merges))
        if bits.min() < (1 - gain) * bits[0]:
            return True
    return False


def estimated_bits(data, min_count, build=_grammar.build):
    """The estimated bits of ``data`` coded SORTED after each prefix of
    its merges."""
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    return _cutoff.sorted_bits(build(data, min_count), hist)


def choose_filter(data, min_count, build=_grammar.build):
    """``(filter, lag)`` for block ``data``, or None: the filter, if any,
    under which a sample of the block codes smallest by estimate."""
    lag = _filters.best_lag(data)
    if not lag:
        return None
    part = probe_sample(data)
    best, best_bits = None, estimated_bits(part, min_count, build).min()
    for kind in _filters.FILTERS:
        bits = estimated_bits(_filters.apply(part, kind, lag), min_count, build).min()
        if bits < best_bits:
            best, best_bits = (kind, lag), bits
    return best


class Builds:
    """The grammars of one block's inputs (the block, its filtered and
    folded forms, its samples), each built once: by count at the smallest
    count the row tries, and cut back for a larger one (greedy BPE merges
    in order of non-increasing count: a pair a merge creates occurs at most
    as often as the merge, and other pairs' counts only fall); by gain, at
    the row's own count (without case folding: pairs counted 2 or 3 times
    and folding code the Canterbury corpus 0.4% smaller but decode it
    about a fifth slower)."""

    def __init__(self, smallest):
        self.smallest = smallest
        self.built = {}  # (bytes, by gain) -> grammar

    def __call__(self, data, min_count):
        grammar = self._build(data)
        return _grammar.truncate(grammar, int((grammar.counts >= min_count).sum()))

    def by_gain(self, data, min_count):
        return self._build(data, min_count)

    def _build(self, data, gain_count=None):
        """The grammar of ``data`` by count, or by gain at ``gain_count``."""
        key = (bytes(data), gain_count)
        if key not in self.built:
            self.built[key] = _grammar.build(key[0], gain_count or self.smallest,
                                             by_gain=gain_count is not None)
        return self.built[key]


class Block(NamedTuple):
    """What the tries share: the block's bytes, its level and the level's
    row for its size, whether it is merged at all, its grammars, and the
    payload bytes it is of use only under (None: any)."""
    data: bytes
    level: object
    row: object
    merge: bool
    builds: Builds
    beat: int | None = None


def encode(data, level, merge=None, beat=None):
    """``(coding, payload)`` for one block at ``level`` (an
    ``encoder.levels.Level``): the smallest of what the tries of its row
    give, the earlier on a tie, STORED where none is smaller.  ``merge``:
    whether to build a grammar; None lets the probe decide
    (``worth_merging``).  ``beat``: a payload size the block is of use
    only under (another coding's, beside a dictionary), which a try may
    give up on early (``try_lz``)."""
    data = bytes(data)
    if not data:
        return STORED, data
    row = level.row(len(data))
    if row.entropic_below or row.greedy_below:
        gains = _incompressible.gains(np.frombuffer(data, np.uint8), row.entropic_below,
                                      row.greedy_below)
        if gains == _incompressible.NOTHING:
            return STORED, data
        if gains == _incompressible.REPEATS:
            return encode_entropic(data)
        if gains == _incompressible.SLIGHTLY:
            return encode_greedy(data)
    tries = row.tries
    if (row.small or len(data) < row.alone_below) and _small.lz_alone(data, CODERS):
        if row.small:
            return _small.encode_block(data, "mixed" in tries, CODERS)
        tries = tuple(name for name in tries if name in ("lz", "mixed"))
    return choose(data, level, lz_tries(data, row, tries), merge, beat)


def lz_tries(data, row, tries):
    """``tries`` for block ``data`` after its ``row``'s gates on a sample:
    ``lz`` is kept where the sample codes as LZ to at most ``lz_keep``
    times its grammar's estimate, and alone where that is at most
    ``lz_alone`` times and the block has neither a filter's lag nor
    numbers (``kernels.incompressible.holds_numbers``): the sample
    prices LZ dearer than the block, whose long repeats it misses, but
    arrays of numbers have few such repeats, and a grammar codes them
    smaller where the sample says the two are close."""
    if "lz" not in tries or not row.lz_keep:
        return tries
    ratio = lz_sample_ratio(data, row.counts[0])
    if ratio > row.lz_keep:
        return tuple(name for name in tries if name != "lz")
    if (ratio <= row.lz_alone and not _filters.best_lag(data)
            and not _incompressible.holds_numbers(np.frombuffer(data, np.uint8))):
        return ("lz",)
    return tries


def choose(data, level, tries, merge=None, beat=None):
    """The smallest ``(coding, payload)`` that ``tries`` (names of TRIES)
    give for ``data`` by its row of ``level``, the earlier try's on a tie,
    STORED where none is smaller (``beat`` as ``encode`` takes it)."""
    row = level.row(len(data))
    if merge is None:
        # Only the tries that build grammars read it: a block tried as LZ
        # alone spends no probe on it.
        merge = any(name in MERGING_TRIES for name in tries) and worth_merging(data, row)
    block = Block(data, level, row, merge, Builds(min(row.counts)), beat)
    best = (STORED, data)
    for name in tries:
        coded = TRIES[name](block)
        if coded is not None and len(coded[1]) < len(best[1]):
            best = coded
    return best


def try_grammar(block):
    """The block's grammar by count, at each count the row names."""
    return min((coded_grammar(block, count, block.builds, block.row.fold)
                for count in block.row.counts),
               key=lambda coded: len(coded[1]))


def try_gain(block):
    """The block's grammar by gain, at the row's first count, unless it
    has a filter's lag."""
    if _filters.best_lag(block.data):
        return None
    return coded_grammar(block, block.row.counts[0], block.builds.by_gain, False)


def try_repeats(block):
    """REPEATS: the block's long repeats as copies, its literals coded by
    the grammar tries of the literals' own row."""
    def encode_literals(literals):
        tries = block.level.row(len(literals)).tries
        inner = tuple(name for name in tries if name in GRAMMAR_TRIES)
        return choose(literals, block.level, inner, block.merge)
    return encode_repeats(block.data, encode_literals, block.row.repeats)


def try_lz(block):
    """LZ, by the row's parse, given up on where its first pass comes to
    more than FIRST_PASS_SLACK over what the block must beat; for a parse
    in segments, SEQUENCES or LZ_PARTS of the same parts, whichever the
    parse's ``slack`` says."""
    parse = block.row.parse
    if not parse.segment:
        most = None if block.beat is None else block.beat * (1 + FIRST_PASS_SLACK)
        return _coding_lz.encode(block.data, parse, most)
    parts = _coding_lz.parts(block.data, parse)
    sequences = _coding_sequences.encode(parts)
    tokens = _coding_lz.payload_of(parts)
    if len(sequences) <= len(tokens) * (1 + parse.slack):
        return SEQUENCES, sequences
    return LZ_PARTS, tokens


def try_mixed(block):
    """MIXED, for a block of at most the row's ``mixed_max`` bytes."""
    if len(block.data) > block.row.mixed_max:
        return None
    payload = _coding_mixed.encode(block.data)
    return (MIXED, payload) if payload else None


TRIES = {"grammar": try_grammar, "gain": try_gain, "repeats": try_repeats, "lz": try_lz,
         "mixed": try_mixed}
GRAMMAR_TRIES = ("grammar", "gain")
MERGING_TRIES = (*GRAMMAR_TRIES, "repeats")  # the tries that read ``Block.merge``


def coded_grammar(block, min_count, build, fold):
    """The block coded by its grammar at ``min_count`` from ``build``:
    unmerged where it is not merged, through the filter whose sample codes
    smallest where it has a filter's lag, and case-folded too where
    ``fold`` and that is smaller."""
    data, row = block.data, block.row
    if not block.merge:
        return smallest(data, _grammar.unmerged(data))
    chosen = choose_filter(data, min_count, build)
    if chosen is None:
        best = smallest(data, build(data, min_count), row.context, row.long_rules)
        if (fold and (folded := encode_folded(data, min_count, build, row.long_rules))
                and len(folded[1]) < len(best[1])):
            return folded
        return best
    filtered = _filters.apply(data, *chosen)
    coding, payload = smallest(filtered, build(filtered, min_count), row.context, row.long_rules)
    payload = _coding_filtered.encode(*chosen, coding, payload)
    if coding == STORED or len(payload) >= len(data):
        return STORED, _coding_stored.encode(data)
    return FILTERED, payload


def lz_sample_ratio(data, min_count):
    """How large block ``data``'s sample codes as LZ by one quick parse
    (``encoder.levels.SAMPLE``) against the estimate of its grammar at
    ``min_count``."""
    part = probe_sample(data)
    lz_size = len(_coding_lz.encode(part, SAMPLE)[1])
    return lz_size / (estimated_bits(part, min_count).min() / 8)


def encode_repeats(data, encode_inner, share, find=_coding_repeats.find):
    """``(REPEATS, payload)`` for block ``data``, its literals coded by
    ``encode_inner(literals)``; None if its long repeats (``find``'s)
    cover less than the share ``share`` of it."""
    found = find(data)
    if found is None or len(data) - len(found[0]) < share * len(data):
        return None
    literals, copies = found
    coding, payload = encode_inner(literals)
    return REPEATS, _coding_repeats.encode(copies, len(literals), coding, payload)


def encode_entropic(data):
    """``(REPEATS, payload)`` for block ``data``, whose bytes' frequencies
    gain nothing: its greedy copies (``kernels.greedy``) and its literals
    STORED; ``(STORED, data)`` where that is not smaller."""
    coded = encode_repeats(data, lambda literals: (STORED, _coding_stored.encode(literals)), 0.0,
                           partial(_coding_repeats.find_greedy, shortest=ENTROPIC_COPY))
    return coded if coded is not None and len(coded[1]) < len(data) else (STORED, data)


def encode_greedy(data):
    """``(LZ, payload)`` for block ``data``, whose bytes' frequencies gain
    a little: its greedy copies and its literals, Huffman-coded;
    ``(STORED, data)`` where that is not smaller."""
    payload = _coding_lz.encode_greedy(data, GREEDY_COPY, GREEDY_COPY)
    return (LZ, payload) if len(payload) < len(data) else (STORED, data)


def encode_folded(data, min_count, build=_grammar.build, long_rules=False):
    """``(FOLDED, payload)`` for text block ``data``, or None where it is
    not text (fewer small letters than twice its capitals) or has no two
    byte values to spare for the markers."""
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    markers = _case.markers(hist)
    if markers is None or hist[97:123].sum() < 2 * hist[65:91].sum():
        return None
    folded = _case.fold(np.frombuffer(data, np.uint8), *markers).tobytes()
    coding, payload = smallest(folded, build(folded, min_count), long_rules=long_rules)
    if coding == STORED:
        return None
    return FOLDED, _coding_folded.encode(*markers, len(folded), coding, payload)


def smallest(data, grammar, context=True, long_rules=False):
    """The smallest ``(coding, payload)`` of ``data``, whose grammar is
    ``grammar``, among STORED and the grammar codings (CONTEXT only if
    ``context``).  ``long_rules``: SORTED and CONTEXT take the smaller of
    the grammar's merge table and its table of long rules
    (``format.codings.sorted_rules.numbered``), and where that is the long rules' are
    SORTED_LONG and CONTEXT_LONG."""
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    best = (STORED, _coding_stored.encode(data))
    cut = {}  # the grammar cut back to each prefix asked for
    tables = {}  # and numbered, for SORTED and CONTEXT
    for coding, prefix, encode_grammar in GRAMMAR_CODINGS:
        if coding == CONTEXT and not context:
            continue
        keep = prefix(grammar, hist)
        if keep not in cut:
            cut[keep] = _grammar.truncate(grammar, keep)
        if coding == PACKED:
            payload = encode_grammar(cut[keep], hist)
        else:
            if keep not in tables:
                tables[keep] = _coding_sorted.numbered(cut[keep], hist > 0, long_rules)
            payload = encode_grammar(cut[keep], hist, tables[keep])
            if tables[keep].long_rules:
                coding = LONG_FORM[coding]
        if payload is not None and len(payload) < len(best[1]):
            best = (coding, payload)
    return best


def encode_primed(data):
    """The MIXED_PRIMED payload of ``data`` (bytes, 1 to 4096 of them), or
    None where it would not be smaller than ``data``."""
    return _coding_mixed.encode_primed(data)
