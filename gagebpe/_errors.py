"""The one exception class every malformed stream raises."""


class GageBPEError(ValueError):
    """Compressed data is malformed: bad magic, unsupported version, failed
    check, or an inconsistent block.  Truncated data raises ``EOFError``
    instead, as the standard library's decompressors do."""


# What EOFError says when a stream is cut short (as lzma and bz2 say it).
TRUNCATED = "Compressed file ended before the end-of-stream marker was reached"
