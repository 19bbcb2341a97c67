"""Kernels for Philip Gage's 1994 format (C Users Journal, February 1994).

The writer follows the original ``compress.c`` step by step, because its
approximations decide the bytes it writes: pair counts live in a 4096-slot
open-addressing hash table of 8-bit saturating counts, are adjusted only
around each replacement, and the chosen pair is the first slot (from slot
0) with the strictly highest count above 2.  One departure: where the
original loops forever (a lookup in a full table), a pair that finds no
slot is simply not counted.

The reader builds each block's phrases in code order when the table is
the writer's kind (pairs refer only to higher codes), and otherwise renumbers
the table as a merge table in gagebpe's own numbering, refusing cycles; both
copy phrases with the shared ``kernels.expand`` kernels and describe them with its
phrase entries.
"""
import numpy as np

from . import expand as _expand
from .bits import highest_bit, lowest_bit
from .expand import phrase, phrase_length, phrase_offset
from .._jit import njit
from .unaligned import copy_bytes, load8, store8

BLOCK_SIZE = 5000
HASH_SIZE = 4096
MAX_CHARS = 200
THRESHOLD = 3
# A block's table is at most 256 two-byte entries plus a count byte per
# run; then two size bytes.
MAX_TABLE = 3 * 256 + 2
# The reader refuses a block that would expand past this: the 1994 program
# writes at most BLOCK_SIZE bytes per block, and without a limit a few bytes
# of pair table describe an expansion of 2^255 bytes.
MAX_BLOCK_OUTPUT = 1 << 16


# -- writing ----------------------------------------------------------------------
#
# The hash table: ``slots[i] = (left, right, count)``.  The original probes
# linearly from ``(a ^ (b << 5)) & 4095`` to the pair or to the first slot
# with count 0, and claims that slot; counts never return to 0 within a
# block, so the table clusters and probes grow to a hundred slots.  Here the
# same slot is found directly: ``where[a << 8 | b]`` is the slot last
# claimed for the pair, which is the answer if it still holds the pair with
# a count (the slots its probe passed were counted when it was claimed, and
# stay counted); otherwise the answer is the first slot with count 0 at or
# after the hash, a word scan away in ``ranks[0]``, a bitmap of those slots.
#
# The original also scans all 4096 slots for the best pair per merge; here
# ``ranks[c]`` (c >= THRESHOLD) is a bitmap of the slots with count c, so the
# winner, the first slot of the highest count, is found in a few steps.
# ``ranks[c, WORDS]`` counts the slots in bitmap c, and row LEVELS (count 1
# is never ranked) is a bitmap of the counts whose bitmaps are not empty.
#
# Reading a block and replacing a pair log their count changes as edits,
# ``(a << 8 | b) << 2 | op``, which ``_apply`` then makes in the original's
# order: nothing in a pass reads the counts it changes.  One flat loop over
# the log keeps Numba from reference-counting the table's arrays around
# every change, which cost more than the changes themselves.

LEFT, RIGHT, COUNT = 0, 1, 2
LEVELS = 1
UP, DOWN, RESET = 0, 1, 2  # one up (saturating at 255), one down (not below 1), to 1
WORDS = HASH_SIZE // 64
MASK = HASH_SIZE - 1
_ONES = np.uint64(0x0101010101010101)
_HIGHS = np.uint64(0x8080808080808080)


@njit(cache=True, nogil=True, inline='always')
def _edit(a, b, op):
    return (((np.int32(a) << 8) | np.int32(b)) << 2) | op


@njit(cache=True, nogil=True)
def _first_empty(ranks, start):
    """The first slot with count 0 at or after ``start`` (wrapping), or -1."""
    w = start >> 6
    word = ranks[0, w] & (~np.uint64(0) << np.uint64(start & 63))
    for _ in range(WORDS + 1):
        if word:
            return (w << 6) + lowest_bit(word)
        w = (w + 1) & (WORDS - 1)
        word = ranks[0, w]
    return -1


