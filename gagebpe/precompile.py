"""``python -m gagebpe.precompile``: compile every kernel into the cache now.

The first use of gagebpe on a machine compiles its kernels, which takes
a minute or two, and caches them (``gagebpe._jit`` says where).  Where the
user who runs gagebpe cannot write that cache (a package installed by root
and run by a service account, a read-only image), fill it when installing:

    pip install gagebpe && python -m gagebpe.precompile     # as root: beside the package
    NUMBA_CACHE_DIR=/opt/kernels python -m gagebpe.precompile   # or anywhere

Later runs read the kernels where they lie, read-only (with the same
``NUMBA_CACHE_DIR`` in the second case).  The cache holds machine code for
this processor and this Python, NumPy and Numba; build it where it will
run, or on the same kind of machine.

The kernels are compiled by using them: every level, the 1994 format,
the grammar API and the tokenizers run once over small generated inputs,
each checked.  The checklist comes from the format and the policy: every
level of ``encoder.levels.LEVELS`` compresses an input, and every coding
of ``format.codings.registry`` must have been written by some input (a
new coding without an input here fails loudly, rather than leaving its
kernels out of the cache).
"""
import sys
import time

import numpy as np


def _check(ok, what):
    """Raise unless ``ok``.  Not an assert: ``python -O`` would skip it and
    the call inside it, and compile nothing."""
    if not ok:
        raise RuntimeError(f"precompile: {what} gave back other data")


def _codings(blob, dictionary=None):
    """The codings of every block of the streams ``blob``, wrapped ones
    included."""
    from .format.codings.registry import codings_of
    from .format.container import Parser, Payload
    dictionaries = {} if dictionary is None else {dictionary.id: dictionary}
    found, view, pos, parser = set(), memoryview(blob), 0, Parser(dictionaries)
    while pos < len(blob):
        if parser.done:
            parser = Parser(dictionaries)
        unit, used = parser.parse(view[pos:], True)
        pos += used
        if isinstance(unit, Payload):
            found.update(codings_of(unit.block.coding, bytes(unit.data)))
    return found


_NAMES = (b"alpha", b"beta", b"gamma", b"delta", b"epsilon", b"zeta", b"eta", b"theta")


def _path(k):
    """One of 200 paths of five words: more long strings than the merges
    of a 4 KB dictionary hold, so that its content copies some of them."""
    steps = ((1, 0), (3, 1), (5, 2), (7, 3), (k % 5 + 1, 4))
    return b"/" + b"/".join(_NAMES[(k * p + q) % 8] for p, q in steps) + b".%d" % (k % 97)


def json_record(i):
    """The ``i``-th of a run of JSON-like records whose dictionary trains
    content and codes records both ways (the dictionary tests take them
    too)."""
    return b'{"id": %d, "name": "%s", "path": "%s", "from": "%s"}\n' % (
        i, _NAMES[i % 8], _path(i * 37 % 200), _path(i * 11 % 200))


