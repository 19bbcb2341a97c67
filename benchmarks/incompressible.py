"""Incompressible inputs: compression speed and size against the input at
every level, with zstd in the same run (issue 55, target 4: at least
100 MB/s at every level, at most 0.1% larger than the input).

    python benchmarks/incompressible.py [FILE ...] [--levels 1,6,9] [--rounds 3]

The inputs are made here from what every machine has: 8 MB of seeded
random bytes, and the built-in sample (``gagebpe.sample``) compressed by
xz, by gzip and into a zip archive of deflated members; the wheels that
CPython bundles (``ensurepip``); and where matplotlib is installed, its
PNG, JPEG and PDF files, each kind concatenated.  FILE arguments (images,
archives, documents) are added as they are.  Times are medians of
rounds; the worst input at each level is named.
"""
import argparse
import gzip
import io
import lzma
import statistics
import time
import zipfile
from pathlib import Path

import numpy as np

import gagebpe
from gagebpe.sample import sample


def inputs(paths):
    text = sample(8 << 20)
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(8):
            z.writestr(f"part{i}.txt", text[i << 20:(i + 1) << 20])
    made = {"random": np.random.default_rng(7).integers(0, 256, 8 << 20, np.uint8).tobytes(),
            "sample.xz": lzma.compress(text), "sample.gz": gzip.compress(text, mtime=0),
            "sample.zip": archive.getvalue()}
    return made | bundled() | {Path(p).name: Path(p).read_bytes() for p in paths}


def bundled():
    """``{name: bytes}`` of compressed files that installed packages hold."""
    import ensurepip
    found = {p.name.split("-")[0] + ".whl": p.read_bytes()
             for p in sorted((Path(ensurepip.__file__).parent / "_bundled").glob("*.whl"))}
    try:
        import matplotlib
    except ImportError:
        return found
    data = Path(matplotlib.__file__).parent / "mpl-data"
    for suffix in ("png", "jpg", "pdf"):
        files = sorted(data.rglob(f"*.{suffix}"))
        if files:
            found[f"matplotlib.{suffix}"] = b"".join(f.read_bytes() for f in files)
    return found


def seconds(fn, data, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        out = fn(data)
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--levels", default="1,2,3,4,5,6,7,8,9")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import zstandard
    codecs = {f"gagebpe -{level}": (lambda d, level=int(level): gagebpe.compress(d, level))
              for level in args.levels.split(",")}
    for level in (3, 19):
        codecs[f"zstd -{level}"] = zstandard.ZstdCompressor(level=level).compress
    data = inputs(args.files)
    gagebpe.compress(data["random"][:1 << 20])  # load the kernels
    print("| input | bytes | " + " | ".join(codecs) + " |")
    print("|---|---:|" + "---:|" * len(codecs))
    worst = {name: (float("inf"), "") for name in codecs}
    for label, blob in data.items():
        cells = []
        for name, fn in codecs.items():
            t, n = seconds(fn, blob, args.rounds)
            speed = len(blob) / t / 1e6
            worst[name] = min(worst[name], (speed, label))
            cells.append(f"{speed:.0f} MB/s, {100 * (n / len(blob) - 1):+.3f}%")
        print(f"| {label} | {len(blob):,} | " + " | ".join(cells) + " |")
    print("| slowest | | " + " | ".join(f"{label} ({speed:.0f} MB/s)"
                                        for speed, label in worst.values()) + " |")


if __name__ == "__main__":
    main()
