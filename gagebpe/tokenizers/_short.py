"""Short texts encoded and ids decoded in Python, where a kernel call's
dispatch would cost more than the work (docs/TOKENIZERS.md, "Short
texts").

A named pattern the kernel scanner cuts (gpt2, cl100k, gpt4) is rewritten
for the standard ``re`` module with its classes spelled out from the
scanner's own Unicode 16.0 table (``_unicode``), so both cut every text
alike (a smaller pattern for ASCII text); each chunk is then a token
itself, a cached chunk, or one of the chunks left over, which the
caller's kernel encodes together and this cache keeps.

The cache of chunks is bounded (CACHE_CHUNKS chunks of at most
CACHE_CHUNK_BYTES bytes, emptied when full) and safe under threads: each
step is one dict operation, which the interpreter makes atomic.
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


def _class(mask):
    """A ``re`` expression for one character where ``mask`` is set.  ``re``
    looks a character of the Basic Multilingual Plane up in one table but
    tries the ranges past it one by one: those come second, behind a test
    that the character is past it, so that other characters skip them
    (measured: twice as fast on ASCII text as one class of all)."""
    bmp, astral = mask.copy(), mask.copy()
    bmp[0x10000:] = False
    astral[:0x10000] = False
    if not astral.any():
        return f"[{_ranges(bmp)}]"
    return rf"(?:[{_ranges(bmp)}]|(?=[\U00010000-\U0010ffff])[{_ranges(astral)}])"


@functools.cache
def python_pattern(pattern, ascii):
    r"""``pattern`` (one the kernel scanner cuts) compiled for ``re``, with
    \p{L}, \p{N} and \s as the scanner's table has them and ``$`` as the
    end of the text; with ``ascii``, for ASCII text only (a smaller
    pattern, twice as fast)."""
    flags = _unicode.classes()[:128 if ascii else None]
    letter = (flags & _unicode.LETTER) > 0
    number = (flags & _unicode.NUMBER) > 0
    space = (flags & _unicode.SPACE) > 0
    line_end = np.zeros(len(flags), np.bool_)
    line_end[[0x0A, 0x0D]] = True
    other = np.ones(len(flags), np.bool_)
    other[0xD800:0xE000] = False  # surrogates: never in a text that encodes to UTF-8
    text = (pattern.replace(r"[^\s\p{L}\p{N}]", _class(other & ~(space | letter | number)))
            .replace(r"[^\r\n\p{L}\p{N}]", _class(other & ~(line_end | letter | number)))
            .replace(r"(?!\S)", f"(?!{_class(other & ~space)})")
            .replace(r"\p{L}", _class(letter)).replace(r"\p{N}", _class(number))
            .replace(r"\s", _class(space)).replace("$", r"\Z"))
    assert r"\p" not in text and r"\S" not in text
    return re.compile(text)


class ShortEncoder:
    """Encodes a short text chunk by chunk: ``ranks`` (token bytes -> id)
    and a bounded cache of chunks' ids; ``missing(chunks)`` is the caller's
    kernel, the ids of each of several chunks (lists)."""

    def __init__(self, pattern, tokens, missing):
        self._findall_ascii = python_pattern(pattern, True).findall
        self._findall = python_pattern(pattern, False).findall
        self._ranks = {t: r for r, t in enumerate(tokens)}
        self._cache = {}
        self._missing = missing

    def encode(self, text):
        """The ids of ``text`` (a str that encodes to UTF-8)."""
        ranks, cache = self._ranks, self._cache
        ids, left = [], []
        for chunk in (self._findall_ascii if text.isascii() else self._findall)(text):
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
