"""The one exception class every malformed stream raises, the warning that
the kernels cannot be cached, and the output limit of one-shot
decompression."""


class GageBPEError(ValueError):
    """Compressed data is malformed: bad magic, unsupported version, failed
    check, or an inconsistent block; or it expands past the output limit.
    Truncated data raises ``EOFError`` instead, as the standard library's
    decompressors do."""


# What EOFError says when a stream is cut short (as lzma and bz2 say it).
TRUNCATED = "Compressed file ended before the end-of-stream marker was reached"

# One-shot ``decompress`` returns at most this many bytes unless told
# otherwise: a decompression bomb (a few KB declaring terabytes) fails
# before it is expanded instead of exhausting memory.
DEFAULT_MAX_LENGTH = 1 << 32

OVER_LIMIT = "output would exceed the output limit (max_length)"


class KernelCacheWarning(RuntimeWarning):
    """gagebpe's compiled kernels cannot be cached (or not all of them): they
    are compiled again on each start, which takes about a minute.  Set
    ``NUMBA_CACHE_DIR`` to a writable directory, or fill a cache at install
    time with ``python -m gagebpe.precompile``."""
