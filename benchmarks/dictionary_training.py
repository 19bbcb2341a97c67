"""What a change to dictionary training does to the bytes of every record
kind and size (benchmarks/records.py), and to its time: no peer, for
comparing two versions of gagebpe.

    python benchmarks/dictionary_training.py --save benchmarks/out/before.json
    (change the trainer)
    python benchmarks/dictionary_training.py --save benchmarks/out/after.json
    python benchmarks/dictionary_training.py --compare benchmarks/out/before.json \
        benchmarks/out/after.json

For each kind and record size, a dictionary of ``--dict-size`` bytes is
trained on the first half of the records (the fastest of ``--rounds``
trainings timed) and the second half is compressed with it
(``compress_many``, one stream a record): the bytes of all of them.  The
comparison gives, per record size, the second file's bytes over the
first's in total, the kinds that moved most, and the median kind's
training time over the first's.
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import gagebpe

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import SIZES, kinds, records  # noqa: E402


def measured(units, size, dict_size, rounds):
    """``(bytes of the second half's streams, fastest training s)``."""
    found = records(units, size)
    train, test = found[:len(found) // 2], found[len(found) // 2:]
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        dictionary = gagebpe.train_dictionary(train, dict_size)
        times.append(time.perf_counter() - start)
    return sum(map(len, gagebpe.compress_many(test, dictionary=dictionary))), min(times)


def compare(before, after):
    for size in SIZES:
        names = [name for name in before if name.endswith(f" {size}") and name in after]
        if not names:
            continue
        moved = {name: after[name][0] / before[name][0] for name in names}
        worst, best = max(moved, key=moved.get), min(moved, key=moved.get)
        total = sum(after[n][0] for n in names) / sum(before[n][0] for n in names)
        time_ratio = statistics.median(after[n][1] / before[n][1] for n in names)
        print(f"{size} B: bytes {total:.4f} of before; most {worst} {moved[worst]:.4f}, "
              f"least {best} {moved[best]:.4f}; training time {time_ratio:.2f} (median kind)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    p.add_argument("--dict-size", type=int, default=64 << 10)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--only", help="kinds whose name holds this")
    p.add_argument("--save", help="write the figures to this JSON file")
    p.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                   help="compare two saved files and stop")
    args = p.parse_args()
    if args.compare:
        before, after = (json.loads(Path(path).read_text()) for path in args.compare)
        compare(before, after)
        return
    gagebpe.train_dictionary([b"warm up the kernels %d" % i for i in range(50)], 4096)
    figures = {}
    for kind, units in kinds().items():
        if args.only and args.only not in kind:
            continue
        for size in args.sizes:
            n, seconds = figures[f"{kind} {size}"] = measured(units, size, args.dict_size,
                                                              args.rounds)
            print(f"{kind:32s} {size:5d} {n:10d} bytes {seconds:.3f} s", flush=True)
    if args.save:
        Path(args.save).parent.mkdir(parents=True, exist_ok=True)
        Path(args.save).write_text(json.dumps(figures))


if __name__ == "__main__":
    main()
