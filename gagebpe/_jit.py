"""``njit`` for the kernels, and where their compiled code is cached.

With ``NUMBA_DISABLE_JIT=1`` (Numba's own switch) the kernels run as plain
Python over NumPy arrays and Numba is not even imported; the command line
does this for jobs so small that loading Numba would take longer than the
work.  The kernels are written so that both ways give the same bytes.

Compiling the kernels takes a minute, so their machine code is cached on
disk.  Numba alone caches beside the package or in the user's cache
directory, needs to write there even to read, and raises when it can do
neither, which is the usual case for a package installed by root and run by a
service account.  So gagebpe chooses the place for its own kernels, once
per process, taking the first of these that works:

1. ``NUMBA_CACHE_DIR``, when set (then nothing else is tried);
2. the package's ``__pycache__`` (as Numba does);
3. the user's cache directory (``~/.cache/numba``, as Numba does);
4. a directory private to this user under the system's temporary
   directory (``gagebpe-kernels-<uid>``, mode 0700; one that another user
   could have made or changed is never used: its files are code).

A place "works" when it can be written, or when it cannot but already holds
kernels: a cache filled at build time (``python -m gagebpe.precompile``) is
read where it lies, read-only.  Where no place works the kernels compile in
memory on every start, and a ``KernelCacheWarning`` says so once.  Caching
never raises: a cache that cannot be read or written is skipped.

Numba keys a cached kernel on its own module's file alone, but a kernel's
machine code holds that of the kernels it calls and the constants it
reads, from other modules: after a change to one of them the cached code
would run the old.  So a kernel's key here is the stamp of every module
file its own module reaches through its imports (``sources_stamp``), read
off the import statements, so that nobody keeps a list by hand; an edit
compiles again only the kernels that can reach the edited module.
``tests/kernels/test_kernel_cache.py`` checks the key against what the
compiled functions' globals, callees and closures actually reach.

Numba's caching machinery is internal and changes between releases; this
module is the only one that touches it, and ``pyproject.toml`` bounds
Numba's version to the releases it was tested with.
"""
import os
import re
import tempfile
import warnings
from typing import NamedTuple

from ._errors import KernelCacheWarning

PURE_PYTHON = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
WARNING_ADVICE = ("set NUMBA_CACHE_DIR to a writable directory, or fill a cache at "
                  "install time with 'python -m gagebpe.precompile'")


class _Place(NamedTuple):
    """Where the kernels are cached: ``path``, and whether it can be written."""
    path: str
    writable: bool


_said = set()


def _warn_once(message, stacklevel=3):
    if message not in _said:
        _said.add(message)
        warnings.warn(f"gagebpe: {message}; {WARNING_ADVICE}", KernelCacheWarning,
                      stacklevel=stacklevel)


