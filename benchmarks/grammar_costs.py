"""What a grammar's rules cost, against two ways of sending them that
GLZA uses: rules defined where they are first used, and rules longer than
pairs.

For each file (the Canterbury texts by default), the grammar the default
level builds of its first block is costed three ways, in bytes; each code
is a static order-0 Huffman code, sent and used as the SORTED coding
sends and uses its sequence's (code-length section, four streams):

- **table**: the SORTED coding's merge table, then the sequence;
- **first use**: no table; the sequence with each rule spelt out where it
  is first used (a DEFINE symbol, then its two parts, each a symbol or a
  definition in turn), in one code, and in two codes (one for the
  sequence's own symbols, one inside definitions);
- **inlined**: the table bits of the rules used only once, inside one
  other rule; a rule longer than a pair saves at most these.

    python benchmarks/grammar_costs.py [FILE ...]
"""
import argparse
import sys
from pathlib import Path

import numpy as np

from gagebpe.kernels import coded_sequence as _coded_sequence, grammar as _grammar
from gagebpe.format.codings import sorted_rules as _coding_sorted
from gagebpe.encoder import levels as _levels

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _shared import CORPUS  # noqa: E402

TEXTS = ("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt", "bible.txt",
         "world192.txt", "cp.html", "fields.c")
DEFINE = -1  # stands for the DEFINE symbol until the alphabet is known


def coded_bytes(symbols, n):
    """Bytes of ``symbols`` (each below ``n``) in their own Huffman code,
    its code lengths included."""
    sections = _coded_sequence.encode(symbols.astype(np.int32), np.bincount(symbols, minlength=n))
    return sum(map(len, sections))


def first_use(merges, ids, n_terminals):
    """``(symbols, inside)``: the sequence with each rule spelt out at its
    first use, and which symbols lie inside a definition."""
    defined = np.zeros(n_terminals + len(merges), bool)
    defined[:n_terminals] = True
    symbols, inside = [], []
    stack = [(int(s), False) for s in ids[::-1]]
    while stack:
        s, within = stack.pop()
        inside.append(within)
        if defined[s]:
            symbols.append(s)
            continue
        defined[s] = True
        symbols.append(DEFINE)
        a, b = merges[s - n_terminals]
        stack += [(int(b), True), (int(a), True)]
    symbols = np.array(symbols, np.int64)
    symbols[symbols == DEFINE] = len(defined)
    return symbols, np.array(inside)


def costs(data):
    """The costs of ``data``'s default-level grammar, in bytes."""
    level = _levels.settings()
    block = data[:level.block_size]
    grammar = _grammar.build(block, level.row(len(block)).counts[0])
    present = np.zeros(256, bool)
    present[np.frombuffer(block, np.uint8)] = True
    rules = _coding_sorted.numbered(grammar, present)
    merges, ids, table = rules.merges, rules.ids, rules.table
    n_terminals, n_rules = int(present.sum()), len(merges)
    n = n_terminals + n_rules
    symbols, inside = first_use(merges, ids, n_terminals)
    refs = np.bincount(np.concatenate([ids, merges.ravel()]), minlength=n)[n_terminals:]
    in_sequence = np.bincount(ids, minlength=n)[n_terminals:]
    once_inside = int(((refs == 1) & (in_sequence == 0)).sum())
    return {
        "rules": n_rules, "table bits/rule": 8 * len(table) / max(n_rules, 1),
        "table": len(table) + coded_bytes(ids, n),
        "first use": coded_bytes(symbols, n + 1),
        "first use, two codes": (coded_bytes(symbols[~inside], n + 1)
                                 + coded_bytes(symbols[inside], n + 1)),
        "rules used once inside one": once_inside,
        "inlined saves at most": round(once_inside * len(table) / max(n_rules, 1)),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or [CORPUS / name for name in TEXTS if (CORPUS / name).exists()]
    if not files:
        sys.exit(f"no files given and no Canterbury corpus at {CORPUS}")
    rows = [(path.name, costs(path.read_bytes())) for path in files]
    keys = list(rows[0][1])
    print("| file | " + " | ".join(keys) + " |")
    print("|---" + "|---:" * len(keys) + "|")
    for name, row in rows:
        print(f"| {name} | " + " | ".join(
            f"{v:.1f}" if isinstance(v, float) else f"{v:,}" for v in row.values()) + " |")
    table = sum(row["table"] for _, row in rows)
    for key in ("first use", "first use, two codes"):
        total = sum(row[key] for _, row in rows)
        print(f"{key}: {total:,} bytes against the table's {table:,} ({total / table - 1:+.2%})")


if __name__ == "__main__":
    main()
