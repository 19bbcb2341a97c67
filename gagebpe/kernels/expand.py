"""Expansion kernels: symbols through a merge table, to their phrases (the
bytes they stand for) or to lower symbols.

Symbols below ``n_terminals`` stand for the bytes ``terminals[s]``; symbol
``n_terminals + k`` stands for the concatenation of ``merges[k]``.  Callers
must have checked that every merge refers only to earlier symbols and every
id to a defined symbol, and sized ``out`` from ``symbol_lengths``; the
kernels trust exactly that.  A phrase table holds the phrases of many
symbols end to end; a phrase entry ``offset << PHRASE_SHIFT | length``
says where one lies (the 1994 reader's tables use the same entries).
"""
import numpy as np
from .._jit import njit

from . import huffman as _huffman
from .unaligned import load8, store8


@njit(cache=True, nogil=True)
def symbol_lengths(merges, n_terminals, cap):
    """Expanded length of every symbol, saturating at ``cap + 1`` so that a
    table of nested doublings cannot overflow."""
    limit = np.int64(cap) + 1
    lengths = np.empty(n_terminals + merges.shape[0], np.int64)
    lengths[:n_terminals] = 1
    for k in range(merges.shape[0]):
        s = lengths[merges[k, 0]] + lengths[merges[k, 1]]
        lengths[n_terminals + k] = s if s < limit else limit
    return lengths


@njit(cache=True, nogil=True)
def total_length(lengths, ids, cap):
    """Expanded length of ``ids``, or ``cap + 1`` if it exceeds ``cap``."""
    total = np.int64(0)
    for s in ids:
        total += lengths[s]
        if total > cap:
            return np.int64(cap) + 1
    return total


# Copies move COPY_WIDTH bytes at a time and may run up to COPY_WIDTH - 1
# bytes past a phrase's end: phrase tables carry that much padding, and
# outputs, which need none, are written with ``copy_within``.
COPY_WIDTH = 16
# A phrase entry: offset in the phrase table << PHRASE_SHIFT | length.  Both
# are at most a block's size (2^26) plus padding, and an entry shifted into
# a Huffman table entry stays below 2^63.
PHRASE_SHIFT = 27
PHRASE_MASK = (1 << PHRASE_SHIFT) - 1


@njit(cache=True, nogil=True, inline='always')
def phrase(offset, length):
    return (np.int64(offset) << PHRASE_SHIFT) | np.int64(length)


@njit(cache=True, nogil=True, inline='always')
def phrase_offset(entry):
    return np.uint64(entry >> PHRASE_SHIFT)


@njit(cache=True, nogil=True, inline='always')
def phrase_length(entry):
    return np.uint64(entry & PHRASE_MASK)


@njit(cache=True, nogil=True)
def expand(merges, ids, n_terminals, terminals, lengths, out, size):
    """Write the expansion of ``ids`` into ``out[:size]``, writing nothing
    past ``size``.  Return the length written, or -1 if an id is undefined
    or the expansion would not fit.  ``lengths`` are ``symbol_lengths(merges,
    ..., size)``.

    Every distinct symbol of ``ids`` is expanded once into a phrase table;
    the output is then one short copy per id, from a table far smaller than
    the output, made 16 bytes at a time.  (Indices are unsigned so that
    Numba emits no wraparound checks.)
    """
    if out.shape[0] < size:
        return -1
    n_symbols = n_terminals + merges.shape[0]
    used = np.zeros(n_symbols, np.bool_)
    for s in ids:
        if s < 0 or s >= n_symbols:
            return -1
        used[s] = True
    offsets, table = phrase_table(merges, n_terminals, terminals, lengths,
                                   used, size)
    if table.shape[0] == 0:
        return -1
    pos = np.uint64(0)
    end = np.uint64(size)
    for i in range(ids.shape[0]):
        s = np.uint64(ids[i])
        n = np.uint64(lengths[s])
        if pos + n > end:
            return -1
        copy_within(out, pos, table, offsets[s], n, end)
        pos += n
    return np.int64(pos)


