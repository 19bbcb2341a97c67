"""How deep DICTIONARY_IDS_LZ's match finder should look: its payloads'
bytes and time at several depths (candidates a position visits), on
every kind of the record set (benchmarks/records.py).

    python benchmarks/dictionary_depth.py --depths 64 16 8 4

For each kind and record size, a 64 KiB dictionary is trained on the
first half of the records and the second half (at most ``--records``)
coded DICTIONARY_IDS_LZ one call for all; bytes and seconds are given
over the first depth's, per kind and in total (the best of three runs).
"""
import argparse
import sys
import time
from pathlib import Path

import gagebpe
from gagebpe.format.codings import dictionary_ids_lz

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import SIZES, kinds, records  # noqa: E402


def coded(test, dictionary, depth):
    """``(bytes, best seconds of three)`` of ``test`` coded at ``depth``."""
    dictionary_ids_lz.DEPTH = depth
    best, size = float("inf"), 0
    for _ in range(3):
        start = time.perf_counter()
        size = sum(map(len, dictionary_ids_lz.encode_many(test, dictionary)))
        best = min(best, time.perf_counter() - start)
    return size, best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[64, 16, 8, 4])
    parser.add_argument("--sizes", type=int, nargs="+", default=[s for s in SIZES if s > 64])
    parser.add_argument("--records", type=int, default=300)
    args = parser.parse_args()
    totals = {depth: [0, 0.0] for depth in args.depths}
    for kind, units in kinds().items():
        for size in args.sizes:
            all_records = records(units, size)
            half = len(all_records) // 2
            dictionary = gagebpe.train_dictionary(all_records[:half], 64 << 10)
            test = all_records[half:][:args.records]
            if dictionary.ids_lz_encoding() is None or not test:
                continue
            row = {depth: coded(test, dictionary, depth) for depth in args.depths}
            first = row[args.depths[0]]
            for depth, (n, t) in row.items():
                totals[depth][0] += n
                totals[depth][1] += t
            print(f"{kind:30s} {size:5d} " + "  ".join(
                f"{depth}: {n / first[0]:.4f} bytes {t / first[1]:.2f} time"
                for depth, (n, t) in row.items()), flush=True)
    first = totals[args.depths[0]]
    print("total " + "  ".join(f"{depth}: {n / first[0]:.4f} bytes {t / first[1]:.2f} time"
                               for depth, (n, t) in totals.items()))


if __name__ == "__main__":
    main()
