"""Small records with trained dictionaries: gagebpe against zstd.

    python benchmarks/dictionaries.py --results benchmarks/RESULTS.md

Three kinds of records, each cut into a training half and a half to
compress, every record of it on its own: text lines of about 200 bytes
(bible.txt), text records of about 1 KB (world192.txt; the built-in
sample where the corpus is missing), and JSON records (the entries of the
machine's iso-codes tables) -- plus dpkg's log lines where the machine has
them.  For each, in one run: gagebpe with a dictionary of ``--size``
bytes, zstd -3 and -19 with a dictionary of the same size trained on the
same samples (python-zstandard), and both without dictionaries: the
ratio, µs per record to compress and to decompress (medians of
``--rounds``), and the training time.  gagebpe decompresses through
``decompress_many`` (all records in one call, on one thread and on two)
and through ``decompress`` (one record per call); zstd through one
``decompress`` call per record, on one thread; the decompressing coders
take their rounds in turn.
Then training on ``--train-megabytes`` of samples.
"""
import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import gagebpe

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _shared import CORPUS, command_line, write_marked  # noqa: E402

ISO_CODES = Path("/usr/share/iso-codes/json")
DPKG_LOG = Path("/var/log/dpkg.log")


def cut(text, size):
    """``text`` cut into records at the first line end after ``size`` bytes."""
    records, start = [], 0
    while start < len(text):
        end = text.find(b"\n", start + size)
        end = len(text) if end < 0 else end + 1
        records.append(text[start:end])
        start = end
    return records


def corpus_text(name):
    path = CORPUS / name
    if path.exists():
        return path.read_bytes(), name
    from gagebpe.sample import sample
    return sample(2 << 20), "the built-in sample"


def json_records():
    records = []
    for path in sorted(ISO_CODES.glob("*.json")):
        for table in json.loads(path.read_text()).values():
            if isinstance(table, list):
                records += [json.dumps(entry, ensure_ascii=False).encode() + b"\n"
                            for entry in table]
    return records


def kinds():
    found = {}
    text, name = corpus_text("bible.txt")
    found[f"lines of ~200 B ({name})"] = cut(text, 150)
    text, name = corpus_text("world192.txt")
    found[f"records of ~1 KB ({name})"] = cut(text, 900)
    if ISO_CODES.is_dir():
        found["JSON records (iso-codes)"] = json_records()
    if DPKG_LOG.exists():
        found["log lines (dpkg.log)"] = DPKG_LOG.read_bytes().splitlines(True)
    return found


