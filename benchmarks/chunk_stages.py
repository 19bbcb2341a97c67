"""Where a 4 KB chunk's decoding time goes (issue 55, target 5: a 4 KB
chunk decodes in at most twice zstd's time per call).

    python benchmarks/chunk_stages.py [--level 6] [--rounds 7]

4 KB chunks of the six Canterbury text files (the built-in sample where
the corpus is absent) are compressed at the level; those written as one
LZ block are decoded through the public call, through the one-block
kernel alone, and stage by stage inside one compiled loop (each stage
timed as the difference of running the stages up to it and up to the
one before), with zstd -19's chunks in the same run.  Medians of rounds,
microseconds per chunk.
"""
import argparse
import statistics
import time

import numpy as np
from numba import njit

import gagebpe
from gagebpe.decoder import fast, layout
from gagebpe.format.codings.registry import LZ
from gagebpe.kernels import lz, xxh64
from gagebpe.sample import sample

from _shared import CORPUS

TEXTS = ("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt", "bible.txt",
         "world192.txt")
STAGES = ("padding copy", "code-length table", "decoding tables", "tokens", "data check")


def chunks(size=4096, most=400):
    if CORPUS.is_dir():
        texts = [(CORPUS / name).read_bytes() for name in TEXTS]
    else:
        print(f"(no corpus at {CORPUS}: using the built-in sample)")
        texts = [sample(4 << 20)]
    pieces = [t[i:i + size] for t in texts for i in range(0, len(t) - size + 1, size)]
    return pieces[::max(1, len(pieces) // most)][:most]


@njit(cache=False)
def _up_to(payloads, starts, sizes, stages):
    """Decode every chunk's LZ payload through its first ``stages`` stages."""
    out = np.empty(sizes.max(), np.uint8)
    total = 0
    for k in range(sizes.shape[0]):
        payload = payloads[starts[k]:starts[k + 1]]
        block = out[:sizes[k]]
        end = 8 * (payload.shape[0] - lz.HEAD)
        buffer = lz.with_padding(payload[lz.HEAD:])
        if stages < 2:
            continue
        n_literal = lz.LITERALS + np.int64(payload[0])
        lengths = np.empty(n_literal + 1 + np.int64(payload[1]), np.uint8)
        _, bitpos = lz._read_table(buffer, np.uint64(0), np.uint64(end), lengths)
        if stages < 3:
            continue
        _, literal, distance = lz.decoding_tables(lengths[:n_literal], lengths[n_literal:], 1,
                                                  block.shape[0] >= 4 << lz.MAX_CODE)
        if stages < 4:
            continue
        reps = np.array(lz.FIRST_REPS, np.int64)
        total += lz.tokens(buffer, bitpos, end, literal, distance, block, 0, 0,
                           block.shape[0], reps, np.empty(0, np.uint8))[0]
        if stages < 5:
            continue
        total += xxh64.data_check(block) & 1
    return total


def per_chunk(work, count, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) / count * 1e6)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    import zstandard
    pieces = chunks()
    blobs = [gagebpe.compress(p, args.level) for p in pieces]
    taken = [(p, b) for p, b in zip(pieces, blobs) if fast._declared(b)[1] == LZ]
    payloads, sizes = [], []
    for _, blob in taken:
        array = np.frombuffer(blob, np.uint8)
        _, size, payload_at, _ = layout.one_block(array, fast._HEAD)
        payloads.append(array[payload_at:])
        sizes.append(size)
    starts = np.cumsum([0] + [len(p) for p in payloads])
    payloads, sizes = np.concatenate(payloads), np.array(sizes)
    kernels = [(np.frombuffer(b, np.uint8), np.empty(len(p), np.uint8), *fast._kernel(LZ))
               for p, b in taken]
    zc, zd = zstandard.ZstdCompressor(level=19), zstandard.ZstdDecompressor()
    zstd_blobs = [zc.compress(p) for p, _ in taken]

    def public():
        for _, blob in taken:
            gagebpe.decompress(blob)

    def kernel():
        for data, out, single, inputs in kernels:
            single(data, out, LZ, inputs)

    def zstd():
        for blob in zstd_blobs:
            zd.decompress(blob)

    for stages in range(1, len(STAGES) + 1):
        _up_to(payloads, starts, sizes, stages)  # compile
    public(), kernel()
    count = len(taken)
    cells = {"gagebpe.decompress": per_chunk(public, count, args.rounds),
             "its one-block kernel": per_chunk(kernel, count, args.rounds),
             "zstd -19, decompress": per_chunk(zstd, count, args.rounds)}
    before = 0.0
    for stages, name in enumerate(STAGES, 1):
        upto = per_chunk(lambda: _up_to(payloads, starts, sizes, stages), count, args.rounds)
        cells[f"stage: {name}"] = upto - before
        before = upto
    print(f"{count} chunks of 4 KB coded as LZ at level {args.level} (of {len(pieces)}); "
          f"median of {args.rounds} rounds")
    print("| | µs per chunk |\n|---|---:|")
    for name, value in cells.items():
        print(f"| {name} | {value:.2f} |")
    against = cells["gagebpe.decompress"] / cells["zstd -19, decompress"]
    print(f"| decompress against zstd | {against:.2f}× |")


if __name__ == "__main__":
    main()
