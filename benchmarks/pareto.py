"""Each gagebpe level beside every setting of its peers, per corpus: which
peer setting, if any, is at least as small and at least as fast both ways
(dominates it), and the share of input bytes each level codes through a
merge table.

    python benchmarks/pareto.py                     # Canterbury, or the built-in sample
    python benchmarks/other_data.py benchmarks/out/other
    python benchmarks/pareto.py ../shared/corpus/canterbury benchmarks/out/other \
        --rounds 3 --results benchmarks/RESULTS.md --charts docs

The peers' settings: zstd -1 to -22, xz 0 to 9 and 0e to 9e, brotli 0 to 11,
bzip2 1 to 9, zlib 1 to 9 (those installed; ``--peers zstd,xz`` picks
families).  Every codec runs on every file in each round (bench.py's
``run``), so a slow spell of the shared machine slows all alike; figures
are corpus totals over each file's median time.  Besides the table, the
issue's targets are checked on each corpus: the default level against
zstd -19 (ratio, decompression and compression speed, per file and in
total), level 9 against the better ratio of xz -9e and brotli -11 and
twice brotli -11's decompression speed.
"""
import argparse
import bz2
import json
import lzma
import os
import sys
import zlib
from pathlib import Path

import gagebpe
from gagebpe.format.codings.registry import HEAD_BYTES, codings_of, merge_count, name
from gagebpe.format.container import Parser
from gagebpe.sample import sample

sys.path.insert(0, str(Path(__file__).parent))
from _shared import command_line, write_marked  # noqa: E402
from bench import load_corpus, run, totals  # noqa: E402

LEVELS = range(1, 10)
RESULTS = Path(__file__).parent / "RESULTS.md"
OUT = Path(__file__).parent / "out"  # each corpus's figures as JSON, to draw again


def _xz(preset):
    return (lambda d: lzma.compress(d, preset=preset), lzma.decompress)


def peer_settings(families):
    """name -> (compress, decompress) for every setting of the installed
    peers in ``families``."""
    codecs = {}
    if "zlib" in families:
        for level in range(1, 10):
            codecs[f"zlib -{level}"] = (lambda d, lv=level: zlib.compress(d, lv), zlib.decompress)
    if "bz2" in families:
        for level in range(1, 10):
            codecs[f"bz2 -{level}"] = (lambda d, lv=level: bz2.compress(d, lv), bz2.decompress)
    if "xz" in families:
        for level in range(10):
            codecs[f"xz -{level}"] = _xz(level)
            codecs[f"xz -{level}e"] = _xz(level | lzma.PRESET_EXTREME)
    if "zstd" in families:
        try:
            import zstandard
            decompressor = zstandard.ZstdDecompressor()
            for level in range(1, 23):
                codecs[f"zstd -{level}"] = (zstandard.ZstdCompressor(level=level).compress,
                                            decompressor.decompress)
        except ImportError:
            print("(zstandard not installed: no zstd)", file=sys.stderr)
    if "brotli" in families:
        try:
            import brotli
            for quality in range(12):
                codecs[f"brotli -{quality}"] = (
                    lambda d, q=quality: brotli.compress(d, quality=q), brotli.decompress)
        except ImportError:
            print("(brotli not installed: no brotli)", file=sys.stderr)
    return codecs


def gagebpe_levels(levels):
    return {f"gagebpe -{level}": (lambda d, lv=level: gagebpe.compress(d, lv),
                                  gagebpe.decompress) for level in levels}


def block_codings(blob):
    """``[(codings, original bytes, rules), ...]`` of each block of the
    single stream ``blob``, read with the container's parser."""
    parser, view, at, blocks = Parser(), memoryview(blob), 0, []
    while not parser.done:
        if parser.expecting_payload:
            block = parser.block
            payload = bytes(view[at:at + block.payload_size])
            blocks.append((codings_of(block.coding, payload), block.size,
                           merge_count(block.coding, payload[:HEAD_BYTES])))
            at += block.payload_size
            parser.skip_payload()
            continue
        _, n = parser.parse(view[at:])
        at += n
    return blocks


