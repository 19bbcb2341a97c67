"""The gagebpe format (docs/FORMAT.md): the container that frames a
stream's blocks (``container``), the block codings (``codings``), the
one-block fast path that decodes a small stream in one kernel call
(``fast``), and Gage's 1994 format (``gage1994``).  Internal: the public
API is the top-level ``gagebpe`` package."""
