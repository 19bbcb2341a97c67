"""Small inputs against zlib -9: pieces of 64 bytes to 8 KB cut from every
file of the corpus (and of any other directories given), each compressed
on its own, as a small file or a small chunk is.

    python benchmarks/small_inputs.py [--readme README.md] [extra dirs...]

For each piece size: how many pieces, their total compressed size with
zlib -9 and with gagebpe -9 (and gagebpe -9 without the MIXED coding,
to show what it adds), how many pieces gagebpe makes larger than zlib -9
and by how much at most, and the median time to decompress a piece with
each, in the same rounds.  Pieces: up to 5 from each file, spread over
it.
"""
import argparse
import statistics
import sys
import time
import zlib
from pathlib import Path

import gagebpe
from gagebpe import _levels

from _shared import CORPUS, command_line, write_readme

SIZES = (64, 256, 1024, 2048, 4096, 8192)
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


def without_mixed(piece):
    """gagebpe -9 as it would code ``piece`` without MIXED."""
    saved = _levels.LEVELS[9]
    _levels.LEVELS[9] = saved._replace(mixed=False)
    try:
        return gagebpe.compress(piece, 9)
    finally:
        _levels.LEVELS[9] = saved


def decode_time(decompress, blobs):
    """Median over ROUNDS of the mean seconds to decompress one blob."""
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for blob in blobs:
            decompress(blob)
        times.append((time.perf_counter() - start) / len(blobs))
    return statistics.median(times)


def row(size, datas):
    chunk = [p for data in datas for p in pieces(data, size)]
    z = [zlib.compress(p, 9) for p in chunk]
    g = [gagebpe.compress(p, 9) for p in chunk]
    plain = [without_mixed(p) for p in chunk]
    for piece, blob in zip(chunk, g):
        assert gagebpe.decompress(blob) == piece
    excess = [len(b) - len(a) for a, b in zip(z, g)]
    losers = [e for e in excess if e > 0]
    t_z, t_g = decode_time(zlib.decompress, z), decode_time(gagebpe.decompress, g)
    return (f"| {size:,} | {len(chunk)} | {sum(map(len, z)):,} | {sum(map(len, g)):,} "
            f"| {sum(map(len, plain)):,} | {len(losers)} | {max(losers, default=0)} "
            f"| {t_z * 1e6:.1f} | {t_g * 1e6:.1f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("extra", nargs="*", help="more directories to cut pieces from")
    parser.add_argument("--readme", type=Path, help="write the table into this README")
    args = parser.parse_args()
    datas = files(args.extra)
    gagebpe.decompress(gagebpe.compress(b"warm the kernels " * 50, 9))
    lines = ["| piece bytes | pieces | zlib -9 bytes | gagebpe -9 bytes "
             "| without MIXED | larger than zlib -9 | most larger by "
             "| zlib µs per decompress | gagebpe µs per decompress |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for size in SIZES:
        lines.append(row(size, datas))
        print(lines[-1], flush=True)
    table = "\n".join(lines)
    print(table)
    if args.readme:
        write_readme(args.readme, "small inputs", table,
                     command_line("small_inputs.py", sys.argv[1:], args.readme))
    return 0


if __name__ == "__main__":
    sys.exit(main())
