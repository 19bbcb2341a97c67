"""One block: bytes <-> (coding, payload).

A block of at most ``encoder.small.SMALL_BLOCK`` bytes that LZ codes alone
(text, source, logs) takes the small-input policy (``encoder.small``), which the
plain path runs too.  Any other block's encoding is a pipeline, top to
bottom:

1. probe: at levels that ask for it, a large block whose sample does not
   gain from merging is not merged (random or compressed data, DNA);
2. filter: where the block repeats bytes at a fixed distance, the filter
   (``kernels.filters``) whose sample codes smallest by estimate, if any;
3. build the grammar of the (filtered) bytes (``kernels.grammar``: full-pass
   merges, then incremental);
4. for each coding, keep the prefix of merges worth keeping (``kernels.cutoff``)
   and code the block (``format.codings.stored``, ``format.codings.packed``,
   ``format.codings.sorted_rules``, ``format.codings.context``); a filtered block is framed by
   ``format.codings.filtered``;
5. take the smallest payload, the faster to decode on a tie;
6. at level 9, code a text block case-folded too (``kernels.case``, framed by
   ``format.codings.folded``), and keep that where it is smaller;
7. at level 9, code the block again with its long repeats taken out as
   copies (``format.codings.repeats``) and the rest through steps 1-6, and keep
   that where it is smaller;
8. code the block as LZ too (``format.codings.lz``: literals and copies, no
   grammar) if it is small (levels 1-8: by a quick parse), or at level 9
   if a sample of it codes smaller as LZ than a grammar's estimate by
   LZ_SAMPLE_GAIN, and keep that where it is smaller.  Levels 1-8 code a
   block under LZ_ALONE_BELOW bytes as LZ alone (no steps 1-7) unless it
   looks like data a grammar codes better (``encoder.small.lz_alone``);
9. at levels 6-9, code a block of at most MIXED_MAX bytes MIXED too
   (``format.codings.mixed``: each bit by a context-mixing model with a match
   model), and keep that where it is smaller.

Framing and checking the block is the container's (``format.container``);
decoding it, the registry's (``format.registry``).

Imports ``_errors``, ``format.container`` (the coding numbers), ``encoder.levels``
(MIXED_MAX), ``kernels.filters``, ``kernels.case``, ``kernels.grammar``, ``kernels.cutoff`` and the
coding modules.
"""
from functools import partial

import numpy as np

from ..kernels import case as _case, filters as _filter, grammar as _grammar, cutoff as _prefix
from ..format.codings import (context as _coding_context, filtered as _coding_filtered,
                              folded as _coding_folded, lz as _coding_lz, mixed as _coding_mixed,
                              packed as _coding_packed, repeats as _coding_repeats,
                              sorted_rules as _coding_sorted, stored as _coding_stored)
from . import small as _small
from ..kernels.xxh64 import block_check
from ..format.registry import (CONTEXT, CONTEXT_LONG, FILTERED, FOLDED, LZ, MIXED, PACKED,
                               REPEATS, SORTED, SORTED_LONG, STORED)
from .levels import MIXED_MAX

# The small-input policy's coders (``encoder.small``), the kernels'; looked up at
# each call, so that tests may replace one.
CODERS = _small.Coders(
    lz=lambda data: _coding_lz.encode(data, quick=True),
    mixed=lambda data: _coding_mixed.encode(data),
    primed=lambda data: encode_primed(data),
    check=block_check,
    repeat_counts=_filter.counts, histogram=_filter.histogram)
# The grammar codings gagebpe writes, each with how it chooses its prefix,
# fastest to decode first.
GRAMMAR_CODINGS = ((PACKED, _prefix.for_packed, _coding_packed.encode),
                   (SORTED, _prefix.for_sorted, _coding_sorted.encode),
                   (CONTEXT, _prefix.for_sorted, _coding_context.encode))
# SORTED and CONTEXT with a table of long rules.
LONG_FORM = {SORTED: SORTED_LONG, CONTEXT: CONTEXT_LONG}

