"""Compression levels: what each of 1..9 trades.

A level sets the block size and the smallest pair count worth merging.  The
merge engine's cost is linear in the block, so bigger blocks cost memory, not
time per byte; they find longer repeats and spread the merge table over more
data.  Stopping merges at a higher count skips the long tail of rare pairs,
where most of the merges are; the time goes mostly to the frequent pairs,
so the fast levels save less time than they save merges.
"""
DEFAULT_LEVEL = 6

# level: (min_count, block_size).  Memory while compressing is about 26
# bytes per byte of a block (docs/FORMAT.md has no say in it: a decoder
# needs only the block and its output).
LEVELS = {
    1: (8, 1 << 20),
    2: (6, 1 << 20),
    3: (6, 1 << 21),
    4: (5, 1 << 21),
    5: (5, 1 << 22),
    6: (4, 1 << 22),
    7: (3, 1 << 23),
    8: (2, 1 << 24),
    9: (2, 1 << 25),
}


def settings(level=None):
    """``(min_count, block_size)`` for ``level`` (None means the default)."""
    if level is None:
        level = DEFAULT_LEVEL
    if level not in LEVELS:
        raise ValueError(f"level must be an integer from 1 to 9, not {level!r}")
    return LEVELS[level]
