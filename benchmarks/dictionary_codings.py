"""What a dictionary's codings buy each record kind: the records' bytes
coded as the dictionary's coder tries them (``Dictionary.codings``, with
its gates), over the smallest of each coding tried alone on every record
(STORED where smaller); the coder's time over the sum of each coding's
alone; and the share of records on which each coding alone is as small
as any (ties count for each).

    python benchmarks/dictionary_codings.py --sizes 64 256 1024 4096

A 64 KiB dictionary is trained on the first half of each kind's records
(benchmarks/records.py) and at most ``--records`` of the second half are
coded; times are the best of three runs.
"""
import argparse
import sys
import time
from pathlib import Path

import gagebpe
from gagebpe.format.codings.dictionary_records import encode_many

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import kinds, records  # noqa: E402


def coded(test, dictionary, codings):
    """``(each record's bytes, STORED where smaller; best seconds of three)``."""
    best, sizes = float("inf"), []
    for _ in range(3):
        start = time.perf_counter()
        payloads = encode_many(test, dictionary, codings).payloads
        best = min(best, time.perf_counter() - start)
        sizes = [min(len(p), len(r)) for p, r in zip(payloads, test)]
    return sizes, best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024, 4096])
    parser.add_argument("--records", type=int, default=300)
    args = parser.parse_args()
    every_kind = kinds()
    for size in args.sizes:
        total = [0, 0, 0.0, 0.0]  # coder's bytes, smallest bytes, coder's time, every coding's
        for kind, units in every_kind.items():
            found = records(units, size)
            half = len(found) // 2
            test = [r for r in found[half:][:args.records] if r]
            dictionary = gagebpe.train_dictionary(found[:half], 64 << 10)
            ours, seconds = coded(test, dictionary, dictionary.codings)
            alone = {c: coded(test, dictionary, (c,)) for c in dictionary.codings}
            smallest = [min(each) for each in zip(*(s for s, _ in alone.values()))]
            wins = "  ".join(
                f"{c}: {sum(a == m for a, m in zip(s, smallest)) / len(test):.2f}"
                for c, (s, _) in alone.items())
            every = sum(t for _, t in alone.values())
            print(f"{kind:30s} {size:5d}  bytes {sum(ours) / sum(smallest):.5f}  "
                  f"time {seconds / every:.2f}  smallest by coding  {wins}", flush=True)
            for k, value in enumerate((sum(ours), sum(smallest), seconds, every)):
                total[k] += value
        print(f"total {size:5d}  bytes {total[0] / total[1]:.5f}  time {total[2] / total[3]:.2f}")


if __name__ == "__main__":
    main()
