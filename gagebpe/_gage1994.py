"""Kernels for Philip Gage's 1994 format (C Users Journal, February 1994).

The writer follows the original ``compress.c`` step by step, because its
approximations decide the bytes it writes: pair counts live in a 4096-slot
open-addressing hash table of 8-bit saturating counts, are adjusted only
around each replacement, and the chosen pair is the first slot (from slot
0) with the strictly highest count above 2.  One departure: where the
original loops forever (a lookup in a full table), a pair that finds no
slot is simply not counted.

The reader converts each block's pair table into a merge table in
gagebpe's own numbering and expands it with the shared ``_expand`` kernels.
"""
import numpy as np

from . import _expand
from ._bits import lowest_bit
from ._jit import njit

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
# same slot is found directly: ``ranks[0]`` is a bitmap of the slots with
# count 0 (the first one at or after the hash is a word scan away) and
# ``where[a << 8 | b]`` the slot last claimed for the pair, which is the
# answer if it still holds the pair and lies before that first empty slot.
#
# The original also scans all 4096 slots for the best pair per merge; here
# ``ranks[c]`` (c >= THRESHOLD) is a bitmap of the slots with count c, so the
# winner, the first slot of the highest count, is found in a few steps.
# ``ranks[c, WORDS]`` counts the slots in bitmap c.

LEFT, RIGHT, COUNT = 0, 1, 2
WORDS = HASH_SIZE // 64
MASK = HASH_SIZE - 1


@njit(cache=True, nogil=True, inline='always')
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


@njit(cache=True, nogil=True, inline='always')
def _lookup(slots, ranks, where, a, b):
    """The slot the original's probe for (a, b) stops at, claimed for the
    pair; -1 where the original would probe forever (a full table)."""
    start = (a ^ (b << 5)) & MASK
    if (slots[start, LEFT] == a and slots[start, RIGHT] == b) or slots[start, COUNT] == 0:
        index = start  # the probe's first step, and the usual case
    else:
        empty = _first_empty(ranks, start)
        index = where[(a << 8) | b]
        if not (index >= 0 and slots[index, LEFT] == a and slots[index, RIGHT] == b
                and (empty < 0 or ((index - start) & MASK) <= ((empty - start) & MASK))):
            index = empty
            if index < 0:
                return -1
    slots[index, LEFT] = a
    slots[index, RIGHT] = b
    where[(a << 8) | b] = index
    return index


@njit(cache=True, nogil=True, inline='always')
def _set_count(slots, ranks, index, count):
    old = slots[index, COUNT]
    bit = np.uint64(1) << np.uint64(index & 63)
    if old == 0 or old >= THRESHOLD:
        ranks[old, index >> 6] &= ~bit
        ranks[old, WORDS] -= np.uint64(1)
    if count == 0 or count >= THRESHOLD:
        ranks[count, index >> 6] |= bit
        ranks[count, WORDS] += np.uint64(1)
    slots[index, COUNT] = count


@njit(cache=True, nogil=True)
def _best(ranks):
    """The first slot with the highest count above 2, or -1."""
    for count in range(255, THRESHOLD - 1, -1):
        if ranks[count, WORDS]:
            for w in range(WORDS):
                if ranks[count, w]:
                    return w * 64 + lowest_bit(ranks[count, w])
    return -1


@njit(cache=True, nogil=True, inline='always')
def _adjust(slots, ranks, where, a, b, step):
    """Count (a, b) one up (saturating at 255) or down (not below 1)."""
    index = _lookup(slots, ranks, where, a, b)
    if index < 0:
        return
    count = slots[index, COUNT]
    if step > 0 and count < 255:
        _set_count(slots, ranks, index, count + 1)
    elif step < 0 and count > 1:
        _set_count(slots, ranks, index, count - 1)


@njit(cache=True, nogil=True)
def _read_block(data, pos, buffer, slots, ranks, where, leftcode, rightcode):
    """Fill ``buffer`` from ``data[pos:]`` as ``fileread`` does; return
    ``(size, new pos, done)``."""
    slots[:, COUNT] = 0
    ranks[:] = 0
    ranks[0, :WORDS] = ~np.uint64(0)
    ranks[0, WORDS] = HASH_SIZE
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
        c = np.int32(data[pos])
        pos += 1
        if size > 0:
            _adjust(slots, ranks, where, buffer[size - 1], c, 1)
        buffer[size] = c
        size += 1
        if rightcode[c] == 0:
            rightcode[c] = 1
            used += 1
    return size, pos, done


