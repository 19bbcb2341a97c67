"""What gagebpe refuses, and how it says so: the exception every malformed
input raises, the warning that the kernels cannot be cached, the limits on
output, and the messages used in more than one place.
"""


class GageBPEError(ValueError):
    """Compressed data is malformed: bad magic, unsupported version, failed
    check, or an inconsistent block; or it expands past the output limit.
    Truncated data raises ``EOFError`` instead, as the standard library's
    decompressors do."""


class KernelCacheWarning(RuntimeWarning):
    """gagebpe's compiled kernels cannot be cached (or not all of them): they
    are compiled again on each start, which takes about a minute.  Set
    ``NUMBA_CACHE_DIR`` to a writable directory, or fill a cache at install
    time with ``python -m gagebpe.precompile``."""


# One-shot ``decompress`` returns at most this many bytes in all unless told
# otherwise (its ``limit``): a decompression bomb (a few KB declaring
# terabytes) fails before it is expanded instead of exhausting memory.
DEFAULT_LIMIT = 1 << 32
# Nothing is ever expanded past this many bytes, whatever the limit: a few
# bytes of merge table can describe 2^255.
DECODE_CEILING = 1 << 40

# What EOFError says when a stream is cut short (as lzma and bz2 say it).
TRUNCATED = "Compressed file ended before the end-of-stream marker was reached"
OVER_LIMIT = "output would exceed the output limit"
BAD_MAGIC = "not a gagebpe stream (bad magic bytes)"
UNKNOWN_CODING = "unsupported block coding {}"
UNDEFINED_MERGE = "merge table refers to an undefined symbol"
UNDEFINED_SYMBOL = "sequence refers to an undefined symbol"
WRONG_SIZE = "grammar does not expand to the declared size"
BAD_END = "bad end-of-stream marker"
