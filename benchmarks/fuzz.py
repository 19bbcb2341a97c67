"""A fuzzing campaign against gagebpe's decoders.

    python benchmarks/fuzz.py --cases 100000

Mutates real compressed streams of every coding of format 1.0 (STORED,
PACKED, SORTED, SORTED_LONG, CONTEXT, CONTEXT_LONG, FILTERED, FOLDED,
REPEATS, LZ, MIXED, MIXED_PRIMED, LZ_PARTS, SEQUENCES), multi-block streams, the conformance
vectors (tests/vectors/), records of every coding a record takes with a
dictionary, and 1994-format files: byte and bit flips,
truncations, splices of two streams, blocks duplicated or dropped, and
header fields set to extremes with their checks recomputed (so that the
mutation reaches the code behind the checks).  Each gbpe case must
decode to exactly the original or raise a documented exception
(``GageBPEError``, ``EOFError``); a splice may also decode to the other
stream's original, alone or after this one's, since cutting two streams
at the same place leaves one's head on the other's body; and a file of
several streams cut where one of them ends is a valid file of the streams
before the cut (as in gzip, xz and zstd, no format can tell).  The other
readers (the incremental ``Decompressor`` fed in pieces, ``GageBPEFile``,
``decompress_many`` and ``describe``) must agree with the one-shot decoder; so must a 1994
case's; and the plain path (the command line's small jobs) must give the
same bytes or decline, never other bytes or an exception.  The 1994
format has no checksum, so a 1994 case may also decode to other bytes
("unchecked output"); it must still never crash, hang or raise anything
else.  Cases run in a worker process, so that a crash or a
hang is counted (and the worker restarted) rather than ending the
campaign.  Prints the counts per outcome and per mutation.
"""
import argparse
import functools
import io
import multiprocessing as mp
import struct
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# Seconds for one case before it is run again in a fresh worker, with
# RETRY_TIMEOUT, and counts as a hang only if it times out there too: a
# case may be the first to reach a kernel not yet compiled, which takes
# longer than TIMEOUT on a cold cache and a busy machine.
TIMEOUT = 20.0
RETRY_TIMEOUT = 300.0
# The plain path (``_plain_jobs``: the command line's small jobs, without
# Numba) reads compressed inputs up to this size; it must give the kernels'
# bytes or decline.
PLAIN_LARGEST = 64 << 10
PLAIN_EVERY = 16  # plain Python decodes at 5 MB/s: one case in 16 (by its CRC) is read so
BATCH = 200


def seeds():
    """``[(name, format, stream, original), ...]``: real streams."""
    import gagebpe
    from gagebpe.sample import sample
    rng = np.random.default_rng(1994)
    text = sample(60_000)
    few = bytes(rng.integers(0, 4, 20_000, dtype=np.uint8))  # PACKED
    noise = bytes(rng.integers(0, 256, 3_000, dtype=np.uint8))
    rows = np.tile(rng.integers(0, 256, 13, dtype=np.uint8), (3_000, 1))
    rows[:, :2] = np.arange(3_000, dtype="<u2").view(np.uint8).reshape(-1, 2)
    rows[rng.integers(0, 3_000, 300), rng.integers(2, 13, 300)] = 7
    # a package log: long strings repeated whole, which fold into long rules
    names = (b"libgagebpe-common", b"python3-numpy", b"zlib1g-dev", b"fonts-dejavu")
    log = b"".join(b"2026-12-03 07:%02d:%02d status half-configured %s:amd64 1.%d.%d\n"
                   % (k // 60 % 60, k % 60, names[rng.integers(4)], rng.integers(9),
                      rng.integers(30)) for k in range(1500))
    # strings of a few hundred bytes seen many times, as in binaries: a
    # large block of copies, SEQUENCES (LZ_PARTS comes from its vector)
    pool = [bytes(rng.integers(0, 256, n, dtype=np.uint8)) for n in range(50, 650, 6)]
    parts_data = b"".join(pool[i] for i in rng.integers(0, len(pool), 250))
    out = []
    for name, data, kw in (("context", text, {"level": 7}), ("sorted", text[:5000], {}),
                           ("folded", text[:30_000], {"level": 9}),
                           ("packed", few, {}),
                           ("long", log, {}), ("long-blocks", log, {"block_size": 30_000}),
                           ("stored", noise, {}), ("filtered", rows.tobytes(), {}),
                           ("blocks", text[:20_000], {"block_size": 4096}),
                           ("repeats", text[:8000] + noise + text[2000:3500] + noise[500:1500],
                            {"level": 9}),
                           ("repeats-blocks", (noise + text[:40_000] + noise) * 3,
                            {"level": 9, "block_size": 70_000}),
                           ("lz", noise[:2500] * 2 + text[:2000], {"level": 9}),
                           ("lz-blocks", (noise[:1000] * 2 + text[:2000]) * 4,
                            {"level": 9, "block_size": 4000}),
                           ("sequences", parts_data, {}),
                           ("sequences-blocks", parts_data * 2, {"block_size": 100_000}),
                           ("mixed", noise[:300] * 2 + noise[:600], {"level": 9}),
                           ("small-mixed", rows.tobytes()[:100], {"level": 9}),
                           ("small-stored", noise[:20], {}),
                           ("tiny-binary", rows.tobytes()[:60], {}),
                           ("primed", text[:60], {}),
                           ("primed-runs", b":\n" + b" " * 40, {}),
                           ("primed-2k", text[:2000], {"level": 9}),
                           ("mixed-blocks", text[:6000], {"level": 9, "block_size": 1500}),
                           ("empty", b"", {})):
        out.append((name, "gbpe", gagebpe.compress(data, **kw), data))
    out += records(text, noise)
    for path in sorted((ROOT / "tests" / "vectors").glob("*.gbpe")):
        expected = path.with_suffix(".out")
        if expected.is_file():  # a valid vector, with its output
            out.append((f"vector-{path.stem}", "gbpe", path.read_bytes(), expected.read_bytes()))
    for name, data in (("gage1994-text", text[:20_000]), ("gage1994-noise", noise)):
        out.append((name, "gage1994", gagebpe.gage1994.compress(data), data))
    return out


