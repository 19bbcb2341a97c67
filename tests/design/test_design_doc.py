"""docs/DESIGN.md's table of levels is ``encoder.levels.LEVELS``: the
policy is described once, and this holds the description to the code."""
import re
from pathlib import Path

from gagebpe.encoder import block
from gagebpe.encoder.levels import DEFAULT_LEVEL, LEVELS

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "DESIGN.md"


LZ_PARSE = {(False, False): "quick", (True, False): "full", (True, True): "full, first"}


def size(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else str(n)


def row(number, level):
    counts = [*(f"{c} (blocks under {block.QUICK_BELOW >> 10} KiB)" for c in level.small_counts),
              *map(str, level.more_counts)]
    cells = [str(number), size(level.block_size), str(level.min_count), ", ".join(level.tries),
             ", ".join(counts), "yes" if level.probe else "no", size(level.context_from),
             LZ_PARSE[level.lz_full, level.lz_alone], "yes" if level.fold else "no",
             "yes" if level.long_rules else "no"]
    return "| " + " | ".join(cells) + " |"


def test_the_levels_table_is_the_code():
    text = DESIGN.read_text(encoding="utf-8")
    table = re.search(r"<!-- levels: start -->\n(.*?)\n<!-- levels: end -->", text, re.S).group(1)
    rows = table.splitlines()[2:]
    assert rows == [row(number, level) for number, level in sorted(LEVELS.items())]


def test_every_try_a_level_names_exists_and_is_described():
    text = DESIGN.read_text(encoding="utf-8")
    named = {name for level in LEVELS.values() for name in level.tries}
    assert named == set(block.TRIES)
    for name in named:
        assert f"- **{name}**" in text
    assert f"The default is level {DEFAULT_LEVEL}." in text
