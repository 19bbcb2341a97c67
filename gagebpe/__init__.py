"""gagebpe: byte-pair-encoding compression in the shape of ``lzma``.

    import gagebpe
    blob = gagebpe.compress(data)            # level 1..9, default 6
    assert gagebpe.decompress(blob) == data
    with gagebpe.open("notes.txt.gbpe", "wt") as f:
        f.write("text")

Malformed data raises ``GageBPEError``; data cut short raises ``EOFError``.
``gagebpe.grammar`` exposes the BPE grammar (merge table and symbol
sequence) itself.  The format is specified in docs/FORMAT.md.
"""
from . import grammar
from ._errors import GageBPEError
from ._file import GageBPEFile, open
from ._incremental import Compressor, Decompressor, compress, decompress
from .levels import DEFAULT_LEVEL

__version__ = "0.1.0"

__all__ = ["GageBPEError", "GageBPEFile", "Compressor", "Decompressor",
           "compress", "decompress", "open", "grammar", "DEFAULT_LEVEL"]
