"""gagebpe as a Zarr v3 bytes-to-bytes codec: ``GageBPECodec``, named
``gagebpe`` in array metadata.

    import zarr
    from gagebpe.zarr import GageBPECodec
    z = zarr.create_array(store, shape=..., chunks=..., dtype=...,
                          compressors=[GageBPECodec(level=6)])

The codec is registered under ``zarr.codecs`` in the package's entry
points, so a process that only imports zarr reads such arrays (with gagebpe
installed).  Chunks are coded on Zarr's worker threads; the kernels release
the GIL, so they run in parallel.  Needs zarr 3 (the ``zarr`` extra).  A
malformed chunk raises ``gagebpe.GageBPEError``, one cut short
``EOFError``; Zarr does not tell a codec which chunk it is decoding.
"""
from __future__ import annotations

import asyncio
from dataclasses import dataclass

from zarr.abc.codec import BytesBytesCodec
from zarr.core.common import parse_named_configuration

from .encoder.levels import DEFAULT_LEVEL, settings
from .decoder.stream import decompress
from .encoder.stream import compress

__all__ = ["GageBPECodec"]

NAME = "gagebpe"


@dataclass(frozen=True)
class GageBPECodec(BytesBytesCodec):
    """Each chunk's bytes as one gagebpe stream, at ``level`` 1..9."""

    is_fixed_size = False

    level: int = DEFAULT_LEVEL

    def __init__(self, *, level: int = DEFAULT_LEVEL) -> None:
        if not isinstance(level, int) or isinstance(level, bool):
            raise TypeError(f"level must be an int, not {type(level).__name__}")
        settings(level)  # refuses a level that is not 1..9
        object.__setattr__(self, "level", level)

    @classmethod
    def from_dict(cls, data):
        _, configuration = parse_named_configuration(data, NAME, require_configuration=False)
        return cls(**(configuration or {}))

    def to_dict(self):
        return {"name": NAME, "configuration": {"level": self.level}}

    def _decode_sync(self, chunk_bytes, chunk_spec):
        return chunk_spec.prototype.buffer.from_bytes(
            decompress(chunk_bytes.as_numpy_array()))

    def _encode_sync(self, chunk_bytes, chunk_spec):
        return chunk_spec.prototype.buffer.from_bytes(
            compress(chunk_bytes.as_numpy_array(), self.level))

    async def _decode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._decode_sync, chunk_bytes, chunk_spec)

    async def _encode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._encode_sync, chunk_bytes, chunk_spec)

    def compute_encoded_size(self, input_byte_length, chunk_spec):
        # Only fixed-size codecs are asked (a shard index's): a compressed
        # chunk's size depends on its bytes.
        raise TypeError("gagebpe's output size depends on the data: "
                        "it cannot code a shard index")
