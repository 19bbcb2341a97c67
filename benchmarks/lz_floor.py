"""How near ``kernels.lz_floor``'s floor lies to the LZ payloads the levels
make, on pieces of many kinds of data: each kind of the record set
(benchmarks/records.py) and pieces of each file of ``--dirs``, at each of
``--sizes``.  Per kind: the QUICK parse's payload over the floor, median
and least, with the floor's copies at least each of ``--shortest`` bytes
long.  At 3 (MIN_COPY) the floor is a bound, and the least is at least 1;
longer, it is an estimate, and a least below 1 is a piece it would have
wrongly ruled out.  The last line names the least of each.

    python benchmarks/lz_floor.py --dirs ../shared/corpus/canterbury benchmarks/out/other
"""
import argparse
import statistics
import sys
from pathlib import Path

import numpy as np

from gagebpe.encoder.levels import QUICK
from gagebpe.format.codings import lz as _coding_lz
from gagebpe.kernels.lz_floor import payload_floor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import kinds, records  # noqa: E402

PIECES = 40  # of each file and size, spread over it


def pieces(data, size):
    """Up to PIECES pieces of ``size`` bytes spread over ``data``."""
    step = max(size, len(data) // PIECES)
    return [data[i:i + size] for i in range(0, len(data) - size + 1, step)][:PIECES]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    parser.add_argument("--shortest", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--dirs", nargs="*", default=[])
    parser.add_argument("--records", type=int, default=150)
    args = parser.parse_args()
    sets = {}
    for kind, units in kinds().items():
        for size in args.sizes:
            sets[f"{kind} {size}"] = [r for r in records(units, size)[:args.records]
                                      if len(r) > size // 2]
    for folder in args.dirs:
        for path in sorted(Path(folder).iterdir()):
            if path.is_file():
                for size in args.sizes:
                    sets[f"{path.name} {size}"] = pieces(path.read_bytes(), size)
    least = {k: (float("inf"), "") for k in args.shortest}
    print(f"{'kind':42s} pieces  " + "  ".join(f"{k}: median (least)" for k in args.shortest))
    for name, found in sets.items():
        if not found:
            continue
        payloads = [len(_coding_lz.encode(piece, QUICK)[1]) for piece in found]
        cells = []
        for k in args.shortest:
            over = [p / payload_floor(np.frombuffer(piece, np.uint8), k)
                    for p, piece in zip(payloads, found)]
            cells.append(f"{k}: {statistics.median(over):.2f} ({min(over):.2f})")
            least[k] = min(least[k], (min(over), name))
        print(f"{name:42s} {len(found):6d}  " + "  ".join(cells), flush=True)
    print("least: " + "; ".join(f"{k}: {v:.2f} ({name})" for k, (v, name) in least.items()))


if __name__ == "__main__":
    main()
