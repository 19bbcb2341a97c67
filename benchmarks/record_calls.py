"""Where one record's decompression call spends its time: zstd's call
against gagebpe's and the record's kernel alone, on kinds of the record
set (benchmarks/records.py).

    python benchmarks/record_calls.py --sizes 64 256 --only JSON English

For each kind and record size, a 64 KiB dictionary is trained for each
coder on the first half of the records and at most ``--records`` of the
second half are compressed one per stream.  Per record, medians of
``--rounds`` with the calls' rounds interleaved: zstd's
``ZstdDecompressor.decompress``; ``gagebpe.decompress(blob,
dictionary=)``, which checks its arguments and calls the record's kernel;
and the kernel alone (``decoder.records._DECODE_NEW``, which reads the
record, makes its bytes object and decodes into it), which holds handing
the arguments over and back.  The difference of the two is the call's
Python.
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

import gagebpe
from gagebpe.decoder import records as _records

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import kinds, records  # noqa: E402


def per_record(calls, n, rounds):
    """``{name: median ns per record}`` of ``calls`` (name -> no-argument
    function over ``n`` records), their rounds interleaved."""
    times = {name: [] for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            start = time.perf_counter()
            fn()
            times[name].append((time.perf_counter() - start) / n * 1e9)
    return {name: statistics.median(t) for name, t in times.items()}


def layers(units, size, most, rounds):
    import zstandard
    recs = records(units, size)
    train, test = recs[:len(recs) // 2], recs[len(recs) // 2:][:most]
    ours = gagebpe.train_dictionary(train, 64 << 10)
    theirs = zstandard.ZstdCompressionDict(
        zstandard.train_dictionary(64 << 10, train).as_bytes())
    blobs = gagebpe.compress_many(test, dictionary=ours)
    zblobs = [zstandard.ZstdCompressor(level=19, dict_data=theirs).compress(r) for r in test]
    unzstd = zstandard.ZstdDecompressor(dict_data=theirs)
    assert [gagebpe.decompress(b, dictionary=ours) for b in blobs] == test
    _records._load()  # the record's kernel
    kernel, address, limit = _records._DECODE_NEW, ours.decoder_address, _records.NO_LIMIT
    return per_record({
        "zstd": lambda: [unzstd.decompress(b) for b in zblobs],
        "decompress": lambda: [gagebpe.decompress(b, dictionary=ours) for b in blobs],
        "kernel": lambda: [kernel(b, address, limit) for b in blobs],
    }, len(test), rounds)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 1024, 4096])
    p.add_argument("--only", nargs="+", help="kinds whose name holds one")
    p.add_argument("--records", type=int, default=300)
    p.add_argument("--rounds", type=int, default=15)
    args = p.parse_args()
    print("| kind | size | zstd ns | decompress ns | kernel ns "
          "| decompress / zstd | kernel / zstd |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, units in kinds().items():
        if args.only and not any(o in name for o in args.only):
            continue
        for size in args.sizes:
            t = layers(units, size, args.records, args.rounds)
            print(f"| {name} | {size} | {t['zstd']:.0f} | {t['decompress']:.0f} "
                  f"| {t['kernel']:.0f} "
                  f"| {t['decompress'] / t['zstd']:.2f}× | {t['kernel'] / t['zstd']:.2f}× |",
                  flush=True)


if __name__ == "__main__":
    main()