@njit(cache=True, nogil=True)
def _merge_block(buffer, size, slots, ranks, where, leftcode, rightcode):
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
        oldsize = size - 1
        r = 0  # nothing moves before the first occurrence
        while r < oldsize and not (buffer[r] == leftch and buffer[r + 1] == rightch):
            r += 1
        w = r
        while r < oldsize:
            if buffer[r] == leftch and buffer[r + 1] == rightch:
                if r > 0:
                    _adjust(slots, ranks, where, buffer[w - 1], leftch, -1)
                    _adjust(slots, ranks, where, buffer[w - 1], code, 1)
                if r < oldsize - 1:
                    _adjust(slots, ranks, where, rightch, buffer[r + 2], -1)
                    _adjust(slots, ranks, where, code, buffer[r + 2], 1)
                buffer[w] = code
                w += 1
                r += 1
                size -= 1
            else:
                buffer[w] = buffer[r]
                w += 1
            r += 1
        buffer[w] = buffer[r]
        leftcode[code] = leftch
        rightcode[code] = rightch
        _set_count(slots, ranks, _lookup(slots, ranks, where, leftch, rightch), 1)
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
    out[pos:pos + size] = buffer[:size]
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
    buffer = np.zeros(BLOCK_SIZE + 2, np.int32)  # the original reads one past
    slots = np.zeros((HASH_SIZE, 3), np.int32)
    ranks = np.zeros((256, WORDS + 1), np.uint64)
    where = np.full(1 << 16, -1, np.int32)
    leftcode = np.zeros(256, np.int32)
    rightcode = np.zeros(256, np.int32)
    pos = 0
    end = 0
    done = False
    while not done and (final or data.shape[0] - pos > BLOCK_SIZE):
        size, pos, done = _read_block(data, pos, buffer, slots, ranks, where,
                                      leftcode, rightcode)
        size = _merge_block(buffer, size, slots, ranks, where, leftcode, rightcode)
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
        count = data[pos]
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
    then the pair codes, each after the codes it refers to.  Fills
    ``symbol[code]``, ``merges`` and ``terminals``; returns ``(n_terminals,
    n_merges)``, or (-1, -1) if the pairs refer to themselves in a cycle."""
    n_terminals = 0
    for c in range(256):
        if leftcode[c] == c:
            symbol[c] = n_terminals
            terminals[n_terminals] = c
            n_terminals += 1
        else:
            symbol[c] = -1
    state = np.zeros(256, np.int64)  # 0 new, 1 on the path, 2 numbered
    stack = np.empty(512, np.int64)
    n_merges = 0
    for root in range(256):
        if symbol[root] >= 0:
            continue
        top = 0
        stack[0] = root
        while top >= 0:
            c = stack[top]
            if symbol[c] >= 0:
                top -= 1
                continue
            state[c] = 1
            pending = False
            for child in (leftcode[c], rightcode[c]):
                if symbol[child] < 0:
                    if state[child] == 1:
                        return -1, -1
                    if not pending:
                        top += 1
                        stack[top] = child
                        pending = True
            if not pending:
                merges[n_merges, 0] = symbol[leftcode[c]]
                merges[n_merges, 1] = symbol[rightcode[c]]
                symbol[c] = n_terminals + n_merges
                state[c] = 2
                n_merges += 1
                top -= 1
    return n_terminals, n_merges


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
    symbol = np.zeros(256, np.int64)
    merges = np.zeros((256, 2), np.int32)
    terminals = np.zeros(256, np.uint8)
    used = np.zeros(512, np.bool_)
    phrase = np.zeros(256, np.int64)  # per code: phrase offset << 32 | length
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
        n_terminals, n_merges = _as_merges(leftcode, rightcode, symbol, merges, terminals)
        if n_terminals < 0:
            return CYCLE, out[:written], consumed
        table = merges[:n_merges]
        lengths = _expand.symbol_lengths(table, n_terminals, MAX_BLOCK_OUTPUT)
        used[:] = False
        block = 0
        for i in range(size):
            s = symbol[data[pos + i]]
            used[s] = True
            block += lengths[s]
        if block > MAX_BLOCK_OUTPUT or written + block > limit:
            return TOO_LARGE, out[:written], consumed
        offsets, phrases = _expand.phrase_table(table, n_terminals, terminals, lengths,
                                                used[:n_terminals + n_merges], block)
        for c in range(256):
            if used[symbol[c]]:
                phrase[c] = (np.int64(offsets[symbol[c]]) << 32) | lengths[symbol[c]]
        if written + block + _expand.COPY_WIDTH > out.shape[0]:
            bigger = np.empty(2 * (written + block) + 64, np.uint8)
            bigger[:written] = out[:written]
            out = bigger
        # Each code is one copy of its phrase; a copy's 16-byte overrun
        # lands where the next one goes.
        at = np.uint64(written)
        for i in range(size):
            e = phrase[data[pos + i]]
            n = np.uint64(e & 0xFFFFFFFF)
            _expand.copy(out, at, phrases, np.uint64(e >> 32), n)
            at += n
        written += block
        pos += size
        consumed = pos
    return OK, out[:written], consumed
