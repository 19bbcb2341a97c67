"""The dictionary codings' decoding kernels on the same records: MB/s of
output of DICTIONARY_IDS, DICTIONARY_LZ and DICTIONARY_IDS_LZ, each record
forced into each coding, on kinds of the record set
(benchmarks/records.py).

    python benchmarks/dictionary_decoding.py --only "/etc" "packed" --sizes 4096

For each kind and record size, a 64 KiB dictionary is trained on the
first half of the records and at most ``--records`` of the second half
are coded each way; each coding's payloads are decoded by its kernel in
one compiled loop (no Python between records), ``--repeats`` times, the
best of ``--rounds``; the codings' rounds interleaved.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from gagebpe.format.codings import dictionary_ids, dictionary_ids_lz, dictionary_lz
from gagebpe.kernels import dictionary as _dictionary, ids_lz as _ids_lz, primed_lz as _primed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import SIZES, with_copies  # noqa: E402


def laid(payloads):
    """``(buffer, starts)``: the payloads end to end, padded as
    ``kernels.dictionary.decode_record`` reads them."""
    starts = np.zeros(len(payloads) + 1, np.int64)
    starts[1:] = np.cumsum([len(p) for p in payloads])
    buffer = np.zeros(starts[-1] + _dictionary.PADDING, np.uint8)
    buffer[:starts[-1]] = np.frombuffer(b"".join(payloads), np.uint8)
    return buffer, starts


IDS, LZ, IDS_LZ = range(3)


@njit
def _decode(coding, buffer, starts, out, places, decoder, repeats):
    """Whether every payload decodes, ``repeats`` times, by ``coding``'s
    kernel (a branch a record, always the same way)."""
    _, table, phrases = _dictionary.unpacked(decoder)
    literal, distance, content = _dictionary.lz_unpacked(decoder)
    block_table, distance_table, _, _ = _dictionary.ids_lz_unpacked(decoder)
    ok = True
    for _ in range(repeats):
        for i in range(starts.shape[0] - 1):
            first, last, at, end = starts[i], starts[i + 1], places[i], places[i + 1]
            if coding == IDS:
                ok &= _dictionary.decode_record(buffer, first, last, out, at, end - at, table,
                                                phrases)
            elif coding == LZ:
                ok &= _primed.decode(buffer[first:last], out[at:end], literal, distance,
                                     content) == 0
            else:
                ok &= _ids_lz.decode(buffer, first, last, out, at, end - at, block_table,
                                     distance_table, phrases, content)
    return ok


CODINGS = {"DICTIONARY_IDS": (IDS, lambda t, d: dictionary_ids.encode_many(t, d)[0]),
           "DICTIONARY_LZ": (LZ, dictionary_lz.encode_many),
           "DICTIONARY_IDS_LZ": (IDS_LZ, dictionary_ids_lz.encode_many)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", default=[""], help="kinds whose name holds one")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for kind, size, d, test in with_copies(args.sizes, args.records, args.only):
        places = np.zeros(len(test) + 1, np.int64)
        places[1:] = np.cumsum([len(r) for r in test])
        out = np.zeros(places[-1], np.uint8)
        runs = {}
        for name, (coding, encode) in CODINGS.items():
            buffer, starts = laid(encode(test, d))
            assert _decode(coding, buffer, starts, out, places, d.decoder, 1)
            assert out.tobytes() == b"".join(test), name
            runs[name] = (coding, buffer, starts, starts[-1])
        best = dict.fromkeys(runs, float("inf"))
        for _ in range(args.rounds):
            for name, (coding, buffer, starts, _) in runs.items():
                start = time.perf_counter()
                _decode(coding, buffer, starts, out, places, d.decoder, args.repeats)
                best[name] = min(best[name], time.perf_counter() - start)
        total = places[-1] * args.repeats
        print(f"{kind:30s} {size:5d} " + "  ".join(
            f"{name} {total / best[name] / 1e6:6.0f} MB/s ({runs[name][3]:,} B)"
            for name in runs), flush=True)


if __name__ == "__main__":
    main()
