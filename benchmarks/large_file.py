"""A generated stream of 1 GiB or more through ``GageBPEFile``, both ways.

    python benchmarks/large_file.py --megabytes 1024 --level 1

Writes the built-in sample text (64 MiB of it, repeated) through
``gagebpe.open(path, "wb")`` in 1 MiB writes, reads it back through
``gagebpe.open(path, "rb")`` in 1 MiB reads, and checks the SHA-256 of what
comes back.  Prints the time and this process's peak resident memory
(VmHWM) before and after each direction, against the block size: memory
must not grow with the stream.
"""
import argparse
import hashlib
import os
import re
import tempfile
import time
from pathlib import Path

import gagebpe
from gagebpe.sample import sample

STEP = 1 << 20


def peak_rss():
    text = Path("/proc/self/status").read_text()
    return int(re.search(r"^VmHWM:\s+(\d+) kB", text, re.M).group(1)) * 1024


def reset_peak():
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=1024)
    parser.add_argument("--level", type=int, default=1)
    args = parser.parse_args()
    chunk = sample(64 << 20)
    total = args.megabytes << 20
    block = gagebpe.Compressor(args.level).block_size
    gagebpe.decompress(gagebpe.compress(chunk[:100_000], args.level))  # load kernels
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.gbpe"
        digest = hashlib.sha256()
        reset_peak()
        base = peak_rss()
        start = time.perf_counter()
        with gagebpe.open(path, "wb", level=args.level) as f:
            for offset in range(0, total, STEP):
                piece = chunk[offset % len(chunk):][:min(STEP, total - offset)]
                digest.update(piece)
                f.write(piece)
        t_write = time.perf_counter() - start
        peak_write = peak_rss()
        reset_peak()
        start = time.perf_counter()
        back = hashlib.sha256()
        size = 0
        with gagebpe.open(path, "rb") as f:
            while piece := f.read(STEP):
                back.update(piece)
                size += len(piece)
        t_read = time.perf_counter() - start
        peak_read = peak_rss()
        assert size == total and back.digest() == digest.digest(), "round trip failed"
        ratio = total / os.path.getsize(path)
    print(f"{total:,} bytes through GageBPEFile at level {args.level} "
          f"({block >> 20} MiB blocks), ratio {ratio:.3f}, SHA-256 verified")
    print(f"resident before: {base / 1e6:.0f} MB (Python, NumPy, Numba, the 64 MiB sample)")
    print(f"write: {t_write:.1f} s, {total / t_write / 1e6:.2f} MB/s, "
          f"peak {peak_write / 1e6:.0f} MB "
          f"({(peak_write - base) / block:.1f} x block size above that)")
    print(f"read:  {t_read:.1f} s, {total / t_read / 1e6:.1f} MB/s, "
          f"peak {peak_read / 1e6:.0f} MB "
          f"({(peak_read - base) / block:.1f} x block size above that)")


if __name__ == "__main__":
    main()
