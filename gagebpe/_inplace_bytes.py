"""Bytes objects written in place.

``decompress`` returns bytes, and copying a decoder's output into a new
bytes object costs as much as an eighth of decoding.  CPython's C API can
make a bytes object with its contents not yet written
(``PyBytes_FromStringAndSize(NULL, n)``), for its maker to fill before
anyone else sees it: that is how zlib and other C extensions build their
output.  ``allocate`` makes one through ctypes and hands out its storage
as a NumPy array (``storage``); elsewhere, and below SMALL, it falls
back to an array copied at the end.  A kernel reaches the storage of a
bytes object the same way through ``kernels.bytes_object.fill``, an
intrinsic, whose plain Python form is ``storage``: ``bytes(n)`` for
n > 1 is a new object that nobody else has seen, so a record decoder
fills it in place.
"""
import ctypes
import sys

import numpy as np

# Below this, an array copied at the end costs less than the ctypes calls.
SMALL = 48 << 10

if sys.implementation.name == "cpython":
    _new_bytes = ctypes.pythonapi.PyBytes_FromStringAndSize
    _new_bytes.restype = ctypes.py_object
    _new_bytes.argtypes = (ctypes.c_char_p, ctypes.c_ssize_t)
else:
    _new_bytes = None


class _Storage:
    """The storage of a new bytes object as an array interface; NumPy keeps
    this (and with it the object) alive as long as any view of it."""

    def __init__(self, owner):
        self.owner = owner
        address = ctypes.cast(ctypes.c_char_p(owner), ctypes.c_void_p).value
        self.__array_interface__ = {"shape": (len(owner),), "typestr": "|u1",
                                    "data": (address, False), "version": 3}


def allocate(n):
    """``(owner, array)``: ``array`` is ``n`` writable bytes, not yet
    written, that ``finish(owner)`` returns as bytes.  Nothing may keep
    ``owner`` or write to ``array`` after ``finish``."""
    if _new_bytes is None or n < SMALL:
        owner = np.empty(n, np.uint8)
        return owner, owner
    owner = _new_bytes(None, n)
    return owner, storage(owner)


def new(n):
    """A new bytes object of ``n`` bytes, not yet written (even for n = 1,
    whose ``bytes(1)`` CPython shares), for ``storage`` to fill."""
    return _new_bytes(None, n)


def storage(fresh):
    """The storage of the bytes object ``fresh`` as a writable uint8 array,
    which keeps ``fresh`` alive.  Only for a bytes object its maker is
    still filling, before anyone else sees it."""
    return np.asarray(_Storage(fresh))


def finish(owner):
    """The bytes that ``allocate``'s array was written into."""
    return owner if type(owner) is bytes else owner.tobytes()
