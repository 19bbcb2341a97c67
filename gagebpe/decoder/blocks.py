"""Decoding one block: its coding's one decoder, the ``decode_block``
kernel of the coding's module (``format.codings``), which checks the
payload, decodes any payload it wraps and returns its problem; here the
problem becomes the error.  The coding modules are imported at first use,
so that importing gagebpe loads no kernel."""
import importlib

import numpy as np

from .._errors import GageBPEError
from ..format.codings.registry import CODINGS, check_coding, name


def coding_module(number):
    """The module that writes and reads coding ``number``."""
    return importlib.import_module(f"gagebpe.format.codings.{CODINGS[number].module}")


def decoder_of(coding, dictionary=None):
    """``(kernel, inputs)``: coding ``coding``'s ``decode_block`` and what
    it takes after ``(payload, size, out, coding)``, from ``dictionary``
    (the stream's ``format.dictionary.Dictionary``) where it reads one."""
    module = coding_module(coding)
    inputs = getattr(module, "INPUTS", {}).get(coding)
    if CODINGS[coding].dictionary and dictionary is None:
        raise GageBPEError(f"{name(coding)} block in a stream that names no dictionary")
    return module.DECODERS[coding], () if inputs is None else inputs(dictionary)


def decode(coding, payload, size, out, dictionary=None):
    """The bytes of one block of ``coding`` and ``payload`` (bytes-like)
    into ``out`` (``size`` writable bytes, which the decoders fill and
    write nothing past); ``GageBPEError`` if the payload is malformed."""
    from ..format.codings.problems import raise_problem
    if len(out) != size:
        raise ValueError("out must hold exactly the block's size")
    check_coding(coding)
    kernel, inputs = decoder_of(coding, dictionary)
    problem = kernel(np.frombuffer(payload, np.uint8), size, out, coding, *inputs)
    raise_problem(problem, None if dictionary is None else dictionary.id)
    return out
