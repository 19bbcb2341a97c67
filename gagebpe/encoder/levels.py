"""The compression policy as one table, in the shape of zstd's
``clevels.h``: for each level 1 to 9, its block size and, for each size
class of a block, a ``Row`` that names the tries ``encoder.block.encode``
makes on such a block, in the order they are compared, and every setting
they take.  docs/DESIGN.md, "Levels", renders the table and says what each
setting buys.

The size classes: at most 4 KiB (a whole small input, a Zarr chunk),
under 64 KiB (LZ's one parse of the whole block), under 1 MiB, and larger
(where a probe of a sample may skip merging).  The settings every row
shares (the small-input policy's, the dictionaries') are here too; outside
this module are only the format's fixed numbers and how a try works (how
a probe samples a block, ``encoder.block``).
"""
from typing import NamedTuple

DEFAULT_LEVEL = 6
# The largest block the small-input policy takes (``Row.small``).
SMALL_BLOCK = 4 << 10
# A block of fewer bytes than ``CLASSES[i]`` is of size class i; a larger
# one is of the last class.
CLASSES = (SMALL_BLOCK + 1, 1 << 16, 1 << 20)
CLASS_NAMES = ("≤ 4 KiB", "< 64 KiB", "< 1 MiB", "≥ 1 MiB")
# A block of at most this many bytes may be coded MIXED; a whole input
# that small, MIXED_PRIMED (``encoder.small``).
MIXED_MAX = 1 << 11
# The small-input policy's settings (``encoder.small``), the same in every
# row that names it.  A block "LZ codes alone" where it has at most TINY
# bytes (no grammar coding pays for its tables there, whatever the bytes:
# pieces of 256 bytes of DNA, records and runs were never coded smaller
# by one), or more than PACKED_VALUES byte values and no filter's lag.  Up
# to BOTH_MODELS bytes both mixing models are tried; past it, one:
# MIXED_PRIMED where the block looks like text (at most one byte in
# TEXT_OTHER not a text byte, and more than PACKED_VALUES byte values),
# else MIXED, whose model knows nothing of text and so wastes less on
# binary data (docs/DESIGN.md, "Small inputs", says what trying both
# would gain, in twice the time).
TINY = 256
PACKED_VALUES = 16
BOTH_MODELS = 64
TEXT_OTHER = 20
# With a dictionary, a block of at most this many bytes is coded only with
# it (DICTIONARY_IDS or DICTIONARY_LZ) or STORED: a record too short to
# repeat itself; a larger block also tries its level's codings
# (docs/DESIGN.md, Dictionaries).
DICTIONARY_ALONE = 512
# With a dictionary that holds content, a block of at most this many bytes
# also tries copies from it (DICTIONARY_LZ); a larger one gains from the
# content in its first bytes only, and its level's LZ_PARTS follows it
# better: 4 MiB of MIME XML in blocks of the default size codes to the same
# bytes without the try, in 2.3 s instead of 2.9.
DICTIONARY_COPIES = 1 << 16
# A block of the first size class beside a dictionary, which its level
# tries by LZ alone, is tried only where DICTIONARY_IDS_LZ's parse copied
# at least this share of it from itself: LZ within the record alone won
# nothing elsewhere.  Over the 17 record kinds at 1 and 4 KB, the records
# the level coded smaller by 658 bytes in all had 0.65 or more, by 24 bytes
# less (docs/notes/2026-12-06-record-calls.md,
# docs/notes/2026-12-06-record-level-try.md).
OWN_COPIES = 0.65
# Beside a dictionary the level's LZ is a rescue, of use only under the
# dictionary's payload: where its first pass comes to more than this share
# over that, its later passes are not made.  A record's first pass came
# to at most 1.076 times the best of the passes (1.013 the median) over
# the 17 record kinds at 1 and 4 KB beside their dictionaries' merges
# without content, 2,559 records that the floor let through; at 0.05 no
# record lost a byte, at 0.02 six did (``python benchmarks/first_pass.py``,
# docs/notes/2026-12-07-lz-floor.md).
FIRST_PASS_SLACK = 0.1


class Parse(NamedTuple):
    """An LZ parse (``format.codings.lz.encode``): ``passes`` parses, each
    at the prices of the codes the one before gave, over ``candidates``
    earlier positions a position (a hash chain's length); with a
    ``segment``, the block parsed that many bytes at a time over binary
    trees ``candidates`` deep, and coded SEQUENCES unless LZ_PARTS codes
    its parts more than the share ``slack`` smaller."""
    passes: int
    candidates: int
    segment: int = 0
    slack: float = 0.0