# Probing: PROBE_SLICES slices of PROBE_SLICE bytes spread over a block of
# at least PROBE_FROM bytes.  A block whose merges save less than PROBE_GAIN
# of the sample's estimated size is coded without merges: the engine's time
# there buys nothing.
PROBE_SLICES = 4
PROBE_SLICE = 1 << 16
PROBE_FROM = 4 * PROBE_SLICES * PROBE_SLICE
PROBE_GAIN = 0.01
# Text shows that merging pays within its first few merges: a probe builds
# these first, and the rest only if they do not already save PROBE_GAIN
# (the estimate after a prefix of merges does not depend on later ones, so
# the answer is the same).  The default level's probes of bible.txt and
# world192.txt took 53 and 73 ms, and take 5.
QUICK_PROBE_MERGES = 8
# Blocks under this size may be built with several smallest pair counts
# (``small_counts``): they are cheap to build, and their decoding time is
# mostly setup, which more merges hardly change.
SMALL_BLOCK = 1 << 16
# Long repeats covering less of a block than this gain too little to pay
# for coding it twice (plrabn12.txt: 0.4% covered, 0.08% gained).
REPEATS_SHARE = 1 / 128
# A grammar gains more from a whole block than from its sample: a large
# block is coded as LZ too only where its sample's quick LZ size is this
# much smaller than the sample's grammar is estimated to be (C headers,
# Python sources and a shared library 0.84-0.91, where LZ gains 1-17%;
# the Canterbury texts, E.coli and ptt5 1.0-1.12, where it loses).
LZ_SAMPLE_GAIN = 0.92
# Below LZ_ALONE_BELOW bytes, LZ codes a block smaller than its grammar
# unless the block has a fixed stride (a filter's lag) or so few byte
# values that PACKED codes each in a few bits: 4 KB pieces of the
# Canterbury corpus and of other data, 95 of 111 by LZ, the rest all
# FILTERED (spreadsheet, bitmap, library) or PACKED (DNA).  There the
# levels that favour speed code the block as LZ alone.
LZ_ALONE_BELOW = 1 << 14
# A block's grammar by gain (level 9) merges pairs counted at least this
# often, and is built without case folding: pairs counted 2 or 3 times and
# folding code the Canterbury corpus 0.4% smaller but decode it about a
# fifth slower (1.68 and 2.12 times zlib's speed).
GAIN_MIN_COUNT = 4


def worth_merging(data, min_count, probe):
    """Whether to build a grammar for block ``data``: yes, unless ``probe``
    is set and merging a sample of a large block does not pay."""
    return not (probe and len(data) >= PROBE_FROM
                and not merges_pay(probe_sample(data), min_count))


def probe_sample(data):
    return _filter.sample(data, PROBE_SLICES, PROBE_SLICE)


def merges_pay(data, min_count):
    """Whether merging saves at least PROBE_GAIN of ``data``'s estimated
    coded size."""
    for max_merges in (QUICK_PROBE_MERGES, None):
        bits = estimated_bits(data, min_count, partial(_grammar.build, max_merges=max_merges))
        if bits.min() < (1 - PROBE_GAIN) * bits[0]:
            return True
    return False


def estimated_bits(data, min_count, build=_grammar.build):
    """The estimated bits of ``data`` coded SORTED after each prefix of
    its merges."""
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    return _prefix.sorted_bits(build(data, min_count), hist)


def choose_filter(data, min_count, build=_grammar.build):
    """``(filter, lag)`` for block ``data``, or None: the filter, if any,
    under which a sample of the block codes smallest by estimate."""
    lag = _filter.best_lag(data)
    if not lag:
        return None
    part = probe_sample(data)
    best, best_bits = None, estimated_bits(part, min_count, build).min()
    for kind in _filter.FILTERS:
        bits = estimated_bits(_filter.apply(part, kind, lag), min_count, build).min()
        if bits < best_bits:
            best, best_bits = (kind, lag), bits
    return best


class BuiltOnce:
    """``build(data, min_count)`` for several smallest pair counts at most
    ``smallest``, each input built only once.  Greedy BPE merges in order
    of non-increasing count (a pair a merge creates occurs at most as often
    as the merge, and other pairs' counts only fall), so the grammar at a
    larger smallest count is the one at ``smallest`` cut back to its merges
    counted that many times or more."""

    def __init__(self, smallest):
        self.smallest = smallest
        self.built = {}  # bytes -> grammar: the few inputs of one small block

    def __call__(self, data, min_count):
        data = bytes(data)
        if data not in self.built:
            self.built[data] = _grammar.build(data, self.smallest)
        grammar = self.built[data]
        return _grammar.truncate(grammar, int((grammar.counts >= min_count).sum()))