@njit(cache=True, nogil=True)
def _apply(edits, n, slots, ranks, where):
    """Make the count changes ``edits[:n]`` in order, each on the slot the
    original's lookup would claim; a pair that finds no slot (where the
    original would probe forever) is not counted."""
    for i in range(n):
        key = edits[i] >> 2
        op = edits[i] & 3
        a = key >> 8
        b = key & 255
        index = where[key]
        if not (index >= 0 and slots[index, COUNT] > 0
                and slots[index, LEFT] == a and slots[index, RIGHT] == b):
            start = (a ^ (b << 5)) & MASK
            index = start if slots[start, COUNT] == 0 else _first_empty(ranks, start)
            if index < 0:
                continue
            slots[index, LEFT] = a
            slots[index, RIGHT] = b
            where[key] = index
        old = slots[index, COUNT]
        if op == UP:
            count = min(old + 1, 255)
        elif op == DOWN:
            count = max(old - 1, 1) if old > 0 else 0
        else:
            count = 1
        if count == old:
            continue
        bit = np.uint64(1) << np.uint64(index & 63)
        if old == 0 or old >= THRESHOLD:
            ranks[old, index >> 6] &= ~bit
            ranks[old, WORDS] -= np.uint64(1)
            if ranks[old, WORDS] == 0:
                ranks[LEVELS, old >> 6] &= ~(np.uint64(1) << np.uint64(old & 63))
        if count >= THRESHOLD:
            ranks[count, index >> 6] |= bit
            ranks[count, WORDS] += np.uint64(1)
            ranks[LEVELS, count >> 6] |= np.uint64(1) << np.uint64(count & 63)
        slots[index, COUNT] = count


@njit(cache=True, nogil=True)
def _best(ranks):
    """The first slot with the highest count above 2, or -1."""
    for level in range(3, -1, -1):
        counts = ranks[LEVELS, level]
        if level == 0:
            counts &= ~np.uint64((1 << THRESHOLD) - 1)
        if counts:
            count = level * 64 + highest_bit(counts)
            for w in range(WORDS):
                if ranks[count, w]:
                    return w * 64 + lowest_bit(ranks[count, w])
    return -1


@njit(cache=True, nogil=True)
def _read_block(data, pos, buffer, edits, slots, ranks, where, leftcode, rightcode):
    """Fill ``buffer`` from ``data[pos:]`` as ``fileread`` does, counting
    its pairs; return ``(size, new pos, done)``."""
    slots[:, COUNT] = 0
    ranks[:] = 0
    ranks[0, :WORDS] = ~np.uint64(0)
    ranks[0, WORDS] = HASH_SIZE
    ranks[LEVELS, 0] = 1
    for c in range(256):
        leftcode[c] = c
        rightcode[c] = 0
    size = 0
    used = 0
    done = False
    while size < BLOCK_SIZE and used < MAX_CHARS:
        if pos == data.shape[0]:
            done = True  # getc returned EOF
            break
        c = data[pos]
        pos += 1
        if size > 0:
            edits[size - 1] = _edit(buffer[size - 1], c, UP)
        buffer[size] = c
        size += 1
        if rightcode[c] == 0:
            rightcode[c] = 1
            used += 1
    _apply(edits, max(size - 1, 0), slots, ranks, where)
    return size, pos, done


@njit(cache=True, nogil=True, leaf=True)
def _find_pair(buffer, start, end, left, right):
    """The first ``r`` in ``[start, end)`` with ``buffer[r:r + 2] == (left,
    right)``, or ``max(start, end)``.  Eight positions per step: a byte of
    ``(word ^ lefts) | (next word ^ rights)`` is zero where the pair starts,
    and the lowest flagged byte of the zero-byte test is the first one."""
    if start >= end:
        return start
    lefts = np.uint64(left) * _ONES
    rights = np.uint64(right) * _ONES
    r = start
    while r < end:
        x = (load8(buffer, r) ^ lefts) | (load8(buffer, r + 1) ^ rights)
        zeros = (x - _ONES) & ~x & _HIGHS
        if zeros:
            return min(r + (lowest_bit(zeros) >> 3), end)
        r += 8
    return end


@njit(cache=True, nogil=True, leaf=True)
def _move(buffer, to, start, n):
    """``buffer[to:to + n] = buffer[start:start + n]`` for ``to < start``,
    eight bytes at a time: each load reads bytes no earlier store reached,
    and the last eight are loaded before anything is stored."""
    if n < 8:
        for i in range(n):
            buffer[to + i] = buffer[start + i]
        return
    tail = load8(buffer, start + n - 8)
    i = 0
    while i < n - 8:
        store8(buffer, to + i, load8(buffer, start + i))
        i += 8
    store8(buffer, to + n - 8, tail)


