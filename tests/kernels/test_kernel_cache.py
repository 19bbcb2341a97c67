"""Where the compiled kernels are cached, and that gagebpe works wherever
it cannot cache them.

The slow tests run gagebpe in subprocesses as an unprivileged user (uid
65534 through ``setpriv`` when the tests run as root) from a read-only copy
of the package, with a home directory that does not exist and cannot be
made: the situation of a package installed by root and run by a service
account.
"""
import ast
import functools
import importlib
import importlib.util
import os
import pkgutil
import shutil
import stat
import subprocess
import sys
import tempfile
import types
from pathlib import Path

import pytest

import gagebpe
from gagebpe import _jit
from gagebpe.sample import sample

TEXT = sample(60_000)  # large enough for the compiled kernels, not pure Python
PACKAGE = Path(__file__).resolve().parents[2] / "gagebpe"
NOBODY = 65534
COUNT_COMPILES = """
import sys
from numba.core import event
compiles = []
class Count(event.Listener):
    def on_start(self, ev): compiles.append(ev)
    def on_end(self, ev): pass
event.register("numba:compile", Count())
import gagebpe
data = open(sys.argv[1], "rb").read()
assert gagebpe.decompress(gagebpe.compress(data)) == data
assert gagebpe.gage1994.decompress(gagebpe.gage1994.compress(data)) == data
print(len(compiles))
"""


# -- the choice of place, in this process ------------------------------------------

SUBPATH = "gagebpe_test"


def test_an_explicit_cache_dir_is_used_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "kernels"))
    place = _jit.choose_place(SUBPATH)
    assert (place.path, place.writable) == (str(tmp_path / "kernels" / SUBPATH), True)
    # Unusable (beneath a regular file): no other place is tried.
    (tmp_path / "file").write_bytes(b"")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "file" / "kernels"))
    assert _jit.choose_place(SUBPATH) is None


def test_a_private_temp_dir_is_made_closed_to_others(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = _jit._private_temp_dir()
    assert path == str(tmp_path / f"gagebpe-kernels-{os.geteuid()}")
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o700
    assert _jit._private_temp_dir() == path  # found again


@pytest.mark.parametrize("make", ["open to others", "symlink", "file"])
def test_a_temp_dir_that_others_could_have_made_is_refused(tmp_path, monkeypatch, make):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    path = tmp_path / f"gagebpe-kernels-{os.geteuid()}"
    if make == "open to others":
        path.mkdir()
        os.chmod(path, 0o777)
    elif make == "symlink":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        path.symlink_to(tmp_path / "elsewhere")
    else:
        path.write_bytes(b"")
    assert _jit._private_temp_dir() is None


def test_a_read_only_place_is_used_only_if_it_holds_kernels(tmp_path, monkeypatch):
    # A place that cannot be written, from the start (beneath a file) or
    # holding kernels: only the second is any use.
    monkeypatch.setattr(_jit, "_writable", lambda path: False)
    filled = tmp_path / "filled"
    filled.mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "empty"))
    assert _jit.choose_place("") is None
    (filled / "_expand.expand-46.py311.nbi").write_bytes(b"")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(filled))
    place = _jit.choose_place("")
    assert (place.path.rstrip("/"), place.writable) == (str(filled), False)


def test_importing_gagebpe_loads_no_kernel_module():
    # the cache is chosen, and its warning given, when the first kernel
    # module loads: after the command line has said how it shows warnings
    code = "import sys, gagebpe; print(sorted(m for m in sys.modules if m.startswith('gagebpe._')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent).stdout
    assert "gagebpe._jit" not in out and out.startswith("[")


def test_the_kernels_in_this_process_are_cached():
    path, writable = _jit.cache_place()
    assert writable and any(n.endswith(".nbi") for n in os.listdir(path))


def _all_kernels():
    """Every kernel of the package that a module holds, by the file that
    defines its code: the modules are imported first (those whose
    optional dependency is absent are passed over)."""
    from numba.core.registry import CPUDispatcher
    for info in pkgutil.walk_packages([str(PACKAGE)], "gagebpe."):
        if info.name.endswith(".__main__"):  # runs a command line
            continue
        try:
            importlib.import_module(info.name)
        except ImportError:
            pass
    found = {}
    for name, module in list(sys.modules.items()):
        if name == "gagebpe" or name.startswith("gagebpe."):
            for value in vars(module).values():
                if isinstance(value, CPUDispatcher):
                    found[id(value)] = value
    return list(found.values())


