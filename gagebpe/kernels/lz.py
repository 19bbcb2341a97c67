"""LZ77 with optimal parsing: a block as literals and copies, the kernels
of the LZ and LZ_PARTS codings (``format.codings.lz``).

A grammar pays for each rule in its table; a file of a few kilobytes has
too few repeats to pay for many.  A copy (how far back, how long) costs
its codes where it is used, so small blocks and code, whose repeats are
long and seen two or three times, code smaller as copies.

The block is a sequence of **tokens**: a literal byte, or a copy of at
least MIN_COPY bytes from ``distance`` bytes back (its source may overlap
it: a run).  Two canonical Huffman codes cover them:

- the *literal/length code*: symbols 0..255 are literals, 256 + s a copy
  whose length - MIN_COPY lies in slot s;
- the *distance code*, read after each copy's length: symbols below
  ``nreps`` repeat a recent copy's distance (LZ: the last, 1 before the
  first copy; LZ_PARTS: one of the last three distinct), ``nreps + s`` a
  distance - 1 in slot s.

An LZ_PARTS block is such tokens in parts, each with its own two codes,
so that the codes follow a large block's data as it changes.

A value's **slot** is itself below 4; else, with n = floor(log2 v), it is
2n plus the bit below the top one, and the n - 1 bits below that follow
the code as they are (``slot``, ``slot_base``, ``slot_extra``).

Parsing is optimal for the prices of the last pass: a shortest path over
positions, each step a literal or a copy of any length up to a match found
there (hash chains over MIN_COPY bytes in a small block, binary trees in
a large one) or at a repeat distance of the path.  Prices start from the
bytes' frequencies and are re-estimated from each parse's codes.
``matches`` and ``parse`` take a range of the block, so that a large
block is parsed a segment at a time, its match finder spanning the whole
block.
"""
import numpy as np

from . import huffman as _huffman
from .._jit import njit
from ..plain import lz as plain_lz
from .bits import highest_bit, lowest_bit
from .repeats import move
from .unaligned import copy_bytes, load4, load8, load8_be, store8

MIN_COPY = 3
SLOTS = 52  # values below 2^26: every length and distance a block has
LITERALS = 256
# Repeat distances: an LZ_PARTS block keeps REPS, each with a distance
# symbol (0 the latest), starting from FIRST_REPS; an LZ block gives one
# a symbol.  Each kernel takes ``nreps``, the number with symbols.
REPS, FIRST_REPS = plain_lz.REPS, plain_lz.FIRST_REPS
# Codes are at most this long, so that a code is found with one look-up
# in a table of 2^MAX_CODE entries (the Canterbury files under 64 KB code
# no larger than with 15-bit codes).
MAX_CODE = 11
# The literal/length code's longest is made this short, or as near as it
# goes, where that costs the block no bits: the decoder's table has
# 2^(longest code) entries, and filling 2^11 of them was a tenth of
# decoding a 4 KB block (docs/notes/2026-12-05-small-block-decoding.md).
SHORT_CODE = plain_lz.SHORT_CODE
# A match this long ends the search for longer ones, is extended as far
# as it goes, and is taken whole, not tried at every shorter length: it
# keeps parsing linear on runs and long repeats.
NICE = 258
HASH_BITS = 15
# Binary trees' buckets: more than chains', as a 4 MiB block's 3-byte
# strings would crowd 2^15 trees (docs/DESIGN.md, "What each try buys", LZ).
TREE_HASH_BITS = 18
# Bytes of zero padding a token stream needs after it (decode).
PADDING = 32
# An LZ payload: the literal/length code's slots (u8), the distance code's
# (u8), then the bit stream.  An LZ_PARTS part: its size (u32), its slots
# as LZ's, its bit stream's bytes (u32), then the bit stream.
HEAD = 2
PART_HEAD = plain_lz.PART.size
PROBLEMS = (None,
            "LZ block shorter than its header, or with more slots than a block uses",
            "LZ block's code-length table is malformed",
            "LZ block's literal/length code is not a complete prefix code",
            "LZ block's distance code is not a complete prefix code",
            "LZ block's tokens disagree with their codes or overrun it",
            "LZ block's copy reaches outside it",
            "LZ block has bits after its last token",
            "LZ_PARTS block's parts are malformed or disagree with its size")
(BAD_HEAD, BAD_TABLE, BAD_LITERAL_CODE, BAD_DISTANCE_CODE, BAD_TOKEN, BAD_COPY,
 BAD_END, BAD_PART) = range(1, len(PROBLEMS))


@njit(cache=True, nogil=True, inline='always')
def slot(v):
    """The slot of ``v`` (a length less MIN_COPY, or a distance less 1):
    ``v`` itself below 4, else twice its highest bit's index plus the bit
    below it."""
    if v < 4:
        return v
    n = highest_bit(np.uint64(v))
    return 2 * n + ((v >> (n - 1)) & 1)


@njit(cache=True, nogil=True, inline='always')
def slot_extra(s):
    """The bits that follow slot ``s``'s code."""
    return 0 if s < 4 else (s >> 1) - 1


@njit(cache=True, nogil=True, inline='always')
def slot_base(s):
    return s if s < 4 else (2 | (s & 1)) << ((s >> 1) - 1)


# -- parsing ----------------------------------------------------------------------

@njit(cache=True, nogil=True)
def finder(n, tree):
    """``(head, links)``: an empty match finder for a block of ``n``
    bytes: hash chains, or binary trees if ``tree``."""
    if tree:
        return np.full(1 << TREE_HASH_BITS, -1, np.int32), np.full(2 * max(n, 1), -1, np.int32)
    return np.full(1 << HASH_BITS, -1, np.int32), np.full(max(n, 1), -1, np.int32)


@njit(cache=True, nogil=True)
def matches(data, start, end, head, links, depth, tree):
    """The matches at each position of ``data[start:end]`` (uint8), looking
    back over the whole block through the finder ``(head, links)`` (of
    ``finder(n, tree)``), which it extends, visiting at most ``depth``
    candidates a position: ``(starts, lengths, distances)``, position
    start + i's in ``starts[i]:starts[i + 1]``, each longer than the one
    before (the nearest source of each length found), none past ``end``;
    the search stops at a match of NICE bytes or more, and is not made
    inside it, which the parse takes whole."""
    starts = np.zeros(end - start + 1, np.int64)
    lengths = np.empty(max(end - start, 2 * NICE), np.int32)
    distances = np.empty(lengths.shape[0], np.int32)
    i, found, skip_to = start, 0, start
    while True:
        # The scan stops where the arrays might not hold a position's
        # matches; they grow out here, since an array reassigned inside
        # the scan's loop costs it a reference count at every step (4x).
        i, found, skip_to = _scan(data, i, start, end, head, links, depth, tree, skip_to,
                                  starts, lengths, distances, found)
        if i == end:
            break
        lengths, distances = _grown(lengths), _grown(distances)
    starts[end - start] = found
    return starts, lengths[:found], distances[:found]