@njit(cache=True, nogil=True, leaf=True)
def _replace(buffer, size, leftch, rightch, code, edits):
    """One pass of the original's replacement loop: each match, left to
    right, becomes ``code``, and the bytes between matches move down in one
    copy.  Logs the pass's count changes to ``edits`` in the original's
    order; returns ``(new size, number of edits)``."""
    oldsize = size - 1
    n = 0
    r = _find_pair(buffer, 0, oldsize, leftch, rightch)
    w = r
    while r < oldsize:
        if r > 0:
            edits[n] = _edit(buffer[w - 1], leftch, DOWN)
            edits[n + 1] = _edit(buffer[w - 1], code, UP)
            n += 2
        if r < oldsize - 1:
            edits[n] = _edit(rightch, buffer[r + 2], DOWN)
            edits[n + 1] = _edit(code, buffer[r + 2], UP)
            n += 2
        buffer[w] = code
        w += 1
        r += 2
        size -= 1
        match = _find_pair(buffer, r, oldsize, leftch, rightch)
        _move(buffer, w, r, match - r)
        w += match - r
        r = match
    buffer[w] = buffer[r]  # the last byte, when no match took it
    edits[n] = _edit(leftch, rightch, RESET)
    return size, n + 1


@njit(cache=True, nogil=True)
def _merge_block(buffer, size, edits, slots, ranks, where, leftcode, rightcode):
    """Replace pairs until no code is free or no count exceeds 2, as
    ``compress`` does; return the new size."""
    code = 256
    while True:
        code -= 1
        while code >= 0 and not (leftcode[code] == code and rightcode[code] == 0):
            code -= 1
        if code < 0:
            break
        best = _best(ranks)
        if best < 0:
            break
        leftch = slots[best, LEFT]
        rightch = slots[best, RIGHT]
        size, n = _replace(buffer, size, leftch, rightch, code, edits)
        _apply(edits, n, slots, ranks, where)
        leftcode[code] = leftch
        rightcode[code] = rightch
    return size


@njit(cache=True, nogil=True)
def _write_block(buffer, size, leftcode, rightcode, out, pos):
    """Write the pair table, size and packed bytes as ``filewrite`` does;
    return the new end of ``out``."""
    c = 0
    while c < 256:
        if c == leftcode[c]:
            length = 1
            c += 1
            while length < 127 and c < 256 and c == leftcode[c]:
                length += 1
                c += 1
            out[pos] = length + 127
            pos += 1
            length = 0
            if c == 256:
                break
        else:
            length = 0
            c += 1
            while ((length < 127 and c < 256 and c != leftcode[c])
                   or (length < 125 and c < 254 and c + 1 != leftcode[c + 1])):
                length += 1
                c += 1
            out[pos] = length
            pos += 1
            c -= length + 1
        for _ in range(length + 1):
            out[pos] = leftcode[c]
            pos += 1
            if c != leftcode[c]:
                out[pos] = rightcode[c]
                pos += 1
            c += 1
    out[pos] = size >> 8
    out[pos + 1] = size & 255
    pos += 2
    copy_bytes(out, pos, buffer, 0, size)
    return pos + size


@njit(cache=True, nogil=True)
def compress(data, final):
    """``(output, consumed)``: the 1994 program's blocks for a prefix of the
    uint8 array ``data``.  With ``final``, ``data`` is the rest of the input
    and all of it is consumed; otherwise only blocks that cannot reach the
    end of ``data`` are made (a block reads at most BLOCK_SIZE bytes), and
    the caller passes the rest again with more input."""
    # Every block but the last holds at least MAX_CHARS bytes.
    n_blocks = data.shape[0] // MAX_CHARS + 2
    out = np.empty(data.shape[0] + n_blocks * MAX_TABLE, np.uint8)
    # The original reads one past the block; the pair search, 16 past.
    buffer = np.zeros(BLOCK_SIZE + 16, np.uint8)
    edits = np.empty(2 * BLOCK_SIZE + 1, np.int32)  # four per match, one reset
    slots = np.zeros((HASH_SIZE, 3), np.int32)
    ranks = np.zeros((256, WORDS + 1), np.uint64)
    where = np.full(1 << 16, -1, np.int32)
    leftcode = np.zeros(256, np.int32)
    rightcode = np.zeros(256, np.int32)
    pos = 0
    end = 0
    done = False
    while not done and (final or data.shape[0] - pos > BLOCK_SIZE):
        size, pos, done = _read_block(data, pos, buffer, edits, slots, ranks, where,
                                      leftcode, rightcode)
        size = _merge_block(buffer, size, edits, slots, ranks, where, leftcode, rightcode)
        end = _write_block(buffer, size, leftcode, rightcode, out, end)
    return out[:end], pos


