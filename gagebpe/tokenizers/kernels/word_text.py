"""Kernels over text held as code points (a uint32 array), for the
word-level tokenizer: finding words as subword-nmt does, numbering the
distinct ones, rendering their subwords, and writing the segmented text.

subword-nmt's words: lines end at ``\\n``; each line loses the spaces and
carriage returns at its ends and is split on spaces (a tab, or a carriage
return inside a line, is part of a word).  Its output keeps each line's
ends and joins its words with single spaces.
"""
import numpy as np

from ..._jit import njit
from ...kernels.pair_hash import MULT

SPACE, CR, LF = 32, 13, 10


@njit(cache=True, nogil=True, inline='always')
def _body(cps, start, end):
    """The line ``cps[start:end]`` without the spaces and carriage returns
    at its ends, as ``(start, end)``."""
    while start < end and (cps[start] == SPACE or cps[start] == CR):
        start += 1
    while end > start and (cps[end - 1] == SPACE or cps[end - 1] == CR):
        end -= 1
    return start, end


@njit(cache=True, nogil=True, inline='always')
def _line_end(cps, line):
    """Where the line starting at ``line`` ends (its LF, or the text's end)."""
    while line < cps.shape[0] and cps[line] != LF:
        line += 1
    return line


@njit(cache=True, nogil=True)
def space_words(cps):
    """``(starts, ends)`` of the words, in order."""
    starts = np.empty(cps.shape[0] // 2 + 1, np.int64)
    ends = np.empty_like(starts)
    n = 0
    line = 0
    while line <= cps.shape[0]:
        stop = _line_end(cps, line)
        i, end = _body(cps, line, stop)
        while i < end:
            if cps[i] == SPACE:
                i += 1
                continue
            starts[n] = i
            while i < end and cps[i] != SPACE:
                i += 1
            ends[n] = i
            n += 1
        line = stop + 1
    return starts[:n], ends[:n]


@njit(cache=True, nogil=True)
def render(tokens, token_starts, glyphs, glyph_starts, final_len, glue, end_token):
    """``(text, starts)``: each piece's tokens written out, code points in
    one array: every token but the last followed by ``glue``, the last
    written to ``final_len`` of its glyphs (its end-of-word marker cut
    off), a trailing ``end_token`` dropped.  Token t's glyphs are
    ``glyphs[glyph_starts[t]:glyph_starts[t + 1]]``."""
    n = token_starts.shape[0] - 1
    starts = np.zeros(n + 1, np.int64)
    total = 0
    for p in range(n):
        a, b = token_starts[p], token_starts[p + 1]
        if b - a > 1 and tokens[b - 1] == end_token:
            b -= 1
        for k in range(a, b - 1):
            t = tokens[k]
            total += glyph_starts[t + 1] - glyph_starts[t] + glue.shape[0]
        total += final_len[tokens[b - 1]]
        starts[p + 1] = total
    text = np.empty(total, np.uint32)
    pos = 0
    for p in range(n):
        a, b = token_starts[p], token_starts[p + 1]
        if b - a > 1 and tokens[b - 1] == end_token:
            b -= 1
        for k in range(a, b):
            t = tokens[k]
            g = glyph_starts[t]
            length = glyph_starts[t + 1] - g if k < b - 1 else final_len[t]
            text[pos:pos + length] = glyphs[g:g + length]
            pos += length
            if k < b - 1:
                text[pos:pos + glue.shape[0]] = glue
                pos += glue.shape[0]
    return text, starts


@njit(cache=True, nogil=True)
def write_lines(cps, ids, rendered, rendered_starts, starts, ends):
    """The text ``cps`` with each word (``cps[starts[w]:ends[w]]``, as
    ``space_words`` finds them, the w-th being distinct word ``ids[w]``)
    replaced by its rendering, words joined by single spaces, each line's
    ends kept."""
    bound = cps.shape[0]  # joining words with single spaces only shortens
    for w in range(ids.shape[0]):
        d = ids[w]
        bound += rendered_starts[d + 1] - rendered_starts[d] - (ends[w] - starts[w])
    out = np.empty(bound, np.uint32)
    pos = 0
    w = 0
    line = 0
    while line <= cps.shape[0]:
        stop = _line_end(cps, line)
        i, end = _body(cps, line, stop)
        pos = _copy(out, pos, cps, line, i)  # the line's start
        first = True
        while w < ids.shape[0] and starts[w] < end:
            if not first:
                out[pos] = SPACE
                pos += 1
            first = False
            d = ids[w]
            pos = _copy(out, pos, rendered, rendered_starts[d], rendered_starts[d + 1])
            w += 1
        pos = _copy(out, pos, cps, end, stop)  # the line's end
        if stop < cps.shape[0]:
            out[pos] = LF
            pos += 1
        line = stop + 1
    return out[:pos]


@njit(cache=True, nogil=True, inline='always')
def _copy(out, pos, src, start, end):
    for i in range(start, end):
        out[pos] = src[i]
        pos += 1
    return pos


@njit(cache=True, nogil=True)
def unit_ids(chars, length, end_key, final_bit):
    """``(ids, keys)``: the units of words whose code points are ``chars``
    (``length[w]`` of them for word w) numbered in order of first
    appearance, and each number's key.  A character c's key is 2c, plus
    ``final_bit`` when it ends its word; ``end_key`` >= 0 adds a unit of
    that key after every word.  Nothing is allocated per unit but the ids."""
    n_units = chars.shape[0] + (length.shape[0] if end_key >= 0 else 0)
    ids = np.empty(n_units, np.int32)
    size = 256
    table = np.full(size, -1, np.int64)  # slot -> number
    keys = np.empty(128, np.int64)
    n_keys = 0
    pos = 0
    c = 0
    for w in range(length.shape[0]):
        for i in range(length[w] + (1 if end_key >= 0 else 0)):
            if i < length[w]:
                key = 2 * np.int64(chars[c]) + (final_bit if i == length[w] - 1 else 0)
                c += 1
            else:
                key = np.int64(end_key)
            h = (key * MULT >> np.int64(32)) & (size - 1)
            while table[h] != -1 and keys[table[h]] != key:
                h = (h + 1) & (size - 1)
            if table[h] == -1:
                if n_keys == keys.shape[0]:
                    bigger = np.empty(2 * n_keys, np.int64)
                    bigger[:n_keys] = keys
                    keys = bigger
                keys[n_keys] = key
                table[h] = n_keys
                n_keys += 1
                if 2 * n_keys > size:
                    size *= 2
                    table = np.full(size, -1, np.int64)
                    for k in range(n_keys):
                        g = (keys[k] * MULT >> np.int64(32)) & (size - 1)
                        while table[g] != -1:
                            g = (g + 1) & (size - 1)
                        table[g] = k
                    h = -1
            ids[pos] = table[h] if h >= 0 else _find(table, keys, key, size)
            pos += 1
    return ids, keys[:n_keys]


@njit(cache=True, nogil=True, inline='always')
def _find(table, keys, key, size):
    h = (key * MULT >> np.int64(32)) & (size - 1)
    while keys[table[h]] != key:
        h = (h + 1) & (size - 1)
    return table[h]