@njit(cache=True, nogil=True, inline='always')
def chain_hash(data, i, bits):
    """The hash, in ``bits`` bits, of the MIN_COPY bytes at ``data[i]``."""
    key = (np.int64(data[i]) << 16) | (np.int64(data[i + 1]) << 8) | np.int64(data[i + 2])
    return ((key * 2654435761) >> (32 - bits)) & ((1 << bits) - 1)


@njit(cache=True, nogil=True, leaf=True)
def _scan(data, i, start, end, head, links, depth, tree, skip_to, starts, lengths, distances,
          found):
    """``matches`` from position ``i`` on, while the arrays have room for
    one position's matches (fewer than NICE: each is longer than the
    last): ``(where it stopped, found, skip_to)``."""
    n = data.shape[0]
    capacity = lengths.shape[0]
    while i < end:
        if capacity - found < NICE:
            return i, found, skip_to
        starts[i - start] = found
        if i + MIN_COPY <= n:
            if tree:
                found, skip_to = _tree_step(data, i, end, head, links, depth, skip_to, lengths,
                                            distances, found)
            else:
                found, skip_to = _chain_step(data, i, end, head, links, depth, skip_to, lengths,
                                             distances, found)
        i += 1
    return i, found, skip_to


@njit(cache=True, nogil=True, inline='always')
def _chain_step(data, i, end, head, chain, max_chain, skip_to, lengths, distances, found):
    """Position ``i``'s matches by its hash chain, then ``i`` added to it:
    ``(found, skip_to)``."""
    h = chain_hash(data, i, HASH_BITS)
    limit = min(NICE, end - i)
    best = MIN_COPY - 1
    j = np.int64(head[h])
    steps = 0
    while j >= 0 and steps < max_chain and limit >= MIN_COPY and i >= skip_to:
        steps += 1
        if data[j + best] == data[i + best]:
            k = _common(data, i, j, 0, limit)
            if k == NICE:
                k += _match_length(data, i + k, j + k, end - i - k)
            if k > best:
                lengths[found] = k
                distances[found] = i - j
                found += 1
                best = k
                if k >= limit:
                    skip_to = i + k
                    break
        j = np.int64(chain[j])
    chain[i] = head[h]
    head[h] = i
    return found, skip_to


@njit(cache=True, nogil=True, inline='always')
def _tree_step(data, i, end, head, son, depth, skip_to, lengths, distances, found):
    """Position ``i``'s matches by binary trees, ``i`` inserted as it goes:
    ``(found, skip_to)``.  Each hash bucket's positions form a binary
    search tree of the suffixes that start there, compared over NICE
    bytes, the newest at the root; a position is inserted by walking down
    from the root, splitting the tree into the suffixes less and greater
    than its own, which become its children.  The walk meets the
    candidates that share the longest prefixes with it, so ``depth``
    candidates find what chains find in thousands (docs/DESIGN.md, "What
    each try buys", LZ).  Inside a long match it inserts, not records."""
    n = data.shape[0]
    h = chain_hash(data, i, TREE_HASH_BITS)
    candidate = np.int64(head[h])
    head[h] = i
    limit = min(NICE, n - i)  # the tree orders suffixes within the block
    room = end - i  # matches are recorded within the segment
    record = i >= skip_to
    less, greater = 2 * i, 2 * i + 1  # the slots the next less or greater node goes to
    less_length = greater_length = 0
    best = MIN_COPY - 1
    replaced = False
    for _ in range(depth):
        if candidate < 0:
            break
        # Every node under this one shares this many bytes with i's suffix.
        k = _common(data, i, candidate, min(less_length, greater_length), limit)
        if record and min(k, room) > best:
            best = min(k, room)
            if best == NICE:
                best += _match_length(data, i + best, candidate + best, room - best)
            lengths[found] = best
            distances[found] = i - candidate
            found += 1
            if best >= min(NICE, room):
                skip_to = i + best
                record = False
        if k == limit:
            # The candidate's suffix equals i's as far as the tree
            # compares: i takes its place and its children.
            son[less] = son[2 * candidate]
            son[greater] = son[2 * candidate + 1]
            replaced = True
            break
        if data[candidate + k] < data[i + k]:
            son[less] = candidate
            less = 2 * candidate + 1
            less_length = k
            candidate = np.int64(son[less])
        else:
            son[greater] = candidate
            greater = 2 * candidate
            greater_length = k
            candidate = np.int64(son[greater])
    if not replaced:
        # The walk ended below the tree or at its depth: what is left
        # under it is dropped.
        son[less] = -1
        son[greater] = -1
    return found, skip_to


@njit(cache=True, nogil=True)
def _grown(a):
    b = np.empty(2 * a.shape[0], a.dtype)
    b[:a.shape[0]] = a
    return b


@njit(cache=True, nogil=True, inline='always')
def _match_length(data, i, j, limit):
    """How many of the bytes from ``i`` on, at most ``limit``, equal those
    from ``j`` on; ``i + limit`` is within ``data``."""
    return _common(data, i, j, 0, limit)


@njit(cache=True, nogil=True, inline='always')
def _common(data, i, j, k, limit):
    """``_match_length`` knowing that the first ``k`` bytes are equal;
    eight bytes at a time."""
    while k + 8 <= limit:
        x = load8(data, i + k) ^ load8(data, j + k)
        if x != 0:
            return k + (lowest_bit(x) >> 3)
        k += 8
    while k < limit and data[j + k] == data[i + k]:
        k += 1
    return k


@njit(cache=True, nogil=True, inline='always')
def length_prices(slot_prices, n):
    """The price of a copy of each length up to NICE, for a parse of ``n``
    bytes (no copy runs past their end): its length slot's code
    (``slot_prices[s]``) and the slot's extra bits."""
    length_price = np.zeros(NICE + 1)
    for length in range(MIN_COPY, min(NICE, n) + 1):
        s = slot(length - MIN_COPY)
        length_price[length] = slot_prices[s] + slot_extra(s)
    return length_price