# -- reading ----------------------------------------------------------------------

# Status codes of the reader (the caller turns them into messages).
OK, TRUNCATED_TABLE, BAD_TABLE, TRUNCATED_DATA, CYCLE, TOO_LARGE = range(6)


@njit(cache=True, nogil=True)
def _read_table(data, pos, leftcode, rightcode):
    """Parse a pair table at ``data[pos:]``; return ``(status, new pos)``."""
    for c in range(256):
        leftcode[c] = c
        rightcode[c] = 0
    c = 0
    n = data.shape[0]
    while c < 256:
        if pos >= n:
            return TRUNCATED_TABLE, pos
        count = np.int64(data[pos])  # NumPy would add uint8s modulo 256
        pos += 1
        if count > 127:
            c += count - 127
            count = 0
            if c == 256:
                break
            if c > 256:
                return BAD_TABLE, pos
        if c + count > 255:
            return BAD_TABLE, pos
        for _ in range(count + 1):
            if pos >= n:
                return TRUNCATED_TABLE, pos
            leftcode[c] = data[pos]
            pos += 1
            if leftcode[c] != c:
                if pos >= n:
                    return TRUNCATED_TABLE, pos
                rightcode[c] = data[pos]
                pos += 1
            c += 1
    return OK, pos


@njit(cache=True, nogil=True)
def _as_merges(leftcode, rightcode, symbol, merges, terminals):
    """The table in gagebpe's numbering: literal codes in increasing order,
    then the pair codes, each after the codes it refers to (numbered in
    passes, each taking the pairs whose halves are numbered).  Fills
    ``symbol[code]``, ``merges`` and ``terminals``; returns ``(n_terminals,
    n_merges)``, or (-1, -1) if some pairs refer to themselves in a cycle
    (a pass that numbers nothing leaves them)."""
    n_terminals = 0
    for c in range(256):
        if leftcode[c] == c:
            symbol[c] = n_terminals
            terminals[n_terminals] = c
            n_terminals += 1
        else:
            symbol[c] = -1
    n_merges = 0
    numbered = True
    while numbered and n_terminals + n_merges < 256:
        numbered = False
        for c in range(256):
            if symbol[c] < 0 and symbol[leftcode[c]] >= 0 and symbol[rightcode[c]] >= 0:
                merges[n_merges, 0] = symbol[leftcode[c]]
                merges[n_merges, 1] = symbol[rightcode[c]]
                symbol[c] = n_terminals + n_merges
                n_merges += 1
                numbered = True
    if n_terminals + n_merges < 256:
        return -1, -1
    return n_terminals, n_merges


@njit(cache=True, nogil=True)
def _phrases_in_code_order(leftcode, rightcode, phrases, entries):
    """The 1994 writer's tables, fast: its pairs refer only to literals and
    to pairs with higher codes (it hands out codes downwards), so walking
    the codes down from 255 builds each pair's phrase from phrases already
    built.  Literal ``c`` is ``phrases[c]``; each pair's phrase is appended
    as copies of its halves; ``entries[c]`` becomes its phrase entry.
    Returns False, having built nothing usable, for any other table or one
    whose phrases would not fit in ``phrases``."""
    for c in range(256):
        if leftcode[c] == c:
            entries[c] = phrase(c, 1)
    end = np.uint64(256)
    room = np.uint64(phrases.shape[0] - _expand.COPY_WIDTH)
    for c in range(255, -1, -1):
        left = leftcode[c]
        right = rightcode[c]
        if left == c:
            continue
        if ((leftcode[left] != left and left <= c)
                or (leftcode[right] != right and right <= c)):
            return False
        n_left = phrase_length(entries[left])
        n_right = phrase_length(entries[right])
        if end + n_left + n_right > room:
            return False
        entries[c] = phrase(end, n_left + n_right)
        _expand.copy(phrases, end, phrases, phrase_offset(entries[left]), n_left)
        end += n_left
        _expand.copy(phrases, end, phrases, phrase_offset(entries[right]), n_right)
        end += n_right
    return True


