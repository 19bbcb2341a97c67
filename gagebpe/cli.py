"""The ``gagebpe`` command: gzip, xz and zstd conventions over the API.

    gagebpe FILE...        compress each FILE to FILE.gbpe (FILE is kept)
    gagebpe -d FILE.gbpe   restore FILE
    gagebpe < in > out     no file, or -, means stdin to stdout

Nothing is lost: output goes to a temporary file beside its target, which
is flushed, synced and renamed into place only when complete; on any error
or signal the temporary file is removed and the input is untouched, and
``--rm`` deletes an input only after its output is in place.  Exit status:
0 success, 1 an error, 2 a warning (a file skipped) and no error.
"""
import argparse
import atexit
import io
import os
import signal
import stat
import sys
import warnings
from contextlib import contextmanager

from ._output import PENDING, Replacement

SUFFIXES = {"gbpe": ".gbpe", "gage1994": ".bpe"}
EXIT_OK, EXIT_ERROR, EXIT_WARNING = 0, 1, 2
READ_SIZE = 1 << 20  # decompression: input read and output returned per step
PROGRESS_FROM = 1 << 24  # bytes of input before a progress bar is worth it
# A small job runs in plain Python (``gagebpe.plain``) where that takes less
# than loading Numba and the kernels, 0.42-0.54 s here beyond Python's own
# start (importing Numba, the encoder's modules and a 1 or 4 KB job's
# cached kernels, medians of 7 runs with this path off); the bytes are the
# same either way.  Compressed inputs larger than this are not read to
# weigh them.
KERNELS_SECONDS = 0.45
PLAIN_INPUT_LARGEST = 64 << 10


class Problem(Exception):
    """One file's problem, reported on one line; ``warning`` ones only skip
    the file."""

    def __init__(self, message, warning=False):
        super().__init__(message)
        self.warning = warning


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        """A usage error is an error (exit 1), as in gzip; 2 means warning."""
        self.print_usage(sys.stderr)
        self.exit(EXIT_ERROR, f"gagebpe: {message}\n")


def parser():
    p = _Parser(
        prog="gagebpe", description="Compress or decompress files with "
        "byte-pair encoding (.gbpe).  With no FILE, or when FILE is -, read "
        "standard input and write standard output.",
        epilog="Exit status: 0 OK, 1 error, 2 warning.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("-z", "--compress", dest="mode", action="store_const",
                      const="compress", help="compress (the default)")
    mode.add_argument("-d", "--decompress", "--uncompress", dest="mode",
                      action="store_const", const="decompress", help="decompress")
    mode.add_argument("-t", "--test", dest="mode", action="store_const", const="test",
                      help="check the integrity of compressed files")
    mode.add_argument("-l", "--list", dest="mode", action="store_const", const="list",
                      help="list sizes, ratio, blocks and merges of compressed files")
    mode.add_argument("--train", dest="mode", action="store_const", const="train",
                      help="train a dictionary on the FILEs, each a sample record, "
                      "written to -o FILE (default: dictionary)")
    p.add_argument("-c", "--stdout", action="store_true",
                   help="write to standard output, keep input files")
    p.add_argument("-o", dest="output", metavar="FILE",
                   help="write the (single) result to FILE")
    keep = p.add_mutually_exclusive_group()
    keep.add_argument("-k", "--keep", dest="remove", action="store_false",
                      help="keep input files (the default)")
    keep.add_argument("--rm", dest="remove", action="store_true",
                      help="remove each input file once its output is complete")
    p.set_defaults(remove=False)
    p.add_argument("-f", "--force", action="store_true",
                   help="overwrite targets; read or write compressed data on a "
                   "terminal; follow non-regular files")
    p.add_argument("-r", "--recursive", action="store_true",
                   help="operate on the files in directories, recursively")
    for n in range(1, 10):
        p.add_argument(f"-{n}", dest="level", action="store_const", const=n,
                       help=argparse.SUPPRESS)
    p.add_argument("--block-size", type=_size, metavar="BYTES",
                   help="bytes per block (suffixes K, M, G: KiB, MiB, GiB); "
                   "default set by the level")
    p.add_argument("-D", "--dictionary", metavar="DICT",
                   help="compress, decompress or test with the dictionary DICT "
                   "(made by --train)")
    p.add_argument("--maxdict", type=_size, default=None, metavar="BYTES",
                   help="the largest dictionary --train makes (default 110K)")
    p.add_argument("--format", choices=sorted(SUFFIXES),
                   help="gbpe (the default, .gbpe) or Philip Gage's 1994 format (.bpe); "
                   "when decompressing, a .bpe file is read as gage1994")
    p.add_argument("-T", "--threads", type=int, default=1, metavar="N",
                   help="blocks coded, or a dictionary trained, in parallel "
                   "(0: one per core; default 1)")
    progress = p.add_mutually_exclusive_group()
    progress.add_argument("--progress", dest="progress", action="store_true", default=None,
                          help="show a progress bar (needs tqdm)")
    progress.add_argument("--no-progress", dest="progress", action="store_false",
                          help="never show a progress bar")
    p.add_argument("-v", "--verbose", action="count", default=0, help="say more")
    p.add_argument("-q", "--quiet", action="count", default=0,
                   help="say nothing but errors (twice: not even those)")
    p.add_argument("-V", "--version", action="version", version=f"gagebpe {_version()}")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.usage = ("gagebpe [-z|-d|-t|-l] [-1..-9] [-D DICT] [options] [--] [FILE ...]\n"
               "       gagebpe --train FILE... [-o DICT] [--maxdict BYTES]")
    return p