@njit(cache=True, nogil=True, inline='always')
def _offer(cost, step, source, i, shortest, longest, d, base_cost, literal_price, length_price):
    """Offer the copies of ``shortest..longest`` bytes from ``d`` back at
    ``i``, each costing ``base_cost`` plus its length's code and bits
    (``length_price`` up to NICE); past NICE, only the longest.  Inlined:
    called for each match and repeat distance, the call was a quarter of
    a parse's time (and split at NICE, the loop ran slower still)."""
    for length in range(shortest, longest + 1):
        if length <= NICE:
            c = base_cost + length_price[length]
        elif length < longest:
            continue
        else:
            s = slot(length - MIN_COPY)
            c = base_cost + literal_price[LITERALS + s] + slot_extra(s)
        if c < cost[i + length]:
            cost[i + length] = c
            step[i + length] = length
            source[i + length] = d


@njit(cache=True, nogil=True, inline='always')
def _moved(r0, r1, r2, d):
    """The three repeat distances ``r0, r1, r2`` after a copy from ``d``
    back: ``d`` moved to the front if it is one of them, else pushed in
    front, the last one dropped (docs/FORMAT.md, section 4.14)."""
    if d == r0:
        return r0, r1, r2
    if d == r1:
        return d, r0, r2
    return d, r0, r1


@njit(cache=True, nogil=True, inline='always')
def move_to_front(reps, d):
    """``_moved``, in place on the array ``reps``."""
    reps[0], reps[1], reps[2] = _moved(reps[0], reps[1], reps[2], d)


@njit(cache=True, nogil=True)
def parse(data, start, end, starts, lengths, distances, reps, nreps, literal_price,
          distance_price):
    """The cheapest tokens of ``data[start:end]`` at these prices (bits of
    each literal/length and distance symbol, extra bits added here), given
    its ``matches`` and the repeat distances before it (``reps``, of which
    the first ``nreps`` have distance symbols): ``(lengths, distances)``
    per token, length 1 and distance 0 for a literal."""
    n = end - start
    cost = np.full(n + 1, np.inf)
    cost[0] = 0.0
    step = np.zeros(n + 1, np.int32)  # length of the token ending here
    source = np.zeros(n + 1, np.int32)  # its distance (0: a literal)
    # The repeat distances on the cheapest path to each position, found
    # when the parse reaches it, its path then being final.
    path_reps = np.empty((n + 1, REPS), np.int32)
    path_reps[0, 0], path_reps[0, 1], path_reps[0, 2] = reps[0], reps[1], reps[2]
    length_price = length_prices(literal_price[LITERALS:], n)
    i = 0
    while i < n:
        here = cost[i]
        if i:  # element by element: a row's view would count references
            back = i - step[i]
            r0, r1, r2 = path_reps[back, 0], path_reps[back, 1], path_reps[back, 2]
            if source[i]:
                r0, r1, r2 = _moved(r0, r1, r2, source[i])
            path_reps[i, 0], path_reps[i, 1], path_reps[i, 2] = r0, r1, r2
        c = here + literal_price[data[start + i]]
        if c < cost[i + 1]:
            cost[i + 1] = c
            step[i + 1] = 1
            source[i + 1] = 0
        longest = 0
        if n - i >= MIN_COPY:
            for r in range(nreps):
                d = path_reps[i, r]
                if d <= start + i:
                    length = _match_length(data, start + i, start + i - d, n - i)
                    _offer(cost, step, source, i, MIN_COPY, length, d,
                           here + distance_price[r], literal_price, length_price)
                    longest = max(longest, length)
        shorter = MIN_COPY - 1
        for m in range(starts[i], starts[i + 1]):
            length_to = lengths[m]
            d = distances[m]
            ds = slot(d - 1)
            _offer(cost, step, source, i, shorter + 1, length_to, d,
                   here + distance_price[nreps + ds] + slot_extra(ds), literal_price,
                   length_price)
            shorter = length_to
            longest = max(longest, length_to)
        # Past a long match, positions inside it are not tried: its end
        # is reached from here or not at all.
        i = i + longest if longest >= NICE else i + 1
    count = 0
    i = n
    while i > 0:
        i -= step[i]
        count += 1
    token_lengths = np.empty(count, np.int32)
    token_distances = np.empty(count, np.int32)
    i = n
    while i > 0:
        count -= 1
        token_lengths[count] = step[i]
        token_distances[count] = source[i]
        i -= step[i]
    return token_lengths, token_distances


@njit(cache=True, nogil=True)
def symbols(data, start, reps, nreps, token_lengths, token_distances):
    """Each token's literal/length symbol and its distance symbol (-1 for a
    literal), and its length's and distance's extra values, for tokens
    from ``start`` on in ``data``; ``reps``, the repeat distances before
    them, of which the first ``nreps`` have symbols, become those after."""
    count = token_lengths.shape[0]
    literal_symbols = np.empty(count, np.int32)
    distance_symbols = np.full(count, -1, np.int32)
    length_extra = np.zeros(count, np.int32)
    distance_extra = np.zeros(count, np.int32)
    pos = start
    for t in range(count):
        length = token_lengths[t]
        d = token_distances[t]
        if d == 0:
            literal_symbols[t] = data[pos]
        else:
            (literal_symbols[t], length_extra[t], distance_symbols[t],
             distance_extra[t]) = copy_symbols(length, d, reps, nreps)
        pos += length
    return literal_symbols, distance_symbols, length_extra, distance_extra


@njit(cache=True, nogil=True)
def best_pass(data, start, end, starts, lengths, distances, reps, nreps, literal_price,
              distance_price, passes):
    """``passes`` (at least one) parses of ``data[start:end]`` given its
    ``matches``, the first at these prices, each after at the codes of the
    one before: ``(symbols, bit stream, literal/length code lengths,
    distance code lengths)`` of the one whose stream is shortest (the
    first of equals), ``symbols`` as ``symbols`` gives them, and the
    prices of the last pass's codes.  ``reps`` become the repeat distances
    after the one kept.  One call: from Python, the steps between parses
    were a third of a small block's time."""
    best = _pass(data, start, end, starts, lengths, distances, reps, nreps, literal_price,
                 distance_price)
    last = best
    for _ in range(passes - 1):
        last = _pass(data, start, end, starts, lengths, distances, reps, nreps,
                     prices(last[2], LITERALS + SLOTS), prices(last[3], nreps + SLOTS))
        if last[1].shape[0] < best[1].shape[0]:
            best = last
    reps[:] = best[4]
    return (best[0], best[1], best[2], best[3], prices(last[2], LITERALS + SLOTS),
            prices(last[3], nreps + SLOTS))


