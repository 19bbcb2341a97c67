"""How much a SEQUENCES part's literals could gain from codes chosen by
context: an upper bound, before a coding is built for it.

    python benchmarks/literal_contexts.py benchmarks/out/other/* [--classes 2,4,8,16]

SEQUENCES decodes a part's literals ahead of its sequences, in four
streams, so a literal's context can only be the literal before it in its
stream (not the byte before it in the output).  For each file (its first
4 MiB, parsed as level 6 parses a large block), each part's literals are
split by the class of that previous literal, the 256 byte values grouped
into ``k`` classes by a few rounds of k-means over their next-literal
counts, and coded by one code per class.  The columns give the literals'
share of the SEQUENCES payload and what the classes save, as a share of
the payload: by entropy alone (no tables: a ceiling), and with each
class's code-length table costed at 16 bytes plus 0.6 bytes per symbol it
codes.
"""
import argparse
from pathlib import Path

import numpy as np

from gagebpe.encoder.levels import PARTS
from gagebpe.format.codings import lz, sequences
from gagebpe.kernels.sequences import STREAMS

LARGEST = 4 << 20


def entropy_bits(counts):
    c = counts[counts > 0].astype(np.float64)
    return float(-(c * np.log2(c / c.sum())).sum())


def table_bits(counts):
    return 8 * (16 + 0.6 * np.count_nonzero(counts))


def previous_in_stream(literals):
    """Each literal's predecessor in its stream (0 for a stream's first)."""
    quarter = (len(literals) + STREAMS - 1) // STREAMS
    previous = np.zeros_like(literals)
    for s in range(STREAMS):
        stream = literals[s * quarter:(s + 1) * quarter]
        previous[s * quarter + 1:s * quarter + len(stream)] = stream[:-1]
    return previous


def classes(literals, previous, k, rounds=8):
    """A class for each byte value as a previous literal: k-means over the
    counts of the literals that follow it, seeded by the k most frequent."""
    follows = np.zeros((256, 256))
    np.add.at(follows, (previous, literals), 1)
    seeds = np.argsort(-follows.sum(1), kind="stable")[:k]
    centres = follows[seeds] + 0.5
    for _ in range(rounds):
        logs = np.log2(centres / centres.sum(1, keepdims=True))
        label = (-(follows @ logs.T)).argmin(1)
        centres = np.array([follows[label == c].sum(0) + 0.5 for c in range(k)])
    return label


def part_bits(literals, ks):
    """``(order-0 bits, tables too), {k: (class bits, tables too)}``."""
    counts = np.bincount(literals, minlength=256)
    order0 = entropy_bits(counts)
    previous = previous_in_stream(literals)
    by_k = {}
    for k in ks:
        label = classes(literals, previous, k)[previous]
        split = [np.bincount(literals[label == c], minlength=256) for c in range(k)]
        bits = sum(entropy_bits(c) for c in split)
        by_k[k] = (bits, bits + sum(table_bits(c) for c in split if c.any()))
    return (order0, order0 + table_bits(counts)), by_k


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--classes", default="2,4,8,16")
    args = parser.parse_args()
    ks = [int(k) for k in args.classes.split(",")]
    print("| file | literals' share | " + " | ".join(
        f"{k} classes: ceiling | with tables" for k in ks) + " |")
    print("|---|---:|" + "---:|---:|" * len(ks))
    for path in args.files:
        parts = lz.parts(path.read_bytes()[:LARGEST], PARTS)
        payload_bits = 8 * len(sequences.encode(parts))
        order0 = np.zeros(2)
        saved = {k: np.zeros(2) for k in ks}
        for part in parts:
            symbols = part.tokens()[0]
            literals = symbols[symbols < 256].astype(np.int64)
            if len(literals) < 2:
                continue
            base, by_k = part_bits(literals, ks)
            order0 += base
            for k, bits in by_k.items():
                saved[k] += np.array(base) - np.array(bits)
        cells = [f"{s[0] / payload_bits:+.2%} | {s[1] / payload_bits:+.2%}" for s in saved.values()]
        print(f"| {path.name} | {order0[1] / payload_bits:.1%} | " + " | ".join(cells) + " |",
              flush=True)


if __name__ == "__main__":
    main()