def _exercise():
    """Run every code path that has kernels of its own; the codings the
    inputs were written in."""
    import gagebpe
    from .encoder.levels import LEVELS
    from .sample import sample

    rng = np.random.default_rng(1994)
    dna = rng.choice(np.frombuffer(b"ACGT", np.uint8), 1 << 21).tobytes()
    rows = np.tile(rng.integers(0, 256, 13, dtype=np.uint8), (20_000, 1))
    rows[:, :4] = np.arange(20_000, dtype="<u4").view(np.uint8).reshape(-1, 4)
    noise = rng.integers(0, 256, 3000, dtype=np.uint8).tobytes()
    # as binaries repeat, of 7-bit bytes: their frequencies gain too (so the
    # tries run), and then the same of 8-bit ones: their repeats alone gain
    pool = [rng.integers(0, 128, n, dtype=np.uint8).tobytes() for n in range(50, 650, 3)]
    pieces = b"".join(pool[i] for i in rng.integers(0, len(pool), 600))
    pool = [rng.integers(0, 256, n, dtype=np.uint8).tobytes() for n in range(50, 650, 3)]
    noisy_pieces = b"".join(pool[i] for i in rng.integers(0, len(pool), 600))
    # and with small bytes a little more often, as images': their frequencies
    # gain a little
    skewed = np.frombuffer(noisy_pieces, np.uint8)
    skewed = (skewed & np.where(skewed & 7 == 0, 0x1F, 0xFF).astype(np.uint8)).tobytes()
    inputs = [
        (sample(1 << 21), (1, 6, 9)),     # CONTEXT blocks (6, 9: CONTEXT_LONG); level 1 probes
        (dna, (6,)),                      # probed, not merged: PACKED without merges
        (sample(5000), (6,)),             # one small LZ block
        (pieces, (6,)),                   # one SEQUENCES block
        (noisy_pieces, (6,)),             # high entropy, repeats: REPEATS of greedy copies
        (skewed, (6,)),                   # nearly as high: LZ of greedy copies
        (sample(100_000), (6,)),          # one SORTED_LONG block (SORTED's kernels)
        (sample(300), (6,)),              # a short text: MIXED_PRIMED
        (noise[:100] * 12, (9,)),         # MIXED
        (rows.tobytes(), (6,)),           # records: FILTERED
        (noise, (6,)),                    # STORED
        (dna[:3000] + sample(3000) + dna[:3000], (9,)),  # small, repeats: LZ
        (dna[:40_000] + sample(30_000) + dna[:40_000], (9,)),  # long repeats: REPEATS
        (rows.tobytes()[:60], (6,)),      # a tiny binary input: MIXED or MIXED_PRIMED
    ]
    words = (b"the", b"cat", b"sat", b"on", b"mat", b"and", b"dog", b"ran", b"away", b"home")
    sentences = []
    while sum(map(len, sentences)) < 20_000:
        chosen = [words[i] for i in rng.integers(0, len(words), rng.integers(3, 9))]
        sentences.append(b" ".join([chosen[0].capitalize(), *chosen[1:]]) + b". ")
    # words both capitalised and not, repeated: REPEATS over FOLDED
    inputs.append((b"".join(sentences)[:20_000] * 5, (9,)))
    inputs.append((sample(200_000), tuple(LEVELS)))  # every level's tries
    written = set()
    for data, levels in inputs:
        for level in levels:
            blob = gagebpe.compress(data, level)
            written |= _codings(blob)
            _check(gagebpe.decompress(blob) == data, "decompress")
            _check(gagebpe.decompress(blob, threads=2) == data, "decompress on two threads")
            d, parts = gagebpe.Decompressor(), []
            while not d.eof:
                parts.append(d.decompress(b"" if parts else blob, 1 << 20))
            _check(b"".join(parts) == data, "Decompressor")
    # LZ_PARTS, which gagebpe writes only where SEQUENCES would be larger,
    # as streams from before SEQUENCES hold it
    from .encoder.levels import PARTS
    from .format import container
    from .format.codings import lz as _coding_lz
    blob = container.single_stream(container.block(*_coding_lz.encode(pieces, PARTS), pieces))
    written |= _codings(blob)
    _check(gagebpe.decompress(blob) == pieces, "LZ_PARTS")
    # a stream of one block takes its coding's kernel: FOLDED and MIXED
    # (which only 0.11 wrote) come as one block from none of the inputs
    # above, but may from anyone's data or older files
    from .decoder import fast as _fast
    _fast.compile_kernels()
    # JSON-like records, which content copies best (DICTIONARY_LZ and
    # DICTIONARY_IDS_LZ); these lines, tokens (DICTIONARY_IDS)
    records = [json_record(i) for i in range(900)]
    d = gagebpe.train_dictionary(records[:600], 4096)
    blobs = gagebpe.compress_many(records[600:], dictionary=d)
    written |= {coding for blob in blobs for coding in _codings(blob, d)}
    _check(gagebpe.decompress_many(blobs, dictionary=d) == records[600:], "decompress_many")
    lines = [b"%d: %s\n" % (i, sample(60 + i % 50)[i % 7:]) for i in range(400)]
    d = gagebpe.Dictionary.from_bytes(bytes(gagebpe.train_dictionary(lines[:300], 8000)))
    blobs = gagebpe.compress_many(lines[300:], dictionary=d)
    written |= {coding for blob in blobs for coding in _codings(blob, d)}
    _check(gagebpe.decompress_many(blobs, dictionary=d) == lines[300:], "decompress_many")
    _check(gagebpe.decompress(blobs[0], dictionary=d) == lines[300], "a record")
    _check(gagebpe.compress(lines[300], dictionary=d) == blobs[0], "a record per call")
    big = sample(100_000)
    blob = gagebpe.compress(big, dictionary=d)
    written |= _codings(blob, d)
    _check(gagebpe.decompress(blob, dictionary=d) == big, "a dictionary's stream")
    c = gagebpe.Compressor(dictionary=d)
    blob = c.compress(lines[300]) + c.flush()
    _check(gagebpe.Decompressor(dictionary=d).decompress(blob) == lines[300], "Decompressor")
    import io
    with gagebpe.open(io.BytesIO(blob), dictionary=d) as f:
        f.seek(3)
        _check(f.read() == lines[300][3:], "a seek with a dictionary")
    g = gagebpe.grammar.encode(sample(5000))
    _check(gagebpe.grammar.decode(g.merges, g.ids) == sample(5000), "grammar.decode")
    for data in (sample(20000), b"a" * 6000, bytes(range(256)) * 8):
        _check(gagebpe.gage1994.decompress(gagebpe.gage1994.compress(data)) == data, "gage1994")
    from .tokenizers import WordBPE
    text = sample(200_000).decode()
    for ties in ("first", "subword-nmt"):
        bpe = WordBPE.train(text, 300, ties=ties)
        _check(bpe.apply(text).replace("@@ ", "") == text, "WordBPE.apply")
        _check(bpe.apply(text[:300]).replace("@@ ", "") == text[:300], "WordBPE.apply, short")
        bpe.encode_ids(text[:1000])
    from .tokenizers import ByteBPE
    for pattern, ties in (("gpt2", "first"), ("cl100k", "rustbpe"), ("gpt4", "first")):
        bpe = ByteBPE.train(text, 400, pattern=pattern, ties=ties, special_tokens=["<|x|>"])
        ids = bpe.encode(text + "<|x|>" + "a" * 500, allowed_special="all")
        _check(bpe.decode(ids) == text + "<|x|>" + "a" * 500, "ByteBPE.decode")
        short = bpe.encode_ordinary(text[:150])  # in Python, its new chunks by a kernel
        _check(bpe.decode_bytes(np.array(short)) == text[:150].encode(), "a short text")
        _check(bpe.encode_ordinary(text[:500], as_numpy=True).tolist()
               == bpe.encode_ordinary(text[:500]), "ByteBPE's arrays")
        _check(bpe.encode_batch([text[:500], text[500:]], threads=2) == [
            bpe.encode(text[:500]), bpe.encode(text[500:])], "ByteBPE.encode_batch")
        again = ByteBPE(list(bpe.mergeable_ranks()), pattern=pattern)  # merges recovered
        _check(again.merges == bpe.merges, "ByteBPE's recovered merges")
    try:
        bpe = ByteBPE.train(text, 300, pattern=r"\w+|\W")  # chunks cut by ``regex``
        _check(bpe.decode(bpe.encode(text)) == text, "ByteBPE with a regex pattern")
    except gagebpe.tokenizers.TokenizerError:
        pass  # the regex module is not installed
    return written