@njit(cache=True, nogil=True)
def _pass(data, start, end, starts, lengths, distances, reps, nreps, literal_price,
          distance_price):
    """One parse at these prices: ``(symbols, bit stream, literal/length
    code lengths, distance code lengths, repeat distances after)``."""
    token_lengths, token_distances = parse(data, start, end, starts, lengths, distances, reps,
                                           nreps, literal_price, distance_price)
    after = reps.copy()
    coded = symbols(data, start, after, nreps, token_lengths, token_distances)
    stream, literal_lengths, distance_lengths = pack(coded[0], coded[1], coded[2], coded[3],
                                                     nreps)
    return coded, stream, literal_lengths, distance_lengths, after


@njit(cache=True, nogil=True)
def prices(code_lengths, n):
    """The bits of each of ``n`` symbols after a parse: its code length, or
    one more than the longest for a symbol without a code."""
    price = np.full(n, code_lengths.max() + 1.0)
    for s in range(code_lengths.shape[0]):
        if code_lengths[s]:
            price[s] = code_lengths[s]
    return price


@njit(cache=True, nogil=True, inline='always')
def copy_symbols(length, d, reps, nreps):
    """A copy's literal/length symbol, its length's extra value, its
    distance symbol and its distance's extra value; the copy's distance
    ``d`` is moved to the front of ``reps``."""
    v = length - MIN_COPY
    s = slot(v)
    r = 0
    while r < nreps and reps[r] != d:
        r += 1
    if r < nreps:
        distance_symbol, distance_extra = r, 0
    else:
        ds = slot(d - 1)
        distance_symbol, distance_extra = nreps + ds, d - 1 - slot_base(ds)
    move_to_front(reps, d)
    return LITERALS + s, v - slot_base(s), distance_symbol, distance_extra


# Code-length tables: each length 0..MAX_CODE is a symbol of its own, and
# runs are symbols with extra bits: ZEROS (3..10 zeros, 3 bits), MORE_ZEROS
# (11..138 zeros, 7 bits), AGAIN (the last length 3..6 more times, 2 bits).
ZEROS, MORE_ZEROS, AGAIN = MAX_CODE + 1, MAX_CODE + 2, MAX_CODE + 3
TABLE_SYMBOLS = MAX_CODE + 4
TABLE_CODE = 7  # the longest code of a table symbol, so 3 bits give its length
TABLE_CODE_BITS = 3


@njit(cache=True, nogil=True)
def table_symbols(lengths):
    """The code lengths ``lengths`` as ``(table symbols, extra values)``."""
    out = np.zeros(lengths.shape[0], np.int32)
    extra = np.zeros(lengths.shape[0], np.int64)
    count = _table_symbols_into(lengths, out, extra)
    return out[:count], extra[:count]


# The plain path's function, compiled: one algorithm for both paths.
_table_symbols_into = njit(cache=True, nogil=True)(plain_lz.table_symbols_into)


@njit(cache=True, nogil=True, inline='always')
def table_extra(s):
    return 3 if s == ZEROS else 7 if s == MORE_ZEROS else 2 if s == AGAIN else 0


@njit(cache=True, nogil=True, leaf=True)
def _put(out, acc, nbits, pos, value, width):
    """Append the ``width`` (at most 32) low bits of ``value``, MSB first:
    the writer's state after.  Whole 32-bit words are stored as they fill,
    not byte by byte (a byte loop per token was most of ``pack``'s time)."""
    acc = (acc << np.uint64(width)) | np.uint64(value)
    nbits += np.int64(width)
    if nbits >= 32:
        nbits -= 32
        word = acc >> np.uint64(nbits)
        out[pos] = np.uint8((word >> np.uint64(24)) & np.uint64(0xFF))
        out[pos + 1] = np.uint8((word >> np.uint64(16)) & np.uint64(0xFF))
        out[pos + 2] = np.uint8((word >> np.uint64(8)) & np.uint64(0xFF))
        out[pos + 3] = np.uint8(word & np.uint64(0xFF))
        pos += 4
    return acc, nbits, pos


@njit(cache=True, nogil=True, leaf=True)
def _flush(out, acc, nbits, pos):
    """Store the writer's last bits, the last byte padded with zero bits."""
    while nbits >= 8:
        nbits -= 8
        out[pos] = np.uint8((acc >> np.uint64(nbits)) & np.uint64(0xFF))
        pos += 1
    if nbits:
        out[pos] = np.uint8((acc << np.uint64(8 - nbits)) & np.uint64(0xFF))


@njit(cache=True, nogil=True, inline='always')
def _used(freq, least):
    """One past the largest symbol with a nonzero frequency, or ``least``
    if that is more (``freq`` has at least ``least`` entries)."""
    n = freq.shape[0]
    while n > least and freq[n - 1] == 0:
        n -= 1
    return n


@njit(cache=True, nogil=True)
def code_lengths_of(literal_freq, distance_freq, nreps):
    """``(literal/length code lengths, distance code lengths)`` for symbols
    of these frequencies, each over the symbols up to the largest used (the
    literals and the ``nreps`` repeats at least); no distance code where
    no symbol has one."""
    literal_freq = literal_freq[:_used(literal_freq, LITERALS)]
    distance_freq = distance_freq[:_used(distance_freq, nreps)]
    if distance_freq.any():
        distance_lengths = _huffman.code_lengths(distance_freq, MAX_CODE)
    else:
        distance_lengths = np.zeros(distance_freq.shape[0], np.uint8)
    literal_lengths = _huffman.code_lengths(literal_freq, MAX_CODE)
    if literal_lengths.max() <= SHORT_CODE:
        return literal_lengths, distance_lengths
    bits = _code_bits(literal_freq, literal_lengths, distance_lengths)
    for limit in range(SHORT_CODE, literal_lengths.max()):
        shorter = _huffman.code_lengths(literal_freq, limit)
        if _code_bits(literal_freq, shorter, distance_lengths) <= bits:
            return shorter, distance_lengths
    return literal_lengths, distance_lengths


@njit(cache=True, nogil=True, inline='always')
def _code_bits(literal_freq, literal_lengths, distance_lengths):
    """The bits that the literal/length code ``literal_lengths`` costs: its
    symbols' (of these frequencies) and the code-length table's."""
    total = table_bits(np.concatenate((literal_lengths, distance_lengths)))
    for s in range(literal_freq.shape[0]):
        total += literal_freq[s] * literal_lengths[s]
    return total


@njit(cache=True, nogil=True)
def table_bits(lengths):
    """The bits of the code-length table of ``lengths`` (``write``'s)."""
    table, _ = table_symbols(lengths)
    return _table_bits(table, _table_lengths(table))