def records(text, noise):
    """Seed streams of records (``compress_many``'s) of the vectors'
    dictionaries, one of each coding a record takes: DICTIONARY_IDS,
    DICTIONARY_LZ or DICTIONARY_IDS_LZ (of the dictionary with content), LZ
    (a record of its own repeats) and STORED (noise), named
    ``dictionary-record-<coding>``."""
    import gagebpe
    from gagebpe.format.codings.registry import name
    from gagebpe.sample import sample
    # The lines the vectors' dictionaries were trained on the first 200 of
    # (DICTIONARY_IDS), lines of a longer sample (copies from content), and
    # the two kinds in one record (DICTIONARY_IDS_LZ).
    lines = [b"%d %s\n" % (i, sample(40 + i % 30)[i % 11:]) for i in range(200, 300)]
    others = [b"%d %s\n" % (i, text[i % 11:i % 11 + 40 + i % 30]) for i in range(200, 300)]
    repeats = b"".join(b"row %d: %s\n" % (i % 7, text[i % 5:i % 5 + 12]) for i in range(60))
    found = {}
    for file in ("dictionary.gbpd", "dictionary-content.gbpd"):
        d = gagebpe.Dictionary.from_bytes((ROOT / "tests" / "vectors" / file).read_bytes())
        both = [lines[i] + others[i] + lines[i + 1] for i in range(0, 40, 4)]
        for data in [noise[:400], repeats, *lines, *others, *both]:
            blob = gagebpe.compress_many([data], dictionary=d)[0]
            found.setdefault(name(blob[len(d.head)]).lower().replace("_", "-"), (blob, data))
    return [(f"dictionary-record-{coding}", "gbpe", blob, data)
            for coding, (blob, data) in sorted(found.items())]


def block_spans(stream):
    """``[(start, end), ...]`` of a gbpe stream's blocks, as the container's
    parser finds them (none if it is not a well-formed single stream)."""
    from gagebpe.format import container as _container
    parser, view, pos, spans = _container.Parser(), memoryview(stream), 0, []
    try:
        while not parser.done:
            unit, n = parser.parse(view[pos:])
            if unit is None:
                return []
            if isinstance(unit, _container.BlockHeader):
                start = pos
            elif isinstance(unit, _container.Payload):
                spans.append((start, pos + n))
            pos += n
    except Exception:
        return []
    return spans


def _recheck(head, start, length):
    """Recompute the CRC32 that follows ``length`` bytes at ``start``."""
    crc = zlib.crc32(bytes(head[start:start + length]))
    head[start + length:start + length + 4] = struct.pack("<I", crc)