@njit(cache=True, nogil=True)
def expand_coded(section, sizes, code_lengths, merges, n_terminals, terminals,
                 lengths, n_ids, out, size):
    """``expand`` of ``n_ids`` ids Huffman-coded in ``section`` (the streams
    of ``kernels.huffman.decode``), each copied out as soon as it is decoded, so
    that the decoder's chain of bit positions overlaps the copying.  The
    symbols with codes are the ones used.  Returns the length written, or
    -1 if the codes or the expansion do not fit exactly."""
    if out.shape[0] < size:
        return -1
    used = code_lengths > 0
    offsets, table = phrase_table(merges, n_terminals, terminals, lengths,
                                   used, size)
    if table.shape[0] == 0:
        return -1
    # Each code's payload is its phrase entry.
    dtable = _huffman.decode_table(
        code_lengths, (offsets.astype(np.int64) << PHRASE_SHIFT) | lengths)
    m = sizes.shape[0]
    padded, base, bitpos = _huffman.streams(section, sizes, (n_ids + m - 1) // m)
    pos = np.uint64(0)
    end = np.uint64(size)
    # While four of the longest phrases and a copy's overrun fit before
    # ``end``, four phrases are copied with no check of their own.
    room = np.uint64(4) * longest_phrase(lengths, used) + np.uint64(COPY_WIDTH)
    i = 0
    if m == _huffman.STREAMS:
        p0, p1, p2, p3 = bitpos[0], bitpos[1], bitpos[2], bitpos[3]
        while i + 4 <= n_ids:
            for _ in range(min(_huffman.CHECK_EVERY, (n_ids - i) // 4)):
                e0, n0 = _huffman.read(padded, p0, dtable)
                e1, n1 = _huffman.read(padded, p1, dtable)
                e2, n2 = _huffman.read(padded, p2, dtable)
                e3, n3 = _huffman.read(padded, p3, dtable)
                if n0 == 0 or n1 == 0 or n2 == 0 or n3 == 0:
                    return -1
                p0 += np.uint64(n0)
                p1 += np.uint64(n1)
                p2 += np.uint64(n2)
                p3 += np.uint64(n3)
                if pos + room <= end:
                    for e in (e0, e1, e2, e3):
                        copy(out, pos, table, phrase_offset(e), phrase_length(e))
                        pos += phrase_length(e)
                else:
                    for e in (e0, e1, e2, e3):
                        if not _fits(pos, e, end):
                            return -1
                        pos = _emit(out, pos, table, e, end)
                i += 4
            if not (_huffman.within(p0, base, sizes, 0)
                    and _huffman.within(p1, base, sizes, 1)
                    and _huffman.within(p2, base, sizes, 2)
                    and _huffman.within(p3, base, sizes, 3)):
                return -1
        bitpos[0], bitpos[1], bitpos[2], bitpos[3] = p0, p1, p2, p3
    # The rest (fewer than four ids when there are four streams), one by one.
    rest = np.empty(n_ids - i, np.int64)
    if not _huffman.read_payloads(padded, base, sizes, bitpos, dtable, i, rest):
        return -1
    for entry in rest:
        if not _fits(pos, entry, end):
            return -1
        pos = _emit(out, pos, table, entry, end)
    if not _huffman.ends_cleanly(padded, base, sizes, bitpos):
        return -1
    return np.int64(pos)


@njit(cache=True, nogil=True)
def symbol_classes(merges, n_terminals, terminal_classes):
    """Each symbol's class: its phrase's last byte's, ``terminal_classes``
    giving the terminals' (a merge's is its right half's)."""
    classes = np.empty(n_terminals + merges.shape[0], np.uint8)
    classes[:n_terminals] = terminal_classes
    for k in range(merges.shape[0]):
        classes[n_terminals + k] = classes[merges[k, 1]]
    return classes


@njit(cache=True, nogil=True)
def expand_contextual(section, sizes, starts, code_lengths, classes, merges, n_terminals,
                      terminals, lengths, n_ids, out, size):
    """``expand`` of ``n_ids`` ids coded in two contexts: the ids in four
    segments, segment k (ids ``k * n_ids // 4`` up to ``(k + 1) * n_ids //
    4``) in stream k of ``section``, expanding to ``out[starts[k]:starts[k +
    1]]``; each id coded with ``code_lengths[classes[the id before it in its
    segment]]``, a segment's first with ``code_lengths[0]``.  The four
    segments are decoded abreast, each its own chain of bit positions and
    contexts.  ``starts`` (5 values, from 0 to ``size``) must not decrease.
    Returns the length written, or -1 if the codes or the expansion do not
    fit exactly."""
    if out.shape[0] < size:
        return -1
    used = (code_lengths[0] > 0) | (code_lengths[1] > 0)
    offsets, table = phrase_table(merges, n_terminals, terminals, lengths, used, size)
    if table.shape[0] == 0:
        return -1
    # Each code's payload is its phrase entry and, in the low bit, its class.
    payloads = np.empty(lengths.shape[0], np.int64)
    for s in range(lengths.shape[0]):
        payloads[s] = (((np.int64(offsets[s]) << PHRASE_SHIFT) | lengths[s]) << 1) | classes[s]
    first = _huffman.decode_table(code_lengths[0], payloads)
    tables = np.concatenate((first, _huffman.decode_table(code_lengths[1], payloads)))
    second = np.int64(first.shape[0])  # where context 1's table starts
    # While the longest phrase and a copy's overrun fit before each
    # segment's end, the four phrases are copied with no check of their own.
    room = longest_phrase(lengths, used) + np.uint64(COPY_WIDTH)
    padded, base, bitpos = _huffman.streams(section, sizes, n_ids // 4 + 1)
    p0, p1, p2, p3 = bitpos[0], bitpos[1], bitpos[2], bitpos[3]
    q0, q1, q2, q3 = (np.uint64(starts[0]), np.uint64(starts[1]),
                      np.uint64(starts[2]), np.uint64(starts[3]))
    end0, end1, end2, end3 = (np.uint64(starts[1]), np.uint64(starts[2]),
                              np.uint64(starts[3]), np.uint64(starts[4]))
    t0 = t1 = t2 = t3 = np.int64(0)
    rounds = n_ids // 4  # ids in the shortest segment, the first
    done = 0
    while done < rounds:
        run = min(_huffman.CHECK_EVERY, rounds - done)
        for _ in range(run):
            ok, (e0, e1, e2, e3), (p0, p1, p2, p3) = _huffman.read_abreast(
                padded, p0, p1, p2, p3, tables, t0, t1, t2, t3)
            if not ok:
                return -1
            t0 = -(e0 & 1) & second
            t1 = -(e1 & 1) & second
            t2 = -(e2 & 1) & second
            t3 = -(e3 & 1) & second
            e0 >>= 1
            e1 >>= 1
            e2 >>= 1
            e3 >>= 1
            if (q0 + room <= end0 and q1 + room <= end1 and q2 + room <= end2
                    and q3 + room <= end3):
                copy(out, q0, table, phrase_offset(e0), phrase_length(e0))
                copy(out, q1, table, phrase_offset(e1), phrase_length(e1))
                copy(out, q2, table, phrase_offset(e2), phrase_length(e2))
                copy(out, q3, table, phrase_offset(e3), phrase_length(e3))
                q0 += phrase_length(e0)
                q1 += phrase_length(e1)
                q2 += phrase_length(e2)
                q3 += phrase_length(e3)
                continue
            if not (_fits(q0, e0, end0) and _fits(q1, e1, end1)
                    and _fits(q2, e2, end2) and _fits(q3, e3, end3)):
                return -1
            q0 = _emit(out, q0, table, e0, end0)
            q1 = _emit(out, q1, table, e1, end1)
            q2 = _emit(out, q2, table, e2, end2)
            q3 = _emit(out, q3, table, e3, end3)
        done += run
        if not (_huffman.within(p0, base, sizes, 0) and _huffman.within(p1, base, sizes, 1)
                and _huffman.within(p2, base, sizes, 2) and _huffman.within(p3, base, sizes, 3)):
            return -1
    bitpos[0], bitpos[1], bitpos[2], bitpos[3] = p0, p1, p2, p3
    pos = np.array([q0, q1, q2, q3], np.uint64)
    context = np.array([t0, t1, t2, t3], np.int64)
    # The segments after the first may hold one id more.
    for k in range(4):
        for _ in range((k + 1) * n_ids // 4 - k * n_ids // 4 - rounds):
            e, n = _huffman.read_in(padded, bitpos[k], tables, context[k])
            if n == 0 or not _huffman.within(bitpos[k] + np.uint64(n), base, sizes, k):
                return -1
            bitpos[k] += np.uint64(n)
            context[k] = (e & 1) * second
            e >>= 1
            end = np.uint64(starts[k + 1])
            if not _fits(pos[k], e, end):
                return -1
            pos[k] = _emit(out, pos[k], table, e, end)
        if pos[k] != np.uint64(starts[k + 1]):
            return -1
    if not _huffman.ends_cleanly(padded, base, sizes, bitpos):
        return -1
    return np.int64(size)


@njit(cache=True, nogil=True)
def longest_phrase(lengths, used):
    """The length of the longest phrase of a used symbol."""
    longest = np.uint64(0)
    for s in range(used.shape[0]):
        if used[s] and np.uint64(lengths[s]) > longest:
            longest = np.uint64(lengths[s])
    return longest


@njit(cache=True, nogil=True, inline='always')
def _fits(pos, entry, end):
    """Whether the phrase of ``entry`` ends at or before ``end``."""
    return pos + phrase_length(entry) <= end


@njit(cache=True, nogil=True, inline='always')
def _emit(out, pos, table, entry, end):
    """Copy the phrase of ``entry`` to ``out[pos:]``, which it fits, writing
    nothing past ``end``; the position after it."""
    n = phrase_length(entry)
    copy_within(out, pos, table, phrase_offset(entry), n, end)
    return pos + n


@njit(cache=True, nogil=True)
def phrase_table(merges, n_terminals, terminals, lengths, used, size):
    """``(offsets, table)``: the expansion of every used symbol, laid end to
    end with COPY_WIDTH bytes of padding; an empty table if they would be
    longer than ``size`` (each used symbol occurs in the output, so a valid
    table is no larger: refuse before allocating it).

    Usually every symbol's expansion fits in ``size`` bytes together (a
    grammar keeps few merges it does not use); then each is written as its
    two halves' copies, in order, which is the fastest way.  Otherwise only
    the used ones are, each walked down to symbols already written."""
    n_symbols = n_terminals + merges.shape[0]
    offsets = np.zeros(n_symbols, np.uint64)
    total = np.uint64(0)
    for s in range(n_symbols):
        total += np.uint64(lengths[s])
    if total <= np.uint64(size):
        return _all_phrases(merges, n_terminals, terminals, lengths, offsets, total)
    table_size = np.uint64(0)
    for s in range(n_symbols):
        if used[s]:
            offsets[s] = table_size
            table_size += np.uint64(lengths[s])
            if table_size > np.uint64(size):
                return offsets, np.empty(0, np.uint8)
    table = np.empty(table_size + np.uint64(COPY_WIDTH), np.uint8)
    for s in range(n_terminals):
        if used[s]:
            table[offsets[s]] = terminals[s]
    stack = np.empty(merges.shape[0] + 2, np.int32)
    for s in range(n_terminals, n_symbols):
        if used[s]:
            _write_phrase(merges, n_terminals, terminals, used, offsets,
                          lengths, stack, s, table)
    return offsets, table


@njit(cache=True, nogil=True)
def _all_phrases(merges, n_terminals, terminals, lengths, offsets, total):
    """The phrase table of every symbol (``total`` bytes), each merge
    written as copies of its two halves, which come before it."""
    table = np.empty(total + np.uint64(COPY_WIDTH), np.uint8)
    pos = np.uint64(0)
    for s in range(n_terminals):
        offsets[s] = pos
        table[pos] = terminals[s]
        pos += np.uint64(1)
    for k in range(merges.shape[0]):
        offsets[n_terminals + k] = pos
        left, right = merges[k, 0], merges[k, 1]
        # Each copy may run COPY_WIDTH - 1 bytes past its phrase, into
        # space written next or the padding.
        copy(table, pos, table, offsets[left], np.uint64(lengths[left]))
        pos += np.uint64(lengths[left])
        copy(table, pos, table, offsets[right], np.uint64(lengths[right]))
        pos += np.uint64(lengths[right])
    return offsets, table


@njit(cache=True, nogil=True, inline='always')
def copy(out, pos, table, src, n):
    """Copy ``n`` bytes 16 at a time; most phrases take one unconditional
    16-byte copy."""
    eight = np.uint64(8)
    store8(out, pos, load8(table, src))
    store8(out, pos + eight, load8(table, src + eight))
    t = np.uint64(COPY_WIDTH)
    while t < n:
        store8(out, pos + t, load8(table, src + t))
        store8(out, pos + t + eight, load8(table, src + t + eight))
        t += np.uint64(COPY_WIDTH)


@njit(cache=True, nogil=True, inline='always')
def copy_within(out, pos, table, src, n, end):
    """``copy``, but writing nothing past ``end``: the last phrases of an
    output go 8 bytes at a time while 8 fit, then byte by byte, so that
    outputs need no padding and can be the caller's own buffer."""
    if pos + n + np.uint64(COPY_WIDTH) <= end:
        copy(out, pos, table, src, n)
        return
    # Of a 70-byte record a fifth lies here: byte moves alone cost it 5%.
    eight, t = np.uint64(8), np.uint64(0)
    while t < n and pos + t + eight <= end:
        store8(out, pos + t, load8(table, src + t))
        t += eight
    while t < n:
        out[pos + t] = table[src + t]
        t += np.uint64(1)


@njit(cache=True, nogil=True, inline='always')
def next_leaf(merges, n_terminals, stack, top, limit, stops):
    """One step of a walk down an expansion, the one walk every expansion
    takes: pop ``stack[:top]`` until a symbol below ``limit`` or marked in
    ``stops`` comes off, replacing each other symbol by its two halves, left
    on top.  Returns that symbol and the new height, or (-1, 0) once the
    stack is empty.  The stack needs a place per merge, plus two."""
    while top > 0:
        top -= 1
        s = stack[top]
        if s < limit or stops[s]:
            return s, top
        k = s - n_terminals
        stack[top] = merges[k, 1]
        stack[top + 1] = merges[k, 0]
        top += 2
    return -1, 0


@njit(cache=True, nogil=True)
def _write_phrase(merges, n_terminals, terminals, used, offsets, lengths,
                  stack, s0, table):
    """Expand merge symbol ``s0`` into its slot of the phrase table,
    copying the phrases of smaller used symbols, which are already
    written (a merge refers only to earlier symbols)."""
    pos = offsets[s0]
    k = s0 - n_terminals
    stack[0] = merges[k, 1]
    stack[1] = merges[k, 0]
    s, top = next_leaf(merges, n_terminals, stack, 2, n_terminals, used)
    while s >= 0:
        if s < n_terminals:
            table[pos] = terminals[s]
            pos += np.uint64(1)
        else:
            # May write up to COPY_WIDTH - 1 bytes past the phrase: into
            # later slots, written after this one, or the table's padding.
            copy(table, pos, table, offsets[s], np.uint64(lengths[s]))
            pos += np.uint64(lengths[s])
        s, top = next_leaf(merges, n_terminals, stack, top, n_terminals, used)


@njit(cache=True, nogil=True)
def unmerge(merges, ids, n_terminals, keep, n_out):
    """Undo every merge from ``keep`` on: rewrite ``ids`` over the symbols
    below ``n_terminals + keep`` (the sequence as it stood after ``keep``
    merges), which has ``n_out`` symbols."""
    limit = n_terminals + keep
    out = np.empty(n_out, np.int32)
    stack = np.empty(merges.shape[0] + 2, np.int32)
    stops = np.zeros(n_terminals + merges.shape[0], np.bool_)
    pos = 0
    for s0 in ids:
        stack[0] = s0
        s, top = next_leaf(merges, n_terminals, stack, 1, limit, stops)
        while s >= 0:
            out[pos] = s
            pos += 1
            s, top = next_leaf(merges, n_terminals, stack, top, limit, stops)
    return out