@njit(cache=True, nogil=True)
def _table_lengths(table):
    """The code lengths of the table symbols ``table`` (``table_symbols``'s)."""
    table_freq = np.zeros(TABLE_SYMBOLS, np.int64)
    for s in table:
        table_freq[s] += 1
    return _huffman.code_lengths(table_freq, TABLE_CODE)


@njit(cache=True, nogil=True, inline='always')
def _table_bits(table, table_lengths):
    """The bits of a code-length table of these symbols in these codes:
    the codes' lengths first, then each symbol's code and extra bits."""
    total = np.int64(TABLE_SYMBOLS * TABLE_CODE_BITS)
    for t in range(table.shape[0]):
        total += np.int64(table_lengths[table[t]]) + table_extra(table[t])
    return total


@njit(cache=True, nogil=True)
def pack(literal_symbols, distance_symbols, length_extra, distance_extra, nreps):
    """``(bit stream, literal/length code lengths, distance code lengths)``
    of tokens with these symbols (``symbols``), in the codes their
    frequencies give (``code_lengths_of``): one call, where the steps
    from Python were a sixth of a small block's coding time."""
    literal_freq = np.zeros(LITERALS + SLOTS, np.int64)
    distance_freq = np.zeros(nreps + SLOTS, np.int64)
    for t in range(literal_symbols.shape[0]):
        literal_freq[literal_symbols[t]] += 1
        if distance_symbols[t] >= 0:
            distance_freq[distance_symbols[t]] += 1
    literal_lengths, distance_lengths = code_lengths_of(literal_freq, distance_freq, nreps)
    lengths = np.concatenate((literal_lengths, distance_lengths))
    stream = write(lengths, literal_symbols, distance_symbols, length_extra, distance_extra,
                   literal_lengths, distance_lengths, nreps)
    return stream, literal_lengths, distance_lengths


@njit(cache=True, nogil=True)
def write(lengths, literal_symbols, distance_symbols, length_extra, distance_extra,
          literal_lengths, distance_lengths, nreps):
    """The bit stream of a token stream, padded with zero bits to a byte:
    the code-length table of ``lengths`` (the literal/length code's, then
    the distance code's), then the tokens, the first ``nreps`` distance
    symbols repeats."""
    out, acc, nbits, pos = _start(lengths, coded_bits(
        literal_symbols, distance_symbols, literal_lengths, distance_lengths, nreps))
    put_tokens(out, acc, nbits, pos, literal_symbols, distance_symbols, length_extra,
               distance_extra, _huffman.canonical_codes(literal_lengths), literal_lengths,
               _huffman.canonical_codes(distance_lengths), distance_lengths, nreps)
    return out


