"""gagebpe: byte-pair-encoding compression in the shape of ``lzma``.

    import gagebpe
    blob = gagebpe.compress(data)            # level 1..9, default 6
    assert gagebpe.decompress(blob) == data
    with gagebpe.open("notes.txt.gbpe", "wt") as f:
        f.write("text")

Malformed data raises ``GageBPEError``; data cut short raises ``EOFError``.
``gagebpe.grammar`` exposes the BPE grammar (merge table and symbol
sequence) itself; ``gagebpe.gage1994`` reads and writes Philip Gage's 1994
format.  The format is specified in docs/FORMAT.md.
"""
import importlib

from ._errors import DEFAULT_MAX_LENGTH, GageBPEError, KernelCacheWarning
from .levels import DEFAULT_LEVEL

__version__ = "0.3.0"

# The rest loads on first use (PEP 562), so that the command line can decide
# whether a job is worth loading Numba for before anything imports it.
_LAZY = {
    "GageBPEFile": "_file", "open": "_file",
    "Compressor": "_incremental", "Decompressor": "_incremental",
    "compress": "_incremental", "decompress": "_incremental",
}

__all__ = ["GageBPEError", "KernelCacheWarning", "GageBPEFile", "Compressor", "Decompressor",
           "compress", "decompress", "open", "grammar", "gage1994", "DEFAULT_LEVEL",
           "DEFAULT_MAX_LENGTH"]


def __getattr__(name):
    if name in ("grammar", "gage1994"):
        return importlib.import_module("." + name, __name__)
    if name in _LAZY:
        value = getattr(importlib.import_module("." + _LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
