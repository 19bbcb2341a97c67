"""gagebpe as a numcodecs codec: ``GageBPE``, for Zarr v2 arrays and
anything else that takes codecs from numcodecs' registry.

    import numcodecs
    codec = numcodecs.get_codec({"id": "gagebpe", "level": 9})
    blob = codec.encode(array)            # a gagebpe stream
    array2 = codec.decode(blob, out=np.empty_like(array))

The codec is registered under ``numcodecs.codecs`` in the package's entry
points, so numcodecs finds it without gagebpe being imported first.
Needs numcodecs (the ``numcodecs`` extra).  Malformed chunks raise
``gagebpe.GageBPEError``, chunks cut short ``EOFError``.

With a trained dictionary (``gagebpe.train_dictionary``), small chunks
shrink further; its bytes go into the codec's config (base64), so an
array written with one reads back anywhere with nothing else.
"""
import base64

from numcodecs.abc import Codec
from numcodecs.compat import ensure_contiguous_ndarray, ndarray_copy

from .encoder.levels import DEFAULT_LEVEL, settings
from .decoder.stream import decompress, decompress_into
from .encoder.stream import compress

__all__ = ["GageBPE"]


class GageBPE(Codec):
    """numcodecs codec writing one gagebpe stream per buffer.

    ``level``: 1..9 (default 6), as ``gagebpe.compress``; ``block_size``:
    bytes per block, None for the level's (a chunk smaller than a block is
    one block).  The stream is self-describing: any level decodes with any
    codec instance.  From level 6 up, a chunk of at most 2 KiB may be coded
    by context mixing (MIXED), which is smaller but decodes some
    twenty times more slowly: for many such chunks read often, level 5.
    ``dictionary``: a ``gagebpe.Dictionary``, its bytes, or those bytes in
    base64 (as the config holds them), or None.
    """

    codec_id = "gagebpe"

    def __init__(self, level=DEFAULT_LEVEL, block_size=None, dictionary=None):
        settings(level)  # refuses a level that is not 1..9
        if block_size is not None and not (isinstance(block_size, int) and block_size > 0):
            raise ValueError("block_size must be a positive integer or None")
        self.level = level
        self.block_size = block_size
        if isinstance(dictionary, str):
            dictionary = base64.b64decode(dictionary, validate=True)
        if dictionary is not None:
            from .format.dictionary import given
            dictionary, = given(dictionary).values()
        self.dictionary = dictionary

    def encode(self, buf):
        """The gagebpe stream of the bytes of ``buf`` (any contiguous
        buffer or array, as its bytes in memory order)."""
        return compress(ensure_contiguous_ndarray(buf), self.level, block_size=self.block_size,
                        dictionary=self.dictionary)

    def decode(self, buf, out=None):
        """The bytes of the stream ``buf``; into ``out`` (a contiguous
        array or buffer of exactly their size, filled without a copy) when
        given, which is returned."""
        if not isinstance(buf, bytes):  # bytes go to the decoder as they are
            buf = ensure_contiguous_ndarray(buf)
        if out is None or self.dictionary is not None:
            data = decompress(buf, dictionary=self.dictionary)
            return data if out is None else ndarray_copy(data, out)
        target = ensure_contiguous_ndarray(out)
        if target.flags.c_contiguous:
            decompress_into(buf, target)
            return out
        return ndarray_copy(decompress(buf), out)  # Fortran order: copied in

    def get_config(self):
        config = {"id": self.codec_id, "level": self.level}
        if self.block_size is not None:
            config["block_size"] = self.block_size
        if self.dictionary is not None:
            config["dictionary"] = base64.b64encode(bytes(self.dictionary)).decode("ascii")
        return config

    def __repr__(self):
        block = f", block_size={self.block_size}" if self.block_size is not None else ""
        dictionary = (f", dictionary={self.dictionary!r}" if self.dictionary is not None
                      else "")
        return f"{type(self).__name__}(level={self.level}{block}{dictionary})"
