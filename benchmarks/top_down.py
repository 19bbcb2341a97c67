"""What rules longer than pairs, chosen top-down by gain (GLZA's way),
might save over gagebpe's pairs by gain: an estimate, not a coder.

    python benchmarks/top_down.py [files...]   (default: four Canterbury texts)

The top-down builder repeats: build the suffix array and LCP array of the
current sequence; price every repeated string (an LCP interval: its
length L and its n occurrences) by its gain under an order-0 model of the
sequence, ``n * bits(string) - (n * log2(N / n) + bits(string) +
2 log2 L + 4)`` (the occurrences' bits, less the new symbol's and a
definition of the string); take the PER_ROUND best, each at its
non-overlapping occurrences not taken by a better one this round; until
no string gains.  The pair grammar is gagebpe's level 9 grammar by gain
(smallest count 4).  Both are priced by one model: the order-0 entropy
of the final ids followed by every rule's right side, plus the entropy
of the rules' lengths (none for pairs).  That model overprices pairs,
which SORTED and CONTEXT code far more cheaply; so the line also gives
the pair grammar's real payload (the smallest grammar coding) for scale,
and the top-down grammar's real payload in the same codings once each
string rule is written as pairs (left to right, a pair that two rules
share made once): what long rules would code to in today's format.  Last,
both grammars coded by one simple coding of rules of any length (one
Huffman code over the sequence and then every rule's right side, one over
the rules' lengths): real bytes for long rules with a coding of their own.

Imports gagebpe's private ``kernels.grammar`` and ``encoder.block``: an experiment on
the engine, like ``grammar_costs.py``.
"""
import argparse
import math
import sys
import time

import numpy as np
from numba import njit

from gagebpe.encoder import block as _block
from gagebpe.decoder import blocks
from gagebpe.kernels import coded_sequence as _coded_sequence, grammar as _grammar

from _shared import CORPUS

PER_ROUND = 20
TEXTS = ("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt")


def suffix_array(seq):
    """Suffix array of the int64 array ``seq``, by prefix doubling."""
    n, rank, k = len(seq), seq.astype(np.int64), 1
    while True:
        second = np.full(n, -1, np.int64)
        second[:n - k] = rank[k:]
        order = np.lexsort((second, rank))
        key = rank[order] * (n + 2) + second[order] + 1
        rank = np.empty(n, np.int64)
        rank[order] = np.concatenate([[0], np.cumsum(key[1:] != key[:-1])])
        if rank.max() == n - 1:
            return order
        k *= 2


@njit(cache=True)
def lcp_array(seq, sa):
    """lcp[i]: the common prefix of the suffixes sa[i - 1] and sa[i] (Kasai)."""
    n = len(seq)
    rank = np.empty(n, np.int64)
    for i in range(n):
        rank[sa[i]] = i
    lcp, h = np.zeros(n, np.int64), 0
    for i in range(n):
        if rank[i] == 0:
            h = 0
            continue
        j = sa[rank[i] - 1]
        while i + h < n and j + h < n and seq[i + h] == seq[j + h]:
            h += 1
        lcp[rank[i]] = h
        h = max(h - 1, 0)
    return lcp


@njit(cache=True)
def gaining_strings(lcp, sa, prefix_bits, n_ids):
    """``(length, first, last, gain)`` of each LCP interval (a string
    repeated at sa[first..last]) of gain above 0."""
    n = len(lcp)
    stack_left, stack_value = np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64)
    out_len, out_a = np.zeros(n, np.int64), np.zeros(n, np.int64)
    out_b, out_gain = np.zeros(n, np.int64), np.zeros(n)
    top, m = 0, 0
    for i in range(1, n + 1):
        value = lcp[i] if i < n else 0
        left = i - 1
        while value < stack_value[top]:
            length, a = stack_value[top], stack_left[top]
            top -= 1
            count = i - a
            if length >= 2 and count >= 2:
                bits = prefix_bits[sa[a] + length] - prefix_bits[sa[a]]
                gain = count * bits - (count * math.log2(n_ids / count) + bits
                                       + 2 * math.log2(length) + 4)
                if gain > 0:
                    out_len[m], out_a[m], out_b[m], out_gain[m] = length, a, i - 1, gain
                    m += 1
            left = a
        if value > stack_value[top]:
            top += 1
            stack_value[top], stack_left[top] = value, left
    return out_len[:m], out_a[:m], out_b[:m], out_gain[:m]


