"""``gagebpe-tokenizers`` (``python -m gagebpe.tokenizers``): the tokenizers'
command line: a drop-in for subword-nmt's two commands, and byte-level BPE.

    gagebpe-tokenizers learn-bpe -s 10000 < train.txt > codes
    gagebpe-tokenizers apply-bpe -c codes < test.txt > test.bpe
    gagebpe-tokenizers train --vocab-size 10000 corpus/*.txt -o tok.tiktoken
    gagebpe-tokenizers encode -t tok.tiktoken < text > ids      (--npy: a NumPy array)
    gagebpe-tokenizers decode -t tok.tiktoken < ids > text

Text is UTF-8; lines end at ``\\n`` and carriage returns are kept, as
subword-nmt reads its standard input on Linux.  A ``.tiktoken`` rank file
holds no pattern: give ``--pattern`` to ``encode`` and ``decode`` unless it
is gpt4, the default.  Output files are written whole or not at all.
Exit status: 0 success, 1 an error (a missing or malformed file, text that
is not UTF-8), 2 a usage error.
"""
import argparse
import io
import os
import json
import sys
from contextlib import contextmanager

import numpy as np

from .._output import Replacement
from . import ByteBPE, TokenizerError, WordBPE
from ._words import line_pieces

EXIT_OK, EXIT_ERROR = 0, 1
PROGRESS_FROM = 1 << 24  # characters of input before a progress bar is worth it


class Problem(Exception):
    """A problem reported on one line, ending the run."""


def parser():
    p = argparse.ArgumentParser(
        prog="gagebpe-tokenizers",
        description="Learn and apply byte-pair-encoding subword merges (subword-nmt's "
                    "commands, on gagebpe's kernels).")
    commands = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    learn = commands.add_parser("learn-bpe", help="learn merges from text")
    learn.add_argument("-s", "--symbols", type=int, default=10000,
                       help="merges to learn (default: %(default)s)")
    learn.add_argument("--min-frequency", type=int, default=2, metavar="FREQ",
                       help="stop once no pair occurs FREQ times (default: %(default)s)")
    learn.add_argument("--ties", choices=("subword-nmt", "first"), default="subword-nmt",
                       help="subword-nmt's conventions and tie rule (codes version 0.2, the "
                       "default), or the article's (version 0.1, ties to the pair seen first)")
    learn.add_argument("-v", "--verbose", action="store_true",
                       help="say each merge and its count on stderr")
    apply = commands.add_parser("apply-bpe", help="segment text with learned merges")
    apply.add_argument("-c", "--codes", required=True, metavar="PATH",
                       help="the codes file (learn-bpe's output)")
    apply.add_argument("-s", "--separator", default="@@", metavar="STR",
                       help="after every subword but a word's last (default: %(default)s)")
    for command in (learn, apply):
        command.add_argument("-i", "--input", default="-", metavar="PATH",
                             help="input text (default: standard input)")
        command.add_argument("-o", "--output", default="-", metavar="PATH",
                             help="output (default: standard output)")
    train = commands.add_parser("train", help="train a byte-level BPE vocabulary")
    train.add_argument("files", nargs="*", metavar="FILE",
                       help="UTF-8 text, each file on its own (default: standard input)")
    train.add_argument("--vocab-size", type=int, required=True, metavar="N",
                       help="tokens: the 256 bytes and N - 256 merges")
    train.add_argument("--min-frequency", type=int, default=2, metavar="FREQ")
    train.add_argument("--ties", choices=("first", "rustbpe"), default="first",
                       help="to the pair seen first (minbpe's), or the smallest (rustbpe's)")
    train.add_argument("--special", action="append", default=[], metavar="TOKEN",
                       help="a special token, added past the ranks (repeatable)")
    train.add_argument("-o", "--output", required=True, metavar="PATH",
                       help="the vocabulary: .tiktoken ranks, else gagebpe's JSON")
    train.add_argument("--format", choices=("tiktoken", "gagebpe", "hf"),
                       help="the output's format (default: by its suffix)")
    encode = commands.add_parser("encode", help="text to token ids")
    decode = commands.add_parser("decode", help="token ids to text")
    for command in (encode, decode):
        command.add_argument("-t", "--tokenizer", required=True, metavar="PATH",
                             help="a .tiktoken rank file, gagebpe's JSON, or a Hugging Face "
                             "tokenizer.json")
        command.add_argument("--npy", action="store_true",
                             help="ids as a NumPy .npy array, not text")
    encode.add_argument("--special", choices=("error", "allow", "ignore"), default="error",
                        help="special tokens in the text: an error (tiktoken's default), "
                        "their ids, or ordinary text")
    for command in (train, encode, decode):
        command.add_argument("--pattern", default=None, metavar="P",
                             help="gpt2, cl100k, gpt4 (the default), o200k, a regular "
                             "expression, or none (for .tiktoken files, which lack one)")
    for command in (learn, apply, train, encode):
        bar = command.add_mutually_exclusive_group()
        bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                         help="show a progress bar on stderr (needs tqdm)")
        bar.add_argument("--no-progress", dest="progress", action="store_false")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        if args.command == "train":
            train(args)
        elif args.command == "encode":
            encode(args)
        elif args.command == "decode":
            decode(args)
        else:
            with _input(args.input) as source, _output(args.output) as out:
                (learn if args.command == "learn-bpe" else apply)(args, source, out)
    except Problem as problem:
        print(f"gagebpe-tokenizers: {problem}", file=sys.stderr)
        return EXIT_ERROR
    except TokenizerError as e:
        print(f"gagebpe-tokenizers: {e}".rstrip().replace("\n", " "), file=sys.stderr)
        return EXIT_ERROR
    return EXIT_OK


