"""How deep the dictionary codings' match finder should look: the bytes
and time at several depths (candidates a position visits) of
DICTIONARY_IDS_LZ payloads, or with ``--records-whole`` of whole records
(``compress_many``, every coding tried, DICTIONARY_LZ's finder at the
same depth), on every kind of the record set (benchmarks/records.py).

    python benchmarks/dictionary_depth.py --depths 64 16 8 4
    python benchmarks/dictionary_depth.py --depths 64 16 --records-whole

For each kind and record size, a 64 KiB dictionary is trained on the
first half of the records and the second half (at most ``--records``)
coded in one call; bytes and seconds are given over the first depth's,
per kind and in total (the best of three runs).
"""
import argparse
import sys
import time
from pathlib import Path

import gagebpe
from gagebpe.format.codings import dictionary_ids_lz, dictionary_records

DEPTH = dictionary_records.DEPTH
sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import SIZES, with_copies  # noqa: E402


def coded(test, dictionary, depth, whole):
    """``(bytes, best seconds of three)`` of ``test`` coded at ``depth``:
    DICTIONARY_IDS_LZ payloads, or ``whole`` records."""
    dictionary_records.DEPTH = depth
    best, size = float("inf"), 0
    for _ in range(3):
        start = time.perf_counter()
        coded = (gagebpe.compress_many(test, dictionary=dictionary) if whole
                 else dictionary_ids_lz.encode_many(test, dictionary))
        size = sum(map(len, coded))
        best = min(best, time.perf_counter() - start)
    return size, best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[64, 16, 8, 4])
    parser.add_argument("--sizes", type=int, nargs="+", default=[s for s in SIZES if s > 64])
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--records-whole", action="store_true")
    args = parser.parse_args()
    totals = {depth: [0, 0.0] for depth in args.depths}
    for kind, size, dictionary, test in with_copies(args.sizes, args.records):
        row = {depth: coded(test, dictionary, depth, args.records_whole)
               for depth in args.depths}
        dictionary_records.DEPTH = DEPTH  # the next dictionary is trained at the default
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