@njit(cache=True, nogil=True)
def _phrases_in_any_order(leftcode, rightcode, used, entries, merges, terminals):
    """Any other table: numbered in dependency order (refusing cycles), and
    only the phrases of the codes in ``used`` built.  Returns ``(status,
    phrases)`` and sets ``entries[c]`` for the used codes."""
    symbol = np.empty(256, np.int64)
    n_terminals, n_merges = _as_merges(leftcode, rightcode, symbol, merges, terminals)
    if n_terminals < 0:
        return CYCLE, np.empty(0, np.uint8)
    table = merges[:n_merges]
    lengths = _expand.symbol_lengths(table, n_terminals, MAX_BLOCK_OUTPUT)
    used_symbols = np.zeros(n_terminals + n_merges, np.bool_)
    block = 0
    for c in range(256):
        if used[c]:
            used_symbols[symbol[c]] = True
            block += lengths[symbol[c]]
    if block > MAX_BLOCK_OUTPUT:
        return TOO_LARGE, np.empty(0, np.uint8)
    offsets, phrases = _expand.phrase_table(table, n_terminals, terminals, lengths,
                                            used_symbols, block)
    for c in range(256):
        if used[c]:
            entries[c] = phrase(offsets[symbol[c]], lengths[symbol[c]])
    return OK, phrases


@njit(cache=True, nogil=True)
def expand(data, limit, enough):
    """``(status, output, consumed)``: the blocks of ``data`` expanded up to
    the first fault (a status other than OK), or until ``enough`` bytes are
    out, and the bytes of the blocks expanded.  A block cut short by the end
    of ``data`` is TRUNCATED_TABLE or TRUNCATED_DATA: a streaming caller
    passes the rest again with more input.  More than ``limit`` bytes of
    output is TOO_LARGE."""
    leftcode = np.zeros(256, np.int64)
    rightcode = np.zeros(256, np.int64)
    merges = np.zeros((256, 2), np.int32)
    terminals = np.zeros(256, np.uint8)
    used = np.zeros(256, np.bool_)
    entries = np.zeros(256, np.int64)  # per code: its phrase entry
    writer_phrases = np.empty(MAX_BLOCK_OUTPUT + _expand.COPY_WIDTH, np.uint8)
    writer_phrases[:256] = np.arange(256)
    out = np.empty(4 * data.shape[0] + 64, np.uint8)  # files expand 2-8 times
    written = 0
    pos = consumed = 0
    while pos < data.shape[0] and written < enough:
        status, pos = _read_table(data, pos, leftcode, rightcode)
        if status != OK:
            return status, out[:written], consumed
        if pos + 2 > data.shape[0]:
            return TRUNCATED_DATA, out[:written], consumed
        size = (np.int64(data[pos]) << 8) | data[pos + 1]
        pos += 2
        if pos + size > data.shape[0]:
            return TRUNCATED_DATA, out[:written], consumed
        codes = data[pos:pos + size]
        phrases = writer_phrases
        if not _phrases_in_code_order(leftcode, rightcode, phrases, entries):
            used[:] = False
            for c in codes:
                used[c] = True
            status, phrases = _phrases_in_any_order(leftcode, rightcode, used, entries,
                                                    merges, terminals)
            if status != OK:
                return status, out[:written], consumed
        block = 0
        for c in codes:
            block += np.int64(phrase_length(entries[c]))
        if block > MAX_BLOCK_OUTPUT or written + block > limit:
            return TOO_LARGE, out[:written], consumed
        if written + block + _expand.COPY_WIDTH > out.shape[0]:
            bigger = np.empty(2 * (written + block) + 64, np.uint8)
            bigger[:written] = out[:written]
            out = bigger
        # Each code is one copy of its phrase; a copy's 16-byte overrun
        # lands where the next one goes.
        at = np.uint64(written)
        for c in codes:
            n = phrase_length(entries[c])
            _expand.copy(out, at, phrases, phrase_offset(entries[c]), n)
            at += n
        written += block
        pos += size
        consumed = pos
    return OK, out[:written], consumed