def _version():
    from . import __version__
    return __version__


def _size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    scale = units.get(text[-1:].upper(), 1)
    try:
        value = int(text[:-1] if scale > 1 else text) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid size {text!r}") from None
    return value


class Run:
    """One invocation: the options, the worst status so far, the output."""

    def __init__(self, args):
        self.args = args
        self.status = EXIT_OK
        self.verbosity = 1 + args.verbose - args.quiet

    def say(self, message, level=1):
        if self.verbosity >= level:
            print(message, file=sys.stderr)

    def report(self, name, problem):
        warning = getattr(problem, "warning", False)
        if not warning:
            self.status = EXIT_ERROR
        elif self.status == EXIT_OK:
            self.status = EXIT_WARNING
        if self.verbosity >= (1 if warning else 0):
            print(f"gagebpe: {name}: {problem}", file=sys.stderr)


def main(argv=None):
    args = parser().parse_args(argv)
    args.mode = args.mode or "compress"
    run = Run(args)
    if args.threads < 0:
        run.report("-T", Problem("threads must be 0 or more"))
        return run.status
    if args.mode == "train":
        _say_cache_warnings(run)
        _train(run, args.files)
        return run.status
    files = args.files or ["-"]
    if args.output and len(files) > 1:
        run.report("-o", Problem("only one input file may be given with -o"))
        return run.status
    _say_cache_warnings(run)
    try:
        run.dictionary = _load_dictionary(args)
    except Problem as problem:
        run.report(args.dictionary or "--maxdict", problem)
        return run.status
    run.plain = _plain_job(args, files)
    if not run.plain:
        _announce_compiling(run)
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, _die_cleanly)
    for name in _inputs(files, run):
        try:
            process(run, name)
        except Problem as problem:
            run.report(name, problem)
    return run.status


def console():
    """The installed command and ``python -m gagebpe``: ``main``, then exit.

    Once Numba has loaded compiled kernels, the interpreter's teardown
    takes 0.1-0.2 s, as long as a small job itself (medians of 9 runs here);
    so when the outputs are complete and standard output is flushed, the
    exit handlers run and the process ends without it.  A flush that fails
    (a reader gone away) is left to the interpreter, which says so."""
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return status
    atexit._run_exitfuncs()
    os._exit(status)


def _plain_job(args, names):
    """Whether to do this job without Numba (``_plain_jobs``):
    listing; or every input a small regular file that the plain path is
    expected to finish before the kernels would have loaded."""
    if args.mode == "list":
        return True
    if args.recursive or "-" in names or args.format == "gage1994" or args.dictionary:
        return False
    from . import _plain_jobs as stream
    seconds = 0.0
    for name in names:
        try:
            if not os.path.isfile(name):
                return False
            size = os.path.getsize(name)
            if args.mode == "compress":
                if size > stream.LARGEST or (args.block_size or size) < size:
                    return False
                seconds += stream.compress_seconds(size, args.level)
                continue
            if size > PLAIN_INPUT_LARGEST:
                return False
            with open(name, "rb") as f:
                taken = stream.decompress_seconds(f.read())
        except OSError:
            return False  # the job will report it
        if taken is None:
            return False
        seconds += taken
    return seconds < KERNELS_SECONDS