def mutate(rng, seed, other):
    """``(mutation name, bytes, what they may decode to if they decode)``
    for one case: the seed's original, and for a splice of two streams of
    one format also the other's, alone or after it."""
    name, fmt, stream, original = seed
    _, other_fmt, other, other_original = other
    expected = (original,)
    blob = bytearray(stream)
    kind = rng.choice(["byte", "bit", "truncate", "splice", "duplicate", "drop",
                       "extreme"])
    if not blob:
        kind = "splice"
    if kind == "byte":
        for _ in range(int(rng.integers(1, 4))):
            blob[int(rng.integers(len(blob)))] = int(rng.integers(256))
    elif kind == "bit":
        pos = int(rng.integers(len(blob)))
        blob[pos] ^= 1 << int(rng.integers(8))
    elif kind == "truncate":
        cut = int(rng.integers(len(blob)))
        blob = blob[:cut]
        if fmt == "gbpe":
            expected += tuple(out for end, out in stream_ends(stream) if end == cut)
    elif kind == "splice":
        cut_a = int(rng.integers(len(blob) + 1))
        cut_b = int(rng.integers(len(other) + 1))
        blob = blob[:cut_a] + other[cut_b:]
        if other_fmt == fmt:
            expected = (original, other_original, original + other_original)
        if fmt == "gbpe" and _empty(bytes(blob)):
            expected += (b"",)  # one's head, the other's last byte: END_OF_BLOCKS
    elif kind in ("duplicate", "drop"):
        spans = block_spans(bytes(blob)) if fmt == "gbpe" else []
        if spans:
            start, end = spans[int(rng.integers(len(spans)))]
            block = blob[start:end]
            blob = blob[:end] + block + blob[end:] if kind == "duplicate" else (
                blob[:start] + blob[end:])
        else:
            kind = "truncate"
            blob = blob[:int(rng.integers(len(blob)))]
    elif kind == "extreme":
        value = int(rng.choice([0, 1, 2**31 - 1, 2**32 - 1, 2**26, 2**26 + 1]))
        single = _single_at(blob)
        if fmt == "gbpe" and single:  # a single stream's sizes
            blob = _single_field(blob, single, int(rng.integers(2)), value)
        elif fmt == "gbpe" and len(blob) >= HEAD + 17:
            if rng.integers(2):  # the stream header's max block size
                blob[HEAD - 8:HEAD - 4] = struct.pack("<I", value)
                _recheck(blob, 0, HEAD - 4)
            else:  # a block's size or payload size
                field = HEAD + 1 + 4 * int(rng.integers(2))
                blob[field:field + 4] = struct.pack("<I", value)
                _recheck(blob, HEAD, 13)
        elif blob:
            blob[int(rng.integers(len(blob)))] = int(rng.choice([0, 127, 128, 255]))
    return str(kind), bytes(blob), expected


def _empty(blob):
    """Whether ``blob`` is one well-formed stream of no bytes (a single
    stream's head and its END_OF_BLOCKS byte), which a splice can make."""
    import gagebpe
    try:
        infos = gagebpe.describe(io.BytesIO(blob))
    except (gagebpe.GageBPEError, EOFError):
        return False
    return len(infos) == 1 and infos[0].size == 0


@functools.lru_cache(maxsize=None)
def stream_ends(file):
    """``((end, output), ...)``: where each stream of a gbpe ``file``
    ends, and what the file decodes to up to there."""
    import gagebpe
    ends, at, out = [], 0, b""
    while at < len(file):
        d = gagebpe.Decompressor(dictionary=dictionary("gbpe", file[at:]))
        out += d.decompress(file[at:])
        at = len(file) - len(d.unused_data)
        ends.append((at, out))
    return tuple(ends)


# A stream of the block layout: its header's bytes (magic, descriptor,
# max block size, its check).
HEAD = 13


def _single_at(blob):
    """Where the block of a single stream with no dictionary begins (its
    coding byte), or 0 if ``blob`` is no such stream."""
    from gagebpe.format import container as _container
    if bytes(blob[:_container.SINGLE_AT]) == _container.MAGIC + b"\0":
        return _container.SINGLE_AT
    return 0


def _single_field(blob, at, which, value):
    """The single stream ``blob`` with its size (``which`` 0) or payload
    size (1) written as ``value``, as a varint of any length it takes."""
    from gagebpe.format import container as _container
    from gagebpe.plain.varint import varint_at
    at += 1
    for _ in range(which + 1):
        start = at
        number, at = varint_at(blob, at)
        if number < 0:
            return blob
    return blob[:start] + _container.varint(value) + blob[at:]


