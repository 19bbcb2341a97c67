"""Compare two checkouts of gagebpe on the same corpus, interleaved.

    python benchmarks/compare.py BASELINE_DIR [CORPUS_DIR] --levels 1,6,9 --rounds 7

Each round runs one child process per checkout, in alternating order
(A B, then B A), each timing the compression and decompression of every
file at every level with that checkout first on ``sys.path``.  A slow spell
on this shared machine then falls on both sides alike.  Reports, per level,
the median over rounds of the total times and the ratio of the current
checkout's speed to the baseline's (above 1: faster), the total compressed
size of each and how much larger the current one's is, and whether both
write the same bytes.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = HERE.parent / "shared" / "corpus" / "canterbury"

CHILD = r"""
import hashlib, json, sys, time
from pathlib import Path
import gagebpe
corpus, levels, decode_repeat = Path(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
files = [p.read_bytes() for p in sorted(corpus.iterdir()) if p.name != "SHA256SUMS"]
gagebpe.decompress(gagebpe.compress(files[0][:10000]))  # load the kernels
result = {"file": gagebpe.__file__}
for level in levels:
    t_comp = t_dec = 0.0
    size = 0
    digest = hashlib.sha256()
    for data in files:
        start = time.perf_counter()
        blob = gagebpe.compress(data, level)
        t_comp += time.perf_counter() - start
        digest.update(blob)
        size += len(blob)
        best = float("inf")
        for _ in range(decode_repeat):
            start = time.perf_counter()
            out = gagebpe.decompress(blob)
            best = min(best, time.perf_counter() - start)
        assert out == data
        t_dec += best
    result[str(level)] = (t_comp, t_dec, digest.hexdigest(), size)
print(json.dumps(result))
"""


def run(checkout, corpus, levels, decode_repeat):
    env = {"PYTHONPATH": str(checkout)}
    # Run from the checkout: ``-c`` puts the working directory first on the path.
    out = subprocess.run([sys.executable, "-c", CHILD, str(corpus), json.dumps(levels),
                          str(decode_repeat)], capture_output=True, text=True, cwd=checkout,
                         env={**os.environ, **env}, check=True)
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("baseline", type=Path, help="a checkout of the code to compare with")
    parser.add_argument("corpus", type=Path, nargs="?", default=DEFAULT_CORPUS)
    parser.add_argument("--levels", default="1,6,9")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--decode-repeat", type=int, default=5,
                        help="decompressions per file in a child; the best counts")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    sides = {"baseline": args.baseline.resolve(), "current": HERE}
    times = {side: {lv: ([], []) for lv in levels} for side in sides}
    digests = {}
    sizes = {}
    start = time.perf_counter()
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(sides)[::-1]
        for side in order:
            result = run(sides[side], args.corpus, levels, args.decode_repeat)
            assert Path(result["file"]).resolve().is_relative_to(sides[side]), result["file"]
            for lv in levels:
                t_comp, t_dec, digest, size = result[str(lv)]
                sizes[(side, lv)] = size
                times[side][lv][0].append(t_comp)
                times[side][lv][1].append(t_dec)
                digests.setdefault((side, lv), set()).add(digest)
    print(f"{args.rounds} interleaved rounds in {time.perf_counter() - start:.0f} s; "
          f"medians over rounds; speed ratio = baseline time / current time")
    print("| level | same bytes | bytes (base / current) | size change "
          "| compress s (base / current) | ratio | decompress s (base / current) | ratio |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for lv in levels:
        base_c, base_d = (statistics.median(x) for x in times["baseline"][lv])
        cur_c, cur_d = (statistics.median(x) for x in times["current"][lv])
        same = digests[("baseline", lv)] == digests[("current", lv)] and \
            len(digests[("current", lv)]) == 1
        base_size, cur_size = sizes[("baseline", lv)], sizes[("current", lv)]
        print(f"| {lv} | {'yes' if same else 'NO'} | {base_size:,} / {cur_size:,} | "
              f"{100 * (cur_size / base_size - 1):+.3f}% | {base_c:.3f} / {cur_c:.3f} | "
              f"{base_c / cur_c:.3f} | {base_d:.4f} / {cur_d:.4f} | {base_d / cur_d:.3f} |")


if __name__ == "__main__":
    main()
