"""Compression levels: what each of 1..9 trades.

A level sets the block size, the smallest pair count worth merging, and
whether a large block is first probed with a sample to see if merging pays
at all.  The merge engine's cost is linear in the block, so bigger blocks
cost memory, not time per byte; they find longer repeats and spread the
merge table over more data.  Stopping merges at a higher count skips the
long tail of rare pairs, where most of the merges are; the time goes mostly
to the frequent pairs, so the fast levels save less time than they save
merges.

Imports nothing.
"""
from typing import NamedTuple

DEFAULT_LEVEL = 6


class Level(NamedTuple):
    min_count: int
    block_size: int
    probe: bool
    fold: bool = False  # also code text blocks case-folded, keep the smaller
    context_from: int = 0  # try CONTEXT on blocks of at least this many bytes
    # also build small blocks (``more_counts``: every block) with these
    # smallest pair counts, and keep the smallest coding
    small_counts: tuple = ()
    more_counts: tuple = ()
    repeats: bool = False  # also code blocks with long repeats taken out, keep the smaller
    # also code blocks as LZ, keep the smaller: "small" blocks under 64 KiB
    # by a quick parse, "all" blocks where a sample says it may pay, fully
    lz: str = "small"
    by_gain: bool = False  # also build grammars by gain, keep the smaller
    mixed: bool = False  # also code small blocks MIXED, keep the smaller
    long_rules: bool = False  # write a table of long rules where it is the smaller


# Memory while compressing is at most about 30 bytes per byte of a block; a
# decoder needs only the block and its output.  Merges of pairs counted 3
# times cost about 6% of the decoding speed (more symbols, larger tables):
# only level 9 tries them, on every block, and keeps them where the block
# codes smaller (Canterbury corpus 0.29% smaller, ahead of brotli -11;
# other data 0.6-5.5%, headers.h the most).
#
# CONTEXT decodes from two tables and four code-length streams: below a
# megabyte their setup outweighs the 2-4% it saves for levels 1-6, which
# favour speed (64 KB chunks of the Canterbury texts: 254 us per call with
# it, 185 without, zlib 225; 256 KB: 574, 471 and 795).
CONTEXT_FROM = 1 << 20
# A merge that no id uses and one other merge uses, once, folded into it
# makes a long rule (``kernels.long_rules``); levels 6-9 write the table of long
# rules where it and the code lengths take fewer bytes than the merges'
# (SORTED_LONG, CONTEXT_LONG).  It costs a few milliseconds a block, and
# decoding is as fast: the decoder makes the rules merges again.  Level 6:
# manual pages 2.8-3.2% smaller, a package log 1.5%, a shared library
# 0.9%, the Canterbury corpus 0.02%; level 9: the corpus 0.12%, the log
# 1.7%.  Levels 1-5 keep to the merges, as gagebpe 0.17 wrote them.
# Merges chosen by gain rather than count (``kernels.grammar.build``) code large
# English texts smaller and most other data no smaller (the smaller is
# kept), but cost a second build: only level 9 tries them (bible.txt
# 4.7% smaller, world192.txt 1.8%, Python sources 1.3%).
# Small blocks (``encoder.block.SMALL_BLOCK``) decode in about the time their
# tables take to set up, and there a pair counted 2 or 3 times may still
# pay for its merge: level 9 builds them with each of those smallest counts
# too and keeps the smallest coding (2.3-5.6% smaller on the Canterbury
# files under 64 KB).
# A grammar pays for each rule in its table, a copy where it is used:
# every level also codes a block under 64 KiB as LZ and keeps the smaller
# (the Canterbury files under 64 KB 4-16% smaller than their grammars);
# levels 1-8 by one quick parse, level 9 by five full ones, and level 9
# tries larger blocks too where a sample says LZ may pay (C headers and a
# shared library about 16% smaller).
# A block of a few hundred bytes cannot pay for a grammar's or LZ's tables.
# MIXED decodes at 3-4 MB/s, a hundredth of the other codings' speed,
# but needs none: levels 6-9 (``mixed``) also code a block of at most
# MIXED_MAX bytes as MIXED, where decoding takes under a millisecond, and
# keep the smaller.  Pieces of 64 bytes to 2 KB of the corpus and other
# data code 10-20% smaller at the default level, and all but a few of them
# smaller than zlib -9 makes them (half of the 1 KB pieces were larger), but
# decode some twenty times slower (1 KB in about 0.25 ms against 13 us),
# so levels 1-5 leave it out for stores of many small records that are
# read often (benchmarks/small_inputs.py).
MIXED_MAX = 1 << 11
LEVELS = {
    1: Level(8, 1 << 20, True, context_from=CONTEXT_FROM),
    2: Level(6, 1 << 20, True, context_from=CONTEXT_FROM),
    3: Level(6, 1 << 21, True, context_from=CONTEXT_FROM),
    4: Level(5, 1 << 21, True, context_from=CONTEXT_FROM),
    5: Level(5, 1 << 22, True, context_from=CONTEXT_FROM),
    6: Level(4, 1 << 22, True, context_from=CONTEXT_FROM, mixed=True, long_rules=True),
    7: Level(4, 1 << 23, True, mixed=True, long_rules=True),
    8: Level(4, 1 << 24, True, mixed=True, long_rules=True),
    9: Level(4, 1 << 25, False, True, small_counts=(2,), more_counts=(3,), repeats=True,
             lz="all", by_gain=True, mixed=True, long_rules=True),
}


def settings(level=None):
    """The ``Level`` for ``level`` 1..9 (None means the default)."""
    if level is None:
        level = DEFAULT_LEVEL
    if level not in LEVELS:
        raise ValueError(f"level must be an integer from 1 to 9, not {level!r}")
    return LEVELS[level]