def _relpath(filename):
    path = Path(filename).resolve()
    return str(path.relative_to(PACKAGE)) if path.is_relative_to(PACKAGE) else None


@functools.cache
def _definitions(relpath):
    """``{name: file or (module, name)}``: where each top-level name of a
    module file is defined, read from its syntax tree, independently of
    ``_jit``'s reading of imports."""
    package = "gagebpe." + relpath.removesuffix(".py").replace("/", ".")
    if package.endswith(".__init__"):
        package = package.removesuffix(".__init__")
    else:
        package = package.rpartition(".")[0]
    found = {}
    for node in ast.parse((PACKAGE / relpath).read_text()).body:
        if isinstance(node, ast.ImportFrom):
            module = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            for alias in node.names:
                found[alias.asname or alias.name] = (module, alias.name)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)):
            names = [node.name] if hasattr(node, "name") else [
                t.id for t in ast.walk(node) if isinstance(t, ast.Name)
                and isinstance(t.ctx, ast.Store)]
            for name in names:
                found[name] = relpath
    return found


def _defining_file(module, name):
    """The package's file that defines ``name`` as ``module`` sees it,
    following ``from ... import`` to the definition."""
    spec = importlib.util.find_spec(module) if module.startswith("gagebpe") else None
    if spec is None or spec.origin is None:
        return None
    relpath = _relpath(spec.origin)
    where = _definitions(relpath).get(name, relpath)
    if isinstance(where, tuple):
        source, original = where
        inside = PACKAGE.parent / f"{source}.{original}".replace(".", "/")
        submodule = None
        if inside.with_suffix(".py").exists() or inside.is_dir():
            submodule = importlib.util.find_spec(f"{source}.{original}")
        if submodule is not None:
            return _relpath(submodule.origin)
        return _defining_file(source, original) or relpath
    return where


def _codes(code):
    yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _codes(constant)


def _reached_by(function, seen):
    """The package's files whose code or constants ``function``'s
    compiled code can hold: its own, each global it names (where that is
    defined), and those of the kernels, intrinsics and functions it calls."""
    from numba.core.extending import _Intrinsic
    from numba.core.registry import CPUDispatcher
    if function in seen:
        return set()
    seen.add(function)
    own = _relpath(function.__code__.co_filename)
    files = {own}
    values = [(name, function.__globals__[name]) for code in _codes(function.__code__)
              for name in code.co_names if name in function.__globals__]
    values += [(None, cell.cell_contents) for cell in function.__closure__ or ()]
    for name, value in values:
        if name is not None:
            files.add(_defining_file(function.__module__, name))
        if isinstance(value, CPUDispatcher):
            files |= _reached_by(value.py_func, seen)
        elif isinstance(value, _Intrinsic):
            files |= _reached_by(value._defn, seen)
        elif isinstance(value, types.ModuleType):
            files.add(_relpath(getattr(value, "__file__", None) or "/"))
        elif isinstance(value, types.FunctionType):
            files |= _reached_by(value, seen)
    files.discard(None)
    return files


def test_every_file_a_kernel_reaches_is_in_its_cache_key():
    # The key of a kernel's cached code (``_jit.sources_stamp``) is read
    # off import statements; here the reach is found the other way, from
    # the compiled functions' own globals, callees and closures.
    kernels = _all_kernels()
    assert len(kernels) > 300
    missing = {}
    for kernel in kernels:
        relpath = _relpath(kernel.py_func.__code__.co_filename)
        key = {path for path, _, _ in _jit.sources_stamp(relpath)}
        outside = _reached_by(kernel.py_func, set()) - key
        if outside:
            missing[f"{relpath}:{kernel.py_func.__name__}"] = sorted(outside)
    assert not missing


def test_each_kernel_is_cached_under_the_key_of_its_own_module():
    from gagebpe.tokenizers.kernels import byte_vocab as _byte_vocab
    locator = _byte_vocab.encode_texts._cache._impl.locator
    assert locator.get_source_stamp() == _jit.sources_stamp("tokenizers/kernels/byte_vocab.py")
    stamped = [path for path, _, _ in locator.get_source_stamp()]
    assert "tokenizers/kernels/pretokenize.py" in stamped  # a callee's module
    assert "kernels/unaligned.py" in stamped  # intrinsics, inlined into their callers
    assert "cli.py" not in stamped and "format/container.py" not in stamped


