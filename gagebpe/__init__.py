"""gagebpe: byte-pair-encoding compression in the shape of ``lzma``.

    import gagebpe
    blob = gagebpe.compress(data)            # level 1..9, default 6
    assert gagebpe.decompress(blob) == data
    with gagebpe.open("notes.txt.gbpe", "wt") as f:
        f.write("text")

Malformed data raises ``GageBPEError``; data cut short raises ``EOFError``.
``gagebpe.grammar`` exposes the BPE grammar (merge table and ids) itself;
``gagebpe.gage1994`` reads and writes Philip Gage's 1994 format.  The
format is specified in docs/FORMAT.md.

The names below load on first use (PEP 562), so that the command line can
decide whether a job is worth loading Numba for before anything imports
it; the block under ``TYPE_CHECKING`` says where each comes from.
"""
import importlib
from typing import TYPE_CHECKING

from ._errors import DEFAULT_LIMIT, GageBPEError, KernelCacheWarning
from ._version import __version__ as __version__
from .encoder.levels import DEFAULT_LEVEL
from .format.container import StreamInfo, describe

if TYPE_CHECKING:
    from . import gage1994, grammar
    from ._file import GageBPEFile, open, read_range
    from .decoder.stream import Decompressor, decompress, decompress_many
    from .encoder.dictionary import train_dictionary
    from .encoder.stream import Compressor, compress, compress_many
    from .format.dictionary import Dictionary


from . import fsspec as _fsspec  # noqa: E402  (registers "gbpe" when fsspec loads)

_fsspec.install()

_LAZY = {
    "GageBPEFile": "._file", "open": "._file", "read_range": "._file",
    "Compressor": ".encoder.stream", "Decompressor": ".decoder.stream",
    "compress": ".encoder.stream", "decompress": ".decoder.stream",
    "compress_many": ".encoder.stream", "decompress_many": ".decoder.stream",
    "train_dictionary": ".encoder.dictionary", "Dictionary": ".format.dictionary",
    "grammar": ".grammar", "gage1994": ".gage1994",
}

__all__ = ["compress", "decompress", "open", "read_range", "GageBPEFile", "Compressor",
           "Decompressor", "compress_many", "decompress_many", "train_dictionary", "Dictionary",
           "describe", "StreamInfo", "grammar", "gage1994", "GageBPEError",
           "KernelCacheWarning", "DEFAULT_LEVEL", "DEFAULT_LIMIT"]


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = importlib.import_module(_LAZY[name], __name__)
    value = module if name == module.__name__.rpartition(".")[2] else getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
