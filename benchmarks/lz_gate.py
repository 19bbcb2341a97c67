"""The sample gate of a level's large-block rows, file by file: what it
predicts against what each try gives (``encoder.levels.LZ_KEEP``,
``LZ_ALONE``).

    python benchmarks/lz_gate.py [DIRECTORIES or FILES...] [--level 6]

For each file (the other data's, the Canterbury corpus's and the 4 KB
record files' where none are named; benchmarks/other_data.py and
benchmarks/records.py make the first and the last), up to one block of
the level: the ratio of its sample's LZ size to its grammar's estimate
(``encoder.block.lz_sample_ratio``), its filter's lag (0: none), its
bytes' gain by lanes (``kernels.incompressible.lane_gain``: numbers), the
tries the gate leaves, and the size and time of the grammar try and of
the LZ try each run alone on the whole block.  The gate is right where
the tries it leaves include the smaller of the two; "alone" is safe where
every file at or under its figure, without a lag or numbers, codes
smaller as LZ.
"""
import argparse
import time
from pathlib import Path

import numpy as np

from gagebpe.encoder import block, levels
from gagebpe.kernels import filters, incompressible

HERE = Path(__file__).resolve().parent
DEFAULTS = (HERE / "out" / "other", HERE.parents[1] / "shared" / "corpus" / "canterbury",
            *sorted((HERE / "out" / "records").glob("*-4096.rec")))


def files(paths):
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.is_file())
        elif path.is_file():
            yield path


def tried_alone(data, level, name):
    """``(bytes, seconds)`` of block ``data`` coded by the try ``name`` alone."""
    start = time.perf_counter()
    coded = block.choose(data, level, (name,))
    return len(coded[1]), time.perf_counter() - start


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--level", type=int, default=levels.DEFAULT_LEVEL)
    args = parser.parse_args(argv)
    level = levels.settings(args.level)
    print("| file | sample ratio | lag | lanes | tries left | grammar bytes | s | LZ bytes | s "
          "| LZ / grammar |")
    print("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|")
    for path in files(args.paths or DEFAULTS):
        data = path.read_bytes()[:level.block_size]
        row = level.row(len(data))
        if not row.lz_keep:
            continue
        ratio = block.lz_sample_ratio(data, row.counts[0])
        tries = block.lz_tries(data, row, row.tries)
        grammar, grammar_s = tried_alone(data, level, "grammar")
        lz, lz_s = tried_alone(data, level, "lz")
        lanes = incompressible.lane_gain(np.frombuffer(data, np.uint8))
        print(f"| {path.name} | {ratio:.3f} | {filters.best_lag(data)} | {lanes:.3f} "
              f"| {', '.join(tries)} | {grammar:,} | {grammar_s:.2f} | {lz:,} | {lz_s:.2f} "
              f"| {lz / grammar:.3f} |", flush=True)


if __name__ == "__main__":
    main()
