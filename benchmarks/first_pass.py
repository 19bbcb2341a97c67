"""How much an LZ parse's later passes shrink its first, where the level's
LZ is tried beside a dictionary: the evidence for ``FIRST_PASS_SLACK``.
For each kind of the record set (benchmarks/records.py) and size, a
64 KiB dictionary is trained on the first half of the records and
stripped of its content (so that every record past 512 bytes takes the
QUICK try, as beside a dictionary without content); of the later records
the LZ floor lets through (``encoder.stream._level_may_gain``), this
gives the QUICK parse's first pass over its best, and for each slack how
many records would stop after their first pass and how many of those
the level would have coded smaller than the dictionary (wins lost).

    python benchmarks/first_pass.py --sizes 1024 4096 --slacks 0.02 0.05 0.1
"""
import argparse
import statistics
import sys
from pathlib import Path

import gagebpe
from gagebpe.encoder import stream as _stream
from gagebpe.encoder.levels import DICTIONARY_ALONE, QUICK
from gagebpe.format.codings import lz as _coding_lz
from gagebpe.format.container import BLOCK_HEADER

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import kinds, records  # noqa: E402


def tried(test, dictionary):
    """``[(record, the dictionary's payload bytes)]`` of the records of
    ``test`` the level's try is made on beside ``dictionary``."""
    level = _stream._BESIDE_DICTIONARY[None, bool(dictionary.content)]
    blocks, own = _stream._records(test, dictionary)
    payloads = [len(block) - BLOCK_HEADER.size for block in blocks]
    return [(r, p) for r, p, o in zip(test, payloads, own)
            if _stream._level_may_gain(level, r, o, p)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    parser.add_argument("--slacks", type=float, nargs="+", default=[0.02, 0.05, 0.1])
    parser.add_argument("--records", type=int, default=120)
    args = parser.parse_args()
    rows = []  # (dictionary's payload, first pass's, QUICK's)
    for kind, units in kinds().items():
        for size in args.sizes:
            found = records(units, size)
            half = len(found) // 2
            test = [r for r in found[half:][:args.records] if len(r) > DICTIONARY_ALONE]
            if not test:
                continue
            trained = gagebpe.train_dictionary(found[:half], 64 << 10)
            plain = gagebpe.Dictionary(trained.merges, trained.lengths)
            these = [(p, len(_coding_lz.encode(r, QUICK._replace(passes=1))[1]),
                      len(_coding_lz.encode(r, QUICK)[1])) for r, p in tried(test, plain)]
            rows += these
            wins = sum(quick < payload for payload, _, quick in these)
            print(f"{kind:30s} {size:5d}  tried {len(these):4d}  the level smaller on {wins:4d}",
                  flush=True)
    over = sorted(first / quick for _, first, quick in rows)
    print(f"\n{len(rows)} records: first pass over the best, median {statistics.median(over):.4f}, "
          f"99th percentile {over[int(0.99 * (len(over) - 1))]:.4f}, most {over[-1]:.4f}")
    for slack in args.slacks:
        stopped = [(payload, quick) for payload, first, quick in rows
                   if first > payload * (1 + slack)]
        lost = [payload - quick for payload, quick in stopped if quick < payload]
        print(f"slack {slack}: {len(stopped)} stop after their first pass, "
              f"{len(lost)} wins lost ({sum(lost)} bytes)")


if __name__ == "__main__":
    main()
