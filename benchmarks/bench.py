"""Compress and decompress every file of a corpus with gagebpe and its peers,
in one run, and print per-file and total ratio, MB/s and peak memory.

    python benchmarks/bench.py                      # Canterbury, or the built-in sample
    python benchmarks/bench.py --levels 1,6,9 --repeat 5 --decompress-repeat 15 \
        --results benchmarks/RESULTS.md --readme README.md --chart docs/benchmark.png
    python benchmarks/bench.py --scaling            # 1, 4, 16, 64 MB of the built-in sample
    python benchmarks/bench.py --threads-only       # the corpus as one stream, 1 and 2 threads

Every codec's output is decompressed and compared with the input; a mismatch
stops the run.  Speeds are the total bytes over the total of each file's
median time over ``--repeat`` rounds, and also given as ratios to zlib -6's
in the same run.  Peak memory is the largest rise of the
process's resident set during one operation (Linux: VmHWM, reset through
/proc/self/clear_refs), so it counts Numba's allocations too.  Peers beyond
the standard library (zstd, lz4, brotli) and the chart (matplotlib) need
``pip install -e '.[bench]'``; missing ones are skipped.
"""
import argparse
import bz2
import lzma
import os
import re
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path

import gagebpe
from gagebpe.sample import sample

sys.path.insert(0, str(Path(__file__).parent))
from _shared import command_line, write_marked  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CANTERBURY = ROOT.parent / "shared" / "corpus" / "canterbury"
# The README's summary: these codecs, when measured, in this order.
SUMMARY = ("gagebpe -1", "gagebpe -6", "gagebpe -9", "zlib -9", "bz2 -9", "xz -6", "zstd -19",
           "brotli -11")


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
    codecs = {f"gagebpe -{level}": (
        lambda d, level=level: gagebpe.compress(d, level), gagebpe.decompress)
        for level in levels}
    # Gage's 1994 format, written byte for byte as his program writes it.
    codecs["gagebpe gage1994"] = (gagebpe.gage1994.compress, gagebpe.gage1994.decompress)
    return codecs


def _status(field):
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    match = re.search(rf"^{field}:\s+(\d+) kB", text, re.M)
    return int(match.group(1)) * 1024 if match else 0


def _reset_peak():
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def measure(fn, arg, repeat):
    """``(result, best seconds, peak bytes)`` of ``fn(arg)`` over ``repeat``
    runs; the peak is the rise of resident memory above where it started."""
    best = float("inf")
    peak = 0
    for _ in range(repeat):
        _reset_peak()
        before = _status("VmRSS")
        start = time.perf_counter()
        result = fn(arg)
        best = min(best, time.perf_counter() - start)
        peak = max(peak, _status("VmHWM") - before)
    return result, best, peak


def load_corpus(directory):
    if directory is None:
        if CANTERBURY.is_dir():
            directory = CANTERBURY
        else:
            print(f"(no corpus at {CANTERBURY}: using the built-in sample)")
            return {"sample": sample()}
    return {p.name: p.read_bytes() for p in sorted(Path(directory).iterdir())
            if p.is_file() and p.name != "SHA256SUMS"}


def _seconds(fn, arg):
    start = time.perf_counter()
    fn(arg)
    return time.perf_counter() - start


