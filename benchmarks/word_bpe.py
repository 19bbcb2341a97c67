"""Word-level BPE beside subword-nmt, in one run, one thread.

    python benchmarks/word_bpe.py                   # bible.txt, or the built-in sample
    python benchmarks/word_bpe.py --scale 1,4,16    # and the corpus repeated 4 and 16 times
    python benchmarks/word_bpe.py --results benchmarks/RESULTS.md

Word-level BPE against subword-nmt (``pip install subword-nmt``): learning
10,000 merges and applying them, both in this process, every output
compared; the codes must be byte-identical and the segmented text too.
Applying goes once over the whole text and once a line per call (and
``encode`` a line per call), each on a tokenizer with nothing cached;
subword-nmt's ``process_line`` always goes a line per call.
Times are medians of ``--repeat`` rounds, each round running both tools.
Peak memory is the rise of the resident set while learning, measured in a
child process (VmHWM, reset through /proc/self/clear_refs), against the
size of the text.
"""
import argparse
import io
import os
import sys
from pathlib import Path

from _shared import BIBLE, command_line, load_text, median, peak_in_child, timed, write_marked

os.environ.setdefault("TQDM_DISABLE", "1")  # subword-nmt's progress bar

MERGES = 10000


def word_level(text, repeat):
    """Rows of (what, gagebpe s, subword-nmt s, ratio)."""
    from gagebpe.tokenizers import WordBPE
    WordBPE.train(text[:20000], 50, ties="subword-nmt").apply(text[:2000])  # load kernels
    try:
        from subword_nmt.apply_bpe import BPE
        from subword_nmt.learn_bpe import learn_bpe
    except ImportError:
        BPE = learn_bpe = None
        print("(subword-nmt is not installed: pip install subword-nmt)")
    lines = text.splitlines(keepends=True)
    times = {"learn": ([], []), "apply": ([], []), "apply lines": ([], []),
             "encode lines": ([], [])}
    for _ in range(repeat):
        bpe, t = timed(WordBPE.train, text, MERGES, ties="subword-nmt")
        times["learn"][0].append(t)
        fresh = WordBPE(bpe.merges, version=bpe.version)  # nothing cached
        segmented, t = timed(fresh.apply, text)
        times["apply"][0].append(t)
        fresh = WordBPE(bpe.merges, version=bpe.version)
        per_line, t = timed(lambda: [fresh.apply(line) for line in lines])
        times["apply lines"][0].append(t)
        if "".join(per_line) != segmented:
            raise SystemExit("apply line by line segmented the text otherwise")
        fresh = WordBPE(bpe.merges, version=bpe.version)
        _, t = timed(lambda: [fresh.encode(line) for line in lines])
        times["encode lines"][0].append(t)
        if learn_bpe is None:
            continue
        out = io.StringIO()
        _, t = timed(learn_bpe, io.StringIO(text), out, MERGES)
        times["learn"][1].append(t)
        if out.getvalue() != bpe.codes():
            raise SystemExit("subword-nmt wrote other codes")
        reference = BPE(io.StringIO(out.getvalue()))
        theirs, t = timed(lambda: "".join(reference.process_line(line) for line in lines))
        for what in ("apply", "apply lines", "encode lines"):  # subword-nmt goes line by line
            times[what][1].append(t)
        if theirs != segmented:
            raise SystemExit("subword-nmt segmented the text otherwise")
    rows = []
    for what, (ours, theirs) in times.items():
        if theirs:
            rows.append((what, median(ours), median(theirs), median(theirs) / median(ours)))
    return rows


MEMORY_CHILD = r"""
import sys
from pathlib import Path
from gagebpe.tokenizers import WordBPE
text = Path(sys.argv[1]).read_text(encoding="utf-8") * int(sys.argv[2])
WordBPE.train(text[:20000], 50, ties=sys.argv[3])  # load the kernels
measure(lambda: WordBPE.train(text, int(sys.argv[4]), ties=sys.argv[3]) and "")
"""


def learning_peak(scale, ties="subword-nmt"):
    """The rise of resident memory while learning from the corpus repeated
    ``scale`` times, in a child process."""
    if not BIBLE.exists():
        return float("nan")
    return peak_in_child(MEMORY_CHILD, BIBLE, scale, ties, MERGES)[1]


def scaling(scales):
    """Rows of (scale, characters, learn s, peak bytes)."""
    from gagebpe.tokenizers import WordBPE
    rows = []
    for scale in scales:
        text = load_text(scale)
        WordBPE.train(text[:20000], 50, ties="subword-nmt")
        _, t = timed(WordBPE.train, text, MERGES, ties="subword-nmt")
        rows.append((scale, len(text), t, learning_peak(scale)))
    return rows


def table(rows, scale_rows, text, repeat):
    lines = ["| word-level BPE, bible.txt | gagebpe s | subword-nmt s | speed-up |",
             "|---|---:|---:|---:|"]
    names = {"learn": f"learn {MERGES:,} merges", "apply": f"apply {MERGES:,} merges",
             "apply lines": "apply, one call per line", "encode lines": "encode, one call per line"}
    for what, mine, other, ratio in rows:
        lines.append(f"| {names[what]} | {mine:.3f} | {other:.3f} | {ratio:.1f}x |")
    lines.append("")
    peak = learning_peak(1)
    lines.append(f"{len(text):,} characters; medians of {repeat} rounds, each running both; "
                 f"codes and segmented text byte-identical.  Learning's peak memory: "
                 f"{peak / 1e6:.1f} MB, {peak / len(text.encode()):.2f} x the text.")
    if scale_rows:
        lines += ["", "| corpus | characters | learn s | s per MB | learning peak MB | "
                  "peak / text |", "|---|---:|---:|---:|---:|---:|"]
        for scale, n, t, peak in scale_rows:
            lines.append(f"| bible.txt x {scale} | {n:,} | {t:.3f} | {t / (n / 1e6):.4f} | "
                         f"{peak / 1e6:.1f} | {peak / n:.2f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--scale", default="", help="comma-separated multiples of the corpus")
    parser.add_argument("--results", type=Path,
                        help="put the tables in this file (benchmarks/RESULTS.md)")
    args = parser.parse_args()
    text = load_text()
    rows = word_level(text, args.repeat)
    scales = [int(x) for x in args.scale.split(",") if x]
    result = table(rows, scaling(scales) if scales else [], text, args.repeat)
    print(result)
    if args.results:
        write_marked(args.results, "tokenizer table", result,
                     command_line("word_bpe.py", sys.argv[1:]))


if __name__ == "__main__":
    main()
