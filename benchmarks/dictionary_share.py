"""How much of DICTIONARY_IDS_LZ's code the ids should take: the bytes of
records coded with block codes of several shares (ids : copies' lengths
of ``share`` : 1; the format's is 3, ``kernels.ids_lz.ID_SHARE``), on
every kind of the record set (benchmarks/records.py).

    python benchmarks/dictionary_share.py --shares 1 3 7 15

For each kind and record size, a 64 KiB dictionary is trained on the
first half of the records and the second half (at most ``--records``) is
coded each way: the DICTIONARY_IDS_LZ payloads alone, and each record's
smallest of those, DICTIONARY_IDS's and DICTIONARY_LZ's (as
``compress_many`` chooses), in bytes over the first share's, per kind and
in total; and at the format's share, the other two codings' smallest over
those (what the coding adds), and those smallest without one of the
other two tries over with it (what each try adds). Payloads of a share other than the format's
are measured, not decodable.
"""
import argparse
import sys
from pathlib import Path

from gagebpe.format.codings import dictionary_ids, dictionary_lz
from gagebpe.format.codings.dictionary_records import DEPTH, joined
from gagebpe.format.dictionary import LITERAL_SYMBOLS
from gagebpe.kernels import dictionary_records, huffman, ids_lz

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import SIZES, with_copies  # noqa: E402


def payloads(test, dictionary, share):
    """The DICTIONARY_IDS_LZ payloads' sizes of ``test`` under the block
    code of ``share``."""
    lengths = ids_lz.code_lengths(dictionary.lengths, dictionary.lz_lengths[:LITERAL_SYMBOLS],
                                  share)
    encoding = huffman.prepared(lengths, dictionary.lz_lengths[LITERAL_SYMBOLS:])
    most = max(map(len, test))
    window, head, chain = dictionary.content_finder(most)
    _, payload_starts, _, _, _ = dictionary_records.encode_records(
        *joined(test), dictionary_records.IDS_LZ, dictionary.encoding(),
        (window, len(dictionary.content), head, chain, DEPTH), most,
        dictionary.lz_codes, encoding)
    return [int(b - a) for a, b in zip(payload_starts[:-1], payload_starts[1:])]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shares", type=int, nargs="+", default=[1, 3, 7, 15])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--records", type=int, default=300)
    args = parser.parse_args()
    totals = {share: [0, 0] for share in args.shares}
    others_total = 0
    tries = {"no_lz": 0, "no_ids": 0, "chosen": 0}
    for kind, size, dictionary, test in with_copies(args.sizes, args.records):
        ids = [len(p) for p in dictionary_ids.encode_many(test, dictionary)[0]]
        copies = [len(p) for p in dictionary_lz.encode_many(test, dictionary)]
        others = [min(a, b, len(r)) for a, b, r in zip(ids, copies, test)]
        row = {}
        for share in args.shares:
            alone = payloads(test, dictionary, share)
            row[share] = (sum(alone), sum(map(min, zip(alone, others))))
            totals[share][0] += row[share][0]
            totals[share][1] += row[share][1]
        others_total += sum(others)
        first = row[args.shares[0]]
        gain = ""
        if ids_lz.ID_SHARE in row:  # the format's share: what each try adds
            alone = payloads(test, dictionary, ids_lz.ID_SHARE)
            chosen = row[ids_lz.ID_SHARE][1]
            no_lz = sum(min(a, b, len(r)) for a, b, r in zip(ids, alone, test))
            no_ids = sum(min(a, b, len(r)) for a, b, r in zip(copies, alone, test))
            for key, n in (("no_lz", no_lz), ("no_ids", no_ids), ("chosen", chosen)):
                tries[key] += n
            gain = (f"  without it {sum(others) / chosen:.3f}, without the LZ try"
                    f" {no_lz / chosen:.4f}, without the ids try {no_ids / chosen:.4f}")
        print(f"{kind:30s} {size:5d} " + "  ".join(
            f"{share}: {a / first[0]:.4f} alone {b / first[1]:.4f} chosen"
            for share, (a, b) in row.items()) + gain, flush=True)
    first = totals[args.shares[0]]
    print("total " + "  ".join(f"{share}: {a / first[0]:.4f} alone {b / first[1]:.4f} chosen"
                               for share, (a, b) in totals.items()))
    if tries["chosen"]:
        print(f"chosen without DICTIONARY_IDS_LZ over with it: "
              f"{others_total / tries['chosen']:.4f}; without the DICTIONARY_LZ try "
              f"{tries['no_lz'] / tries['chosen']:.4f}; without the DICTIONARY_IDS try "
              f"{tries['no_ids'] / tries['chosen']:.4f}")


if __name__ == "__main__":
    main()
