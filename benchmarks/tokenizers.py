"""The tokenizers beside the tools people use, in one run, one thread.

    python benchmarks/tokenizers.py                   # bible.txt, or the built-in sample
    python benchmarks/tokenizers.py --scale 1,4,16    # and the corpus repeated 4 and 16 times
    python benchmarks/tokenizers.py --readme README.md

Word-level BPE against subword-nmt (``pip install subword-nmt``): learning
10,000 merges and applying them, both in this process, every output
compared; the codes must be byte-identical and the segmented text too.
Times are medians of ``--repeat`` rounds, each round running both tools.
Peak memory is the rise of the resident set while learning, measured in a
child process (VmHWM, reset through /proc/self/clear_refs), against the
size of the text.
"""
import argparse
import io
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("TQDM_DISABLE", "1")  # subword-nmt's progress bar

HERE = Path(__file__).resolve().parents[1]
CORPUS = HERE.parent / "shared" / "corpus" / "canterbury"
MERGES = 10000


def load_text(scale=1):
    path = CORPUS / "bible.txt"
    if path.exists():
        text = path.read_text(encoding="utf-8")
    else:
        from gagebpe.sample import sample
        print(f"(no corpus at {CORPUS}: using the built-in sample)")
        text = sample(4 << 20).decode()
    return text * scale


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start


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
    times = {"learn": ([], []), "apply": ([], [])}
    for _ in range(repeat):
        bpe, t = timed(WordBPE.train, text, MERGES, ties="subword-nmt")
        times["learn"][0].append(t)
        fresh = WordBPE(bpe.merges, version=bpe.version)  # nothing cached
        segmented, t = timed(fresh.apply, text)
        times["apply"][0].append(t)
        if learn_bpe is None:
            continue
        out = io.StringIO()
        _, t = timed(learn_bpe, io.StringIO(text), out, MERGES)
        times["learn"][1].append(t)
        if out.getvalue() != bpe.codes():
            raise SystemExit("subword-nmt wrote other codes")
        reference = BPE(io.StringIO(out.getvalue()))
        theirs, t = timed(lambda: "".join(reference.process_line(line) for line in lines))
        times["apply"][1].append(t)
        if theirs != segmented:
            raise SystemExit("subword-nmt segmented the text otherwise")
    rows = []
    for what, (ours, theirs) in times.items():
        mine = statistics.median(ours)
        other = statistics.median(theirs) if theirs else float("nan")
        rows.append((what, mine, other, other / mine))
    return rows


MEMORY_CHILD = r"""
import re, sys
from pathlib import Path
from gagebpe.tokenizers import WordBPE
text = Path(sys.argv[1]).read_text(encoding="utf-8") * int(sys.argv[2])
WordBPE.train(text[:20000], 50, ties=sys.argv[3])  # load the kernels
def status(field):
    found = re.search(rf"^{field}:\s+(\d+) kB", Path("/proc/self/status").read_text(), re.M)
    return int(found.group(1)) * 1024
Path("/proc/self/clear_refs").write_text("5")
before = status("VmRSS")
WordBPE.train(text, int(sys.argv[4]), ties=sys.argv[3])
print(status("VmHWM") - before)
"""


def learning_peak(scale, ties="subword-nmt"):
    """The rise of resident memory while learning from the corpus repeated
    ``scale`` times, in a child process (glibc's mmap threshold pinned, so
    that large buffers are returned and each peak is seen)."""
    path = CORPUS / "bible.txt"
    if not path.exists():
        return float("nan")
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072")
    out = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(path), str(scale), ties,
                          str(MERGES)], env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    return int(out.stdout.strip())


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
    names = {"learn": f"learn {MERGES:,} merges", "apply": f"apply {MERGES:,} merges"}
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


def write_readme(path, text_table, command):
    readme = path.read_text()
    block = f"<!-- tokenizer table: start -->\n{text_table}\n\n`{command}`\n<!-- tokenizer table: end -->"
    pattern = re.compile(r"<!-- tokenizer table: start -->.*?<!-- tokenizer table: end -->", re.S)
    if not pattern.search(readme):
        raise SystemExit(f"{path} has no tokenizer table markers")
    path.write_text(pattern.sub(lambda m: block, readme))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--scale", default="", help="comma-separated multiples of the corpus")
    parser.add_argument("--readme", type=Path, help="write the table into this README")
    args = parser.parse_args()
    text = load_text()
    rows = word_level(text, args.repeat)
    scales = [int(x) for x in args.scale.split(",") if x]
    result = table(rows, scaling(scales) if scales else [], text, args.repeat)
    print(result)
    if args.readme:
        command = "python benchmarks/tokenizers.py " + " ".join(sys.argv[1:]).replace(
            f"--readme {args.readme}", "--readme README.md")
        write_readme(args.readme, result, command.strip())


if __name__ == "__main__":
    main()