def run(corpus, codecs, repeat, decompress_repeat):
    """rows[codec][file] = (original, compressed, compress s, decompress s),
    the median of ``repeat`` rounds of compression and ``decompress_repeat``
    of decompression.  Each round times every codec on every file in turn,
    so that a slow spell of this shared machine slows all of them alike
    instead of whichever codec it happens to fall on; the median keeps one
    spell, fast or slow, from deciding a figure."""
    blobs = {}
    for name, (compress, decompress) in codecs.items():
        for fname, data in corpus.items():
            blobs[name, fname] = compress(data)
            if decompress(blobs[name, fname]) != data:
                sys.exit(f"{name} failed to round-trip {fname}")
    times = {key: ([], []) for key in blobs}
    for round_ in range(max(repeat, decompress_repeat)):
        # A codec's files one after another, as a user compresses or
        # decompresses a batch of them.
        for step, rounds in ((0, repeat), (1, decompress_repeat)):
            if round_ >= rounds:
                continue
            for name, codec in codecs.items():
                for fname, data in corpus.items():
                    arg = blobs[name, fname] if step else data
                    times[name, fname][step].append(_seconds(codec[step], arg))
        print(f"  round {round_ + 1} done", file=sys.stderr, flush=True)
    return {name: {fname: (len(data), len(blobs[name, fname]))
                   + tuple(statistics.median(t) for t in times[name, fname])
                   for fname, data in corpus.items()}
            for name in codecs}


def totals(per_file):
    """ratio, compress MB/s, decompress MB/s, compress and decompress peak MB"""
    orig = sum(r[0] for r in per_file.values())
    comp = sum(r[1] for r in per_file.values())
    t_comp = sum(r[2] for r in per_file.values())
    t_dec = sum(r[3] for r in per_file.values())
    m_comp = max(r[4] for r in per_file.values())
    m_dec = max(r[5] for r in per_file.values())
    return orig / comp, orig / t_comp / 1e6, orig / t_dec / 1e6, m_comp / 1e6, m_dec / 1e6