def dictionary(fmt, blob):
    """The conformance vectors' dictionary that ``blob`` names, or the
    first one's (``dictionary.gbpd``) where it names none of them: every
    gbpe reader here is given one (a stream that names none is read as
    without it), so that the vectors' streams that need a dictionary are
    fuzzed too; None for gage1994."""
    global _DICTIONARIES
    if fmt != "gbpe":
        return None
    if _DICTIONARIES is None:
        import gagebpe
        paths = sorted((ROOT / "tests" / "vectors").glob("*.gbpd"),
                       key=lambda path: path.name != "dictionary.gbpd")
        loaded = [gagebpe.Dictionary.from_bytes(path.read_bytes()) for path in paths]
        _DICTIONARIES = loaded[0], {d.id: d for d in loaded}
    first, by_id = _DICTIONARIES
    named = int.from_bytes(blob[5:9], "little") if len(blob) >= 9 and blob[4] & 0x02 else None
    return by_id.get(named, first)


_DICTIONARIES = None


def run_case(fmt, blob, expected):
    import gagebpe
    try:
        out = gagebpe.decompress(blob, format=fmt, dictionary=dictionary(fmt, blob))
    except (gagebpe.GageBPEError, EOFError):
        out = None
    except Exception as e:  # any other exception is a bug
        return f"undocumented {type(e).__name__}"
    disagreement = other_readers(fmt, blob, out)
    if disagreement:
        return disagreement
    if out is None:
        return "documented error"
    if out in expected:
        return "exact"
    return "unchecked output" if fmt == "gage1994" else "wrong output"


# The incremental reader is fed in pieces of these sizes, in turn.
PIECES = (1, 3, 64, 4096)


def pieces(blob):
    """``blob`` cut into pieces of PIECES' sizes, in turn."""
    at, k = 0, 0
    while at < len(blob):
        yield blob[at:at + PIECES[k % len(PIECES)]]
        at, k = at + PIECES[k % len(PIECES)], k + 1


def incremental_1994(blob):
    """``blob`` decoded by a 1994-format ``Decompressor`` fed in PIECES,
    then flushed."""
    import gagebpe.gage1994
    d = gagebpe.gage1994.Decompressor()
    out = [d.decompress(piece) for piece in pieces(blob)]
    return b"".join(out) + d.flush()


def incremental(blob):
    """``blob`` decoded by ``gagebpe.Decompressor``s fed in PIECES, one
    stream each, as a caller of the lzma-style API would."""
    import gagebpe
    out, d = [], gagebpe.Decompressor(dictionary=dictionary("gbpe", blob))
    for piece in pieces(blob):
        while piece:
            if d.eof:  # what follows a stream begins the next one
                d = gagebpe.Decompressor(dictionary=dictionary("gbpe", blob))
            out.append(d.decompress(piece))
            piece = d.unused_data if d.eof else b""
    if not d.eof:
        raise EOFError("stream cut short")
    return b"".join(out)


def other_readers(fmt, blob, out):
    """How the other readers of format ``fmt`` disagree with the one-shot
    decoder, which gave ``out`` (None for a documented error), or None if
    they agree: the incremental reader and the file reader must give the
    same bytes or a documented error with it, and for gbpe ``describe``
    (which does not decode payloads) must raise none where it decodes, and
    add up to its length; so must a range read of everything (through the
    block map), and a seek into a valid stream read what it holds there."""
    import gagebpe
    readers = (("incremental", incremental if fmt == "gbpe" else incremental_1994),
               ("file", lambda b: gagebpe.GageBPEFile(io.BytesIO(b), format=fmt,
                                                      dictionary=dictionary(fmt, b)).read()))
    if fmt == "gbpe":
        readers += (("describe", lambda b: gagebpe.describe(io.BytesIO(b))),
                    ("batch", lambda b: b"".join(gagebpe.decompress_many(
                        [b], dictionary=dictionary(fmt, b)))),
                    ("range", lambda b: gagebpe.read_range(b, 0, 1 << 40,
                                                           limit=gagebpe.DEFAULT_LIMIT,
                                                           dictionary=dictionary(fmt, b))))
    for name, read in readers:
        try:
            got = read(blob)
        except (gagebpe.GageBPEError, EOFError):
            if out is not None:
                return f"{name} refuses a valid stream"
            continue
        except Exception as e:
            return f"{name}: undocumented {type(e).__name__}"
        if name == "describe":
            if out is not None and sum(info.size for info in got) != len(out):
                return "describe disagrees"
        elif got != out:
            return f"{name} reader disagrees"
    if fmt == "gbpe" and out:  # a seek into the middle, and a read across blocks
        at = zlib.crc32(blob) % len(out)
        try:
            with gagebpe.GageBPEFile(io.BytesIO(blob), dictionary=dictionary(fmt, blob)) as f:
                f.seek(at)
                if f.read(4096) != out[at:at + 4096]:
                    return "seek and read disagree"
        except Exception as e:
            return f"seek: {type(e).__name__} on a valid stream"
    if fmt == "gbpe" and len(blob) <= PLAIN_LARGEST and zlib.crc32(blob) % PLAIN_EVERY == 0:
        from gagebpe import _plain_jobs
        try:
            plain = _plain_jobs.decompress(blob)
        except Exception as e:  # the plain path declines, it never raises
            return f"plain: {type(e).__name__}"
        if plain is not None and plain != out:
            return "plain reader disagrees"
    return None