@njit(cache=True, nogil=True)
def _start(lengths, token_bits):
    """``(out, writer state)``: a stream's bytes, room for the code-length
    table of ``lengths`` and ``token_bits`` of tokens, the table written."""
    table, table_values = table_symbols(lengths)
    table_lengths = _table_lengths(table)
    table_codes = _huffman.canonical_codes(table_lengths)
    total = _table_bits(table, table_lengths) + token_bits
    out = np.zeros((total + 7) // 8, np.uint8)
    acc = np.uint64(0)
    nbits = pos = 0
    for s in range(TABLE_SYMBOLS):
        acc, nbits, pos = _put(out, acc, nbits, pos, table_lengths[s], TABLE_CODE_BITS)
    for t in range(table.shape[0]):
        s = table[t]
        acc, nbits, pos = _put(out, acc, nbits, pos, table_codes[s], table_lengths[s])
        acc, nbits, pos = _put(out, acc, nbits, pos, table_values[t], table_extra(s))
    return out, acc, nbits, pos


@njit(cache=True, nogil=True, inline='always')
def put_tokens(out, acc, nbits, pos, literal_symbols, distance_symbols, length_extra,
               distance_extra, literal_codes, literal_lengths, distance_codes, distance_lengths,
               nreps):
    """Append the tokens (``symbols``) in these codes to the writer's state
    (``_put``'s), then pad to a byte."""
    for t in range(literal_symbols.shape[0]):
        s = literal_symbols[t]
        if s < LITERALS:
            acc, nbits, pos = _put(out, acc, nbits, pos, literal_codes[s], literal_lengths[s])
        else:
            acc, nbits, pos = _put_copy(out, acc, nbits, pos, s, length_extra[t],
                                        distance_symbols[t], distance_extra[t], literal_codes,
                                        literal_lengths, distance_codes, distance_lengths, nreps)
    _flush(out, acc, nbits, pos)


@njit(cache=True, nogil=True, inline='always')
def _put_copy(out, acc, nbits, pos, s, length_extra, d, distance_extra, literal_codes,
              literal_lengths, distance_codes, distance_lengths, nreps):
    """Append a copy of literal/length symbol ``s`` and distance symbol
    ``d``, with their extra values: the writer's state after."""
    acc, nbits, pos = _put(out, acc, nbits, pos, literal_codes[s], literal_lengths[s])
    acc, nbits, pos = _put(out, acc, nbits, pos, length_extra, slot_extra(s - LITERALS))
    acc, nbits, pos = _put(out, acc, nbits, pos, distance_codes[d], distance_lengths[d])
    if d >= nreps:
        acc, nbits, pos = _put(out, acc, nbits, pos, distance_extra, slot_extra(d - nreps))
    return acc, nbits, pos


@njit(cache=True, nogil=True)
def pack_copies(data, copies, reps, nreps):
    """``pack`` for the tokens of block ``data`` (uint8) that ``copies``
    (``kernels.greedy.copies``: rows of gap, distance, length) and a
    literal for each byte they leave make, without an array per token:
    a block of mostly literals is then coded at the speed of its bytes.
    ``reps`` as for ``symbols``."""
    n, m = data.shape[0], copies.shape[0]
    length_symbols = np.empty(m, np.int32)
    distance_symbols = np.empty(m, np.int32)
    length_extra = np.empty(m, np.int32)
    distance_extra = np.empty(m, np.int32)
    literal_freq = np.zeros(LITERALS + SLOTS, np.int64)
    distance_freq = np.zeros(nreps + SLOTS, np.int64)
    at = 0
    for c in range(m + 1):
        end = at + copies[c, 0] if c < m else n
        for k in range(at, end):
            literal_freq[data[k]] += 1
        if c == m:
            break
        (length_symbols[c], length_extra[c], distance_symbols[c],
         distance_extra[c]) = copy_symbols(copies[c, 2], copies[c, 1], reps, nreps)
        literal_freq[length_symbols[c]] += 1
        distance_freq[distance_symbols[c]] += 1
        at = end + copies[c, 2]
    literal_lengths, distance_lengths = code_lengths_of(literal_freq, distance_freq, nreps)
    token_bits = coded_bits(length_symbols, distance_symbols, literal_lengths, distance_lengths,
                            nreps)
    for b in range(LITERALS):
        token_bits += literal_freq[b] * literal_lengths[b]
    out, acc, nbits, pos = _start(np.concatenate((literal_lengths, distance_lengths)),
                                  token_bits)
    literal_codes = _huffman.canonical_codes(literal_lengths)
    distance_codes = _huffman.canonical_codes(distance_lengths)
    at = 0
    for c in range(m + 1):
        end = at + copies[c, 0] if c < m else n
        for k in range(at, end):
            b = data[k]
            acc, nbits, pos = _put(out, acc, nbits, pos, literal_codes[b], literal_lengths[b])
        if c == m:
            break
        acc, nbits, pos = _put_copy(out, acc, nbits, pos, length_symbols[c], length_extra[c],
                                    distance_symbols[c], distance_extra[c], literal_codes,
                                    literal_lengths, distance_codes, distance_lengths, nreps)
        at = end + copies[c, 2]
    _flush(out, acc, nbits, pos)
    return out, literal_lengths, distance_lengths


@njit(cache=True, nogil=True, leaf=True)
def coded_bits(literal_symbols, distance_symbols, literal_lengths, distance_lengths, nreps):
    """Bits of the tokens in these codes, extra bits included."""
    total = np.int64(0)
    for t in range(literal_symbols.shape[0]):
        s = literal_symbols[t]
        total += literal_lengths[s]
        if s >= LITERALS:
            total += slot_extra(s - LITERALS)
            d = distance_symbols[t]
            total += distance_lengths[d]
            if d >= nreps:
                total += slot_extra(d - nreps)
    return total


# -- decoding ---------------------------------------------------------------------
#
# A decoding table has an entry for each value of the next ``bits`` bits:
# the payload of the symbol whose code they start with, shifted left by 4,
# and the code's length (0: no code).  The literal/length code's payloads
# are a literal, or COPY_FLAG with the copy's extra bits and smallest
# length; the distance code's, a repeat's index shifted left by 1, or
# DISTANCE_FLAG with the extra bits and the smallest distance.  So a
# token costs two look-ups and no arithmetic on slots.
#
# The literal/length table also holds **pairs**: where a literal's code
# and the next symbol's, a literal too, fit the ``bits`` looked up, the
# entry holds both literals (from bits 4 and 13), PAIR, their codes'
# lengths together in bits 0..3 and the first's alone from bit 21.  On
# text, whose literals' codes are short, a look-up then yields two
# literals about half the time: fewer turns of the token loop, each a
# literal-or-copy branch the processor mispredicts often.

COPY_FLAG = 1 << 8
DISTANCE_FLAG = 1
_COPY = COPY_FLAG << 4  # the flag in an entry
_SECOND, _FIRST_LENGTH, _PAIR = 13, 21, 25
PAIR = 1 << _PAIR


@njit(cache=True, nogil=True)
def _code_table(lengths, payloads):
    """The one-level decoding table (2^bits entries, ``bits`` the longest
    length, each at most MAX_CODE) of the code with these lengths, symbol
    s decoding to ``(payloads[s] << 4) | length``, followed by ``bits``;
    ``[0]`` (no bits) unless the code is complete or a single code of one
    bit (``huffman.is_complete``).  One pass over the lengths counts them,
    checks the code and assigns the canonical codes."""
    # Counted four ways: most of a literal code's lengths are runs of
    # zeros, whose increments would each wait for the last one's store.
    counts = _huffman.length_counts(lengths)
    bits = kraft = used = 0
    for n in range(1, MAX_CODE + 1):
        if counts[n]:
            bits = n
        kraft += counts[n] << (MAX_CODE - n)
        used += counts[n]
    if kraft != np.int64(1) << (MAX_CODE - 1 if used == 1 else MAX_CODE):
        return np.zeros(1, np.int64)
    # A complete code fills every entry; a single code fills half.
    entries = 2 if used == 1 else np.int64(1) << bits
    table = np.zeros(entries + 1, np.int64) if used == 1 else np.empty(entries + 1, np.int64)
    table[entries] = bits
    code = np.int64(0)
    for n in range(1, MAX_CODE + 1):  # counts become each length's next code
        code, counts[n] = (code + counts[n]) << 1, code
    # Unsigned indices: Numba tests a signed one for a negative value at
    # each store, which halves the speed of this loop.
    for s in range(lengths.shape[0]):
        n = np.uint64(lengths[s])
        if n:
            span = np.uint64(1) << (np.uint64(bits) - n)
            j = np.uint64(counts[n]) * span
            counts[n] += 1
            entry = (np.int64(payloads[s]) << 4) | np.int64(n)
            for _ in range(span):
                table[j] = entry
                j += np.uint64(1)
    return table


@njit(cache=True, nogil=True)
def _with_pairs(table):
    """The literal/length decoding ``table`` (``_code_table``'s) with its
    literals' entries made pairs where they can be."""
    bits = table[-1]
    entries = table.shape[0] - 1
    mask = entries - 1
    for j in range(entries):
        first = table[j]
        n = first & 15
        if first & _COPY or n == 0 or n >= bits:
            continue
        second = table[(j << n) & mask]  # made a pair already if before j
        m = _first_length(second)
        if second & _COPY or m == 0 or n + m > bits:
            continue
        # n + m < 16: adding m makes the length field the pair's
        table[j] = (first + m) | ((second >> 4) & 255) << _SECOND | n << _FIRST_LENGTH | PAIR
    return table


@njit(cache=True, nogil=True, inline='always')
def _first_length(entry):
    """The length of the code of an entry's first symbol."""
    return (entry >> _FIRST_LENGTH) & 15 if entry & PAIR else entry & 15


# The most bits of a token's part: a code and the extra bits of the last
# slot (``slot_extra(SLOTS - 1)``).
WINDOW_NEED = MAX_CODE + ((SLOTS - 1) >> 1) - 1


@njit(cache=True, nogil=True, inline='always')
def _window(padded, bitpos):
    """``(window, valid bits)``: the 57 to 64 bits at ``bitpos``, MSB first."""
    shift = bitpos & np.uint64(7)
    return load8_be(padded, bitpos >> np.uint64(3)) << shift, 64 - np.int64(shift)


@njit(cache=True, nogil=True, inline='always')
def _top(window, n):
    """The ``n`` (at most 32) top bits of ``window``."""
    return np.int64((window >> np.uint64(32)) >> np.uint64(32 - n))


@njit(cache=True, nogil=True, inline='always')
def _skip(window, avail, bitpos, n):
    """``(window, avail, bitpos)`` after ``n`` bits are read from the window."""
    return window << np.uint64(n), avail - n, bitpos + np.uint64(n)


@njit(cache=True, nogil=True, inline='always')
def _bits(padded, bitpos, n):
    """The ``n`` (at most 32) bits at ``bitpos``."""
    return _top(_window(padded, bitpos)[0], n)


@njit(cache=True, nogil=True)
def _read_table(padded, bitpos, end, lengths):
    """``(problem, bit position after)``: fill ``lengths`` from the
    code-length table at ``bitpos``.  Its bits are read from a window
    reloaded only where a symbol's code and extra bits (at most TABLE_CODE
    and 7) could run past it, as ``tokens`` reads: a 4 KB block's two
    tables are a tenth of its decoding."""
    table_lengths = np.empty(TABLE_SYMBOLS, np.uint8)
    window, avail = _window(padded, bitpos)
    for s in range(TABLE_SYMBOLS):  # 45 bits: within the window's 57
        table_lengths[s] = _top(window, TABLE_CODE_BITS)
        window, avail, bitpos = _skip(window, avail, bitpos, TABLE_CODE_BITS)
    table = _code_table(table_lengths, _TABLE_PAYLOADS)
    bits = table[-1]
    if bits == 0:
        return BAD_TABLE, bitpos
    shift = np.uint64(64 - bits)
    n = lengths.shape[0]
    i = 0
    while i < n:
        if bitpos > end:
            return BAD_TABLE, bitpos
        if avail < TABLE_CODE + 7:
            window, avail = _window(padded, bitpos)
        entry = table[window >> shift]
        if entry == 0:
            return BAD_TABLE, bitpos
        s = entry >> 4
        window, avail, bitpos = _skip(window, avail, bitpos, entry & 15)
        if s <= MAX_CODE:
            lengths[i] = s
            i += 1
            continue
        extra = table_extra(s)
        run = _top(window, extra)
        window, avail, bitpos = _skip(window, avail, bitpos, extra)
        value = 0
        if s == AGAIN:
            if i == 0:
                return BAD_TABLE, bitpos
            value = lengths[i - 1]
            run += 3
        else:
            run += 3 if s == ZEROS else 11
        if run > n - i:
            return BAD_TABLE, bitpos
        lengths[i:i + run] = value
        i += run
    return 0, bitpos


def _payload_tables():
    """The decoding tables' payloads (``plain.lz.payloads``) of every
    literal/length symbol, and of every distance symbol for each number of
    repeat distances: constants, not built for each block."""
    literal, _ = plain_lz.payloads(SLOTS, 0, 0)
    distance = np.zeros((REPS + 1, REPS + SLOTS), np.int64)
    for nreps in range(REPS + 1):
        row = plain_lz.payloads(0, SLOTS, nreps)[1]
        distance[nreps, :len(row)] = row
    return np.array(literal, np.int64), distance


_LITERAL_PAYLOADS, _DISTANCE_PAYLOADS = _payload_tables()
_TABLE_PAYLOADS = np.arange(TABLE_SYMBOLS)


@njit(cache=True, nogil=True)
def decode(padded, bitpos, end, length_slots, distance_slots, nreps, out, pos, size, reps):
    """Decode a token stream, its code-length table first, from bits
    ``bitpos`` to ``end`` of ``padded`` (followed by at least PADDING bytes
    of zeros) into ``out[pos:size]``, which it must fill exactly, copies
    reaching back to ``out[0]``; ``reps``, the repeat distances before it
    (the first ``nreps`` with symbols), become those after.  ``(0 or a
    problem number (PROBLEMS), the bit position after)``."""
    n_literal = LITERALS + length_slots
    lengths = np.empty(n_literal + nreps + distance_slots, np.uint8)
    problem, bitpos = _read_table(padded, np.uint64(bitpos), np.uint64(end), lengths)
    if problem:
        return problem, bitpos
    # Pairs cost a pass over the table and save a turn of the token loop
    # for about every other literal: worth it from about two literals an
    # entry, so where the tokens' bytes reach four times its entries.
    pairs = size - pos >= np.int64(4) << MAX_CODE
    problem, literal, distance = decoding_tables(lengths[:n_literal], lengths[n_literal:],
                                                 nreps, pairs)
    if problem:
        return problem, bitpos
    return tokens(padded, bitpos, end, literal, distance, out, 0, pos, size, reps,
                  np.empty(0, np.uint8))


@njit(cache=True, nogil=True)
def decoding_tables(literal_lengths, distance_lengths, nreps, pairs):
    """``(0 or a problem number, literal/length table, distance table)``:
    the decoding tables of these codes (``_code_table``), each table's
    entries followed by its bits, so that one array holds both; the
    literal/length table with pairs if ``pairs`` (``_with_pairs``)."""
    literal = _code_table(literal_lengths, _LITERAL_PAYLOADS)
    if literal[-1] == 0:
        return BAD_LITERAL_CODE, literal, literal
    if distance_lengths.any():
        distance = _code_table(distance_lengths, _DISTANCE_PAYLOADS[nreps])
        if distance[-1] == 0:
            return BAD_DISTANCE_CODE, literal, distance
    else:  # a block without copies needs no distance code
        distance = np.array([0, 0, 1], np.int64)
    if pairs:
        literal = _with_pairs(literal)
    return 0, literal, distance


@njit(cache=True, nogil=True)
def tokens(padded, bitpos, end, literal, distance, out, first, pos, size, reps, content):
    """The tokens from bit ``bitpos`` to ``end`` of ``padded`` (followed by
    at least PADDING bytes of zeros), in the codes of the tables ``literal``
    and ``distance`` (``decoding_tables``), decoded into ``out[pos:size]``,
    which they must fill exactly; a block begins at ``out[first]`` and
    follows ``content``, so that copies reach back to ``out[first]`` and
    then into ``content`` (none: an empty one).  ``reps``, the repeat
    distances before them, become those after.  ``(0 or a problem number
    (PROBLEMS), the bit position after)``."""
    # Unsigned indices: a signed one costs a test for a negative index on
    # the path from one code's look-up to the next.
    literal_shift = np.uint64(64 - literal[-1])
    distance_shift = np.uint64(64 - distance[-1])
    end = np.uint64(end)
    bitpos = np.uint64(bitpos)
    before = content.shape[0]
    r0, r1, r2 = np.int64(reps[0]), np.int64(reps[1]), np.int64(reps[2])
    # The bits from ``bitpos`` on, MSB first, ``avail`` of them valid, are
    # kept in ``window`` and reloaded only where the bits a look-up or
    # extra bits need could run past them (a reload holds at least 57):
    # a look-up then mostly waits on a shift, not on a load from the
    # stream, and a literal's turn of the loop reloads one time in four.
    window, avail = _window(padded, bitpos)
    while pos < size:
        # A token reads at most 2 * WINDOW_NEED bits: an overrun shows
        # here, before the padding runs out.
        if bitpos > end:
            return BAD_TOKEN, bitpos
        if avail < MAX_CODE:
            window, avail = _window(padded, bitpos)
        entry = literal[window >> literal_shift]
        if entry == 0:
            return BAD_TOKEN, bitpos
        if not entry & _COPY:
            # One literal or a pair, written alike: a single literal's
            # second byte is written over by the token after it.
            if pos + 1 < size:
                out[pos] = entry >> 4
                out[pos + 1] = entry >> _SECOND
                window, avail, bitpos = _skip(window, avail, bitpos, entry & 15)
                pos += 1 + (entry >> _PAIR)
            else:  # the block's last byte: a pair's first literal only
                out[pos] = entry >> 4
                window, avail, bitpos = _skip(window, avail, bitpos, _first_length(entry))
                pos += 1
            continue
        window, avail, bitpos = _skip(window, avail, bitpos, entry & 15)
        p = entry >> 4
        extra = (p >> 9) & 31
        # A copy reloads the window whatever is left in it: the test of
        # whether its length's extra bits and distance's code fit went
        # either way, a mispredicted branch per copy.
        window, avail = _window(padded, bitpos)
        length = (p >> 14) + _top(window, extra)
        window, avail, bitpos = _skip(window, avail, bitpos, extra)
        # The distance's look-up repeats the literal's, written out: one
        # step each in the loop every token takes, with no call between.
        entry = distance[window >> distance_shift]
        if entry == 0:
            return BAD_TOKEN, bitpos
        window, avail, bitpos = _skip(window, avail, bitpos, entry & 15)
        p = entry >> 4
        if p & DISTANCE_FLAG:
            extra = (p >> 1) & 31
            if avail < extra:
                window, avail = _window(padded, bitpos)
            r2 = r1
            r1 = r0
            r0 = (p >> 6) + _top(window, extra)
            window, avail, bitpos = _skip(window, avail, bitpos, extra)
        elif p:  # a repeat other than the latest, moved to the front
            d = r1
            if p == 4:
                d = r2
                r2 = r1
            r1 = r0
            r0 = d
        last = r0
        if length > size - pos:
            return BAD_COPY, bitpos
        if last > pos - first:
            if last > pos - first + before:
                return BAD_COPY, bitpos
            _copy_from_content(out, first, pos, last, length, content)
        elif last >= 8 and pos + length + 16 <= size:
            # Eight bytes at a time, past the copy's end: what is written
            # there is written again by the tokens after it.  Sixteen
            # first, whatever the length: most copies are shorter, and a
            # loop's exit at a varying count is a mispredicted branch.
            store8(out, pos, load8(out, pos - last))
            store8(out, pos + 8, load8(out, pos - last + 8))
            k = 16
            while k < length:
                store8(out, pos + k, load8(out, pos - last + k))
                k += 8
        else:
            move(out, pos, pos - last, length)
        pos += length
    reps[0], reps[1], reps[2] = r0, r1, r2
    if bitpos > end:
        return BAD_TOKEN, bitpos
    spare = end - bitpos
    if spare >= np.uint64(8) or _bits(padded, bitpos, np.int64(spare)) != 0:
        return BAD_END, bitpos
    return 0, bitpos


@njit(cache=True, nogil=True, inline='always')
def _copy_from_content(out, first, pos, last, length, content):
    """A copy whose source begins ``last - (pos - first)`` bytes before the
    block, in ``content``, and may run on into the block: the content's
    part by memcpy (it cannot overlap the output), the rest front to back
    from the block's first byte."""
    source = content.shape[0] - (last - (pos - first))
    inside = min(length, content.shape[0] - source)
    copy_bytes(out, pos, content, source, inside)
    if length > inside:
        move(out, pos + inside, first, length - inside)


@njit(cache=True, nogil=True, inline='always')
def with_padding(stream):
    """``stream`` followed by PADDING bytes of zeros, for whole-word reads."""
    n = stream.shape[0]
    out = np.empty(n + PADDING, np.uint8)
    copy_bytes(out, 0, stream, 0, n)
    out[n:] = 0
    return out


@njit(cache=True, nogil=True)
def decode_payload(payload, out):
    """Decode the LZ payload ``payload`` into ``out``, which it must fill
    exactly; 0 or a problem number (PROBLEMS)."""
    if payload.shape[0] < HEAD or payload[0] > SLOTS or payload[1] > SLOTS:
        return BAD_HEAD
    n = payload.shape[0] - HEAD
    buffer = with_padding(payload[HEAD:])
    reps = np.array(FIRST_REPS, np.int64)
    return decode(buffer, 0, 8 * n, np.int64(payload[0]), np.int64(payload[1]), 1, out, 0,
                  out.shape[0], reps)[0]


@njit(cache=True, nogil=True)
def decode_parts(payload, out):
    """Decode the LZ_PARTS payload ``payload`` into ``out``, which it must
    fill exactly; 0 or a problem number (PROBLEMS)."""
    n = payload.shape[0]
    buffer = with_padding(payload)
    reps = np.array(FIRST_REPS, np.int64)
    size = out.shape[0]
    at = pos = 0
    while pos < size:
        if n - at < PART_HEAD:
            return BAD_PART
        part = np.int64(load4(buffer, at))
        stream = np.int64(load4(buffer, at + 6))
        if (part == 0 or part > size - pos or payload[at + 4] > SLOTS
                or payload[at + 5] > SLOTS or stream > n - at - PART_HEAD):
            return BAD_PART
        at += PART_HEAD
        problem = decode(buffer, 8 * at, 8 * (at + stream), np.int64(payload[at - 6]),
                         np.int64(payload[at - 5]), REPS, out, pos, pos + part, reps)[0]
        if problem:
            return problem
        at += stream
        pos += part
    return BAD_PART if at != n else 0
