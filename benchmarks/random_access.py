"""Random 4 KB reads from a large .gbpe file, beside decoding it all.

    python benchmarks/random_access.py --megabytes 256 --results benchmarks/RESULTS.md

Builds a file of real data — the Canterbury corpus, or the files of
``--data DIR``, in slices of 16–256 KB taken at random and varied (every
slice's words shuffled in a few places, a line number stamped in), so that
no block is a copy of another — compresses it at ``--level`` (the default
level unless told), and measures, in one run:

- a random 4 KB read (``seek`` + ``read`` on an open ``GageBPEFile``, the
  block map built and the kernels loaded: warm), median over ``--reads``
  offsets, and the compressed bytes each read fetched;
- decoding the whole block that holds it (the same blocks), median;
- decoding the whole file (``gagebpe.decompress``), median of 3;
- gzip -6's forward read to the same offset (``GzipFile.seek`` + ``read``,
  a fresh file each time), median over ``--gzip-reads`` of the offsets;
- with ``--block-sizes``, the same reads on the sources joined (each
  once, at most ``--prefix-megabytes``) compressed with smaller blocks:
  the ratio each costs, and what a read costs then.
"""
import argparse
import gzip
import hashlib
import io
import random
import sys
import tempfile
import time
from pathlib import Path

import gagebpe
from gagebpe.decoder.ranges import BlockMap
from gagebpe.encoder.levels import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _shared import CORPUS, command_line, median, write_marked  # noqa: E402

READ = 4096


def sources(directory):
    files = [p for p in sorted(Path(directory).iterdir()) if p.is_file() and p.name != "SHA256SUMS"]
    return [p.read_bytes() for p in files if p.stat().st_size >= 4096]


def build(files, size, seed=41):
    """``size`` bytes of varied slices of ``files``."""
    rng = random.Random(seed)
    out, total, n = [], 0, 0
    while total < size:
        data = rng.choice(files)
        length = min(len(data), rng.randint(16 << 10, 256 << 10))
        at = rng.randrange(len(data) - length + 1)
        piece = bytearray(data[at:at + length])
        for _ in range(8):  # swap two 8-byte runs: the slice is not a copy
            i, j = rng.randrange(len(piece) - 8), rng.randrange(len(piece) - 8)
            piece[i:i + 8], piece[j:j + 8] = piece[j:j + 8], piece[i:i + 8]
        piece[:0] = b"%d\n" % n
        out.append(bytes(piece))
        total += len(piece)
        n += 1
    return b"".join(out)[:size]