def top_down(data):
    """``(ids, rules)``: the sequence and the rules' right sides."""
    seq, rules = np.frombuffer(data, np.uint8).astype(np.int64), []
    while True:
        n = len(seq)
        bits = np.log2(n / np.maximum(np.bincount(seq, minlength=256 + len(rules)), 1))
        prefix_bits = np.concatenate([[0.0], np.cumsum(bits[seq])])
        sa = suffix_array(seq)
        lengths, firsts, lasts, gains = gaining_strings(lcp_array(seq, sa), sa, prefix_bits, n)
        taken, starts, made = np.zeros(n, bool), np.full(n, -1, np.int64), 0
        for c in np.argsort(-gains, kind="stable")[:PER_ROUND]:
            length, chosen, end = int(lengths[c]), [], -1
            for p in np.sort(sa[firsts[c]:lasts[c] + 1]):
                if p >= end and not taken[p:p + length].any():
                    chosen.append(p)
                    end = p + length
            body = seq[chosen[0]:chosen[0] + length] if chosen else None
            k = len(chosen)
            if k < 2 or k * bits[body].sum() <= (k * math.log2(n / k) + bits[body].sum()
                                                   + 2 * math.log2(length) + 4):
                continue
            for p in chosen:
                taken[p:p + length] = True
                starts[p] = 256 + len(rules)
            rules.append(body.copy())
            made += 1
        if not made:
            return seq, rules
        seq = np.where(starts >= 0, starts, seq)[~taken | (starts >= 0)]


def as_pairs(ids, rules):
    """The top-down grammar ``(ids, rules)`` as a ``kernels.grammar.Grammar`` of
    pairs: rule body ``s1 s2 s3 ...`` becomes ``((s1 s2) s3) ...``, each
    distinct pair one merge; counts are each merge's occurrences in the
    sequence with every later merge undone."""
    merge_of, merges, symbol_of = {}, [], {}
    for k, body in enumerate(rules):
        symbols = [int(s) if s < 256 else symbol_of[int(s)] for s in body]
        left = symbols[0]
        for right in symbols[1:]:
            if (left, right) not in merge_of:
                merge_of[left, right] = 256 + len(merges)
                merges.append((left, right))
            left = merge_of[left, right]
        symbol_of[256 + k] = left
    seq = np.array([int(s) if s < 256 else symbol_of[int(s)] for s in ids], np.int32)
    merges = np.array(merges, np.int32).reshape(-1, 2)
    occurrences = np.bincount(seq, minlength=256 + len(merges)).astype(np.int64)
    for k in range(len(merges) - 1, -1, -1):
        np.add.at(occurrences, merges[k], occurrences[256 + k])  # (x, x) twice
    return _grammar.Grammar(merges, seq, occurrences[256:].copy())


def simply_coded(data, ids, rules):
    """Bytes of ``(ids, rules)`` in the simple coding (module docstring):
    the two Huffman-coded sections each, the terminals' bitmap, and three
    counts."""
    present = np.bincount(np.frombuffer(data, np.uint8), minlength=256) > 0
    dense = np.empty(256 + len(rules), np.int64)  # symbols numbered as SORTED does
    dense[present.nonzero()[0]] = np.arange(present.sum())
    dense[256:] = present.sum() + np.arange(len(rules))
    symbols = dense[np.concatenate([ids, *rules]).astype(np.int64)].astype(np.int32)
    lengths = np.array([len(rule) for rule in rules], np.int32)
    sections = (_coded_sequence.encode(symbols, np.bincount(symbols))
                + _coded_sequence.encode(lengths, np.bincount(lengths)))
    return sum(map(len, sections)) + 32 + 12


def entropy_bits(values):
    _, counts = np.unique(values, return_counts=True)
    return float((counts * np.log2(counts.sum() / counts)).sum())


def priced(ids, rules):
    """Bytes under the common model (module docstring)."""
    bits = entropy_bits(np.concatenate([ids, *rules]))
    if len({len(r) for r in rules}) > 1:
        bits += entropy_bits(np.array([len(r) for r in rules]))
    return bits / 8


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    paths = args.files or [str(CORPUS / name) for name in TEXTS]
    print("| file | bytes | top-down rules | top-down model bytes | pair rules "
          "| pairs model bytes | top-down / pairs | pairs coded bytes "
          "| top-down as pairs coded bytes | top-down simply coded | pairs simply coded "
          "| seconds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for path in paths:
        data = open(path, "rb").read()
        start = time.perf_counter()
        ids, rules = top_down(data)
        seconds = time.perf_counter() - start
        grammar = _grammar.build(data, 4, by_gain=True)
        pairs = [pair for pair in np.asarray(grammar.merges).reshape(-1, 2)]
        coded = len(_block.smallest(data, grammar)[1])
        coding, payload = _block.smallest(data, as_pairs(ids, rules))
        out = np.empty(len(data), np.uint8)
        assert bytes(blocks.decode(coding, payload, len(data), out)) == data
        ours, theirs = priced(ids, rules), priced(np.asarray(grammar.ids), pairs)
        print(f"| {path.rsplit('/', 1)[-1]} | {len(data):,} | {len(rules):,} | {ours:,.0f} "
              f"| {len(pairs):,} | {theirs:,.0f} | {ours / theirs:.3f} | {coded:,} "
              f"| {len(payload):,} | {simply_coded(data, ids, rules):,} "
              f"| {simply_coded(data, np.asarray(grammar.ids), pairs):,} "
              f"| {seconds:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