def learn(args, source, out):
    size = _size(source)
    with _progress(args.progress, size, "reading") as step:
        try:
            bpe = WordBPE.train(source, args.symbols,
                                min_frequency=args.min_frequency, ties=args.ties, progress=step)
        except UnicodeDecodeError as e:
            raise Problem(f"input is not UTF-8 text: {e}") from None
    if args.verbose:
        for k, ((left, right), count) in enumerate(zip(bpe.merges, bpe.frequencies)):
            print(f"pair {k}: {left} {right} -> {left}{right} (frequency {count})",
                  file=sys.stderr)
    if len(bpe.merges) < args.symbols:
        print(f"no pair has frequency >= {args.min_frequency}. Stopping", file=sys.stderr)
    out.write(bpe.codes())


def apply(args, source, out):
    try:
        bpe = WordBPE.load_codes(args.codes)
    except OSError as e:
        raise _cannot("read", args.codes, e) from None
    except UnicodeDecodeError:
        raise Problem(f"{args.codes}: not UTF-8 text") from None
    except TokenizerError as e:
        raise Problem(str(e)) from None
    size = _size(source)
    with _progress(args.progress, size, "segmenting") as step:
        try:
            for piece in line_pieces(source):
                out.write(bpe.apply(piece, args.separator))
                if step is not None:
                    step(len(piece))
        except UnicodeDecodeError as e:
            raise Problem(f"input is not UTF-8 text: {e}") from None


# -- byte-level BPE ---------------------------------------------------------------------

def _pattern(args, default="gpt4"):
    if args.pattern is None:
        return default
    return None if args.pattern == "none" else args.pattern


def train(args):
    sources = args.files or ["-"]

    def texts():
        for path in sources:
            with _input(path) as source:
                yield source

    size = sum(_size_of(path) or 0 for path in sources) or None
    with _progress(args.progress, size, "reading") as step:
        try:
            bpe = ByteBPE.train(texts(), args.vocab_size, pattern=_pattern(args),
                                min_frequency=args.min_frequency, ties=args.ties,
                                special_tokens=args.special, progress=step)
        except UnicodeDecodeError as e:
            raise Problem(f"input is not UTF-8 text: {e}") from None
    kind = args.format or ("tiktoken" if args.output.endswith(".tiktoken") else "gagebpe")
    save = {"tiktoken": bpe.save_tiktoken, "gagebpe": bpe.save, "hf": bpe.save_hf}[kind]
    with _replacing(args.output) as partial:
        try:
            save(partial)
        except OSError as e:
            raise _cannot("write", args.output, e) from None


