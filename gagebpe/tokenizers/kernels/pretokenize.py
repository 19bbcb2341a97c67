"""Pre-tokenization kernels: UTF-8 text cut into the chunks a named pattern
finds, as ``regex.findall`` (or tiktoken) would cut it, without a regular
expression engine.

The patterns (``tokenizers._patterns`` has their text):

- GPT2, tiktoken's r50k: ``'(?:[sdmt]|ll|ve|re)| ?\\p{L}++| ?\\p{N}++|
  ?[^\\s\\p{L}\\p{N}]++|\\s++$|\\s+(?!\\S)|\\s``
- CL100K: ``'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++|\\p{N}{1,3}+|
  ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*+|\\s++$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s``
- GPT4, minbpe's and rustbpe's: CL100K without ``\\s++$`` (its other
  differences, greedy instead of possessive runs and a final ``\\s+``,
  match the same text).

At each chunk's start the alternatives are tried in order, as a
leftmost-first engine does; every character belongs to some chunk, so the
chunks tile the text.  A whitespace run ``[i, k)`` not at the end of the
text gives ``\\s+(?!\\S)`` the run without its last character, which then
starts the next chunk.  ``classes`` is ``tokenizers._unicode.classes()``.
"""
import numpy as np

from .arrays import with_room
from ..._jit import njit

GPT2, CL100K, GPT4 = 0, 1, 2
LETTER, NUMBER, SPACE = 1, 2, 4  # as in tokenizers._unicode
APOSTROPHE, CR, LF, BLANK = 0x27, 0x0D, 0x0A, 0x20


@njit(cache=True, nogil=True, inline='always')
def _decode(buf, i):
    """``(code point, bytes)`` of the UTF-8 character at ``buf[i]`` (valid
    UTF-8: the text came from Python)."""
    b = np.int64(buf[i])
    if b < 0x80:
        return b, 1
    if b < 0xE0:
        return ((b & 0x1F) << 6) | (np.int64(buf[i + 1]) & 0x3F), 2
    if b < 0xF0:
        return (((b & 0x0F) << 12) | ((np.int64(buf[i + 1]) & 0x3F) << 6)
                | (np.int64(buf[i + 2]) & 0x3F)), 3
    return (((b & 0x07) << 18) | ((np.int64(buf[i + 1]) & 0x3F) << 12)
            | ((np.int64(buf[i + 2]) & 0x3F) << 6) | (np.int64(buf[i + 3]) & 0x3F)), 4


@njit(cache=True, nogil=True, inline='always')
def _class(buf, i, classes):
    """The class flags of the character at ``buf[i]`` (0 past the end)."""
    if i >= buf.shape[0]:
        return np.uint8(0)
    c, _ = _decode(buf, i)
    return classes[c]


@njit(cache=True, nogil=True, leaf=True)
def _run(buf, i, classes, wanted, unwanted):
    """The end of the run from ``i`` of characters whose flags have a bit
    of ``wanted`` (any character if 0) and none of ``unwanted``."""
    while i < buf.shape[0]:
        c, n = _decode(buf, i)
        f = classes[c]
        if (wanted and not (f & wanted)) or (f & unwanted):
            break
        i += n
    return i


@njit(cache=True, nogil=True, leaf=True)
def _contraction(buf, i, case_insensitive):
    """The end of ``'s``, ``'t``, ``'d``, ``'m``, ``'ll``, ``'ve`` or
    ``'re`` at ``i`` (tried in that order), or -1.  Case-insensitive, a
    letter matches its capital, and s also the long s (U+017F), as Unicode
    simple case folding has it."""
    n = buf.shape[0]
    if buf[i] != APOSTROPHE or i + 1 >= n:
        return -1
    c, k = _decode(buf, i + 1)
    if case_insensitive and c < 0x80:
        c |= 0x20  # ASCII lower case
    if c == 0x17F and case_insensitive:
        c = 0x73
    if c == 0x73 or c == 0x64 or c == 0x6D or c == 0x74:  # s d m t
        return i + 1 + k
    if i + 2 >= n:
        return -1
    d = np.int64(buf[i + 2])
    if case_insensitive and d < 0x80:
        d |= 0x20
    if (c == 0x6C and d == 0x6C) or (c == 0x76 and d == 0x65) or (c == 0x72 and d == 0x65):
        return i + 3  # ll ve re
    return -1