def _die_cleanly(signum, frame):
    """Remove the temporary files, then die of the signal.  (Raising here
    instead would unwind through whatever native code was running.)"""
    for path in list(PENDING):
        try:
            os.unlink(path)
        except OSError:
            pass
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _say_cache_warnings(run):
    """A kernel cache that cannot be used is said in one line on stderr,
    not as a Python warning with its source line."""
    from . import KernelCacheWarning
    show = warnings.showwarning

    def say(message, category, *args, **kwargs):
        if issubclass(category, KernelCacheWarning):
            run.say(str(message))
        else:
            show(message, category, *args, **kwargs)

    warnings.showwarning = say


def _announce_compiling(run):
    """Say once, when Numba starts compiling (the first run on a machine),
    why this run is slow."""
    try:
        from numba.core import event
    except ImportError:
        return

    class Listener(event.Listener):
        said = False

        def on_start(self, ev):
            if not Listener.said:
                Listener.said = True
                from ._jit import cache_place
                place = cache_place()
                later = ("this happens once" if place and place[1]
                         else "they cannot be cached for later runs")
                run.say(f"gagebpe: compiling its kernels for this machine, which takes "
                        f"a minute; {later}")

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())


def _inputs(names, run):
    """The inputs: names as given, directories walked with -r."""
    for name in names:
        if name != "-" and os.path.isdir(name):
            if not run.args.recursive:
                run.report(name, Problem("is a directory -- ignored", warning=True))
                continue
            for root, dirs, files in os.walk(name):
                dirs.sort()
                for f in sorted(files):
                    path = os.path.join(root, f)
                    known = _format_of(run.args, path) is not None
                    if run.args.mode == "compress" and known:
                        continue  # in a tree, already compressed files are skipped
                    if run.args.mode == "decompress" and not known:
                        continue
                    yield path
        else:
            yield name


# -- one file -------------------------------------------------------------------

def process(run, name):
    args = run.args
    if args.mode == "list":
        return list_file(run, name)
    if name == "-":
        source, size = sys.stdin.buffer, None
        if args.mode != "compress" and os.isatty(0) and not args.force:
            raise Problem("compressed data not read from a terminal; use -f to force")
    else:
        source, size = _open_input(run, name)
    with source if name != "-" else _nothing():
        if args.mode == "test":
            _decompress(run, source, size, _Discard(), name)
            run.say(f"{name}: OK", 2)
            return
        target = _target(run, name)
        if target is None:
            if args.mode == "compress" and os.isatty(1) and not args.force:
                raise Problem("compressed data not written to a terminal; use -f to force")
            out = _StdoutWriter()
            _code(run, source, size, out, name)
        else:
            with _atomic_output(target, args.force, name) as out:
                _code(run, source, size, out, name)
    if target is not None and args.remove and name != "-":
        os.unlink(name)


@contextmanager
def _nothing():
    yield


def _open_input(run, name):
    try:
        st = os.stat(name)
    except OSError as e:
        raise Problem(e.strerror or str(e)) from None
    if not stat.S_ISREG(st.st_mode) and not run.args.force:
        raise Problem("not a regular file -- ignored", warning=True)
    suffix = SUFFIXES[run.args.format or "gbpe"]
    if run.args.mode == "compress" and name.endswith(suffix) and not run.args.stdout:
        raise Problem(f"already has {suffix} suffix -- ignored", warning=True)
    if run.args.mode == "decompress" and _format_of(run.args, name) is None and not (
            run.args.stdout or run.args.output):
        raise Problem("unknown suffix -- ignored", warning=True)
    try:
        return open(name, "rb"), st.st_size
    except OSError as e:
        raise Problem(e.strerror or str(e)) from None


def _target(run, name):
    """Where the result goes: a path, or None for standard output."""
    args = run.args
    if args.output:
        return None if args.output == "-" else args.output
    if args.stdout or name == "-":
        return None
    if args.mode == "compress":
        return name + SUFFIXES[args.format or "gbpe"]
    return name[:-len(SUFFIXES[_format_of(args, name)])]


def _format_of(args, name):
    """The format a compressed file is read in: --format if given, else the
    one its suffix names (None: a suffix of neither; ``-`` is gbpe)."""
    if name == "-":
        return args.format or "gbpe"
    for fmt, suffix in SUFFIXES.items():
        if name.endswith(suffix) and args.format in (None, fmt):
            return fmt
    return args.format if (args.stdout or args.output) else None


def _code(run, source, size, out, name):
    if run.args.mode == "compress":
        _compress(run, source, size, out, name)
    else:
        _decompress(run, source, size, out, name)


