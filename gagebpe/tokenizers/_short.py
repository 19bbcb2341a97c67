"""Short texts encoded and ids decoded in Python, where a kernel call's
dispatch would cost more than the work (docs/TOKENIZERS.md, "Short
texts").

A named pattern the kernel scanner cuts (gpt2, cl100k, gpt4) is rewritten
for the standard ``re`` module with its classes spelled out, for ASCII
text, from the scanner's own table (``_unicode``), so both cut such a text
alike; each chunk is then a token itself, a cached chunk, or one of the
chunks left over, which the caller's kernel encodes together and this
cache keeps.

The cache of chunks is bounded (CACHE_CHUNKS chunks of at most
CACHE_CHUNK_BYTES bytes, emptied when full) and safe under threads: each
step is one dict operation, which the interpreter makes atomic.

Imports ``_unicode``.
"""
import functools
import operator
import re

import numpy as np

from . import _unicode

CACHE_CHUNKS = 1 << 14
CACHE_CHUNK_BYTES = 64


def _ranges(mask):
    """A ``re`` class body for the code points where ``mask`` is set."""
    points = np.flatnonzero(mask)
    cuts = np.flatnonzero(np.diff(points) != 1)
    firsts = np.concatenate([points[:1], points[cuts + 1]])
    lasts = np.concatenate([points[cuts], points[-1:]])
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                   for a, b in zip(firsts.tolist(), lasts.tolist()))


@functools.cache
def ascii_pattern(pattern):
    """``pattern`` (one the kernel scanner cuts) compiled for ``re`` on
    ASCII text, with \\p{L}, \\p{N} and \\s as the scanner's table has
    them there, and ``$`` as the end of the text.  (Spelled out for all of
    Unicode, the classes make ``re`` 3x slower than ``regex``.)"""
    flags = _unicode.classes()[:128]
    letter = _ranges(flags & _unicode.LETTER)
    number = _ranges(flags & _unicode.NUMBER)
    space = _ranges(flags & _unicode.SPACE)
    text = (pattern.replace(r"[^\s\p{L}\p{N}]", f"[^{space}{letter}{number}]")
            .replace(r"[^\r\n\p{L}\p{N}]", f"[^\\r\\n{letter}{number}]")
            .replace(r"(?!\S)", f"(?![^{space}])")
            .replace(r"\p{L}", f"[{letter}]").replace(r"\p{N}", f"[{number}]")
            .replace(r"\s", f"[{space}]").replace("$", r"\Z"))
    assert "\\p" not in text and "\\S" not in text
    return re.compile(text)


class ShortEncoder:
    """Encodes a short text chunk by chunk: ``ranks`` (token bytes -> id)
    and a bounded cache of chunks' ids; ``missing(chunks)`` is the caller's
    kernel, the ids of each of several chunks (lists)."""

    def __init__(self, pattern, tokens, missing):
        self._findall = ascii_pattern(pattern).findall
        self._ranks = {t: r for r, t in enumerate(tokens)}
        self._cache = {}
        self._missing = missing

    def encode(self, text):
        """The ids of ``text`` (an ASCII str)."""
        ranks, cache = self._ranks, self._cache
        ids, left = [], []
        for chunk in self._findall(text):
            b = chunk.encode()
            r = ranks.get(b)
            if r is not None:
                ids.append(r)
            elif (got := cache.get(b)) is not None:
                ids += got
            else:
                left.append((len(ids), b))
                ids.append(None)
        if not left:
            return ids
        found = self._missing([b for _, b in left])
        if len(cache) >= CACHE_CHUNKS:
            cache.clear()
        for (_, b), got in zip(left, found):
            if len(b) <= CACHE_CHUNK_BYTES:
                cache[b] = got
        # Put each leftover chunk's ids in its place, last first so that the
        # places before it do not move.
        for (at, _), got in zip(reversed(left), reversed(found)):
            ids[at:at + 1] = got
        return ids


class ShortDecoder:
    """Decodes ids with a list of every id's bytes: valid ids index bytes,
    anything else (a hole, a negative or too large id) fails the join, and
    the caller's checked path then names it."""

    def __init__(self, every):
        # Twice as long, the second half empty: a negative id -n..-1 lands
        # on a hole rather than on a token.
        self._every = [bytes(t) if t is not None else None for t in every] + [None] * len(every)

    def decode(self, ids):
        """The bytes of ``ids`` (a list or tuple), or None where one of them
        is no token."""
        try:
            if len(ids) < 2:  # itemgetter of one id gives the item, not a tuple
                return b"".join([self._every[i] for i in ids])
            # One itemgetter call takes all the ids: 0.85x tiktoken's time
            # on 2,500 ids where map(list.__getitem__) takes 1.1x (measured).
            return b"".join(operator.itemgetter(*ids)(self._every))
        except (TypeError, IndexError):
            return None
