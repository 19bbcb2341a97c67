"""Small records with trained dictionaries: gagebpe against zstd -19, on
every kind and record size of the record set (benchmarks/records.py).

    python benchmarks/dictionaries.py --results benchmarks/RESULTS.md

For each kind and record size, the records in order are cut in halves:
the first trains a dictionary of each of ``--dict-sizes`` bytes, for
gagebpe (``train_dictionary``) and for zstd (python-zstandard's default
trainer, ``zstandard.train_dictionary``), and the second is compressed one
record per stream with it -- later records than the dictionary saw, as a
store meets them.  The ratio is over the whole second half; the times
(at ``--timed-size``, on at most ``--timed`` records, medians of
``--rounds`` with the coders' rounds interleaved) are per record, each
against zstd in the same run: decompressing one record per call, and all
in one ``decompress_many`` call, against zstd's one call per record;
compressing one record per call against zstd -19 with its dictionary
digested once (a reused ``ZstdCompressor``); training, on one thread and
on two (``threads=2``), against zstd's trainer (one thread, its default).
A table per record size; the worst kind of each column is named under
it.
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import gagebpe

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _shared import command_line, write_marked  # noqa: E402
from records import SIZES, kinds, records  # noqa: E402

DICT_SIZES = (16 << 10, 64 << 10, 112 << 10)


def seconds(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def interleaved(calls, rounds):
    """``{name: median seconds}`` of ``calls`` (name -> no-argument
    function), each round calling every one in turn, so that a slow spell
    of a shared machine falls on every coder alike; and ``{name: median
    of its time over the first call's, round by round}``."""
    times = {name: [] for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            times[name].append(seconds(fn)[1])
    first = next(iter(times))
    return ({name: statistics.median(t) for name, t in times.items()},
            {name: statistics.median(a / b for a, b in zip(t, times[first]))
             for name, t in times.items()})


def train_both(train, size):
    """``(gagebpe's dictionary, its training s, zstd's, its training s)``;
    zstd's is None where its trainer refuses the samples."""
    import zstandard
    ours, ours_s = seconds(gagebpe.train_dictionary, train, size)
    try:
        theirs, theirs_s = seconds(zstandard.train_dictionary, size, train)
        theirs = zstandard.ZstdCompressionDict(theirs.as_bytes())  # its bytes, as stored
    except zstandard.ZstdError:
        theirs, theirs_s = None, float("nan")
    return ours, ours_s, theirs, theirs_s


def ratios(test, ours, theirs):
    """Each coder's ratio on ``test``, one record per stream."""
    import zstandard
    n = sum(map(len, test))
    blobs = gagebpe.compress_many(test, dictionary=ours)
    assert gagebpe.decompress_many(blobs, dictionary=ours) == test
    zc = zstandard.ZstdCompressor(level=19, dict_data=theirs)
    return n / sum(map(len, blobs)), n / sum(len(zc.compress(r)) for r in test)


def speeds(train, test, size, rounds):
    """gagebpe's times over zstd's, per record: decompression one per call
    and in a batch, compression one per call; training on one thread and
    on two."""
    import zstandard
    ours, _, theirs, _ = train_both(train, size)
    zc = zstandard.ZstdCompressor(level=19, dict_data=theirs)
    zd = zstandard.ZstdDecompressor(dict_data=theirs)
    blobs, zblobs = gagebpe.compress_many(test, dictionary=ours), [zc.compress(r) for r in test]
    decoded = interleaved({
        "zstd": lambda: [zd.decompress(b) for b in zblobs],
        "one per call": lambda: [gagebpe.decompress(b, dictionary=ours) for b in blobs],
        "batch": lambda: gagebpe.decompress_many(blobs, dictionary=ours)}, rounds)[1]
    few = test[:max(1, len(test) // 4)]  # gagebpe's compression is the slow part of a run
    coded = interleaved({
        "zstd": lambda: [zc.compress(r) for r in few],
        "gagebpe": lambda: [gagebpe.compress(r, dictionary=ours) for r in few]}, rounds)[1]
    trained = interleaved({
        "zstd": lambda: zstandard.train_dictionary(size, train),
        "one thread": lambda: gagebpe.train_dictionary(train, size),
        "two threads": lambda: gagebpe.train_dictionary(train, size, threads=2)}, rounds)[1]
    return (decoded["one per call"], decoded["batch"], coded["gagebpe"], trained["one thread"],
            trained["two threads"])


def measure(units, size, dict_sizes, timed_size, timed, rounds):
    """A row of the table: the kind's records of ``size`` bytes."""
    found = records(units, size)
    half = len(found) // 2
    train, test = found[:half], found[half:]
    row = {"records": len(found)}
    for dsize in dict_sizes:
        ours, _, theirs, _ = train_both(train, dsize)
        row[dsize] = (ratios(test, ours, theirs) if theirs is not None else None)
    row["speeds"] = speeds(train, test[:timed], timed_size, rounds)
    return row


def table(size, rows, dict_sizes):
    heads = [f"ratio vs zstd -19, {d >> 10} KiB" for d in dict_sizes]
    out = [f"**Records of about {size} B** (gagebpe over zstd -19, same dictionary size; "
           "times as gagebpe's over zstd's)", "",
           "| kind | records | gagebpe ratio | " + " | ".join(heads)
           + " | decode one per call | decode_many | compress one per call | training"
           " | training, 2 threads |",
           "|---|---:|---:|" + "---:|" * (len(heads) + 5)]
    main = dict_sizes[len(dict_sizes) // 2]
    worst = {}
    for kind, row in rows.items():
        cells = []
        for d in dict_sizes:
            if row[d] is None:
                cells.append("zstd refused")
                continue
            versus = row[d][0] / row[d][1]
            cells.append(f"{versus:.2f}×")
            worst.setdefault(d, (versus, kind))
            worst[d] = min(worst[d], (versus, kind))
        speed = [f"{s:.2f}×" for s in row["speeds"]]
        for k, s in enumerate(row["speeds"]):
            worst[k] = max(worst.get(k, (s, kind)), (s, kind))
        ours = f"{row[main][0]:.3f}" if row[main] else "—"
        out.append(f"| {kind} | {row['records']} | {ours} | " + " | ".join(cells + speed) + " |")
    named = [f"ratio at {d >> 10} KiB {worst[d][0]:.2f}× ({worst[d][1]})"
             for d in dict_sizes if d in worst]
    named += [f"{what} {worst[k][0]:.2f}× ({worst[k][1]})" for k, what in enumerate(
        ("decoding one per call", "decompress_many", "compressing", "training",
         "training on 2 threads"))]
    return out + ["", "Worst: " + "; ".join(named) + ".", ""]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    p.add_argument("--dict-sizes", type=int, nargs="+", default=list(DICT_SIZES))
    p.add_argument("--timed-size", type=int, default=64 << 10,
                   help="the dictionary size the times are taken at")
    p.add_argument("--timed", type=int, default=2000, help="records timed, at most")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--only", help="kinds whose name holds this")
    p.add_argument("--results", help="write the tables into this RESULTS.md")
    args = p.parse_args()
    warm = gagebpe.train_dictionary([b"warm up the kernels %d" % i for i in range(50)], 4096)
    gagebpe.decompress_many(gagebpe.compress_many([b"warm up"], dictionary=warm),
                            dictionary=warm)
    found = {k: v for k, v in kinds().items() if not args.only or args.only in k}
    lines = []
    for size in args.sizes:
        rows = {}
        for kind, units in found.items():
            rows[kind] = measure(units, size, args.dict_sizes, args.timed_size, args.timed,
                                 args.rounds)
            print(size, kind, rows[kind], flush=True)
        lines += table(size, rows, args.dict_sizes)
        print("\n".join(lines[-len(rows) - 6:]), flush=True)
    if args.results:
        write_marked(Path(args.results), "dictionaries", "\n".join(lines),
                     command_line("dictionaries.py", sys.argv[1:]))


if __name__ == "__main__":
    main()