def _check_every_coding(written):
    """Raise unless the inputs wrote every coding of the format."""
    from .format.codings.registry import CODINGS, END_OF_BLOCKS, name
    missing = sorted(set(CODINGS) - written - {END_OF_BLOCKS})
    if missing:
        raise RuntimeError("precompile: no input is written in "
                           + ", ".join(map(name, missing))
                           + ": its kernels would not be cached; add an input that is")


def _dispatchers():
    """Every compiled kernel of the package, by name."""
    from numba.core.registry import CPUDispatcher
    found = {}
    for name, module in list(sys.modules.items()):
        if name.startswith("gagebpe."):
            for attr, value in vars(module).items():
                if isinstance(value, CPUDispatcher):
                    found[f"{name}.{attr}"] = value
    return found


def kernel_counts():
    """``(compiled, loaded)``: how many kernel signatures this process has
    compiled, and how many it loaded from the cache, so far."""
    compiled = loaded = 0
    for dispatcher in _dispatchers().values():
        compiled += sum(dispatcher.stats.cache_misses.values())
        loaded += sum(dispatcher.stats.cache_hits.values())
    return compiled, loaded


def main():
    from . import _jit
    if _jit.PURE_PYTHON:
        print("gagebpe.precompile: NUMBA_DISABLE_JIT is set; nothing to compile",
              file=sys.stderr)
        return 1
    start = time.perf_counter()
    _check_every_coding(_exercise())
    compiled, loaded = kernel_counts()
    place = _jit.cache_place()
    if place is None:
        print("gagebpe.precompile: no usable kernel cache; see the warning above",
              file=sys.stderr)
        return 1
    path, writable = place
    print(f"{path}: {compiled} kernels compiled, {loaded} loaded from the cache "
          f"({'read-write' if writable else 'read-only'}), "
          f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
