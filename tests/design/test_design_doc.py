"""docs/DESIGN.md's table of levels is ``encoder.levels.LEVELS``: the
policy is described once, and this holds the description to the code."""
import re
from pathlib import Path

from gagebpe.encoder import block
from gagebpe.encoder.levels import CLASS_NAMES, DEFAULT_LEVEL, LEVELS

DESIGN = Path(__file__).resolve().parents[2] / "docs" / "DESIGN.md"


def size(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"


def parse(p):
    if p is None:
        return ""
    if p.segment:
        sequences = f"within {p.slack:.1%}" if p.slack else "unless larger"
        return (f"{p.passes} × {p.candidates}, trees, parts of {size(p.segment)}, "
                f"SEQUENCES {sequences}")
    return f"{p.passes} × {p.candidates}"


def gates(row):
    said = ["small policy"] if row.small else []
    if row.alone_below:
        said.append(f"LZ alone < {size(row.alone_below)}")
    if row.entropic_below:
        said.append(f"entropic < {share(row.entropic_below)}")
    if row.greedy_below:
        said.append(f"greedy < {share(row.greedy_below)}")
    if row.lz_keep:
        said.append(f"LZ if ≤ {row.lz_keep}×")
    if row.lz_alone:
        said.append(f"alone if ≤ {row.lz_alone}×")
    return "; ".join(said)


def share(fraction):
    return f"{fraction:.1%}" if fraction else ""


def yes(flag):
    return "yes" if flag else ""


def table_rows():
    """The levels table's rows, one per level and size class."""
    for number, level in sorted(LEVELS.items()):
        for i, (name, row) in enumerate(zip(CLASS_NAMES, level.rows)):
            first = i == 0  # the level and its block size head its rows
            cells = [str(number) if first else "", size(level.block_size) if first else "", name,
                     ", ".join(row.tries),
                     ", ".join(map(str, row.counts)), parse(row.parse), gates(row),
                     size(row.mixed_max) if row.mixed_max else "", share(row.probe),
                     share(row.repeats),
                     yes(row.context), yes(row.fold), yes(row.long_rules)]
            yield "| " + " | ".join(cells) + " |"


def test_the_levels_table_is_the_code():
    text = DESIGN.read_text(encoding="utf-8")
    table = re.search(r"<!-- levels: start -->\n(.*?)\n<!-- levels: end -->", text, re.S).group(1)
    rows = table.splitlines()[2:]
    assert rows == list(table_rows())


def test_every_try_a_level_names_exists_and_is_described():
    text = DESIGN.read_text(encoding="utf-8")
    named = {name for level in LEVELS.values() for row in level.rows for name in row.tries}
    assert named == set(block.TRIES)
    for name in named:
        assert f"- **{name}**" in text
    assert f"The default is level {DEFAULT_LEVEL}." in text
