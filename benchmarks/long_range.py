"""Blocks against long-range repeats: a level at several block sizes beside
zstd -19 on whole large files.

    python benchmarks/other_data.py --large benchmarks/out/large
    python benchmarks/long_range.py benchmarks/out/large --block-sizes 4,8,16 --rounds 3

A block reaches no byte before it, so repeats farther apart than a block
(a source tarball's files, a directory of libraries) are lost; zstd -19
matches across a sliding window of 8 MiB.  For each file, gagebpe at
``--level`` with each block size (MiB) and zstd -19, every coder once a
round; compression medians of ``--rounds``, decompression of 5 rounds.
Each line gives the ratio, and each speed, also as a share of zstd's.
"""
import argparse
from pathlib import Path

from _shared import median, timed

import gagebpe


def compare(data, level, block_sizes, rounds):
    """``{coder: (compressed size, compression s, decompression s)}``."""
    import zstandard
    coders = {"zstd -19": (lambda: zstandard.ZstdCompressor(level=19).compress(data),
                           zstandard.ZstdDecompressor().decompress)}
    for size in block_sizes:
        coders[f"-{level} {size} MiB"] = (
            lambda size=size: gagebpe.compress(data, level, block_size=size << 20),
            gagebpe.decompress)
    blobs, times = {}, {name: ([], []) for name in coders}
    for _ in range(rounds):
        for name, (compress, _) in coders.items():
            blobs[name], seconds = timed(compress)
            times[name][0].append(seconds)
    for _ in range(5):
        for name, (_, decompress) in coders.items():
            back, seconds = timed(lambda: decompress(blobs[name]))
            if back != data:
                raise SystemExit(f"{name} decoded other bytes")
            times[name][1].append(seconds)
    return {name: (len(blobs[name]), median(times[name][0]), median(times[name][1]))
            for name in coders}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--level", type=int, default=gagebpe.DEFAULT_LEVEL)
    parser.add_argument("--block-sizes", default="4,8,16", help="MiB, comma-separated")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    block_sizes = [int(s) for s in args.block_sizes.split(",")]
    gagebpe.decompress(gagebpe.compress(b"warm up the kernels " * 100, args.level))
    print("| file | coder | ratio | vs zstd -19 | compress MB/s | vs zstd | decompress MB/s "
          "| vs zstd |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for path in sorted(args.directory.iterdir()):
        data = path.read_bytes()
        found = compare(data, args.level, block_sizes, args.rounds)
        z_size, z_compress, z_decompress = found["zstd -19"]
        for name, (size, compress, decompress) in found.items():
            print(f"| {path.name} | {name} | {len(data) / size:.3f} | {z_size / size:.3f}× "
                  f"| {len(data) / compress / 1e6:.2f} | {z_compress / compress:.2f}× "
                  f"| {len(data) / decompress / 1e6:.0f} | {z_decompress / decompress:.2f}× |",
                  flush=True)


if __name__ == "__main__":
    main()
