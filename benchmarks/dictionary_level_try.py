"""What the level's own try costs and buys beside a dictionary: records
of more than 512 bytes are coded by the dictionary's codings and by
their level's (``Level.with_dictionary``), the smaller kept.  For each
kind of the record set (benchmarks/records.py) and record size, records
joined ``--joins`` at a time, this gives the records' bytes and the
level try's time as ``with_dictionary`` makes it, over the same with
the level's own LZ parse (FULL at levels 6-9, and the small-input
policy's tests on blocks of up to 4 KiB); as the stream's coder tries
them (``gated``: only where the level may gain, and given up on where
its first pass comes to too much; with ``--own``, gated at each of these
shares copied from itself instead of OWN_COPIES); and with no level try
at all; with ``--parses``, also as ``with_dictionary`` but each of its
LZ parses by these (``passes,candidates``).

    python benchmarks/dictionary_level_try.py --sizes 1024 4096 --parses 3,32 2,16
    python benchmarks/dictionary_level_try.py --sizes 1024 4096 --own 0.5 0.65 --parses 3,32
    python benchmarks/dictionary_level_try.py --sizes 4096 --joins 2 3 8

A 64 KiB dictionary is trained on the first half of each kind's
(joined) records and the second half (at most ``--records``) coded;
times are the best of three runs.
"""
import argparse
import sys
import time
from pathlib import Path

import gagebpe
from gagebpe.encoder import stream as _stream
from gagebpe.encoder.levels import DICTIONARY_ALONE, Parse, settings
from gagebpe.format.container import BLOCK_HEADER

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import kinds, records  # noqa: E402


def own_parse(level, with_dictionary):
    """``with_dictionary`` (a level beside a dictionary) with each row's
    LZ parse, and the first row's small-input policy, as ``level`` has
    them."""
    return with_dictionary._replace(rows=tuple(
        row._replace(parse=before.parse, small=before.small)
        for row, before in zip(with_dictionary.rows, level.rows)))


def by_parse(with_dictionary, parse):
    """``with_dictionary`` with every LZ parse but those in segments by
    ``parse``."""
    return with_dictionary._replace(rows=tuple(
        row._replace(parse=parse) if row.parse and not row.parse.segment else row
        for row in with_dictionary.rows))


def level_try(test, dictionary, level, beats=None):
    """``(blocks, best seconds of three)``: ``test`` coded by ``level``
    alone, as the stream's coder tries it beside the dictionary (each of
    use only under its ``beats`` bytes, if given)."""
    coder = _stream._BlockCoder(settings(None), 1, dictionary)
    coder.level = level
    best, blocks = float("inf"), []
    for _ in range(3):
        start = time.perf_counter()
        blocks = coder._by_level(test, beats)
        best = min(best, time.perf_counter() - start)
    return blocks, best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024, 4096])
    parser.add_argument("--joins", type=int, nargs="+", default=[1])
    parser.add_argument("--records", type=int, default=100)
    parser.add_argument("--parses", nargs="*", default=[], help="passes,candidates")
    parser.add_argument("--own", type=float, nargs="*", default=[_stream.OWN_COPIES])
    args = parser.parse_args()
    level = settings(None)
    gates = {f"gated {share}" if len(args.own) > 1 else "gated": share for share in args.own}
    totals = {}
    every_kind = kinds()
    for join in args.joins:
        for kind, units in every_kind.items():
            for size in args.sizes:
                found = records(units, size)
                found = [b"".join(found[i:i + join]) for i in range(0, len(found) - join + 1, join)]
                half = len(found) // 2
                test = [r for r in found[half:][:args.records] if len(r) > DICTIONARY_ALONE]
                if not test:
                    continue
                dictionary = gagebpe.train_dictionary(found[:half], 64 << 10)
                ours, own = _stream._records(test, dictionary)
                quick = level.with_dictionary(bool(dictionary.content))
                variants = {"with_dictionary": quick, "own": own_parse(level, quick)}
                for text in args.parses:
                    passes, candidates = map(int, text.split(","))
                    variants[text] = by_parse(quick, Parse(passes, candidates))
                row = {}
                for name, variant in variants.items():
                    blocks, seconds = level_try(test, dictionary, variant)
                    row[name] = (sum(min(len(a), len(b)) for a, b in zip(ours, blocks)), seconds)
                for name, share in gates.items():
                    row[name] = gated_try(test, dictionary, quick, ours, own, share)
                row["none"] = (sum(map(len, ours)), 0.0)
                for name, (n, t) in row.items():
                    totals.setdefault(name, [0, 0.0])
                    totals[name][0] += n
                    totals[name][1] += t
                print(f"{kind:30s} {size:5d} x{join}  {over_own(row)}", flush=True)
    print(f"total  {over_own(totals)}")


def gated_try(test, dictionary, level, ours, own, share):
    """``(bytes, seconds)`` of ``test`` as the stream's coder codes it,
    the dictionary's blocks ``ours``, the level tried only where it may
    gain (``encoder.stream._level_may_gain``) with OWN_COPIES ``share``."""
    kept, _stream.OWN_COPIES = _stream.OWN_COPIES, share
    try:
        gated = [i for i, r in enumerate(test)
                 if _stream._level_may_gain(level, r, own[i], len(ours[i]) - BLOCK_HEADER.size)]
    finally:
        _stream.OWN_COPIES = kept
    blocks, seconds = level_try([test[i] for i in gated], dictionary, level,
                                [len(ours[i]) - BLOCK_HEADER.size for i in gated])
    better = dict(zip(gated, blocks))
    return (sum(min(len(a), len(better.get(i, a))) for i, a in enumerate(ours)),
            seconds if gated else 1e-9)


def over_own(row):
    """Each variant's bytes and time in ``row`` over the level's own parse."""
    own = row["own"]
    return "  ".join(f"{name}: {n / own[0]:.5f} bytes" + (f" {t / own[1]:.2f} time" if t else "")
                     for name, (n, t) in row.items() if name != "own")


if __name__ == "__main__":
    main()
