"""``gagebpe-tokenizers`` (``python -m gagebpe.tokenizers``): the tokenizers'
command line, a drop-in for subword-nmt's two commands.

    gagebpe-tokenizers learn-bpe -s 10000 < train.txt > codes
    gagebpe-tokenizers apply-bpe -c codes < test.txt > test.bpe

Text is UTF-8; lines end at ``\\n`` and carriage returns are kept, as
subword-nmt reads its standard input on Linux.  Exit status: 0 success, 1 an error (a missing or malformed
file, text that is not UTF-8), 2 a usage error.

Imports the public ``gagebpe.tokenizers``.
"""
import argparse
import io
import os
import sys
from contextlib import contextmanager

from gagebpe.tokenizers import TokenizerError, WordBPE
from gagebpe.tokenizers._words import line_pieces

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
        bar = command.add_mutually_exclusive_group()
        bar.add_argument("--progress", dest="progress", action="store_true", default=None,
                         help="show a progress bar on stderr (needs tqdm)")
        bar.add_argument("--no-progress", dest="progress", action="store_false")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        with _input(args.input) as source, _output(args.output) as out:
            if args.command == "learn-bpe":
                learn(args, source, out)
            else:
                apply(args, source, out)
    except Problem as problem:
        print(f"gagebpe-tokenizers: {problem}", file=sys.stderr)
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
        raise Problem(f"cannot read {args.codes}: {e.strerror or e}") from None
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


@contextmanager
def _input(path):
    if path == "-":
        yield io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", newline="\n")
        return
    try:
        f = open(path, encoding="utf-8", newline="\n")
    except OSError as e:
        raise Problem(f"cannot read {path}: {e.strerror or e}") from None
    with f:
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
    try:
        f = open(path, "w", encoding="utf-8", newline="\n")
    except OSError as e:
        raise Problem(f"cannot write {path}: {e.strerror or e}") from None
    with f:
        yield f


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
