"""Where a large block's LZ try spends its time (issue 55: compression at
the default level against zstd -19's).

    python benchmarks/lz_stages.py [FILES...] [--rounds 5]

Each file (the other data's where none are named and
``benchmarks/out/other`` holds it, else the built-in sample), up to one
block of the default level, is parsed as that level parses a large
block (``encoder.levels.PARTS``): the binary-tree match finder over each
segment, then the segment's passes (``kernels.lz.best_pass``: parse,
symbols, codes, prices), each stage timed over the whole file, medians
of rounds, nanoseconds per input byte; zstd -19's whole compression of
the same bytes in the same run, for scale.
"""
import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from gagebpe.encoder.levels import DEFAULT_LEVEL, LEVELS, PARTS
from gagebpe.format.codings.lz import first_prices
from gagebpe.kernels import lz
from gagebpe.sample import sample

OTHER = Path(__file__).resolve().parent / "out" / "other"
NAMES = ("stdlib.py", "mime.xml", "usr-bin.elf", "numpy-src.tar", "man-de.roff")


def stages(array):
    """``(seconds finding matches, seconds parsing)`` of one pass over
    ``array`` as PARTS parses it."""
    n = len(array)
    head, tree = lz.finder(n, True)
    prices = first_prices(array, lz.REPS)
    reps = np.array(lz.FIRST_REPS, np.int32)
    finding = parsing = 0.0
    for start in range(0, n, PARTS.segment):
        end = min(start + PARTS.segment, n)
        begun = time.perf_counter()
        found = lz.matches(array, start, end, head, tree, PARTS.candidates, True)
        parsed = time.perf_counter()
        *_, literal, distance = lz.best_pass(array, start, end, *found, reps, lz.REPS,
                                             *prices, PARTS.passes)
        prices = literal, distance
        finding += parsed - begun
        parsing += time.perf_counter() - parsed
    return finding, parsing


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    import zstandard
    block = LEVELS[DEFAULT_LEVEL].block_size
    if args.files:
        inputs = [(Path(f).name, Path(f).read_bytes()[:block]) for f in args.files]
    elif all((OTHER / name).exists() for name in NAMES):
        inputs = [(name, (OTHER / name).read_bytes()[:block]) for name in NAMES]
    else:
        print(f"(no other data at {OTHER}: using the built-in sample)")
        inputs = [("sample", sample(block))]
    stages(np.frombuffer(inputs[0][1][:PARTS.segment], np.uint8))  # compile
    print(f"ns per input byte, median of {args.rounds} rounds; PARTS: {PARTS.candidates} "
          f"candidates, {PARTS.passes} passes, segments of {PARTS.segment:,} bytes")
    print("| file | bytes | matches | passes | both | zstd -19, whole | both / zstd |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, data in inputs:
        array = np.frombuffer(data, np.uint8)
        rows, zstd = [], []
        for _ in range(args.rounds):
            rows.append(stages(array))
            begun = time.perf_counter()
            zstandard.ZstdCompressor(level=19).compress(data)
            zstd.append(time.perf_counter() - begun)
        finding = statistics.median(r[0] for r in rows) / len(data) * 1e9
        parsing = statistics.median(r[1] for r in rows) / len(data) * 1e9
        whole = statistics.median(zstd) / len(data) * 1e9
        print(f"| {name} | {len(data):,} | {finding:.0f} | {parsing:.0f} | "
              f"{finding + parsing:.0f} | {whole:.0f} | {(finding + parsing) / whole:.2f}x |")


if __name__ == "__main__":
    main()
