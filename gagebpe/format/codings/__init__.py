"""The block codings of the format (docs/FORMAT.md, section 4), one
module each: how a block's bytes are written as a payload and read back.
Internal."""