def _tokenizer(args):
    """The tokenizer of ``-t``, by its suffix and contents."""
    path = args.tokenizer
    try:
        if not path.endswith(".json"):
            return ByteBPE.from_tiktoken(path, pattern=_pattern(args))
        with open(path, encoding="utf-8") as f:
            head = json.load(f)
        if isinstance(head, dict) and "model" in head:
            return ByteBPE.from_hf(path)
        return ByteBPE.load(path)
    except OSError as e:
        raise _cannot("read", path, e) from None
    except ValueError as e:
        raise Problem(f"{path}: {e}") from None


def encode(args):
    bpe = _tokenizer(args)
    special = {"error": {}, "allow": {"allowed_special": "all"},
               "ignore": {"disallowed_special": ()}}[args.special]
    out = sys.stdout.buffer
    arrays = []
    with _input("-") as source, _progress(args.progress, _size(source), "encoding") as step:
        try:
            for ids in bpe.encode_file(source, progress=step, **special):
                if args.npy:
                    arrays.append(np.array(ids, np.uint32))
                elif ids:
                    out.write((" ".join(map(str, ids)) + "\n").encode())
        except UnicodeDecodeError as e:
            raise Problem(f"input is not UTF-8 text: {e}") from None
    if args.npy:
        np.save(out, np.concatenate(arrays + [np.empty(0, np.uint32)]))
    out.flush()


def decode(args):
    bpe = _tokenizer(args)
    data = sys.stdin.buffer.read()
    what = "a .npy array of integers" if args.npy else "token ids"
    try:
        ids = np.load(io.BytesIO(data)) if args.npy else np.array(data.split(), np.int64)
    except (ValueError, OverflowError, EOFError, OSError) as e:
        raise Problem(f"input is not {what}: {e}") from None
    if ids.dtype.kind not in "iu":
        raise Problem(f"input is not {what}: its type is {ids.dtype}")
    sys.stdout.buffer.write(bpe.decode_bytes(ids))
    sys.stdout.buffer.flush()


def _size_of(path):
    try:
        return None if path == "-" else os.path.getsize(path)
    except OSError:
        return None


@contextmanager
def _input(path):
    if path == "-":
        yield io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline="\n")
        return
    with _open_text(path, "r") as f:
        yield f


@contextmanager
def _output(path):
    if path == "-":
        out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
        try:
            yield out
            out.flush()
        except BrokenPipeError:
            pass
        finally:
            out.detach()
        return
    with _replacing(path) as partial, _open_text(partial, "w", shown=path) as f:
        yield f


def _open_text(path, mode, shown=None):
    """``path`` opened as UTF-8 text with ``\\n`` line ends, or a Problem
    naming ``shown`` (the path the user gave)."""
    try:
        return open(path, mode, encoding="utf-8", newline="\n")
    except OSError as e:
        raise _cannot("read" if mode == "r" else "write", shown or path, e) from None


def _cannot(verb, path, error):
    return Problem(f"cannot {verb} {path}: {error.strerror or error}")


@contextmanager
def _replacing(path):
    """A name to write ``path``'s new contents to, which becomes ``path``
    when the block succeeds and is removed when it fails
    (``_output.Replacement``): no partial output is ever left under
    ``path``."""
    try:
        replacement = Replacement(path)
    except OSError as e:
        raise _cannot("write", path, e) from None
    with replacement as partial:
        yield partial
        try:
            replacement.commit()
        except OSError as e:
            raise _cannot("write", path, e) from None


def _size(source):
    try:
        return os.fstat(source.fileno()).st_size
    except (OSError, ValueError, io.UnsupportedOperation):
        return None


@contextmanager
def _progress(wanted, size, what):
    """``step(n)``: a tqdm bar over the input's characters on stderr, for a
    large file when stderr is a terminal (or --progress); else None."""
    if wanted is None:
        wanted = size is not None and size >= PROGRESS_FROM and sys.stderr.isatty()
    tqdm = None
    if wanted:
        try:
            from tqdm import tqdm
        except ImportError:
            print("gagebpe-tokenizers: --progress needs tqdm (pip install tqdm)",
                  file=sys.stderr)
    if tqdm is None:
        yield None
        return
    with tqdm(total=size, unit="B", unit_scale=True, file=sys.stderr, desc=what,
              leave=False) as bar:
        yield bar.update


if __name__ == "__main__":
    sys.exit(main())