def _writable(path):
    """Whether ``path`` is (or can be made) a directory this process can
    write files in."""
    try:
        os.makedirs(path, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        return True
    except OSError:
        return False


def _holds_kernels(path):
    try:
        return any(name.endswith(".nbi") for name in os.listdir(path))
    except OSError:
        return False


def _private_temp_dir():
    """This user's directory under the temporary directory, made if need be;
    None unless it is a real directory owned by this user and closed to
    everyone else."""
    path = os.path.join(tempfile.gettempdir(), f"gagebpe-kernels-{os.geteuid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    import stat
    if (not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid()
            or st.st_mode & 0o077):
        return None
    return path


def _candidates(subpath):
    """The places to try, in order, as paths; each made only when reached."""
    explicit = os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        yield os.path.join(explicit, subpath)
        return
    yield os.path.join(PACKAGE_DIR, "__pycache__")
    from numba.misc.appdirs import AppDirs
    yield os.path.join(AppDirs(appname="numba", appauthor=False).user_cache_dir, subpath)
    temp = _private_temp_dir()
    if temp is not None:
        yield os.path.join(temp, subpath)


def choose_place(subpath):
    """The first place that works (see the module's docstring), or None."""
    for path in _candidates(subpath):
        if _writable(path):
            return _Place(path, True)
        if _holds_kernels(path):
            return _Place(path, False)
    return None


_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+(\.+[\w.]*|gagebpe\b[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
    rb"|import[ \t]+(gagebpe\b[\w.]*))", re.MULTILINE)


def _module_file(parts, package_dir):
    """The file of the package's module ``parts`` (names below the
    package), or None where there is none."""
    path = os.path.join(package_dir, *parts)
    for candidate in (path + ".py", os.path.join(path, "__init__.py")):
        if os.path.isfile(candidate):
            return os.path.relpath(candidate, package_dir)
    return None


def imported_files(relpath, package_dir=PACKAGE_DIR):
    """The package's module files that the module at ``relpath`` imports
    anywhere in its text (a lazy import inside a function too), read off
    its import statements: a name imported from a package counts as that
    package's submodule where it is one, else as the package's
    ``__init__``."""
    with open(os.path.join(package_dir, relpath), "rb") as f:
        text = f.read()
    here = relpath.replace(os.sep, "/").split("/")[:-1]
    found = set()
    for source, names, absolute in _IMPORT.findall(text):
        if absolute:
            found.add(_module_file(absolute.decode().split(".")[1:], package_dir))
            continue
        source = source.decode()
        if source.startswith("."):
            level = len(source) - len(source.lstrip("."))
            if level - 1 > len(here):
                continue
            base = here[:len(here) - level + 1] + [p for p in source[level:].split(".") if p]
        else:
            base = source.split(".")[1:]
        for name in re.findall(rb"(\w+)(?:\s+as\s+\w+)?", names.strip(b"()")):
            found.add(_module_file(base + [name.decode()], package_dir)
                      or _module_file(base, package_dir))
    found.discard(None)
    return found


_reached = {}


def reached_files(relpath, package_dir=PACKAGE_DIR):
    """``relpath`` and every module file of the package it imports,
    directly or through others: all the code a kernel defined there can
    call, and every constant it can freeze."""
    key = (relpath, package_dir)
    if key not in _reached:
        seen, todo = {relpath}, [relpath]
        while todo:
            for found in imported_files(todo.pop(), package_dir) - seen:
                seen.add(found)
                todo.append(found)
        _reached[key] = frozenset(seen)
    return _reached[key]


def sources_stamp(relpath, package_dir=PACKAGE_DIR):
    """``((path, mtime, size), ...)`` of every module file that a kernel
    defined in the module at ``relpath`` can reach (``reached_files``):
    the key of that kernel's cached code, which holds its callees' code and
    the constants it froze.  An edit to a module compiles again only the
    kernels that can reach it."""
    stamp = []
    for path in sorted(reached_files(relpath, package_dir)):
        st = os.stat(os.path.join(package_dir, path))
        stamp.append((path, st.st_mtime_ns, st.st_size))
    return tuple(stamp)


def _kernel_cache_class():
    """A Numba function cache kept at the chosen place, which never raises:
    an entry that cannot be read is compiled again, one that cannot be
    saved stays in memory."""
    from numba.core import caching
    from numba.core.runtime import rtsys

    subpath = caching._CacheLocator.get_suitable_cache_subpath(__file__)
    place = choose_place(subpath)
    if place is None:
        _warn_once("no writable place for the kernel cache (package directory, user "
                   "cache, temporary directory): the kernels will be compiled on each "
                   "start", stacklevel=4)
        return None

    class Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno

        def get_disambiguator(self):
            # All kernels share one directory, and modules in different
            # folders may share a name: their path keeps them apart.
            where = os.path.relpath(self._py_file, PACKAGE_DIR)
            return f"{os.path.splitext(where)[0].replace(os.sep, '.')}-{self._lineno}"

        def get_source_stamp(self):
            return sources_stamp(os.path.relpath(self._py_file, PACKAGE_DIR))

        def get_cache_path(self):
            return place.path

        def ensure_cache_path(self):
            if not place.writable:
                raise OSError(f"{place.path} is read-only")
            super().ensure_cache_path()

        @classmethod
        def from_function(cls, py_func, py_file):
            return cls(py_func, py_file)

    class Impl(caching.CompileResultCacheImpl):
        _locator_classes = [Locator]

    class KernelCache(caching.FunctionCache):
        _impl_class = Impl

        def load_overload(self, sig, target_context):
            # Numba refreshes the whole target context first, importing
            # every implementation it has (0.2-0.3 s, more than loading a
            # job's kernels); cached machine code needs only the runtime
            # it links against.  A compile refreshes the context itself.
            try:
                rtsys.initialize(target_context)
                return self._load_overload(sig, target_context)
            except Exception:  # an unreadable or foreign entry: compile anew
                return None

        def save_overload(self, sig, data):
            try:
                super().save_overload(sig, data)
            except OSError:
                _warn_once(f"cannot save compiled kernels in {place.path}: "
                           "those not cached there will be compiled on each start")

    KernelCache.place = place
    return KernelCache


if PURE_PYTHON:
    def njit(*args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]
        return lambda function: function

    def jitable(function):
        return function
else:
    import numba

    try:
        _KernelCache = _kernel_cache_class()
    except (ImportError, AttributeError):  # Numba's internals moved: its own way
        _KernelCache = False

    def njit(*, cache=False, leaf=False, **options):
        """``numba.njit(**options)``; with ``cache``, the compiled code is
        kept at the place chosen above.

        ``leaf``: a helper that allocates nothing and returns no array,
        compiled without Numba's reference counting.  Numba counts a
        reference to each array a function is passed, an atomic add as it
        starts and another as it returns, and prunes those pairs only where
        the control flow is simple; in a helper called once per occurrence
        or per byte they were most of the time (Re-Pair on bible.txt: 66% of
        its samples in NRT_incref and NRT_decref; byte-level encoding 74%).
        ``inline='always'`` does not help: Numba inlines into the caller's
        IR, where the counting applies again.  A leaf is inlined by LLVM.
        A kernel whose loop also grows arrays (reassigning them) counts
        references to them at every turn, leaf calls or not: its loop
        moves into a leaf that fills them until one is full, and the
        kernel grows them between calls (``tokenizers.kernels.pretokenize._cut``,
        ``tokenizers.kernels.distinct._number``: 63% of byte-level encoding's samples)."""
        if leaf:
            options["_nrt"] = False

        def decorate(function):
            dispatcher = numba.njit(**options)(function)
            if cache and _KernelCache:
                dispatcher._cache = _KernelCache(function)
            elif cache and _KernelCache is False:
                try:
                    dispatcher.enable_caching()
                except RuntimeError:  # nowhere to cache: compile in memory
                    pass
            return dispatcher
        return decorate

    def jitable(function):
        """The plain ``function`` (of ``plain/`` or ``format/``), which
        kernels may now call by its own name: Numba compiles it into each
        kernel that does.  So one function serves Python and the kernels,
        with no compiled twin to keep in step."""
        from numba.extending import register_jitable
        return register_jitable(function)


def direct(kernel, *examples):
    """``kernel`` compiled (or loaded from the cache) for arguments of the
    Numba types of ``examples`` (each a value, or a Numba type itself), as
    a function that takes only arguments of exactly those types: it skips
    Numba's dispatch, which types every argument of every call and costs
    a call of four arguments about 0.4 µs, as much as decoding a small
    record.  The caller checks the types (another type raises, but the
    check is the caller's to make clear).  Where Numba is absent,
    ``kernel`` itself."""
    if PURE_PYTHON:
        return kernel
    return kernel.compile(tuple(example if isinstance(example, numba.types.Type)
                                else numba.typeof(example) for example in examples))


def cache_place():
    """``(path, writable)`` of the kernel cache in use, or None."""
    if PURE_PYTHON or not _KernelCache:
        return None
    return _KernelCache.place.path, _KernelCache.place.writable