# A block parsed in segments is coded SEQUENCES unless LZ_PARTS codes its
# parts more than this share smaller (``Parse.slack``; levels 7-9: 0).  Where
# LZ_PARTS was smaller at level 6 (world192.txt; four files of the other
# data: sources, a source tarball, roff pages) SEQUENCES was 0.04-0.25%
# larger and decoded 1.14-1.20 times as fast
# (docs/notes/2026-12-05-small-block-decoding.md).
SEQUENCES_SLACK = 0.002
# On pieces of 2, 4 and 16 KB of the Canterbury files, the other data and
# source code, QUICK codes 0.3-0.9% smaller than 2 passes over 16
# candidates in 1.2 times their time at 4 KB; FULL gains 0.2-0.5% more in
# twice the time.  Segments of 64 KiB code 0.5% smaller than of 256 KiB.
QUICK = Parse(passes=3, candidates=32)
FULL = Parse(passes=5, candidates=4096)
PARTS = Parse(passes=2, candidates=48, segment=1 << 16, slack=SEQUENCES_SLACK)
# Levels 7 to 9 are made for size: SEQUENCES only where it is not larger.
TIGHT_PARTS = PARTS._replace(slack=0.0)
# A sample's LZ size, for the gates of a row: one parse at the first prices.
SAMPLE = Parse(passes=1, candidates=16)
# A record's LZ beside a dictionary with content (``Level.with_dictionary``):
# one parse, as QUICK's first.  Its later parses gained 0.005% over the 17 record
# kinds at 1 and 4 KB (a dpkg log 0.17%) for twice the try's time
# (docs/notes/2026-12-06-record-level-try.md).
ONE_PASS = Parse(passes=1, candidates=QUICK.candidates)


class Row(NamedTuple):
    """How a level codes a block of one size class."""
    tries: tuple  # names of ``encoder.block.TRIES``, in the order they are compared
    counts: tuple  # the smallest pair counts grammars are built with; the first is the level's
    parse: Parse = None  # the ``lz`` try's
    # A block that coding its bytes by their frequencies would shrink by
    # less than this share (``kernels.incompressible``) takes none of the
    # tries: random, compressed and encrypted data, whose repeats cover
    # less than this share too, are STORED at once; zip archives, PNG
    # images, concatenated gzip files, which repeat themselves, are coded
    # as REPEATS of their greedy copies (``kernels.greedy``) over STORED
    # literals, or STORED where that is not smaller (0: every block is
    # tried).
    entropic_below: float = 0.0
    # A block whose bytes' frequencies save at least ``entropic_below`` but
    # less than this share (GIF and PNG images, PDF files, whose data is
    # compressed but whose frequencies are not quite even) takes none of
    # the tries either, unless it holds numbers (``kernels.incompressible``,
    # LANE_GAIN): it is coded LZ by its greedy copies of at least
    # GREEDY_COPY bytes (``format.codings.lz.encode_greedy``), at a copy
    # finder's speed (0: no such tier).
    greedy_below: float = 0.0
    # ``lz`` is tried only where a sample's LZ size is at most ``lz_keep``
    # times the estimate of its grammar (0: always); the block is tried by
    # ``lz`` alone where it is at most ``lz_alone`` times and the block has
    # no filter's lag (docs/DESIGN.md, "What each try buys", LZ).
    lz_keep: float = 0.0
    lz_alone: float = 0.0
    # A block that LZ codes alone (``encoder.small.lz_alone``) takes the
    # small-input policy (``encoder.small``) where ``small``; else, under
    # ``alone_below`` bytes, it is tried by ``lz`` and ``mixed`` only:
    # below 16 KiB, LZ codes such blocks smaller than their grammars
    # (4 KB pieces of the Canterbury corpus and other data: 95 of 111).
    small: bool = False
    alone_below: int = 0
    mixed_max: int = 0  # the largest block ``mixed`` codes
    # A block whose sample's merges save less than this share of its
    # estimated size is not merged (0: no probe): the engine's time there
    # buys nothing.
    probe: float = 0.0
    # ``repeats`` codes a block whose long repeats cover at least this share
    # of it: less gains too little to pay for coding it twice
    # (plrabn12.txt: 0.4% covered, 0.08% gained).
    repeats: float = 0.0
    context: bool = False  # the grammar tries code CONTEXT too
    fold: bool = False  # a text block is also coded case-folded
    long_rules: bool = False  # SORTED and CONTEXT write a table of long rules where smaller