def _compress(run, source, size, out, name):
    import gagebpe
    args = run.args
    if run.plain:
        data = _read(source, -1)
        blob = _plain().compress(data, args.level)
        if blob is not None:
            written = out.write(blob)
            _summary(run, name, len(data), written, len(data), written)
            return
        source = io.BytesIO(data)  # declined: the kernels code it
    if args.format == "gage1994":
        if args.level or args.block_size or run.dictionary:
            raise Problem("the gage1994 format has no levels, block sizes or dictionaries")
        compressor, chunk = gagebpe.gage1994.Compressor(), READ_SIZE
    else:
        try:
            compressor = gagebpe.Compressor(args.level, block_size=args.block_size,
                                            threads=args.threads, dictionary=run.dictionary)
        except ValueError as e:
            raise Problem(str(e)) from None
        # Whole blocks for every thread, so that they can be coded side by side.
        chunk = compressor.block_size * max(1, compressor.threads)
    done = written = 0
    with _progress(run, size, name) as bar:
        while data := _read(source, chunk):
            written += out.write(compressor.compress(data))
            done += len(data)
            bar(len(data), done, written)
        written += out.write(compressor.flush())
        bar(0, done, written)  # a stream of one block is all written here
    _summary(run, name, done, written, done, written)


def _decompress(run, source, size, out, name):
    """Decode ``source`` through the file reader, READ_SIZE bytes at a time:
    memory is bounded by a block per thread."""
    import gagebpe
    fmt = _format_of(run.args, name) or "gbpe"
    if run.plain and fmt == "gbpe":
        data = _read(source, -1)
        result = _plain().decompress(data)
        if result is not None:
            written = out.write(result)
            _summary(run, name, len(data), written, written, len(data))
            return
        source = io.BytesIO(data)  # declined: the kernels decode it, or say what is wrong
    counted = _Counted(source)
    try:
        if fmt == "gage1994" and run.dictionary:
            raise Problem("the gage1994 format has no dictionaries")
        with gagebpe.open(counted, format=fmt, threads=run.args.threads,
                          dictionary=run.dictionary) as f, \
                _progress(run, size, name) as bar:
            written = 0
            while data := f.read(READ_SIZE):
                written += out.write(data)
                bar(counted.step(), written, counted.total)
    except gagebpe.GageBPEError as e:
        kind = "1994 BPE" if fmt == "gage1994" else "gagebpe"
        raise Problem(f"not valid {kind} data: {e}") from None
    except EOFError:
        raise Problem("unexpected end of file") from None
    _summary(run, name, counted.total, written, written, counted.total)


def _plain():
    from . import _plain_jobs as stream
    return stream


# -- dictionaries -----------------------------------------------------------------

DEFAULT_DICTIONARY = "dictionary"  # as zstd --train names its output


def _load_dictionary(args):
    """The ``gagebpe.Dictionary`` that -D names, or None."""
    if args.maxdict is not None:
        raise Problem("--maxdict applies only with --train")
    if args.dictionary is None:
        return None
    import gagebpe
    try:
        with open(args.dictionary, "rb") as f:
            return gagebpe.Dictionary.from_bytes(f.read())
    except OSError as e:
        raise Problem(e.strerror or str(e)) from None
    except gagebpe.GageBPEError as e:
        raise Problem(f"not a valid dictionary: {e}") from None


def _train(run, names):
    """Train a dictionary on the files ``names`` (each a sample) and write
    it to -o (``dictionary`` by default), whole or not at all."""
    import gagebpe
    args = run.args
    if not names:
        run.report("--train", Problem("no sample files given"))
        return
    samples = []
    for name in names:
        try:
            with open(name, "rb") as f:
                samples.append(f.read())
        except OSError as e:
            run.report(name, Problem(e.strerror or str(e)))
            return
    from .encoder.dictionary import DEFAULT_SIZE
    size = args.maxdict or DEFAULT_SIZE
    try:
        dictionary = gagebpe.train_dictionary(samples, size, threads=args.threads)
    except ValueError as e:
        run.report("--train", Problem(str(e)))
        return
    target = args.output or DEFAULT_DICTIONARY
    try:
        with _atomic_output(target, args.force, "-") as out:
            out.write(bytes(dictionary))
    except Problem as problem:
        run.report(target, problem)
        return
    run.say(f"{target}: dictionary {dictionary.id:#010x} of {len(dictionary)} bytes "
            f"({len(dictionary.merges)} merges) from {len(samples)} samples", 2)


class _Counted:
    """A source read through the file reader, counting the bytes taken."""

    def __init__(self, source):
        self._source = source
        self.total = self._stepped = 0

    def read(self, n=-1):
        data = _read(self._source, n)
        self.total += len(data)
        return data

    def step(self):
        """Bytes read since the last call."""
        step, self._stepped = self.total - self._stepped, self.total
        return step

    def readable(self):
        return True

    def seekable(self):
        return False


