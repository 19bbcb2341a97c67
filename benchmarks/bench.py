"""Compress and decompress every file of a corpus with gagebpe and its peers,
in one run, and print per-file and total ratio and MB/s.

    python benchmarks/bench.py                      # Canterbury, or the built-in sample
    python benchmarks/bench.py DIR --levels 1,6,9 --repeat 3 --readme README.md

Every codec's output is decompressed and compared with the input; a mismatch
stops the run.  Speeds are the total bytes over the total of each file's
best time out of ``--repeat`` runs.  Peers beyond the standard library (zstd,
lz4, brotli) are used when installed: ``pip install -e '.[bench]'``.
"""
import argparse
import bz2
import lzma
import sys
import time
import zlib
from pathlib import Path

import gagebpe
from gagebpe.sample import sample

ROOT = Path(__file__).resolve().parents[1]
CANTERBURY = ROOT.parent / "shared" / "corpus" / "canterbury"
TABLE_START = "<!-- benchmark table: start -->"
TABLE_END = "<!-- benchmark table: end -->"


def peers():
    """name -> (compress, decompress) for the peers that are installed."""
    codecs = {
        "zlib -6": (lambda d: zlib.compress(d, 6), zlib.decompress),
        "zlib -9": (lambda d: zlib.compress(d, 9), zlib.decompress),
        "bz2 -9": (lambda d: bz2.compress(d, 9), bz2.decompress),
        "xz -6": (lambda d: lzma.compress(d, preset=6), lzma.decompress),
    }
    try:
        import zstandard
        for level in (3, 19):
            codecs[f"zstd -{level}"] = (
                zstandard.ZstdCompressor(level=level).compress,
                zstandard.ZstdDecompressor().decompress)
    except ImportError:
        pass
    try:
        import lz4.frame
        codecs["lz4"] = (lz4.frame.compress, lz4.frame.decompress)
    except ImportError:
        pass
    try:
        import brotli
        codecs["brotli -11"] = (lambda d: brotli.compress(d, quality=11),
                                brotli.decompress)
    except ImportError:
        pass
    return codecs


def gagebpe_codecs(levels):
    return {f"gagebpe -{level}": (
        lambda d, level=level: gagebpe.compress(d, level), gagebpe.decompress)
        for level in levels}


def best_time(fn, arg, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(arg)
        best = min(best, time.perf_counter() - start)
    return result, best


def load_corpus(directory):
    if directory is None:
        if CANTERBURY.is_dir():
            directory = CANTERBURY
        else:
            print(f"(no corpus at {CANTERBURY}: using the built-in sample)")
            return {"sample": sample()}
    return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir())
            if p.is_file() and p.name != "SHA256SUMS"}


def run(corpus, codecs, repeat):
    """rows[codec][file] = (original, compressed, compress s, decompress s)"""
    rows = {}
    for name, (compress, decompress) in codecs.items():
        rows[name] = {}
        for fname, data in corpus.items():
            blob, t_comp = best_time(compress, data, repeat)
            restored, t_dec = best_time(decompress, blob, repeat)
            if restored != data:
                sys.exit(f"{name} failed to round-trip {fname}")
            rows[name][fname] = (len(data), len(blob), t_comp, t_dec)
        print(f"  {name}: done", file=sys.stderr, flush=True)
    return rows


def totals(per_file):
    orig = sum(r[0] for r in per_file.values())
    comp = sum(r[1] for r in per_file.values())
    t_comp = sum(r[2] for r in per_file.values())
    t_dec = sum(r[3] for r in per_file.values())
    return orig / comp, orig / t_comp / 1e6, orig / t_dec / 1e6


def total_table(rows):
    lines = ["| codec | ratio | compress MB/s | decompress MB/s |",
             "|---|---:|---:|---:|"]
    for name, per_file in rows.items():
        ratio, c, d = totals(per_file)
        lines.append(f"| {name} | {ratio:.3f} | {c:.2f} | {d:.1f} |")
    return "\n".join(lines)


def per_file_table(rows, corpus):
    names = list(rows)
    lines = ["| file | bytes | " + " | ".join(names) + " |",
             "|---|---:|" + "---:|" * len(names)]
    for fname, data in corpus.items():
        ratios = [f"{rows[n][fname][0] / rows[n][fname][1]:.2f}" for n in names]
        lines.append(f"| {fname} | {len(data):,} | " + " | ".join(ratios) + " |")
    return "\n".join(lines)


def write_readme(readme, text):
    content = readme.read_text()
    start = content.index(TABLE_START) + len(TABLE_START)
    end = content.index(TABLE_END)
    readme.write_text(content[:start] + "\n" + text + "\n" + content[end:])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", help="directory of files "
                        "(default: the Canterbury corpus, else a built-in sample)")
    parser.add_argument("--levels", default=str(gagebpe.DEFAULT_LEVEL),
                        help="gagebpe levels, comma-separated")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time each operation this many times, keep the best")
    parser.add_argument("--peers", default="all",
                        help="comma-separated peer names, or 'all' or 'none'")
    parser.add_argument("--readme", type=Path,
                        help="write the totals table into this README")
    args = parser.parse_args(argv)

    corpus = load_corpus(args.corpus)
    warm = b"warm the kernels up " * 100
    gagebpe.decompress(gagebpe.compress(warm))
    codecs = gagebpe_codecs([int(x) for x in args.levels.split(",")])
    available = peers()
    if args.peers == "all":
        codecs.update(available)
    elif args.peers != "none":
        for name in args.peers.split(","):
            codecs[name] = available[name]

    size = sum(len(d) for d in corpus.values())
    print(f"corpus: {len(corpus)} files, {size:,} bytes; best of {args.repeat}\n")
    rows = run(corpus, codecs, args.repeat)
    print(per_file_table(rows, corpus) + "\n")
    table = total_table(rows)
    print(table)
    if args.readme:
        note = (f"{len(corpus)} files, {size:,} bytes, one process, one thread, "
                f"best of {args.repeat}; `python benchmarks/bench.py "
                f"--levels {args.levels} --repeat {args.repeat}`.")
        write_readme(args.readme, table + "\n\n" + note)


if __name__ == "__main__":
    main()