def _copy(tmp_path):
    copy = tmp_path / "gagebpe"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def test_a_constant_a_kernel_freezes_changes_its_cache_key(tmp_path):
    # decoder.fast's kernels freeze the coding numbers of
    # format.codings.registry, which defines no kernel itself: a change to
    # a constant there changes their key
    copy = _copy(tmp_path)
    before = _jit.sources_stamp("decoder/fast.py", str(copy))
    assert before == _jit.sources_stamp("decoder/fast.py")  # copytree keeps the times
    registry = copy / "format" / "codings" / "registry.py"
    text = registry.read_text()
    assert '"<BBIB"' in text  # FOLDED's header
    registry.write_text(text.replace('"<BBIB"', '"<BBHB"'))
    assert _jit.sources_stamp("decoder/fast.py", str(copy)) != before
    # a module no kernel of decoder.fast reaches is no part of its key
    unrelated = _jit.sources_stamp("decoder/fast.py", str(_copy(tmp_path / "again")))
    (tmp_path / "again" / "gagebpe" / "cli.py").write_text("changed = True\n")
    assert _jit.sources_stamp("decoder/fast.py", str(tmp_path / "again" / "gagebpe")) == unrelated


def test_the_imports_read_for_the_key_cover_every_form(tmp_path):
    package = tmp_path / "gagebpe"
    (package / "sub").mkdir(parents=True)
    for name in ("a.py", "b.py", "c.py", "d.py", "e.py", "__init__.py", "sub/__init__.py",
                 "sub/f.py", "sub/g.py"):
        (package / name).write_text("")
    (package / "sub" / "f.py").write_text(
        "from .. import a, b as bee\n"
        "from ..c import (thing,\n    other)\n"
        "from . import g\n"
        "import gagebpe.d\n"
        "def late():\n    from ..e import x  # a lazy import counts too\n"
        "from .. import not_a_module  # a name of gagebpe/__init__.py\n"
        "import numpy as np\n")
    assert _jit.imported_files("sub/f.py", str(package)) == {
        "a.py", "b.py", "c.py", "sub/g.py", "d.py", "e.py", "__init__.py"}


# -- a service account: nothing of its own to write --------------------------------

