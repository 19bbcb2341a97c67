"""Compression levels as data: for each of 1 to 9, the block size, the
smallest pair count worth a merge, and the tries (``encoder.block.TRIES``)
it makes on each block, in order.  docs/DESIGN.md, "Levels", says what
each setting buys and what it costs; the measurements live there.
"""
from typing import NamedTuple

DEFAULT_LEVEL = 6
# Blocks of at least this many bytes are tried as CONTEXT at levels 1-6.
CONTEXT_FROM = 1 << 20
# A block of at most this many bytes may be coded MIXED (``mixed`` tries).
MIXED_MAX = 1 << 11
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


class Level(NamedTuple):
    min_count: int  # the smallest pair count worth a merge
    block_size: int
    tries: tuple  # names of ``encoder.block.TRIES``, in the order they are compared
    probe: bool = True  # a large block whose sample gains nothing from merges is not merged
    fold: bool = False  # a text block is also coded case-folded
    context_from: int = CONTEXT_FROM  # blocks of at least this many bytes try CONTEXT
    small_counts: tuple = ()  # blocks under 64 KiB are also built with these counts
    more_counts: tuple = ()  # every block is also built with these counts
    # LZ parses: without ``lz_full``, quick ones of blocks under 64 KiB; with
    # it, full ones of any block where its sample says LZ may pay; with
    # ``lz_alone`` too, a large block whose sample says LZ wins clearly is
    # coded by LZ alone (encoder.block.lz_tries)
    lz_full: bool = False
    lz_alone: bool = False
    long_rules: bool = False  # SORTED and CONTEXT write a table of long rules where smaller

    @property
    def mixed(self):
        """Whether the level codes small blocks by context mixing."""
        return "mixed" in self.tries


FAST = ("grammar", "lz")
MIXING = ("grammar", "lz", "mixed")
BEST = ("grammar", "gain", "repeats", "lz", "mixed")
LEVELS = {
    1: Level(8, 1 << 20, FAST),
    2: Level(6, 1 << 20, FAST),
    3: Level(6, 1 << 21, FAST),
    4: Level(5, 1 << 21, FAST),
    5: Level(5, 1 << 22, FAST),
    6: Level(4, 1 << 22, MIXING, lz_full=True, lz_alone=True, long_rules=True),
    7: Level(4, 1 << 23, MIXING, context_from=0, lz_full=True, lz_alone=True, long_rules=True),
    8: Level(4, 1 << 24, MIXING, context_from=0, lz_full=True, lz_alone=True, long_rules=True),
    9: Level(4, 1 << 25, BEST, probe=False, fold=True, context_from=0, small_counts=(2,),
             more_counts=(3,), lz_full=True, long_rules=True),
}


def settings(level=None):
    """The ``Level`` for ``level`` 1..9 (None means the default)."""
    if level is None:
        level = DEFAULT_LEVEL
    if level not in LEVELS:
        raise ValueError(f"level must be an integer from 1 to 9, not {level!r}")
    return LEVELS[level]