def per_record(fn, records, rounds):
    """Median µs per record of ``fn(records)`` over ``rounds``."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn(records)
        times.append(time.perf_counter() - start)
    return statistics.median(times) / len(records) * 1e6


def interleaved(calls, rounds):
    """``{name: [µs per record of each round]}`` of ``calls`` (name ->
    ``(fn, items)``, timing ``fn(items)``), the rounds interleaved, so
    that a slow spell of a shared machine falls on every coder alike."""
    times = {name: [] for name in calls}
    for _ in range(rounds):
        for name, (fn, items) in calls.items():
            start = time.perf_counter()
            fn(items)
            times[name].append((time.perf_counter() - start) / len(items) * 1e6)
    return times


def measure(train, test, size, rounds):
    """``(rows, versus)``: a row per coder, and gagebpe's decompression
    time over zstd -19's (medians of the rounds' ratios) in a batch, on two
    threads and one per call."""
    import zstandard
    n = sum(map(len, test))
    start = time.perf_counter()
    d = gagebpe.train_dictionary(train, size)
    trained = time.perf_counter() - start
    blobs = gagebpe.compress_many(test, dictionary=d)
    assert gagebpe.decompress_many(blobs, dictionary=d) == test
    start = time.perf_counter()
    zd = zstandard.ZstdCompressionDict(zstandard.train_dictionary(size, train).as_bytes())
    ztrained = time.perf_counter() - start
    calls = {"batch": (lambda b: gagebpe.decompress_many(b, dictionary=d), blobs),
             "threads": (lambda b: gagebpe.decompress_many(b, dictionary=d, threads=2), blobs),
             "single": (lambda b: [gagebpe.decompress(x, dictionary=d) for x in b], blobs)}
    zstd = {}
    for level in (3, 19):
        c = zstandard.ZstdCompressor(level=level, dict_data=zd)
        dec = zstandard.ZstdDecompressor(dict_data=zd)
        zb = [c.compress(r) for r in test]
        assert [dec.decompress(b) for b in zb] == test
        zstd[level] = c, zb
        calls[level] = (lambda b, dec=dec: [dec.decompress(x) for x in b], zb)
    times = interleaved(calls, rounds)
    us = {name: statistics.median(t) for name, t in times.items()}
    rows = [("gagebpe, dictionary", len(d), n / sum(map(len, blobs)), trained,
             per_record(lambda r: gagebpe.compress_many(r, dictionary=d), test, rounds),
             us["batch"], us["threads"], us["single"])]
    for level, (c, zb) in zstd.items():
        rows.append((f"zstd -{level}, dictionary", len(zd.as_bytes()), n / sum(map(len, zb)),
                     ztrained, per_record(lambda r: [c.compress(x) for x in r], test, rounds),
                     None, None, us[level]))
    few = test[:500]  # without a dictionary gagebpe tries every coding: slow per record
    m = sum(map(len, few))
    c, dec = zstandard.ZstdCompressor(level=19), zstandard.ZstdDecompressor()
    zb = [c.compress(r) for r in few]
    rows.append(("zstd -19, none", 0, m / sum(map(len, zb)), None,
                 per_record(lambda r: [c.compress(x) for x in r], few, rounds), None, None,
                 per_record(lambda b: [dec.decompress(x) for x in b], zb, rounds)))
    gb = [gagebpe.compress(r) for r in few]
    rows.append(("gagebpe -6, none", 0, m / sum(map(len, gb)), None,
                 per_record(lambda r: [gagebpe.compress(x) for x in r], few, 1), None, None,
                 per_record(lambda b: [gagebpe.decompress(x) for x in b], gb, rounds)))
    versus = {name: statistics.median(a / b for a, b in zip(times[name], times[19]))
              for name in ("batch", "threads", "single")}
    return rows, versus


def table(kind, records, rows, versus):
    us = lambda v: "—" if v is None else f"{v:.2f}"  # noqa: E731
    out = [f"**{kind}**: {len(records)} records, {sum(map(len, records)) / len(records):.0f} B "
           "on average, the first half trains, the second is compressed", "",
           "| coder | dictionary bytes | ratio | training s | compress µs/record "
           "| decompress µs/record, batch | batch, 2 threads | one per call |",
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, dsize, ratio, trained, comp, batch, threaded, single in rows:
        out.append(f"| {name} | {dsize} | {ratio:.3f} | "
                   f"{'—' if trained is None else f'{trained:.2f}'} | {us(comp)} | {us(batch)} "
                   f"| {us(threaded)} | {us(single)} |")
    ours, z19 = rows[0], rows[2]
    out += ["", f"gagebpe against zstd -19 with the same dictionary size: ratio "
            f"{ours[2] / z19[2]:.2f}×; decompression {versus['batch']:.2f}× zstd's time per "
            f"record in a batch ({versus['threads']:.2f}× on two threads), "
            f"{versus['single']:.2f}× one per call (medians of the rounds' ratios, "
            "the coders' rounds interleaved).", ""]
    return out


def training_time(found, megabytes):
    samples, total = [], 0
    pool = [r for records in found.values() for r in records]
    while total < megabytes << 20:
        for r in pool:
            samples.append(r)
            total += len(r)
            if total >= megabytes << 20:
                break
    start = time.perf_counter()
    d = gagebpe.train_dictionary(samples, 112640)
    return total, time.perf_counter() - start, d


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=65536, help="dictionary bytes")
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--train-megabytes", type=int, default=10)
    p.add_argument("--results", help="write the tables into this RESULTS.md")
    args = p.parse_args()
    gagebpe.decompress_many(gagebpe.compress_many(  # kernels loaded before timing
        [b"warm"], dictionary=gagebpe.train_dictionary([b"warm up the kernels"] * 9, 4096)),
        dictionary=gagebpe.train_dictionary([b"warm up the kernels"] * 9, 4096))
    found = kinds()
    lines = []
    for kind, records in found.items():
        half = len(records) // 2
        lines += table(kind, records, *measure(records[:half], records[half:], args.size,
                                               args.rounds))
        print("\n".join(lines[-12:]), flush=True)
    total, seconds, d = training_time(found, args.train_megabytes)
    lines.append(f"Training on {total / 1e6:.1f} MB of these samples (the kinds above, "
                 f"repeated): {seconds:.1f} s, a dictionary of {len(d)} bytes "
                 f"({len(d.merges)} merges).")
    text = "\n".join(lines)
    print(lines[-1])
    if args.results:
        write_marked(Path(args.results), "dictionaries", text,
                     command_line("dictionaries.py", sys.argv[1:]))


if __name__ == "__main__":
    main()
