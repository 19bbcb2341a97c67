"""Philip Gage's 1994 BPE format, read and written byte for byte.

    gagebpe.gage1994.compress(data) == what the 1994 program writes
    gagebpe.gage1994.decompress(blob) == data

Also ``gagebpe.compress(data, format="gage1994")``, ``gagebpe.open(path,
format="gage1994")`` and the command line's ``--format gage1994`` (suffix
``.bpe``).  The format has no magic number, so gagebpe never guesses it:
the caller names it (the command line goes by the ``.bpe`` suffix).

Where the 1994 program fails, gagebpe does not share the fault: its
expander overruns a 30-entry stack on pairs nested deeper than 15, which
gagebpe expands correctly; its compressor loops forever once a block has
more than 4096 distinct adjacent pairs, where gagebpe leaves the pairs that
find no hash slot uncounted, so its output there is valid 1994 format that
the original program would never have finished writing.  Blocks that would
expand past 64 KiB are refused as malformed (the 1994 program writes at
most 5000 bytes per block).  docs/FORMAT.md, section 8, specifies the
format.
"""
from .format.gage1994 import SUFFIX, Compressor, Decompressor, compress, decompress

__all__ = ["compress", "decompress", "Compressor", "Decompressor", "SUFFIX"]