def shares(corpus, level):
    """``(share through a merge table, {innermost coding: share})`` of the
    input bytes of ``corpus`` at ``level``."""
    total = sum(len(d) for d in corpus.values())
    merged, by_coding = 0, {}
    for data in corpus.values():
        for codings, size, rules in block_codings(gagebpe.compress(data, level)):
            merged += size if rules else 0
            coding = name(codings[-1])
            by_coding[coding] = by_coding.get(coding, 0) + size
    ranked = sorted(by_coding.items(), key=lambda kv: -kv[1])
    return merged / total, {c: n / total for c, n in ranked}


def dominators(point, peers):
    """The peer settings at least as small and as fast both ways as
    ``point`` (ratio, compress MB/s, decompress MB/s), best ratio first."""
    ratio, comp, dec = point
    found = [(p[0], n) for n, p in peers.items()
             if p[0] >= ratio and p[1] >= comp and p[2] >= dec]
    return [n for _, n in sorted(found, reverse=True)]


def level_table(points, peers, shares_by_level):
    lines = ["| level | ratio | compress MB/s | decompress MB/s | through merges "
             "| dominated by |", "|---|---:|---:|---:|---:|---|"]
    for level, (ratio, comp, dec) in points.items():
        found = dominators((ratio, comp, dec), peers)
        shown = ", ".join(found[:3]) + (f" (+{len(found) - 3})" if len(found) > 3 else "")
        lines.append(f"| {level} | {ratio:.3f} | {comp:.2f} | {dec:.0f} "
                     f"| {shares_by_level[level]:.0%} | {shown or '**none**'} |")
    return "\n".join(lines)


def front(points):
    """The settings no other one of ``points`` dominates, by ratio."""
    kept = {n: p for n, p in points.items()
            if not any(q != p and q[0] >= p[0] and q[1] >= p[1] and q[2] >= p[2]
                       for m, q in points.items() if m != n)}
    return dict(sorted(kept.items(), key=lambda kv: -kv[1][0]))


def front_table(points):
    lines = ["| setting | ratio | compress MB/s | decompress MB/s |", "|---|---:|---:|---:|"]
    for n, (ratio, comp, dec) in front(points).items():
        bold = "**" if n.startswith("gagebpe") else ""
        lines.append(f"| {bold}{n}{bold} | {ratio:.3f} | {comp:.2f} | {dec:.0f} |")
    return "\n".join(lines)


def _vs(ours, theirs):
    return f"{ours / theirs:.3f}x"


def target_lines(points, rows, default):
    """The issue's targets 1 and 2 on this corpus, as measured."""
    lines = []
    ours = points.get(f"gagebpe -{default}")
    zstd = points.get("zstd -19")
    if ours and zstd:
        lines.append(f"- default (-{default}) against zstd -19: ratio {_vs(ours[0], zstd[0])}, "
                     f"decompression {_vs(ours[2], zstd[2])}, compression {_vs(ours[1], zstd[1])}")
        worst = min(rows[f"gagebpe -{default}"],
                    key=lambda f: rows["zstd -19"][f][1] / rows[f"gagebpe -{default}"][f][1])
        ratio = rows["zstd -19"][worst][1] / rows[f"gagebpe -{default}"][worst][1]
        lines.append(f"- worst file's ratio against zstd -19: {worst} {ratio:.3f}x")
    nine = points.get("gagebpe -9")
    best = max((points[n] for n in ("xz -9e", "brotli -11") if n in points),
               key=lambda p: p[0], default=None)
    if nine and best:
        line = f"- -9 against the better of xz -9e and brotli -11: ratio {_vs(nine[0], best[0])}"
        if "brotli -11" in points:
            line += f", decompression {_vs(nine[2], points['brotli -11'][2])} brotli -11's"
        lines.append(line)
    return "\n".join(lines)


COLORS = {"gagebpe": "tab:red", "zlib": "tab:blue", "bz2": "tab:orange", "xz": "tab:green",
          "xz -e": "tab:olive", "zstd": "tab:purple", "brotli": "tab:brown"}


def family_of(name):
    """A chart's line: the codec, xz's extreme presets on a line of their own."""
    codec = name.split(" ")[0]
    return "xz -e" if codec == "xz" and name.endswith("e") else codec


