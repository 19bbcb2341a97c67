"""Small chunks, as numcodecs and Zarr call a codec: ratio, speed and the
cost of one call, chunk by chunk, against the codecs those libraries offer;
and a Zarr array written and read back with each.

    python benchmarks/chunks.py                       # print the tables
    python benchmarks/chunks.py --results benchmarks/RESULTS.md    # and put them in the results

Each file of the Canterbury corpus is cut into chunks of each size (its
last chunk shorter), and every codec codes every chunk once per round,
through its numcodecs class, the codecs taking turns within a round;
times are medians of rounds.  The per-call table times the direct calls
the issue's targets name (``gagebpe.compress``/``decompress``,
python-zstandard, ``zlib``) on 4 KB chunks of the six text files, and
speeds at 64 KB and up against zlib's, in the same run.  Needs the
``bench`` and ``zarr`` extras.
"""
import argparse
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

from _shared import CORPUS, command_line, median, write_marked

SIZES = (4 << 10, 64 << 10, 256 << 10, 1 << 20)
TEXTS = ("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt", "bible.txt",
         "world192.txt")


def corpus_files(names=None):
    if not CORPUS.is_dir():
        raise SystemExit(f"no corpus at {CORPUS}")
    return [p.read_bytes() for p in sorted(CORPUS.iterdir())
            if p.name != "SHA256SUMS" and (names is None or p.name in names)]


def chunks_of(files, size):
    return [f[i:i + size] for f in files for i in range(0, len(f), size)]


def numcodecs_peers(levels):
    import numcodecs
    from gagebpe.numcodecs import GageBPE
    peers = {f"gagebpe -{level}": GageBPE(level=level) for level in levels}
    peers.update({
        "zlib -6": numcodecs.Zlib(level=6),
        "zstd -3": numcodecs.Zstd(level=3),
        "zstd -19": numcodecs.Zstd(level=19),
        "lz4": numcodecs.LZ4(),
        "blosc (lz4, shuffle)": numcodecs.Blosc(),
    })
    return peers