def encode(data, min_count=2, probe=False, merge=None, fold=False, context_from=0,
           small_counts=(), more_counts=(), repeats=False, lz="", by_gain=False,
           mixed=False, long_rules=False, build=_grammar.build):
    """``(coding, payload)`` for one block: the smallest of its codings,
    preferring the faster to decode on a tie (STORED, PACKED, SORTED).
    ``merge``: whether to build a grammar; None decides by
    ``worth_merging(data, min_count, probe)``.  ``fold``: also code a text
    block case-folded (FOLDED), and keep it if smaller.  CONTEXT is tried
    only for blocks of at least ``context_from`` bytes.  The block is also
    built with each smallest pair count of ``small_counts`` if under
    SMALL_BLOCK bytes, and of ``more_counts``; the smallest coding is kept
    (the first count's on a tie).  ``repeats``: also code the block with
    its long repeats taken out (REPEATS), and keep that if smaller.
    ``lz``: also code the block as LZ, and keep that if smaller: "small",
    a block under SMALL_BLOCK bytes by a quick parse; "all", any block
    where ``lz_may_pay``.  ``by_gain``: also build the block's grammar by
    gain (``kernels.grammar.build``), and keep that where it codes smaller,
    unless the block has a filter's lag.  ``mixed``: also code a block of
    at most MIXED_MAX bytes as MIXED, and keep that if smaller.
    ``long_rules``: SORTED and CONTEXT take the table of long rules where
    it is the smaller (``smallest``).  ``build(data, min_count)`` gives the
    grammars."""
    data = bytes(data)
    if not data:
        return STORED, data
    if lz and len(data) <= _small.SMALL_BLOCK and _small.lz_alone(data, CODERS):
        return _small.encode_block(data, mixed, CODERS)
    if mixed:
        best = encode(data, min_count, probe, merge, fold, context_from, small_counts,
                      more_counts, repeats, lz, by_gain, long_rules=long_rules)
        payload = _coding_mixed.encode(data) if len(data) <= MIXED_MAX else None
        return (MIXED, payload) if payload and len(payload) < len(best[1]) else best
    if lz == "small" and len(data) < LZ_ALONE_BELOW and _small.lz_alone(data, CODERS):
        payload = _coding_lz.encode(data, quick=True)
        return (LZ, payload) if len(payload) < len(data) else (STORED, data)
    if lz:
        best = encode(data, min_count, probe, merge, fold, context_from, small_counts,
                      more_counts, repeats, by_gain=by_gain, long_rules=long_rules)
        if len(data) < SMALL_BLOCK if lz == "small" else lz_may_pay(data, min_count):
            coded = LZ, _coding_lz.encode(data, quick=lz == "small")
            if len(coded[1]) < len(best[1]):
                return coded
        return best
    if repeats:
        def inner(part):
            return encode(part, min_count, probe, merge, fold, context_from, small_counts,
                          more_counts, by_gain=by_gain, long_rules=long_rules)
        best = inner(data)
        wrapped = encode_repeats(data, inner)
        return wrapped if wrapped and len(wrapped[1]) < len(best[1]) else best
    if by_gain:
        best = encode(data, min_count, probe, merge, fold, context_from, small_counts,
                      more_counts, long_rules=long_rules)
        if _filter.best_lag(data):
            return best
        gained = encode(data, GAIN_MIN_COUNT, probe, merge, False, context_from,
                        long_rules=long_rules, build=build_by_gain)
        return gained if len(gained[1]) < len(best[1]) else best
    counts = (min_count, *(small_counts if len(data) < SMALL_BLOCK else ()), *more_counts)
    if len(counts) > 1:
        build = BuiltOnce(min(counts))
        return min((encode(data, count, probe, merge, fold, context_from,
                           long_rules=long_rules, build=build)
                    for count in counts), key=lambda coded: len(coded[1]))
    if merge is None:
        merge = worth_merging(data, min_count, probe)
    if not merge:
        return smallest(data, _grammar.unmerged(data))
    context = len(data) >= context_from
    chosen = choose_filter(data, min_count, build)
    if chosen is None:
        best = smallest(data, build(data, min_count), context, long_rules)
        if (fold and (folded := encode_folded(data, min_count, build, long_rules))
                and len(folded[1]) < len(best[1])):
            return folded
        return best
    filtered = _filter.apply(data, *chosen)
    coding, payload = smallest(filtered, build(filtered, min_count), context, long_rules)
    payload = _coding_filtered.encode(*chosen, coding, payload)
    if coding == STORED or len(payload) >= len(data):
        return STORED, _coding_stored.encode(data)
    return FILTERED, payload


def build_by_gain(data, min_count):
    return _grammar.build(data, min_count, by_gain=True)


def lz_may_pay(data, min_count):
    """Whether to code block ``data`` as LZ too: if it is under SMALL_BLOCK
    bytes, or its sample codes smaller as LZ (``format.codings.lz.quick_size``)
    by LZ_SAMPLE_GAIN than by the estimate of its grammar at
    ``min_count``."""
    if len(data) < SMALL_BLOCK:
        return True
    part = probe_sample(data)
    return _coding_lz.quick_size(part) < (
        LZ_SAMPLE_GAIN * estimated_bits(part, min_count).min() / 8)


def encode_repeats(data, encode_inner):
    """``(REPEATS, payload)`` for block ``data``, its literals coded by
    ``encode_inner(literals)``; None if its long repeats cover less than
    REPEATS_SHARE of it."""
    found = _coding_repeats.find(data)
    if found is None or len(data) - len(found[0]) < REPEATS_SHARE * len(data):
        return None
    literals, copies = found
    coding, payload = encode_inner(literals)
    return REPEATS, _coding_repeats.encode(copies, len(literals), coding, payload)


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
