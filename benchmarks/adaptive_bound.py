"""What a code adapted to each record could gain over the dictionary's
fixed code, for DICTIONARY_IDS_LZ records: a bound, not a coder.

    python benchmarks/adaptive_bound.py --sizes 1024 4096

A 64 KiB dictionary is trained on the first half of each kind's records
(benchmarks/records.py); at most ``--records`` of the second half are
parsed as the coding parses them (``kernels.ids_lz.parse``, at the
dictionary's prices). Their tokens' bits in the dictionary's code (extra
bits included) are set against the bits an ideal adaptive coder would
spend on the same tokens: each symbol (an id or a length slot; a
distance symbol) at probability ``(seen + a * 2^-length) / (tokens so
far + a)``, the dictionary's code as the prior a record's own counts
take over from, ``a`` the prior's weight; extra bits as they are. An
order-0 model of a record's own symbols, arithmetic-coded and with no
table to send, is more than a new coding could do; where it gains
little, so would any order-0 code fitted per record.  The last column
adds one token of context: each symbol's probability after the token
before it, ``(seen after that token + 16 * order-0's) / (tokens after it
+ 16)``, order-0's at ``a`` = 256, as a context-mixing coder would (and
as no table-driven decoder of a token per look-up can).
"""
import argparse
import math
import sys
from pathlib import Path

import numpy as np

import gagebpe
from gagebpe.format.codings.dictionary_records import DEPTH
from gagebpe.kernels import ids_lz, lz, primed_lz

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import kinds, records  # noqa: E402

WEIGHTS = (16, 64, 256, 1024)
CONTEXT_WEIGHT, CONTEXT_PRIOR = 16, 256


def adaptive_bits(symbols, lengths, weight, context=False):
    """The bits of ``symbols`` under the adaptive model, its prior the
    code ``lengths``; with ``context``, under the model of one token of
    context over it."""
    seen, after, bits, before = {}, {}, 0.0, None
    for t, s in enumerate(symbols):
        p = (seen.get(s, 0) + weight * 2.0 ** -int(lengths[s])) / (t + weight)
        if context:
            counts = after.setdefault(before, {})
            n = sum(counts.values())
            p = (counts.get(s, 0) + CONTEXT_WEIGHT * p) / (n + CONTEXT_WEIGHT)
            counts[s] = counts.get(s, 0) + 1
            before = s
        bits -= math.log2(p)
        seen[s] = seen.get(s, 0) + 1
    return bits


def token_symbols(record, dictionary):
    """``(symbols, distance symbols, extra bits)`` of the record's
    DICTIONARY_IDS_LZ tokens."""
    _, _, sizes, edges, symbols, _ = dictionary.encoding()
    _, code, price, _, _, distance_price = dictionary.ids_lz_encoding()
    window, head, chain = dictionary.content_finder(len(record))
    copied, found = primed_lz.content_matches(window, len(dictionary.content), record, head,
                                              chain, DEPTH)
    lengths, distances, ids = ids_lz.parse(copied, len(dictionary.content), found, sizes, edges,
                                           symbols, price, distance_price)
    n_ids = len(code) - lz.SLOTS
    reps = np.array(lz.FIRST_REPS, np.int64)
    out, distance_out, extra = [], [], 0
    for length, distance, id_ in zip(lengths, distances, ids):
        if distance == 0:
            out.append(int(id_))
            continue
        s, _, d, _ = lz.copy_symbols(length, distance, reps, lz.REPS)
        out.append(n_ids + s - lz.LITERALS)
        distance_out.append(int(d))
        extra += lz.slot_extra(s - lz.LITERALS) + (lz.slot_extra(d - lz.REPS) if d >= lz.REPS
                                                   else 0)
    return out, distance_out, extra


def bound(units, size, most):
    """``(fixed code's bytes, {weight: adaptive bytes over fixed})``, or
    None where the dictionary takes no DICTIONARY_IDS_LZ records."""
    found = records(units, size)
    train, test = found[:len(found) // 2], found[len(found) // 2:][:most]
    dictionary = gagebpe.train_dictionary(train, 64 << 10)
    coding = dictionary.ids_lz_encoding()
    if coding is None:
        return None
    code, distance_code = coding[1], coding[4]
    fixed, adaptive = 0, dict.fromkeys((*WEIGHTS, "context"), 0.0)
    for record in test:
        symbols, distances, extra = token_symbols(np.frombuffer(record, np.uint8), dictionary)
        fixed += extra + sum(int(code[s]) for s in symbols) + sum(
            int(distance_code[d]) for d in distances)
        for weight in WEIGHTS:
            adaptive[weight] += extra + adaptive_bits(symbols, code, weight) + adaptive_bits(
                distances, distance_code, weight)
        adaptive["context"] += extra + adaptive_bits(
            symbols, code, CONTEXT_PRIOR, True) + adaptive_bits(
            distances, distance_code, CONTEXT_PRIOR, True)
    return fixed / 8, {w: bits / fixed for w, bits in adaptive.items()}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    p.add_argument("--records", type=int, default=150)
    args = p.parse_args()
    columns = (*WEIGHTS, "context")
    print("| kind | size | fixed code, bytes | " + " | ".join(f"a = {w}" for w in WEIGHTS)
          + " | one token of context |")
    print("|---|---:|---:|" + "---:|" * len(columns))
    for name, units in kinds().items():
        for size in args.sizes:
            found = bound(units, size, args.records)
            if found is None:
                print(f"| {name} | {size} | no content | " + " | " * (len(columns) - 1) + " |")
                continue
            fixed, ratios = found
            print(f"| {name} | {size} | {fixed:.0f} | "
                  + " | ".join(f"{ratios[w]:.3f}" for w in columns) + " |", flush=True)


if __name__ == "__main__":
    main()
