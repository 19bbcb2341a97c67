"""Small inputs against zlib -9: pieces of 16 bytes to 64 KB cut from every
file of the corpus (and of any other directories given), each compressed
on its own, as a small file or a small chunk is.

    python benchmarks/small_inputs.py [--results benchmarks/RESULTS.md] [extra dirs...]

For each piece size: how many pieces, their total compressed size with
zlib -9 and with gagebpe at level 5 (the fastest to decode: no MIXED),
the default level and level 9, how many pieces the default level and
level 9 make larger than zlib -9 and by how much at most, and the median
time to decompress a piece with each, in the same rounds.  Pieces: up to
5 from each file, spread over it.

A second table takes every size from 1 to 128 bytes, up to 20 pieces of
each from each file, where framing is most of the output: how many pieces
each level makes larger than zlib -9, and by how much at most.
"""
import argparse
import statistics
import sys
import time
import zlib
from pathlib import Path

import gagebpe
from gagebpe.encoder.levels import DEFAULT_LEVEL

from _shared import CORPUS, command_line, write_marked

SIZES = (16, 32, 64, 256, 1024, 2048, 4096, 8192, 16384, 32768, 65535)
TINY_SIZES = [(1, 8), (9, 16), (17, 32), (33, 64), (65, 128)]  # every size in each range
TINY_PIECES = 20
LEVELS = (5, DEFAULT_LEVEL, 9)
ROUNDS = 7


def files(extra):
    dirs = ([CORPUS] if CORPUS.is_dir() else []) + [Path(d) for d in extra]
    found = [p for d in dirs for p in sorted(Path(d).iterdir())
             if p.is_file() and p.name != "SHA256SUMS"]
    if not found:
        from gagebpe.sample import sample
        print(f"(no corpus at {CORPUS}: using the built-in sample)")
        return [sample(1 << 20)]
    return [p.read_bytes() for p in found]


def pieces(data, size, most=5):
    step = max(size, len(data) // most)
    return [data[i:i + size] for i in range(0, max(1, len(data) - size + 1), step)
            if len(data[i:i + size]) >= size // 2]


def decode_time(decompress, blobs):
    """Median over ROUNDS of the mean seconds to decompress one blob."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for blob in blobs:
            decompress(blob)
        times.append((time.perf_counter() - start) / len(blobs))
    return statistics.median(times)


def larger(ours, theirs):
    """How many of ``ours`` are larger than ``theirs``, and by how much at most."""
    excess = [len(a) - len(b) for a, b in zip(ours, theirs) if len(a) > len(b)]
    return f"{len(excess)} ({max(excess, default=0)})"


def compressed(chunk):
    """``(zlib -9's blobs, {level: gagebpe's blobs})`` of the pieces
    ``chunk``, every gagebpe blob checked to decompress to its piece."""
    z = [zlib.compress(p, 9) for p in chunk]
    g = {level: [gagebpe.compress(p, level) for p in chunk] for level in LEVELS}
    for blobs in g.values():
        for piece, blob in zip(chunk, blobs):
            assert gagebpe.decompress(blob) == piece
    return z, g


def row(size, datas):
    chunk = [p for data in datas for p in pieces(data, size)]
    z, g = compressed(chunk)
    times = [decode_time(zlib.decompress, z)]
    times += [decode_time(gagebpe.decompress, g[level]) for level in LEVELS]
    return (f"| {size:,} | {len(chunk)} | {sum(map(len, z)):,} "
            + "".join(f"| {sum(map(len, g[level])):,} " for level in LEVELS)
            + f"| {larger(g[DEFAULT_LEVEL], z)} | {larger(g[9], z)} "
            + "".join(f"| {t * 1e6:.1f} " for t in times) + "|")


def tiny_row(low, high, datas):
    """Every size from ``low`` to ``high``: pieces, bytes with zlib -9 and
    each level, and how many pieces each level makes larger than zlib -9."""
    chunk = [p for size in range(low, high + 1) for data in datas
             for p in pieces(data, size, TINY_PIECES) if len(p) == size]
    z, g = compressed(chunk)
    return (f"| {low}–{high} | {len(chunk):,} | {sum(map(len, z)):,} "
            + "".join(f"| {sum(map(len, g[level])):,} " for level in LEVELS)
            + "".join(f"| {larger(g[level], z)} " for level in LEVELS) + "|")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("extra", nargs="*", help="more directories to cut pieces from")
    parser.add_argument("--results", type=Path,
                        help="put the tables in this file (benchmarks/RESULTS.md)")
    args = parser.parse_args()
    datas = files(args.extra)
    gagebpe.decompress(gagebpe.compress(b"warm the kernels " * 50, 9))
    d = DEFAULT_LEVEL
    lines = [f"| piece bytes | pieces | zlib -9 | gagebpe -5 | gagebpe -{d} | gagebpe -9 "
             f"| -{d} larger than zlib -9 (most by) | -9 larger (most by) "
             f"| zlib µs per decompress | -5 µs | -{d} µs | -9 µs |",
             "|---:" * 12 + "|"]
    for size in SIZES:
        lines.append(row(size, datas))
        print(lines[-1], flush=True)
    lines += ["", "| piece bytes (every size) | pieces | zlib -9 "
              + "".join(f"| gagebpe -{level} " for level in LEVELS)
              + "".join(f"| -{level} larger (most by) " for level in LEVELS) + "|",
              "|---:" * (3 + 2 * len(LEVELS)) + "|"]
    for low, high in TINY_SIZES:
        lines.append(tiny_row(low, high, datas))
        print(lines[-1], flush=True)
    table = "\n".join(lines)
    print(table)
    if args.results:
        write_marked(args.results, "small inputs", table,
                     command_line("small_inputs.py", sys.argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