def time_rounds(work, rounds):
    """Median seconds of ``work()`` over ``rounds`` runs."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return median(times)


def chunk_table(files, peers, rounds):
    rows = []
    for size in SIZES:
        chunks = chunks_of(files, size)
        total = sum(map(len, chunks))
        encoded = {name: [codec.encode(c) for c in chunks] for name, codec in peers.items()}
        for name, blobs in encoded.items():  # every codec gives the chunks back
            assert all(bytes(peers[name].decode(b)) == c for b, c in zip(blobs, chunks)), name
        times = {name: ([], []) for name in peers}
        for _ in range(rounds):
            for name, codec in peers.items():
                times[name][0].append(time_rounds(lambda: [codec.encode(c) for c in chunks], 1))
                times[name][1].append(time_rounds(
                    lambda: [codec.decode(b) for b in encoded[name]], 3))
        for name in peers:
            c, d = median(times[name][0]), median(times[name][1])
            size_out = sum(map(len, encoded[name]))
            rows.append((size, name, total / size_out, total / c / 1e6, total / d / 1e6,
                         c / len(chunks) * 1e6, d / len(chunks) * 1e6))
        print(f"{size >> 10} KB chunks done", file=sys.stderr)
    return rows


def per_call(texts, rounds):
    """Direct calls on 4 KB chunks of the texts: gagebpe (default level)
    against python-zstandard and zlib; and speeds at 64 KB and up."""
    import zstandard
    import gagebpe
    zc, zd = zstandard.ZstdCompressor(level=19), zstandard.ZstdDecompressor()
    zc3 = zstandard.ZstdCompressor(level=3)
    results = {}
    for size in SIZES:
        chunks = chunks_of(texts, size)
        g = [gagebpe.compress(c) for c in chunks]
        z19 = [zc.compress(c) for c in chunks]
        z3 = [zc3.compress(c) for c in chunks]
        zl = [zlib.compress(c, 6) for c in chunks]
        work = {
            "gagebpe compress": lambda: [gagebpe.compress(c) for c in chunks],
            "zstd -19 compress": lambda: [zc.compress(c) for c in chunks],
            "gagebpe decompress": lambda: [gagebpe.decompress(b) for b in g],
            "zstd -19 decompress": lambda: [zd.decompress(b) for b in z19],
            "zstd -3 decompress": lambda: [zd.decompress(b) for b in z3],
            "zlib -6 decompress": lambda: [zlib.decompress(b) for b in zl],
        }
        if size > SIZES[0]:
            del work["gagebpe compress"], work["zstd -19 compress"]
        times = {name: [] for name in work}
        for _ in range(rounds):
            for name, fn in work.items():
                times[name].append(time_rounds(fn, 1))
        results[size] = ({name: median(t) / len(chunks) * 1e6 for name, t in times.items()},
                         sum(map(len, chunks)) / len(chunks))
    return results


def zarr_round_trip(rounds):
    """Write and read a 1-D uint8 array of the corpus (256 KB chunks) and a
    smooth int32 field (256 x 256 chunks) with each compressor."""
    import numcodecs
    import zarr
    from gagebpe.zarr import GageBPECodec
    from zarr.codecs import BloscCodec, ZstdCodec
    text = np.frombuffer(b"".join(corpus_files()), np.uint8)
    rng = np.random.default_rng(0)
    field = np.cumsum(np.cumsum(rng.integers(-2, 3, size=(2048, 2048)), axis=0), axis=1)
    field = field.astype(np.int32)
    datasets = {"Canterbury bytes (256 KB chunks)": (text, (1 << 18,)),
                "int32 field 2048x2048 (256x256 chunks)": (field, (256, 256))}
    compressors = {"gagebpe -6": GageBPECodec(level=6), "gagebpe -1": GageBPECodec(level=1),
                   "zstd -3": ZstdCodec(level=3), "zstd -19": ZstdCodec(level=19),
                   "blosc (zstd 5, shuffle)": BloscCodec(cname="zstd", clevel=5,
                                                         shuffle="shuffle")}
    del numcodecs
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, (data, chunks) in datasets.items():
            for name, codec in compressors.items():
                writes, reads = [], []
                for r in range(rounds):
                    path = Path(tmp) / f"{len(rows)}-{r}.zarr"
                    start = time.perf_counter()
                    array = zarr.create_array(path, shape=data.shape, chunks=chunks,
                                              dtype=data.dtype, compressors=[codec])
                    array[:] = data
                    writes.append(time.perf_counter() - start)
                    start = time.perf_counter()
                    back = zarr.open_array(path, mode="r")[:]
                    reads.append(time.perf_counter() - start)
                    assert np.array_equal(back, data)
                stored = sum(p.stat().st_size for p in path.rglob("c/**/*") if p.is_file())
                rows.append((label, name, data.nbytes / stored, median(writes), median(reads)))
    return rows


def render(rows, calls, zarr_rows):
    out = ["| chunk | codec | ratio | compress MB/s | decompress MB/s "
           "| µs per compress | µs per decompress |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for size, name, ratio, c, d, cu, du in rows:
        out.append(f"| {size >> 10} KB | {name} | {ratio:.3f} | {c:.1f} | {d:.1f} "
                   f"| {cu:,.1f} | {du:,.1f} |")
    small, mean = calls[SIZES[0]]
    out += ["", f"Direct calls on 4 KB chunks of the six text files (mean chunk "
            f"{mean:,.0f} bytes), µs per call:", "",
            "| call | gagebpe | peer | peer µs | gagebpe / peer |", "|---|---|---|---:|---:|"]
    for what, peer in (("compress", "zstd -19"), ("decompress", "zstd -19"),
                       ("decompress", "zstd -3"), ("decompress", "zlib -6")):
        ours, theirs = small[f"gagebpe {what}"], small[f"{peer} {what}"]
        out.append(f"| {what} | {ours:,.1f} | {peer} | {theirs:,.1f} | {ours / theirs:.2f}x |")
    out += ["", "Decompression speed against zlib -6 on the same text chunks:", "",
            "| chunk | gagebpe µs | zlib -6 µs | gagebpe speed / zlib's |", "|---|---:|---:|---:|"]
    for size in SIZES:
        t, _ = calls[size]
        out.append(f"| {size >> 10} KB | {t['gagebpe decompress']:,.1f} "
                   f"| {t['zlib -6 decompress']:,.1f} "
                   f"| {t['zlib -6 decompress'] / t['gagebpe decompress']:.2f}x |")
    out += ["", "A Zarr v3 array written and read back (local store, one process):", "",
            "| array | compressor | ratio | write s | read s |", "|---|---|---:|---:|---:|"]
    for label, name, ratio, w, r in zarr_rows:
        out.append(f"| {label} | {name} | {ratio:.3f} | {w:.2f} | {r:.2f} |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,6,9", help="gagebpe levels for the chunk table")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--results", type=Path,
                        help="put the tables in this file (benchmarks/RESULTS.md)")
    args = parser.parse_args()
    import gagebpe
    gagebpe.decompress(gagebpe.compress(b"warm the kernels " * 5000))
    levels = [int(v) for v in args.levels.split(",")]
    rows = chunk_table(corpus_files(), numcodecs_peers(levels), args.rounds)
    calls = per_call(corpus_files(TEXTS), max(args.rounds, 5))
    zarr_rows = zarr_round_trip(args.rounds)
    result = render(rows, calls, zarr_rows)
    print(result)
    if args.results:
        write_marked(args.results, "chunk table", result,
                     command_line("chunks.py", sys.argv[1:]))


if __name__ == "__main__":
    main()