def chart(points, title, path):
    """Ratio against decompression and against compression speed, a line
    per family through its settings."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    families = {}
    for n, p in points.items():
        families.setdefault(family_of(n), []).append((n, p))
    for ax, axis, label in ((axes[0], 2, "decompression"), (axes[1], 1, "compression")):
        for family, members in families.items():
            ours = family == "gagebpe"
            xs = [p[axis] for _, p in members]
            ys = [p[0] for _, p in members]
            ax.plot(xs, ys, "o-" if ours else ".-", label=family, lw=2 if ours else 1,
                    color=COLORS.get(family), zorder=3 if ours else 2, ms=6 if ours else 4)
            if ours:
                for n, p in members:
                    ax.annotate(n.split(" ")[1], (p[axis], p[0]), textcoords="offset points",
                                xytext=(4, 3), fontsize=8, color="tab:red")
        ax.set_xscale("log")
        ax.set_xlabel(f"{label} speed, MB/s (log scale)")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("compression ratio")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"{title}: every setting, one thread")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    print(f"chart written to {path}", file=sys.stderr)


def title_of(directory):
    return Path(directory).name if directory else "canterbury"


def corpus_section(directory, args):
    corpus = load_corpus(directory)
    title = title_of(directory)
    size = sum(len(d) for d in corpus.values())
    print(f"{title}: {len(corpus)} files, {size:,} bytes", file=sys.stderr)
    levels = [int(level) for level in args.levels.split(",")]
    codecs = {**gagebpe_levels(levels), **peer_settings(args.peers.split(","))}
    rows = run(corpus, codecs, args.rounds, 3 * args.rounds)
    points = {n: totals({f: r + (0, 0) for f, r in per_file.items()})[:3]
              for n, per_file in rows.items()}
    OUT.mkdir(exist_ok=True)
    (OUT / f"pareto-{title}.json").write_text(json.dumps({"points": points, "rows": rows}))
    ours = {int(n.split("-")[1]): p for n, p in points.items() if n.startswith("gagebpe")}
    peers = {n: p for n, p in points.items() if not n.startswith("gagebpe")}
    merged = {}
    for level in levels:
        merged[level], by_coding = shares(corpus, level)
        print(f"  -{level}: " + ", ".join(f"{c} {s:.0%}" for c, s in by_coding.items()),
              file=sys.stderr)
    parts = [f"**{title}**: {len(corpus)} files, {size:,} bytes; median of {args.rounds} "
             f"rounds (decompression: {3 * args.rounds}).",
             level_table(ours, peers, merged),
             target_lines(points, rows, gagebpe.DEFAULT_LEVEL),
             "The front (no setting at least as small and as fast both ways):",
             front_table(points)]
    if args.charts:
        path = args.charts / f"pareto-{title}.png"
        chart(points, title, path)
        link = os.path.relpath(path, (args.results or RESULTS).parent)
        parts.insert(3, f"![{title}: ratio against speed]({link})")
    return "\n\n".join(parts)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", help="directories of files (default: "
                        "the Canterbury corpus, else the built-in sample)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="compression rounds; decompression has three times as many")
    parser.add_argument("--levels", default=",".join(map(str, LEVELS)),
                        help="gagebpe levels, comma-separated (default: all)")
    parser.add_argument("--peers", default="zstd,xz,brotli,bz2,zlib",
                        help="comma-separated families")
    parser.add_argument("--results", type=Path, help="write each corpus's tables into this "
                        "file, between its <!-- pareto: NAME --> markers")
    parser.add_argument("--charts", type=Path, help="write a chart per corpus into this folder")
    args = parser.parse_args(argv)
    warm = sample(1 << 16)
    gagebpe.decompress(gagebpe.compress(warm))
    for directory in args.corpora or [None]:
        section = corpus_section(directory, args)
        print(section + "\n", flush=True)
        if args.results:
            write_marked(args.results, f"pareto: {title_of(directory)}", section,
                         command_line("pareto.py", sys.argv[1:] if argv is None else argv))


if __name__ == "__main__":
    main()