def worker(conn):
    from gagebpe import gage1994  # noqa: F401  (load the kernels once)
    while True:
        batch = conn.recv()
        if batch is None:
            return
        for fmt, blob, expected in batch:
            conn.send(run_case(fmt, blob, expected))


def started(ctx):
    """``(pipe end, process)`` of a new worker."""
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=worker, args=(child,), daemon=True)
    proc.start()
    return parent, proc


def result_within(parent, proc, timeout):
    """The worker's result for the case it was sent, or "hang" or "crash"."""
    if parent.poll(timeout):
        try:
            return parent.recv()
        except EOFError:
            return "crash"
    return "hang" if proc.is_alive() else "crash"


def retried(ctx, case):
    """``(result, pipe end, process)``: ``case`` run alone in a fresh worker,
    within RETRY_TIMEOUT, and that worker, replaced if the case ended it."""
    parent, proc = started(ctx)
    parent.send([case])
    result = result_within(parent, proc, RETRY_TIMEOUT)
    if result in ("crash", "hang"):
        proc.kill()
        proc.join()
        parent, proc = started(ctx)
    return result, parent, proc


def campaign(cases, seed, only=""):
    rng = np.random.default_rng(seed)
    streams = [s for s in seeds() if only in s[0]]
    outcomes, per_kind = Counter(), Counter()
    ctx = mp.get_context("spawn")
    parent, proc = started(ctx)
    done = retries = 0
    start = time.monotonic()
    while done < cases:
        batch, kinds = [], []
        for _ in range(min(BATCH, cases - done)):
            s = streams[int(rng.integers(len(streams)))]
            other = streams[int(rng.integers(len(streams)))]
            kind, blob, expected = mutate(rng, s, other)
            batch.append((s[1], blob, expected))
            kinds.append((s[1], kind))
        parent.send(batch)
        for case, kind in zip(batch, kinds):
            result = result_within(parent, proc, TIMEOUT)
            ended = result in ("crash", "hang")
            if ended:
                proc.kill()
                proc.join()
                if result == "hang":
                    result, parent, proc = retried(ctx, case)
                    retries += 1
                else:
                    parent, proc = started(ctx)
            outcomes[result] += 1
            per_kind[kind, result] += 1
            done += 1
            if ended:
                break  # the rest of this batch is lost with the worker: redrawn
    parent.send(None)
    proc.join(5)
    return outcomes, per_kind, time.monotonic() - start, len(streams), retries


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", metavar="TEXT",
                        help="mutate only the seed streams whose names hold TEXT "
                             "(for example lz-parts: a new coding's campaign)")
    args = parser.parse_args()
    outcomes, per_kind, seconds, n_seeds, retries = campaign(args.cases, args.seed, args.only)
    total = sum(outcomes.values())
    print(f"{total:,} cases over {n_seeds} seed streams in {seconds:.0f} s (seed {args.seed}; "
          f"{retries} run again after {TIMEOUT:.0f} s)")
    for result in ("exact", "documented error", "unchecked output", "wrong output",
                   "crash", "hang"):
        print(f"  {result}: {outcomes.pop(result, 0):,}")
    for result, n in outcomes.items():
        print(f"  {result}: {n:,}")
    print("per format and mutation:")
    for ((fmt, kind), result), n in sorted(per_kind.items()):
        print(f"  {fmt:8s} {kind:10s} {result:18s} {n:,}")
    fine = ("exact", "documented error", "unchecked output")
    bad = sum(n for (_, result), n in per_kind.items() if result not in fine)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