class Level(NamedTuple):
    block_size: int
    rows: tuple  # a ``Row`` per size class

    def row(self, size):
        """The row for a block of ``size`` bytes."""
        return self.rows[sum(size >= bound for bound in CLASSES)]

    @property
    def mixed(self):
        """Whether the level codes small inputs by context mixing."""
        return "mixed" in self.rows[0].tries

    def with_dictionary(self, content=True):
        """This level as it is tried beside a dictionary's codings: no
        block is tried MIXED, which decodes a hundred times slower than a
        record; a block of the first size class only LZ, since a record
        that small never took a grammar coding
        (docs/notes/2026-12-05-dictionary-records.md), without the
        small-input policy's tests; and LZ by the QUICK parse where the
        level's is FULL.  Beside a dictionary with ``content``, whose
        copies already take a record's repeats of itself, the first size
        class's LZ is a rescue, by ONE_PASS (docs/notes/
        2026-12-06-record-level-try.md); beside one without, it is the
        only coder of those repeats, by QUICK.  Beside the dictionary's
        codings that costs 0.005% at 1-4 KB (the 17 record kinds), and
        0.003-0.04% at 8-32 KB (records joined two to eight at a time; at
        most 0.9%, a dpkg log), in 0.3-0.8 of the try's time
        (docs/notes/2026-12-06-record-calls.md)."""
        def quick(row):
            return QUICK if row.parse == FULL else row.parse

        first, *rest = self.rows
        return self._replace(rows=(
            first._replace(tries=("lz",), parse=ONE_PASS if content else QUICK, small=False),
            *(row._replace(tries=tuple(t for t in row.tries if t != "mixed"), parse=quick(row))
              for row in rest)))

    def each_row(self, **changes):
        """This level with ``changes`` made to every row; a change that is
        a function gets the row and gives the value."""
        return self._replace(rows=tuple(
            row._replace(**{name: change(row) if callable(change) else change
                            for name, change in changes.items()}) for row in self.rows))


# The rows' tries.  Blocks of 64 KiB or more parse LZ only where the level
# parses fully; ``mixed`` codes only blocks of at most MIXED_MAX bytes.
FAST = ("grammar", "lz")
MIXING = ("grammar", "lz", "mixed")
BEST = ("grammar", "gain", "repeats", "lz", "mixed")
BEST_LARGE = ("grammar", "gain", "repeats", "lz")
# 1%: JPEG, xz and random blocks are stored; zip archives, concatenated
# gzip files and PNG images, whose repeats cover 6-70% of them, are coded
# by their copies of at least ENTROPIC_COPY bytes.  On those of
# benchmarks/incompressible.py, that comes within 0.2% of their input of
# LZ_PARTS by the same greedy parse, whose Huffman codes cost more time
# than the parse; copies of at least 12 or 16 bytes lose up to 1.4% and
# 3.1% of it more.
ENTROPIC_BELOW, ENTROPIC_BELOW_9 = 0.01, 0.002
ENTROPIC_COPY = 8
# 10%: the PNG, GIF and PDF files and the wheels of
# benchmarks/incompressible.py save 0-7% by their frequencies, and their
# tries ran at 0.1-6 MB/s to code them 1-4% of their size smaller than
# the greedy copies do, at 150-360 MB/s; the least of the other data (an
# executable's, 19%) and of a TrueType font (15%) gain a fifth more by
# the tries.  Copies of at least 4 bytes, hashed by 4: the PNG file codes
# 1.1% of its size smaller than by 5 or 6, the others alike.
GREEDY_BELOW = 0.10
GREEDY_COPY = 4
# The sample gate (``Row.lz_keep``, ``lz_alone``; ``encoder.block.lz_tries``).
# A sample's slices share no copies, so it prices LZ dearer than the
# whole block: of the 41 files of the other data, the Canterbury corpus
# and the 4 KB record files (benchmarks/lz_gate.py), every one without a
# filter's lag or numbers in lanes whose sample came to at most 1.03
# times its grammar's estimate coded smaller as LZ (22 files, by
# 0.02-30%), so the grammar there is not built: at level 6, the same
# bytes in 5%, 8% and 12% less time on the other data, the Canterbury
# corpus and the record files (docs/notes/2026-12-06-gates-and-buffers.md).
# Arrays of random floats came to 1.01 and 1.03 and coded 0.8% and 2.4%
# smaller by their grammars; above 1.03 the grammar won 12 times of 14.
LZ_KEEP, LZ_ALONE = 1.08, 1.03
ALONE_BELOW = 1 << 14
PROBE = 0.01
_MIX = dict(mixed_max=MIXED_MAX)
_GATES = dict(lz_keep=LZ_KEEP, lz_alone=LZ_ALONE)
_LONG = dict(long_rules=True)
_ALL = dict(context=True, fold=True, long_rules=True, repeats=1 / 128)
_ENTROPIC = dict(entropic_below=ENTROPIC_BELOW, greedy_below=GREEDY_BELOW)
_ENTROPIC_9 = dict(entropic_below=ENTROPIC_BELOW_9, greedy_below=GREEDY_BELOW)