def total_table(rows, against="zlib -6"):
    """The totals of each codec; speeds also as ratios to ``against``'s."""
    base = totals(rows[against]) if against in rows else None
    lines = ["| codec | ratio | compress MB/s | decompress MB/s "
             f"| compress vs {against} | decompress vs {against} "
             "| compress peak MB | decompress peak MB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, per_file in rows.items():
        ratio, c, d, mc, md = totals(per_file)
        vs = f"{c / base[1]:.2f}x | {d / base[2]:.2f}x" if base else "- | -"
        lines.append(f"| {name} | {ratio:.3f} | {c:.2f} | {d:.1f} | {vs} "
                     f"| {mc:.0f} | {md:.0f} |")
    return "\n".join(lines)


def chart(rows, path):
    """Ratio against compression speed, one point per codec."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(matplotlib not installed: no chart)")
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, per_file in rows.items():
        ratio, c, _, _, _ = totals(per_file)
        ours = name.startswith("gagebpe")
        ax.scatter(c, ratio, color="tab:red" if ours else "tab:blue", zorder=3)
        ax.annotate(name, (c, ratio), textcoords="offset points", xytext=(5, 4),
                    fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("compression speed, MB/s (log scale)")
    ax.set_ylabel("compression ratio")
    ax.set_title("Canterbury corpus, one thread")
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"chart written to {path}")


def scaling(level, sizes_mb=(1, 4, 16, 64)):
    """Time per MB and peak memory for the built-in sample at each size."""
    lines = ["| size MB | compress s/MB | decompress s/MB | compress peak MB "
             "| decompress peak MB | ratio |", "|---:|---:|---:|---:|---:|---:|"]
    for mb in sizes_mb:
        data = sample(mb << 20)
        blob, t_comp, m_comp = measure(lambda d: gagebpe.compress(d, level), data, 1)
        restored, t_dec, m_dec = measure(gagebpe.decompress, blob, 1)
        if restored != data:
            sys.exit(f"scaling: {mb} MB failed to round-trip")
        lines.append(f"| {mb} | {t_comp / mb:.3f} | {t_dec / mb:.4f} | "
                     f"{m_comp / 1e6:.0f} | {m_dec / 1e6:.0f} | {len(data) / len(blob):.3f} |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def threads_case(corpus, level, repeat, counts=(1, 2)):
    """The corpus as one stream (its files concatenated in name order), so
    that its blocks can be coded in parallel: MB/s with each thread count,
    and the speed-up over one thread."""
    data = b"".join(corpus.values())
    lines = [f"Threads: the corpus as one stream ({len(data):,} bytes, "
             f"{-(-len(data) // gagebpe.Compressor(level).block_size)} blocks), "
             f"level {level}, median of {repeat}.", "",
             "| threads | compress MB/s | decompress MB/s | compress speed-up "
             "| decompress speed-up |", "|---:|---:|---:|---:|---:|"]
    blob = gagebpe.compress(data, level)
    for n in counts:
        if gagebpe.compress(data, level, threads=n) != blob:
            sys.exit(f"threads={n}: output differs from one thread's")
        if gagebpe.decompress(blob, threads=n) != data:
            sys.exit(f"threads={n}: round trip failed")
    times = {n: ([], []) for n in counts}
    for _ in range(repeat):  # thread counts in turn, as in run()
        for n in counts:
            times[n][0].append(_seconds(lambda d: gagebpe.compress(d, level, threads=n), data))
            times[n][1].append(_seconds(lambda b: gagebpe.decompress(b, threads=n), blob))
    medians = {n: [statistics.median(t) for t in times[n]] for n in counts}
    t_comp1, t_dec1 = medians[counts[0]]
    for n in counts:
        t_comp, t_dec = medians[n]
        lines.append(f"| {n} | {len(data) / t_comp / 1e6:.2f} | {len(data) / t_dec / 1e6:.1f} "
                     f"| {t_comp1 / t_comp:.2f}x | {t_dec1 / t_dec:.2f}x |")
        print(lines[-1], flush=True)
    return "\n".join(lines)


def per_file_table(rows, corpus, column=lambda row: f"{row[0] / row[1]:.3f}",
                   total=lambda per_file: f"{totals(per_file)[0]:.3f}"):
    """Each file's ratio with each codec, and the total; or another
    ``column`` of each file's row and its ``total``."""
    names = list(rows)
    lines = ["| file | bytes | " + " | ".join(names) + " |",
             "|---|---:|" + "---:|" * len(names)]
    for fname, data in corpus.items():
        cells = [column(rows[n][fname]) for n in names]
        lines.append(f"| {fname} | {len(data):,} | " + " | ".join(cells) + " |")
    size = sum(len(d) for d in corpus.values())
    cells = [f"**{total(rows[n])}**" for n in names]
    lines.append(f"| **total** | {size:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def per_file_speeds(rows, corpus):
    """Each file's decompression MB/s with each codec, and the total's."""
    return per_file_table(rows, corpus, lambda row: f"{row[0] / row[3] / 1e6:.0f}",
                          lambda per_file: f"{totals(per_file)[2]:.0f}")


def summary_table(rows, against="zlib -6"):
    """The README's table: SUMMARY's totals, speeds as ratios to ``against``'s."""
    base = totals(rows[against])
    lines = [f"| codec | ratio | compress speed vs {against} | decompress speed vs {against} |",
             "|---|---:|---:|---:|"]
    for name in SUMMARY:
        if name in rows:
            ratio, c, d, _, _ = totals(rows[name])
            lines.append(f"| {name} | {ratio:.3f} | {c / base[1]:.2f}x | {d / base[2]:.2f}x |")
    return "\n".join(lines)


def memory_peaks(name, corpus_arg, levels):
    """Peak memory of ``name`` on each file, measured in a child process.

    glibc raises its mmap threshold after large frees, then keeps freed
    blocks resident, hiding later peaks: the child pins the threshold so
    that large buffers are mapped and unmapped and the resident high-water
    mark sees each one.  (That slows allocation, so timing stays here.)"""
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072")
    args = [sys.executable, __file__, "--memory-child", name, "--levels", levels]
    if corpus_arg:
        args.insert(2, corpus_arg)
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
    return {line.split("\t")[0]: tuple(int(x) for x in line.split("\t")[1:])
            for line in out.splitlines() if "\t" in line}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", help="directory of files "
                        "(default: the Canterbury corpus, else a built-in sample)")
    parser.add_argument("--levels", default=str(gagebpe.DEFAULT_LEVEL),
                        help="gagebpe levels, comma-separated")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time each operation this many times, keep the median")
    parser.add_argument("--decompress-repeat", type=int,
                        help="rounds of decompression timing (default: 3 x --repeat)")
    parser.add_argument("--peers", default="all",
                        help="comma-separated peer names, or 'all' or 'none'")
    parser.add_argument("--results", type=Path,
                        help="write the tables into this file (benchmarks/RESULTS.md)")
    parser.add_argument("--marker", default="benchmark table",
                        help="the results' section to write (its <!-- marker: start --> line)")
    parser.add_argument("--readme", type=Path, help="write the summary table into this README")
    parser.add_argument("--chart", type=Path, help="write a PNG chart here")
    parser.add_argument("--scaling", action="store_true",
                        help="run the scaling case (1-64 MB) instead")
    parser.add_argument("--threads-only", action="store_true",
                        help="run only the threads case (the corpus as one stream)")
    parser.add_argument("--memory-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.scaling and "MALLOC_MMAP_THRESHOLD_" not in os.environ:
        # Measured in this process: pin glibc's mmap threshold (see
        # memory_peaks) before anything is allocated.
        env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072")
        os.execve(sys.executable, [sys.executable, __file__] + sys.argv[1:], env)
    warm = sample(1 << 16)  # large enough for every block coding's kernels
    gagebpe.decompress(gagebpe.compress(warm))
    if args.scaling:
        print(scaling(int(args.levels.split(",")[0])))
        return
    corpus = load_corpus(args.corpus)
    if args.threads_only:
        for level in (1, gagebpe.DEFAULT_LEVEL):
            print(threads_case(corpus, level, args.repeat) + "\n")
        return
    codecs = gagebpe_codecs([int(x) for x in args.levels.split(",")])
    available = peers()
    if args.memory_child:
        compress, decompress = {**codecs, **available}[args.memory_child]
        for fname, data in corpus.items():
            blob, _, m_comp = measure(compress, data, 1)
            _, _, m_dec = measure(decompress, blob, 1)
            print(f"{fname}\t{m_comp}\t{m_dec}")
        return
    if args.peers == "all":
        codecs.update(available)
    elif args.peers != "none":
        for name in args.peers.split(","):
            codecs[name] = available[name]

    size = sum(len(d) for d in corpus.values())
    decompress_repeat = args.decompress_repeat or 3 * args.repeat
    rounds = (f"median of {args.repeat} rounds (decompression: "
               f"{decompress_repeat}), every codec in each round")
    print(f"corpus: {len(corpus)} files, {size:,} bytes; {rounds}\n")
    rows = run(corpus, codecs, args.repeat, decompress_repeat)
    for name, per_file in rows.items():
        peaks = memory_peaks(name, args.corpus, args.levels)
        for fname, row in per_file.items():
            per_file[fname] = row + peaks[fname]
    files = per_file_table(rows, corpus)
    print(files + "\n")
    speeds = per_file_speeds(rows, corpus)
    print(speeds + "\n")
    table = total_table(rows)
    print(table + "\n")
    threads = "\n\n".join(threads_case(corpus, level, args.repeat)
                            for level in (1, gagebpe.DEFAULT_LEVEL))
    if args.chart:
        chart(rows, args.chart)
    command = command_line("bench.py", sys.argv[1:] if argv is None else argv)
    if args.results:
        note = (f"{len(corpus)} files, {size:,} bytes, one process, one thread, "
                f"{rounds}.")
        write_marked(args.results, args.marker, "\n\n".join(
            [table, note, "Ratio per file:", files, "Decompression MB/s per file:", speeds,
             threads]),
            command)
    if args.readme:
        write_marked(args.readme, "summary table", summary_table(rows), command)

if __name__ == "__main__":
    main()
