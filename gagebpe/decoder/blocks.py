"""Decoding one block: dispatch on its coding to the decoder of the
coding's module (``format.codings``), a wrapper's inner payload through
the same dispatch.  The coding modules are imported at first use, so that
importing gagebpe loads no kernel."""
import importlib

from .._errors import GageBPEError
from ..format.codings.registry import CODINGS, check_coding, name


def coding_module(number):
    """The module that writes and reads coding ``number``."""
    return importlib.import_module(f"gagebpe.format.codings.{CODINGS[number].module}")


def decode(coding, payload, size, out, dictionary=None):
    """The bytes of one block of ``coding`` and ``payload`` into ``out``
    (``size`` writable bytes, which the decoders fill and write nothing
    past); ``GageBPEError`` if the payload is malformed.  ``dictionary``:
    the stream's (a ``format.dictionary.Dictionary``), which only some
    codings read."""
    if len(out) != size:
        raise ValueError("out must hold exactly the block's size")
    check_coding(coding)
    decoder = coding_module(coding).DECODERS[coding]
    if CODINGS[coding].inner:
        return decoder(payload, size, out, decode)
    if CODINGS[coding].dictionary:
        if dictionary is None:
            raise GageBPEError(f"{name(coding)} block in a stream that names no dictionary")
        return decoder(payload, size, out, dictionary)
    return decoder(payload, size, out)
