"""The readers of gagebpe streams: one-shot and incremental decompression
(``stream``) and the file object (``file``).  Internal: the public API is
the top-level ``gagebpe`` package."""
