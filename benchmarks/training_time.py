"""Where a dictionary's training time goes: Re-Pair over the samples up to
a number of merges (its setup, its first merges, its tail), and
``train_dictionary`` on one thread and on two against zstd's trainer, on
chosen kinds and record sizes of the record set (benchmarks/records.py).

    python benchmarks/training_time.py --only "MIME XML" --sizes 4096

Every figure is a median of ``--rounds``, the calls of a round
interleaved.  Run it on two commits to compare them (no peer changes).
"""
import argparse
import sys
from pathlib import Path

import numpy as np

import gagebpe
from gagebpe.format.codings.dictionary_records import joined
from gagebpe.kernels import re_pair

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dictionaries import interleaved  # noqa: E402
from records import SIZES, kinds, records  # noqa: E402

MERGES = (1, 10, 100, 1000, 10000, 1 << 20)


def re_pair_calls(samples):
    """Re-Pair over ``samples`` as training runs it, stopped after each of
    MERGES merges."""
    data, starts = joined(samples)
    ids = data.astype(np.int32)

    def upto(most):
        return lambda: re_pair.repair(ids.copy(), starts, 256, most, 2, False)
    return {(f"{most} merges" if most < MERGES[-1] else "all"): upto(most) for most in MERGES}


def main():
    import zstandard
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    p.add_argument("--dict-size", type=int, default=64 << 10)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--only", help="kinds whose name holds this")
    p.add_argument("--re-pair-only", action="store_true",
                   help="only Re-Pair's times (a commit before train_dictionary's threads=)")
    args = p.parse_args()
    gagebpe.train_dictionary([b"warm up the kernels %d" % i for i in range(50)], 4096)
    for kind, units in kinds().items():
        if args.only and args.only not in kind:
            continue
        for size in args.sizes:
            found = records(units, size)
            samples = found[:len(found) // 2]
            print(f"{kind}, {size} B records: {len(samples)} samples, "
                  f"{sum(map(len, samples))} bytes")
            phases = interleaved(re_pair_calls(samples), args.rounds)[0]
            print("  Re-Pair, ms: " + ", ".join(f"{name} {s * 1e3:.1f}"
                                                for name, s in phases.items()))
            if args.re_pair_only:
                continue
            trained = interleaved({
                "zstd": lambda: zstandard.train_dictionary(args.dict_size, samples),
                "one thread": lambda: gagebpe.train_dictionary(samples, args.dict_size),
                "two threads": lambda: gagebpe.train_dictionary(samples, args.dict_size,
                                                                threads=2)}, args.rounds)[0]
            zstd = trained.pop("zstd")
            print(f"  training: zstd {zstd * 1e3:.1f} ms; " + ", ".join(
                f"{name} {s * 1e3:.1f} ms ({s / zstd:.2f}x)" for name, s in trained.items()),
                flush=True)


if __name__ == "__main__":
    main()
