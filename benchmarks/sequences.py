"""SEQUENCES against LZ_PARTS on the same parts: size and decoding speed.

    python benchmarks/sequences.py [FILES...] [--rounds 9]
    python benchmarks/sequences.py --chunk 4096 [--rounds 9]
    python benchmarks/sequences.py FILES... --longest 11,10,9 [--rounds 25]

Each file (the Canterbury corpus's where none are named and it is
present, else the built-in sample), up to 4 MiB as one block, is parsed
once as level 6 parses a large block (``encoder.levels.PARTS``) and
its parts coded both ways; each payload is decoded by its coding's
kernel (``decode_block``, no container), medians of rounds, with zstd -19
decoding its own stream of the file in the same run.  With ``--chunk``,
chunks of the Canterbury text files (as ``chunk_stages.py`` cuts them)
are coded whole as level 6 codes a small block's copies (LZ) and as
SEQUENCES of one part, microseconds per chunk.  With ``--longest``, each
file's parts are coded SEQUENCES with each limit on the run, length and
distance codes (bits; the first is the base) and decoded by the kernel,
the limits' rounds interleaved.  The last line gives the totals.
"""
import argparse
import time
from pathlib import Path

import numpy as np

from gagebpe.encoder.levels import FULL, PARTS
from gagebpe.format.codings import lz, sequences
from gagebpe.format.codings.registry import LZ_PARTS, SEQUENCES
from gagebpe.sample import sample

CANTERBURY = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "canterbury"
LARGEST = 4 << 20


def median_seconds(run, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def decoder(coding, payload, size):
    """A function decoding ``payload`` into a reused buffer, checked once."""
    out = np.zeros(size, np.uint8)
    array = np.frombuffer(payload, np.uint8)
    module = sequences if coding == SEQUENCES else lz
    if module.decode_block(array, size, out, coding):
        raise SystemExit(f"coding {coding} failed to decode its payload")
    return lambda: module.decode_block(array, size, out, coding), out


def whole_files(paths, rounds):
    import zstandard
    zstd = zstandard.ZstdDecompressor()
    print("| file | bytes | LZ_PARTS | SEQUENCES | size | LZ_PARTS MB/s | SEQUENCES MB/s "
          "| speed | zstd -19 MB/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    totals = np.zeros(6)
    for path in paths:
        data = Path(path).read_bytes()[:LARGEST] if isinstance(path, (str, Path)) else path
        name = Path(path).name if isinstance(path, (str, Path)) else "sample"
        parts = lz.parts(data, PARTS)
        tokens, seqs = lz.payload_of(parts), sequences.encode(parts)
        times = []
        for coding, payload in ((LZ_PARTS, tokens), (SEQUENCES, seqs)):
            run, out = decoder(coding, payload, len(data))
            if out.tobytes() != data:
                raise SystemExit(f"{name}: coding {coding} decoded other bytes")
            times.append(median_seconds(run, rounds))
        z = zstandard.ZstdCompressor(level=19).compress(data)
        times.append(median_seconds(lambda: zstd.decompress(z), rounds))
        mb = [len(data) / t / 1e6 for t in times]
        print(f"| {name} | {len(data):,} | {len(tokens):,} | {len(seqs):,} "
              f"| {len(seqs) / len(tokens):.4f} | {mb[0]:.0f} | {mb[1]:.0f} "
              f"| {times[0] / times[1]:.2f}× | {mb[2]:.0f} |")
        totals += (len(data), len(tokens), len(seqs), *times)
    size, n_tokens, n_seqs, t_tokens, t_seqs, t_zstd = totals
    print(f"| total | {size:,.0f} | {n_tokens:,.0f} | {n_seqs:,.0f} | {n_seqs / n_tokens:.4f} "
          f"| {size / t_tokens / 1e6:.0f} | {size / t_seqs / 1e6:.0f} "
          f"| {t_tokens / t_seqs:.2f}× | {size / t_zstd / 1e6:.0f} |")


def longest_codes(paths, limits, rounds):
    print("| file | " + " | ".join(f"{n} bits: bytes | speed" for n in limits) + " |")
    print("|---|" + "---:|---:|" * len(limits))
    sizes, seconds = np.zeros(len(limits)), np.zeros(len(limits))
    for path in paths:
        data = Path(path).read_bytes()[:LARGEST]
        parts = lz.parts(data, PARTS)
        payloads = [sequences.encode(parts, n) for n in limits]
        runs = [decoder(SEQUENCES, p, len(data))[0] for p in payloads]
        times = [[] for _ in limits]
        for _ in range(rounds):
            for run, kept in zip(runs, times):
                start = time.perf_counter()
                run()
                kept.append(time.perf_counter() - start)
        medians = np.array([np.median(t) for t in times])
        sizes += [len(p) for p in payloads]
        seconds += medians
        print(f"| {Path(path).name} | " + " | ".join(
            f"{len(p):,} | {medians[0] / m:.3f}×" for p, m in zip(payloads, medians)) + " |")
    print("| total | " + " | ".join(
        f"{n:,.0f} | {seconds[0] / s:.3f}×" for n, s in zip(sizes, seconds)) + " |")


def chunked(size, rounds):
    import zstandard
    from chunk_stages import chunks
    pieces = chunks(size)
    lz_payloads = [lz.encode(p, FULL) for p in pieces]
    seq_payloads = [sequences.encode(lz.parts(p, FULL._replace(segment=len(p))))
                    for p in pieces]
    runs = [decoder(c, p, len(d))[0] for (c, p), d in zip(lz_payloads, pieces)]
    seq_runs = [decoder(SEQUENCES, p, len(d))[0] for p, d in zip(seq_payloads, pieces)]
    zstd = zstandard.ZstdDecompressor()
    frames = [zstandard.ZstdCompressor(level=19).compress(p) for p in pieces]
    per_chunk = [median_seconds(lambda: [run() for run in group], rounds) / len(pieces) * 1e6
                 for group in (runs, seq_runs, [lambda f=f: zstd.decompress(f) for f in frames])]
    print(f"{len(pieces)} chunks of {size} bytes, µs per chunk (kernel only; zstd's call):")
    print("| way | µs | bytes of all chunks |")
    print("|---|---:|---:|")
    for name, us, n in (("LZ", per_chunk[0], sum(len(p) for _, p in lz_payloads)),
                        ("SEQUENCES", per_chunk[1], sum(map(len, seq_payloads))),
                        ("zstd -19", per_chunk[2], sum(map(len, frames)))):
        print(f"| {name} | {us:.2f} | {n:,} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--chunk", type=int, help="chunks of this many bytes instead")
    parser.add_argument("--longest", help="limits of the sequence codes to compare, e.g. 11,10")
    args = parser.parse_args()
    if args.chunk:
        return chunked(args.chunk, args.rounds)
    paths = args.files or (sorted(p for p in CANTERBURY.iterdir() if p.suffix != ".md"
                                  and p.name != "SHA256SUMS")
                           if CANTERBURY.is_dir() else [sample(1 << 20)])
    if args.longest:
        return longest_codes(paths, [int(n) for n in args.longest.split(",")], args.rounds)
    whole_files(paths, args.rounds)


if __name__ == "__main__":
    main()