LEVELS = {
    # size class:       ≤ 4 KiB
    #                   < 64 KiB
    #                   < 1 MiB
    #                   ≥ 1 MiB
    1: Level(1 << 20, (Row(FAST, (8,), QUICK, small=True),
                       Row(FAST, (8,), QUICK, alone_below=ALONE_BELOW, **_ENTROPIC),
                       Row(("grammar",), (8,), **_ENTROPIC),
                       Row(("grammar",), (8,), probe=PROBE, context=True, **_ENTROPIC))),
    2: Level(1 << 20, (Row(FAST, (6,), QUICK, small=True),
                       Row(FAST, (6,), QUICK, alone_below=ALONE_BELOW, **_ENTROPIC),
                       Row(("grammar",), (6,), **_ENTROPIC),
                       Row(("grammar",), (6,), probe=PROBE, context=True, **_ENTROPIC))),
    3: Level(1 << 21, (Row(FAST, (6,), QUICK, small=True),
                       Row(FAST, (6,), QUICK, alone_below=ALONE_BELOW, **_ENTROPIC),
                       Row(("grammar",), (6,), **_ENTROPIC),
                       Row(("grammar",), (6,), probe=PROBE, context=True, **_ENTROPIC))),
    4: Level(1 << 21, (Row(FAST, (5,), QUICK, small=True),
                       Row(FAST, (5,), QUICK, alone_below=ALONE_BELOW, **_ENTROPIC),
                       Row(("grammar",), (5,), **_ENTROPIC),
                       Row(("grammar",), (5,), probe=PROBE, context=True, **_ENTROPIC))),
    5: Level(1 << 22, (Row(FAST, (5,), QUICK, small=True),
                       Row(FAST, (5,), QUICK, alone_below=ALONE_BELOW, **_ENTROPIC),
                       Row(("grammar",), (5,), **_ENTROPIC),
                       Row(("grammar",), (5,), probe=PROBE, context=True, **_ENTROPIC))),
    6: Level(1 << 22, (Row(MIXING, (4,), FULL, small=True, **_MIX, **_LONG),
                       Row(FAST, (4,), FULL, **_LONG, **_ENTROPIC),
                       Row(FAST, (4,), PARTS, **_GATES, **_LONG, **_ENTROPIC),
                       Row(FAST, (4,), PARTS, **_GATES, probe=PROBE, context=True, **_LONG,
                           **_ENTROPIC))),
    7: Level(1 << 23, (Row(MIXING, (4,), FULL, small=True, **_MIX, context=True, **_LONG),
                       Row(FAST, (4,), FULL, context=True, **_LONG, **_ENTROPIC),
                       Row(FAST, (4,), TIGHT_PARTS, **_GATES, context=True, **_LONG, **_ENTROPIC),
                       Row(FAST, (4,), TIGHT_PARTS, **_GATES, probe=PROBE, context=True, **_LONG,
                           **_ENTROPIC))),
    8: Level(1 << 24, (Row(MIXING, (4,), FULL, small=True, **_MIX, context=True, **_LONG),
                       Row(FAST, (4,), FULL, context=True, **_LONG, **_ENTROPIC),
                       Row(FAST, (4,), TIGHT_PARTS, **_GATES, context=True, **_LONG, **_ENTROPIC),
                       Row(FAST, (4,), TIGHT_PARTS, **_GATES, probe=PROBE, context=True, **_LONG,
                           **_ENTROPIC))),
    9: Level(1 << 25, (Row(BEST, (4, 2, 3), FULL, small=True, **_MIX, **_ALL),
                       Row(BEST_LARGE, (4, 2, 3), FULL, **_ALL, **_ENTROPIC_9),
                       Row(BEST_LARGE, (4, 3), TIGHT_PARTS, lz_keep=LZ_KEEP, **_ALL,
                           **_ENTROPIC_9),
                       Row(BEST_LARGE, (4, 3), TIGHT_PARTS, lz_keep=LZ_KEEP, **_ALL,
                           **_ENTROPIC_9))),
}


def settings(level=None):
    """The ``Level`` for ``level`` 1..9 (None means the default)."""
    if level is None:
        level = DEFAULT_LEVEL
    if level not in LEVELS:
        raise ValueError(f"level must be an integer from 1 to 9, not {level!r}")
    return LEVELS[level]