def _read(source, n):
    try:
        return source.read(n)
    except OSError as e:
        raise Problem(f"read error: {e.strerror or e}") from None


def _summary(run, name, before, after, original, coded):
    """With -v: the sizes before and after, and the compression ratio."""
    ratio = f"{original / coded:.3f}" if coded else "-"
    run.say(f"{name}: {before:,} -> {after:,} bytes, ratio {ratio}", 2)


@contextmanager
def _progress(run, size, name):
    """``bar(step, original, coded)``: a tqdm bar over the input on stderr,
    for a large input when stderr is a terminal (or --progress), else a
    no-op.  ``original`` and ``coded`` are the bytes so far on each side."""
    wanted = run.args.progress
    if wanted is None:
        wanted = (run.verbosity >= 1 and size is not None and size >= PROGRESS_FROM
                  and sys.stderr.isatty())
    tqdm = None
    if wanted:
        try:
            from tqdm import tqdm
        except ImportError:
            run.say("gagebpe: --progress needs tqdm (pip install tqdm)")
    if tqdm is None:
        yield lambda *a, **k: None
        return
    with tqdm(total=size, unit="B", unit_scale=True, file=sys.stderr, desc=name,
              leave=False) as bar:
        def step(n, original, coded):
            bar.update(n)
            if coded:
                bar.set_postfix(ratio=f"{original / coded:.2f}")
        yield step


# -- listing ----------------------------------------------------------------------

def list_file(run, name):
    from . import GageBPEError, describe
    if name == "-":
        raise Problem("-l needs file names, not standard input")
    if _format_of(run.args, name) == "gage1994":
        raise Problem("-l lists gbpe files only; the 1994 format records no sizes")
    try:
        with open(name, "rb") as f:
            streams = describe(f)
    except OSError as e:
        raise Problem(e.strerror or str(e)) from None
    except (GageBPEError, EOFError) as e:
        raise Problem(f"not valid gagebpe data: {e}") from None
    if not getattr(run, "listed_header", False):
        run.listed_header = True
        print(f"{'compressed':>13} {'uncompressed':>13} {'ratio':>7} {'blocks':>6} "
              f"{'merges':>9} {'version':>7}  name")
    coded = sum(s.stream_bytes for s in streams)
    original = sum(s.size for s in streams)
    versions = ",".join(sorted({str(s.version) for s in streams}))
    print(f"{coded:>13,} {original:>13,} {original / max(coded, 1):>7.3f} "
          f"{sum(s.blocks for s in streams):>6} {sum(s.merges for s in streams):>9,} "
          f"{versions:>7}  {name}")


# -- output -----------------------------------------------------------------------

class _StdoutWriter:
    """Unbuffered writes to file descriptor 1, so that a write error (a full
    disk, a closed pipe) is seen where it happens."""

    def write(self, data):
        view = memoryview(data)
        while view:
            try:
                n = os.write(1, view)
            except OSError as e:
                raise Problem(f"write error: {e.strerror or e}") from None
            view = view[n:]
        return len(data)


class _Discard:
    def write(self, data):
        return len(data)


class _FileWriter:
    def __init__(self, f):
        self._f = f

    def write(self, data):
        try:
            self._f.write(data)
        except OSError as e:
            raise Problem(f"write error: {e.strerror or e}") from None
        return len(data)


@contextmanager
def _atomic_output(target, force, source_name):
    """A writer for ``target``, which appears only when complete
    (``_output.Replacement``), with the source's mode and times."""
    if os.path.lexists(target) and not force:
        raise Problem(f"{target} already exists; use -f to overwrite")
    try:
        replacement = Replacement(target)
    except OSError as e:
        directory = os.path.dirname(target) or "."
        raise Problem(f"cannot write in {directory}: {e.strerror or e}") from None
    with replacement as path:
        with open(path, "wb") as f:
            yield _FileWriter(f)
            try:
                f.flush()
            except OSError as e:
                raise Problem(f"write error: {e.strerror or e}") from None
        if source_name != "-":
            _copy_metadata(source_name, path)
        if os.path.lexists(target) and not force:
            raise Problem(f"{target} already exists; use -f to overwrite")
        try:
            replacement.commit()
        except OSError as e:
            raise Problem(f"write error: {e.strerror or e}") from None


def _copy_metadata(source, target):
    """Mode bits and times, as gzip carries them over."""
    st = os.stat(source)
    os.chmod(target, stat.S_IMODE(st.st_mode))
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))


if __name__ == "__main__":
    sys.exit(main())