def compressed(data, level, block_size, threads, cache_dir):
    """The stream of ``data``, kept in ``cache_dir`` between runs."""
    key = hashlib.sha256(data).hexdigest()[:16]
    path = Path(cache_dir) / f"random_access-{key}-{level}-{block_size}-{gagebpe.__version__}.gbpe"
    if not path.exists():
        start = time.perf_counter()
        blob = gagebpe.compress(data, level=level, block_size=block_size, threads=threads)
        print(f"  compressed {len(data) >> 20} MB at level {level}, blocks of {block_size}: "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        path.write_bytes(blob)
    return path


class Counting(io.FileIO):
    fetched = 0

    def read(self, size=-1):
        data = super().read(size)
        self.fetched += len(data)
        return data


def random_reads(path, data, offsets):
    """Per offset: seconds for seek + read of 4 KB, the compressed bytes
    fetched, and seconds to decode its block whole.  The block a read
    kept is dropped before the next: every read decodes, as nearly every
    random read into a file of many blocks must."""
    raw = Counting(str(path))
    reads, fetched = [], []
    with gagebpe.open(raw) as f:
        f.seek(0)  # the map: headers and trailers
        blocks = f._buffer.raw._map
        for offset in offsets:
            blocks._last = (-1, None)
            before = raw.fetched
            start = time.perf_counter()
            f.seek(offset)
            got = f.read(READ)
            reads.append(time.perf_counter() - start)
            fetched.append(raw.fetched - before)
            assert got == data[offset:offset + READ], offset
    whole = []
    scanned = BlockMap.scan(open(path, "rb"))
    for offset in offsets:
        k = scanned.block_of(offset)
        scanned._last = (-1, None)
        start = time.perf_counter()
        scanned.decode(k)
        whole.append(time.perf_counter() - start)
    return reads, fetched, whole, blocks.blocks


def gzip_reads(data, offsets, cache_dir):
    path = Path(cache_dir) / f"random_access-{hashlib.sha256(data).hexdigest()[:16]}.gz"
    if not path.exists():
        path.write_bytes(gzip.compress(data, 6))
    times = []
    for offset in offsets:
        with gzip.open(path) as f:
            start = time.perf_counter()
            f.seek(offset)
            got = f.read(READ)
            times.append(time.perf_counter() - start)
        assert got == data[offset:offset + READ], offset
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--megabytes", type=int, default=256)
    p.add_argument("--data", default=str(CORPUS), help="a directory of files to slice")
    p.add_argument("--level", type=int, default=gagebpe.DEFAULT_LEVEL)
    p.add_argument("--reads", type=int, default=300)
    p.add_argument("--gzip-reads", type=int, default=15)
    p.add_argument("--block-sizes", default="1048576,262144,65536")
    p.add_argument("--prefix-megabytes", type=int, default=32)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--cache", default=tempfile.gettempdir())
    p.add_argument("--results", help="write the table into this RESULTS.md")
    args = p.parse_args()

    files = sources(args.data)
    data = build(files, args.megabytes << 20)
    rng = random.Random(7)
    offsets = [rng.randrange(len(data) - READ) for _ in range(args.reads)]
    default_block = settings(args.level).block_size
    path = compressed(data, args.level, default_block, args.threads, args.cache)
    blob_size = path.stat().st_size
    gagebpe.decompress(gagebpe.compress(data[:1 << 16], level=args.level))  # kernels loaded

    lines = [f"{len(data) / 1e6:.0f} MB of slices of {args.data} ({len(files)} files), level "
             f"{args.level}: {blob_size / 1e6:.1f} MB, ratio {len(data) / blob_size:.3f}; "
             f"{args.reads} random 4 KB reads; medians", ""]
    reads, fetched, whole, n_blocks = random_reads(path, data, offsets)
    times = []
    for _ in range(3):
        blob = path.read_bytes()
        start = time.perf_counter()
        out = gagebpe.decompress(blob)
        times.append(time.perf_counter() - start)
        assert len(out) == len(data)
        del out, blob
    gz = gzip_reads(data, offsets[:args.gzip_reads], args.cache)
    read_ms, block_ms = median(reads) * 1e3, median(whole) * 1e3
    lines += [
        "| what | median | against a random read |",
        "|---|---:|---:|",
        f"| random 4 KB read (`seek` + `read`), {n_blocks} blocks of {default_block >> 20} MiB "
        f"| {read_ms:.2f} ms | 1× |",
        f"| decoding the block that holds it | {block_ms:.2f} ms | {block_ms / read_ms:.2f}× |",
        f"| decoding the whole file | {median(times) * 1e3:.0f} ms "
        f"| {median(times) * 1e3 / read_ms:.0f}× |",
        f"| gzip -6, forward read to the offset ({len(gz)} offsets) | {median(gz) * 1e3:.0f} ms "
        f"| {median(gz) * 1e3 / read_ms:.0f}× |",
        "",
        f"Compressed bytes fetched per random read: median {median(fetched) / 1e3:.0f} KB "
        f"(one block's payload; the map took the headers and trailers once).",
        "",
    ]
    if args.block_sizes:
        # The sources themselves, each once: slices repeat across a large
        # block, which would overstate what smaller blocks lose.
        prefix = b"".join(files)[:args.prefix_megabytes << 20]
        prefix_offsets = [rng.randrange(len(prefix) - READ) for _ in range(args.reads)]
        lines += [f"Smaller blocks, on the sources joined ({len(prefix) / 1e6:.1f} MB, each "
                  "file once):", "",
                  "| block size | ratio | size against the default's | random 4 KB read | "
                  "bytes fetched |", "|---:|---:|---:|---:|---:|"]
        base = None
        for block_size in [default_block] + [int(b) for b in args.block_sizes.split(",")]:
            small = compressed(prefix, args.level, block_size, args.threads, args.cache)
            size = small.stat().st_size
            base = base or size
            r, fetched, _, _ = random_reads(small, prefix, prefix_offsets)
            lines.append(f"| {block_size >> 10} KiB | {len(prefix) / size:.3f} | "
                         f"{size / base:.4f}× | {median(r) * 1e3:.2f} ms | "
                         f"{median(fetched) / 1e3:.0f} KB |")
        lines.append("")
    text = "\n".join(lines)
    print(text)
    if args.results:
        write_marked(Path(args.results), "random access", text,
                     command_line("random_access.py", sys.argv[1:]))


if __name__ == "__main__":
    main()