class Confined:
    """A read-only copy of the package, run as an unprivileged user with no
    home directory and a temporary directory of its own."""

    def __init__(self, base):
        self.base = base
        self.site = base / "site"
        shutil.copytree(PACKAGE, self.site / "gagebpe",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (base / "not-a-dir").write_bytes(b"")  # no home can be made beneath it
        self.temp = base / "tmp"
        self.temp.mkdir()
        os.chmod(self.temp, 0o1777)
        self.work = base / "work"
        self.work.mkdir()
        (self.work / "notes.txt").write_bytes(TEXT)
        os.chmod(self.work, 0o777)
        os.chmod(self.work / "notes.txt", 0o644)
        self.uid = NOBODY if os.geteuid() == 0 else os.geteuid()

    def lock(self):
        """Make the package copy read-only."""
        for path in [self.site, *self.site.rglob("*")]:
            os.chmod(path, 0o555 if path.is_dir() else 0o444)

    def run(self, *args, env=None):
        """``python args`` as the unprivileged user, from ``work``."""
        environment = {k: v for k, v in os.environ.items()
                       if not k.startswith(("NUMBA_", "XDG_"))}
        environment.update(PYTHONPATH=str(self.site), HOME=str(self.base / "not-a-dir" / "home"),
                           TMPDIR=str(self.temp))
        environment.update(env or {})
        as_user = []
        if os.geteuid() == 0:
            as_user = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        return subprocess.run(as_user + [sys.executable, *map(str, args)], env=environment,
                              cwd=self.work, capture_output=True, timeout=900)


@pytest.fixture
def confined():
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: cannot run as another user")
    base = Path(tempfile.mkdtemp(prefix="gagebpe-confined-"))
    os.chmod(base, 0o755)
    yield Confined(base)
    for path in [base, *base.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            os.chmod(path, 0o755)
    shutil.rmtree(base)


def no_traceback(result):
    err = result.stderr.decode()
    assert result.returncode == 0, err
    assert "Traceback" not in err, err
    return err


@pytest.mark.slow
def test_without_package_or_home_kernels_are_cached_in_a_private_temp_dir(confined):
    confined.lock()
    first = confined.run("-m", "gagebpe", "-c", "notes.txt")
    second = confined.run("-m", "gagebpe", "-c", "notes.txt")
    assert "compiling" in no_traceback(first)
    assert no_traceback(second) == ""  # nothing compiled, nothing to warn about
    assert first.stdout == second.stdout == gagebpe.compress(TEXT)
    private = confined.temp / f"gagebpe-kernels-{confined.uid}"
    assert stat.S_IMODE(private.stat().st_mode) == 0o700
    assert list(private.rglob("*.nbi"))
    assert not list(confined.site.rglob("*.nbi"))
    (confined.work / "notes.txt.gbpe").write_bytes(first.stdout)
    back = confined.run("-m", "gagebpe", "-dc", "notes.txt.gbpe")
    no_traceback(back)
    assert back.stdout == TEXT


@pytest.mark.slow
def test_with_no_usable_place_kernels_compile_in_memory_with_one_warning(confined):
    confined.lock()
    # The private temp dir's name, taken by a directory anyone may write:
    # refused, so nowhere is left.
    squatted = confined.temp / f"gagebpe-kernels-{confined.uid}"
    squatted.mkdir()
    os.chmod(squatted, 0o777)
    packed = confined.run("-m", "gagebpe", "-c", "notes.txt")
    err = no_traceback(packed)
    warnings = [line for line in err.splitlines() if "NUMBA_CACHE_DIR" in line]
    assert len(warnings) == 1 and warnings[0].startswith("gagebpe: "), err
    assert "compiled on each start" in warnings[0]
    assert packed.stdout == gagebpe.compress(TEXT)
    assert not list(squatted.iterdir()) and not list(confined.site.rglob("*.nbi"))
    # The library says it through ``warnings``, and works.
    (confined.work / "notes.txt.gbpe").write_bytes(packed.stdout)
    script = ("import pathlib, warnings, gagebpe\n"
              "with warnings.catch_warnings(record=True) as caught:\n"
              "    warnings.simplefilter('always')\n"
              "    out = gagebpe.decompress(pathlib.Path('notes.txt.gbpe').read_bytes())\n"
              "assert out == pathlib.Path('notes.txt').read_bytes()\n"
              "print(*sorted({w.category.__name__ for w in caught}))\n")
    library = confined.run("-c", script)
    no_traceback(library)
    assert library.stdout.split() == [b"KernelCacheWarning"]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["beside the package", "NUMBA_CACHE_DIR"])
def test_a_cache_filled_at_build_time_is_read_in_place(confined, where):
    kernels = confined.base / "kernels"
    env = {"NUMBA_CACHE_DIR": str(kernels)} if where == "NUMBA_CACHE_DIR" else {}
    # Build time: whoever installs the package fills the cache.
    build_env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    build_env.update(PYTHONPATH=str(confined.site), **env)
    build = subprocess.run([sys.executable, "-m", "gagebpe.precompile"], env=build_env,
                           cwd=confined.base, capture_output=True, timeout=900)
    assert build.returncode == 0, build.stderr.decode()
    assert b"kernels compiled" in build.stdout
    confined.lock()
    for path in [kernels, *kernels.rglob("*")] if kernels.exists() else []:
        os.chmod(path, 0o555 if path.is_dir() else 0o444)
    (confined.work / "job.py").write_text(COUNT_COMPILES)
    job = confined.run("job.py", "notes.txt", env=env)
    no_traceback(job)
    assert job.stdout.strip() == b"0"  # every kernel came from the cache
    cli = confined.run("-m", "gagebpe", "-c", "notes.txt", env=env)
    assert no_traceback(cli) == "" and cli.stdout == gagebpe.compress(TEXT)
    assert not list(confined.temp.iterdir())  # nothing was written anywhere


@pytest.mark.slow
def test_with_a_home_kernels_are_cached_in_the_user_cache(confined):
    confined.lock()
    home = confined.base / "home"
    home.mkdir()
    os.chmod(home, 0o777)
    env = {"HOME": str(home), "XDG_CACHE_HOME": str(home / "cache")}
    first = confined.run("-m", "gagebpe", "-c", "notes.txt", env=env)
    second = confined.run("-m", "gagebpe", "-c", "notes.txt", env=env)
    assert "compiling" in no_traceback(first)
    assert no_traceback(second) == ""
    assert first.stdout == second.stdout == gagebpe.compress(TEXT)
    assert list((home / "cache" / "numba").rglob("*.nbi"))
    assert not list(confined.site.rglob("*.nbi")) and not list(confined.temp.iterdir())