@njit(cache=True, nogil=True, leaf=True)
def _whitespace(buf, i, classes, end_of_text_run, newline_run):
    """The chunk a whitespace character at ``i`` starts: the run to the end
    of the text (``\\s++$``, if ``end_of_text_run``), the run up to its
    last \\r or \\n (``\\s*[\\r\\n]``, if ``newline_run``), the run but its
    last character (``\\s+(?!\\S)``), or the character alone."""
    k = _run(buf, i, classes, SPACE, 0)
    if k == buf.shape[0] and end_of_text_run:
        return k
    if newline_run:
        last = -1
        j = i
        while j < k:
            if buf[j] == CR or buf[j] == LF:
                last = j
            _, m = _decode(buf, j)
            j += m
        if last >= 0:
            return last + 1
    if k == buf.shape[0]:
        return k
    # The run's last character starts the next chunk.
    last_start = i
    j = i
    while j < k:
        last_start = j
        _, m = _decode(buf, j)
        j += m
    if last_start > i:
        return last_start
    return _decode(buf, i)[1] + i


@njit(cache=True, nogil=True, leaf=True)
def _gpt2_chunk(buf, i, classes):
    end = _contraction(buf, i, False)
    if end >= 0:
        return end
    j = i + 1 if buf[i] == BLANK else i
    f = _class(buf, j, classes)
    if j < buf.shape[0]:
        if f & LETTER:
            return _run(buf, j, classes, LETTER, 0)
        if f & NUMBER:
            return _run(buf, j, classes, NUMBER, 0)
        if not f & SPACE:
            return _run(buf, j, classes, 0, LETTER | NUMBER | SPACE)
    return _whitespace(buf, i, classes, True, False)


@njit(cache=True, nogil=True, leaf=True)
def _cl100k_chunk(buf, i, classes, end_of_text_run):
    end = _contraction(buf, i, True)
    if end >= 0:
        return end
    c, n = _decode(buf, i)
    f = classes[c]
    if f & LETTER:
        return _run(buf, i, classes, LETTER, 0)
    if c != CR and c != LF and not (f & NUMBER) and _class(buf, i + n, classes) & LETTER:
        return _run(buf, i + n, classes, LETTER, 0)
    if f & NUMBER:
        end = i
        for _ in range(3):
            if end < buf.shape[0] and _class(buf, end, classes) & NUMBER:
                end += _decode(buf, end)[1]
        return end
    j = i + 1 if c == BLANK else i
    g = _class(buf, j, classes)
    if j < buf.shape[0] and not (g & (LETTER | NUMBER | SPACE)):
        end = _run(buf, j, classes, 0, LETTER | NUMBER | SPACE)
        while end < buf.shape[0] and (buf[end] == CR or buf[end] == LF):
            end += 1
        return end
    return _whitespace(buf, i, classes, end_of_text_run, True)


@njit(cache=True, nogil=True, inline='always')
def _chunk_end(buf, i, classes, pattern):
    if pattern == GPT2:
        return _gpt2_chunk(buf, i, classes)
    return _cl100k_chunk(buf, i, classes, pattern == CL100K)


@njit(cache=True, nogil=True, leaf=True)
def _cut(text, i, classes, pattern, bounds, n, offset):
    """Cut ``text`` from ``i`` into chunks, their ends (plus ``offset``) at
    ``bounds[n + 1:]``, until the text or ``bounds`` ends: ``(i, n)``.
    A loop of its own, in a leaf: in the kernels that grow ``bounds`` it
    would count references to it at every chunk."""
    while i < text.shape[0] and n + 1 < bounds.shape[0]:
        i = _chunk_end(text, i, classes, pattern)
        n += 1
        bounds[n] = offset + i
    return i, n


@njit(cache=True, nogil=True)
def split(buf, classes, pattern):
    """The chunk boundaries of the UTF-8 text ``buf`` under ``pattern``
    (GPT2, CL100K or GPT4): ``bounds[0] = 0``, ..., ``bounds[-1] =
    len(buf)``."""
    return split_texts(buf, np.array([0, buf.shape[0]], np.int64), classes, pattern)[0]


@njit(cache=True, nogil=True)
def split_texts(buf, text_starts, classes, pattern):
    """``(bounds, chunk_starts)``: the chunks of several texts end to end
    in ``buf`` (text t is ``buf[text_starts[t]:text_starts[t + 1]]``), each
    text cut on its own.  The chunks tile ``buf``: chunk k is
    ``buf[bounds[k]:bounds[k + 1]]``, and text t's chunks are
    ``chunk_starts[t]:chunk_starts[t + 1]``."""
    n_texts = text_starts.shape[0] - 1
    # English averages a chunk per four or five bytes: start with a third.
    bounds = np.empty(buf.shape[0] // 3 + 2, np.int64)
    bounds[0] = 0
    chunk_starts = np.zeros(n_texts + 1, np.int64)
    n = 0
    for t in range(n_texts):
        s = text_starts[t]
        text = buf[s:text_starts[t + 1]]
        i = 0
        while i < text.shape[0]:
            bounds = with_room(bounds, n + 2)
            i, n = _cut(text, i, classes, pattern, bounds, n, s)
        chunk_starts[t + 1] = n
    return bounds[:n + 1], chunk_starts
