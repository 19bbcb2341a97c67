"""gagebpe as an fsspec compression: ``gbpe``, inferred from ``.gbpe``.

    import fsspec, gagebpe
    with fsspec.open("s3://bucket/notes.txt.gbpe", "rt", compression="infer") as f:
        text = f.read()

fsspec reads no entry points for compressions, so gagebpe registers
``gbpe`` itself when it is imported: at once if fsspec is loaded already,
else as soon as fsspec loads (a one-shot import hook; gagebpe never loads
fsspec itself, which would cost every ``import gagebpe`` a tenth of a
second).  Processes that use fsspec without importing gagebpe — Dask's
workers — must import it first: ``gagebpe.dask.setup_workers(client)``.
"""
import importlib.util
import sys

NAME = "gbpe"
EXTENSION = "gbpe"
_FSSPEC_MODULE = "fsspec.compression"


def open_compressed(infile, mode="rb", **kwargs):
    """fsspec's compression callback: a ``GageBPEFile`` over the file
    object ``infile`` ("rb"/"r" or "wb"/"w"); ``kwargs`` go to
    ``GageBPEFile`` (``level``, ``block_size``, ``threads``, ``limit``)."""
    from ._file import GageBPEFile
    return GageBPEFile(infile, mode=mode.replace("b", ""), **kwargs)


def register():
    """Register ``gbpe`` with fsspec (loading fsspec); again is harmless."""
    from fsspec.compression import compr, register_compression
    if compr.get(NAME) is not open_compressed:
        register_compression(NAME, open_compressed, EXTENSION, force=True)


class _RegisterOnImport:  # a meta path finder (importlib.abc costs 7 ms to import)
    """Finds nothing itself: when fsspec's compression module is about to
    load, wraps its loader so that ``register`` runs right after, then
    steps out of the way."""

    def find_spec(self, name, path=None, target=None):
        if name != _FSSPEC_MODULE:
            return None
        _remove_hook()
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenRegister(spec.loader)
        return spec


class _ThenRegister:  # a loader
    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        register()


_hook = _RegisterOnImport()


def _remove_hook():
    if _hook in sys.meta_path:
        sys.meta_path.remove(_hook)


def install():
    """Register now if fsspec is loaded, else when it loads (``import
    gagebpe`` calls this; it loads nothing)."""
    if _FSSPEC_MODULE in sys.modules:
        try:
            register()
        except ImportError:  # a broken fsspec: gagebpe still works
            pass
    elif _hook not in sys.meta_path and importlib.util.find_spec("fsspec") is not None:
        sys.meta_path.insert(0, _hook)
