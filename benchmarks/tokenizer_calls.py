"""One call per text: ByteBPE against tiktoken and bpe-openai on texts of
10 to 200,000 characters, encode and decode, GPT-2's and cl100k's merges.

    python benchmarks/tokenizer_calls.py --results benchmarks/RESULTS.md

Every call takes a text no call before it took (slices of the corpus's
English texts -- alice29, lcet10, plrabn12, bible -- at offsets that no
round repeats), as a tokenizer serving prompts sees them; gagebpe's
chunk cache is warm from the calls before, as it is in a running
program.  Decode times the ids of those texts.  The ids must equal
tiktoken's.  µs per call, medians of ``--rounds`` rounds, one thread.
Then the bulk rows: one text of 4 MB, and a batch of its 50 KB pieces in
one call (``encode_batch``, ``encode_ordinary_batch``), one thread.
bpe-openai runs where its data is on the machine (its cl100k is in the
wheel; GPT-2's it downloads).
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _shared import CORPUS, command_line, write_marked  # noqa: E402
from byte_bpe import models  # noqa: E402

SIZES = (10, 100, 1000, 10_000, 50_000, 200_000)
CALL_CHARS = 2_000_000  # characters per size and round (at least 20 calls)


def english():
    names = ["alice29.txt", "lcet10.txt", "plrabn12.txt", "bible.txt"]
    if all((CORPUS / n).exists() for n in names):
        return "".join((CORPUS / n).read_text(encoding="latin-1") for n in names)
    from gagebpe.sample import sample
    return sample(8 << 20).decode("utf-8", "replace")


def texts(text, size, rounds):
    """For each round, distinct slices of ``size`` characters."""
    calls = max(20, min(2000, CALL_CHARS // size))
    step = max(1, (len(text) - size) // (calls * rounds))
    offsets = [i * step for i in range(calls * rounds)]
    return [[text[o:o + size] for o in offsets[r::rounds]] for r in range(rounds)]


def per_call(fn, groups):
    times = []
    for group in groups:
        start = time.perf_counter()
        for x in group:
            fn(x)
        times.append((time.perf_counter() - start) / len(group) * 1e6)
    return statistics.median(times)


def bpe_openai(name):
    try:
        import bpe_openai
        return bpe_openai.get_encoding({"GPT-2": "gpt2", "cl100k_base": "cl100k_base"}[name])
    except Exception:  # not installed, or its data would need the network
        return None


def rows(text, found, rounds):
    out = []
    for name, (ours, theirs) in found.items():
        other = bpe_openai(name)
        for size in SIZES:
            # Warm-up texts (distinct from the measured ones) fill the cache.
            for group in texts(text[::-1], size, 1):
                for x in group[:200]:
                    ours.encode_ordinary(x)
            groups = texts(text, size, rounds)
            for group in groups:
                if [ours.encode_ordinary(x) for x in group] != [theirs.encode_ordinary(x)
                                                                for x in group]:
                    raise SystemExit(f"{name}: tiktoken encoded otherwise at {size}")
            ids = [[theirs.encode_ordinary(x) for x in group] for group in groups]
            enc = [per_call(tool.encode_ordinary, groups) for tool in (ours, theirs)]
            dec = [per_call(tool.decode, ids) for tool in (ours, theirs)]
            b = per_call(other.encode_ordinary, groups) if other else None
            db = per_call(other.decode, ids) if other else None
            out.append((name, size, *enc, b, *dec, db))
            print(out[-1], flush=True)
    return out


def bulk_rows(text, found, rounds):
    """``(merges, input, gagebpe s, tiktoken s)`` for one text of 4 MB and
    for a batch of its 50 KB pieces, one thread; the ids checked equal."""
    whole = text[:4_000_000]
    pieces = [whole[i:i + 50_000] for i in range(0, len(whole), 50_000)]
    out = []
    for name, (ours, theirs) in found.items():
        if ours.encode_batch(pieces, threads=1) != theirs.encode_ordinary_batch(pieces,
                                                                                num_threads=1):
            raise SystemExit(f"{name}: tiktoken encoded the batch otherwise")
        for what, mine, other in (
                ("one text of 4 MB", lambda: ours.encode_ordinary(whole),
                 lambda: theirs.encode_ordinary(whole)),
                (f"{len(pieces)} texts of 50 KB, one call",
                 lambda: ours.encode_batch(pieces, threads=1),
                 lambda: theirs.encode_ordinary_batch(pieces, num_threads=1))):
            times = ([], [])
            for _ in range(rounds):
                for spent, fn in zip(times, (mine, other)):
                    start = time.perf_counter()
                    fn()
                    spent.append(time.perf_counter() - start)
            out.append((name, what, statistics.median(times[0]), statistics.median(times[1])))
            print(out[-1], flush=True)
    return out


def table(found, bulk, rounds):
    us = lambda v: "—" if v is None else f"{v:,.1f}"  # noqa: E731
    lines = [f"µs per call, one thread, each call on a text not seen before; medians of "
             f"{rounds} rounds.", "",
             "| merges | characters | encode gagebpe | tiktoken | bpe-openai | gagebpe / tiktoken "
             "| decode gagebpe | tiktoken | bpe-openai | gagebpe / tiktoken |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, size, e, t, b, d, dt, db in found:
        lines.append(f"| {name} | {size:,} | {us(e)} | {us(t)} | {us(b)} | **{e / t:.2f}×** "
                     f"| {us(d)} | {us(dt)} | {us(db)} | **{d / dt:.2f}×** |")
    lines += ["", "| merges | bulk, one thread | gagebpe s | tiktoken s | gagebpe / tiktoken |",
              "|---|---|---:|---:|---:|"]
    for name, what, mine, other in bulk:
        lines.append(f"| {name} | {what} | {mine:.3f} | {other:.3f} | **{mine / other:.2f}×** |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--results", type=Path, help="write the table into this RESULTS.md")
    args = p.parse_args()
    text, found = english(), models()
    result = table(rows(text, found, args.rounds), bulk_rows(text, found, args.rounds),
                   args.rounds)
    print(result)
    if args.results:
        write_marked(args.results, "tokenizer calls", result,
                     command_line("tokenizer_calls.py", sys.argv[1:]))


if __name__ == "__main__":
    main()
