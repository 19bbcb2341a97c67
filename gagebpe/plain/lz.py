"""The LZ coding in plain Python (docs/FORMAT.md, section 4.11): the same
matches, optimal parse, codes and bits as the kernels of ``gagebpe.kernels.lz``
and the payload ``gagebpe.format.codings.lz`` writes, for a block small enough
to code without them; and the decoders of LZ and of LZ_PARTS (section
4.14).

The parse compares float prices, so both paths take their first prices
from ``first_prices`` here and add them in the same order: the same
doubles, the same choices.  Byte comparisons that the kernel makes one at
a time are made here on slices, which compare in C and give the same
lengths.
"""
import math
import struct
from collections import Counter

from . import huffman
from .bits import MASK64, BitReader, BitWriter

MIN_COPY = 3
SLOTS = 52
LITERALS = 256
REPEAT = 0
MAX_CODE = 11
SHORT_CODE = 9  # kernels.lz.SHORT_CODE
NICE = 258
HASH_BITS = 15
HASH_MULTIPLIER = 2654435761
HEAD = 2
ZEROS, MORE_ZEROS, AGAIN = MAX_CODE + 1, MAX_CODE + 2, MAX_CODE + 3
TABLE_SYMBOLS = MAX_CODE + 4
TABLE_CODE = 7
TABLE_CODE_BITS = 3
HUFFMAN_MAX_LENGTH = 20  # what the kernels' completeness check allows
# The kernel's PROBLEMS numbers.
(BAD_HEAD, BAD_TABLE, BAD_LITERAL_CODE, BAD_DISTANCE_CODE, BAD_TOKEN, BAD_COPY,
 BAD_END, BAD_PART) = range(1, 9)
FIRST_REPS = (1, 2, 3)  # the repeat distances before a block's first token
REPS = 3  # repeat distances with symbols in LZ_PARTS (LZ has 1)
PART = struct.Struct("<IBBI")  # an LZ_PARTS part's head (section 4.14)


def slot(v):
    return v if v < 4 else 2 * (v.bit_length() - 1) + ((v >> (v.bit_length() - 2)) & 1)


def slot_extra(s):
    return 0 if s < 4 else (s >> 1) - 1


def slot_base(s):
    return s if s < 4 else (2 | (s & 1)) << ((s >> 1) - 1)


def table_extra(s):
    return 3 if s == ZEROS else 7 if s == MORE_ZEROS else 2 if s == AGAIN else 0


# -- prices -------------------------------------------------------------------------

def first_prices(freq, n):
    """``(literal/length prices, distance prices)`` before any parse of a
    block of ``n`` bytes whose byte counts are ``freq``, as lists of
    floats: literals by their frequencies, copies about as deflate's fixed
    codes price them.  The kernels' first prices too."""
    literal = [-math.log2(f / n) if f else 12.0 for f in freq] + [7.0] * SLOTS
    distance = [5.0] * (1 + SLOTS)
    distance[REPEAT] = 2.0
    return literal, distance


def histogram(data):
    """How many times each byte value occurs in ``data``."""
    counts = Counter(data)
    return [counts.get(v, 0) for v in range(256)]


def prices(literal_lengths, distance_lengths):
    """The bits of each symbol after a parse: its code length, or one more
    than the longest for a symbol without a code."""
    return _price(literal_lengths, LITERALS + SLOTS), _price(distance_lengths, 1 + SLOTS)


def _price(lengths, n):
    missing = float(max(lengths)) + 1.0
    return [float(v) if v else missing for v in lengths] + [missing] * (n - len(lengths))


# -- parsing ----------------------------------------------------------------------

def matches(data, max_chain):
    """For each position of ``data``, its matches as a list of ``(length,
    distance)``, each longer than the one before (``kernels.lz.matches`` over the
    whole block)."""
    n = len(data)
    mask = (1 << HASH_BITS) - 1
    shift = 32 - HASH_BITS
    head = [-1] * (1 << HASH_BITS)
    chain = [-1] * max(n, 1)
    found = [()] * n
    skip_to = 0
    for i in range(n - MIN_COPY + 1):
        h = ((((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]) * HASH_MULTIPLIER)
             >> shift) & mask
        j = head[h]
        chain[i] = j
        head[h] = i
        if j < 0 or i < skip_to:
            continue
        most = n - i
        limit = NICE if most > NICE else most
        best = MIN_COPY - 1
        here = []
        steps = max_chain
        while True:
            if data[j + best] == data[i + best] and data[j:j + best] == data[i:i + best]:
                best = _common(data, i, j, best + 1, most)
                here.append((best, i - j))
                if best >= limit:
                    skip_to = i + best
                    break
            steps -= 1
            j = chain[j]
            if j < 0 or not steps:
                break
        found[i] = here
    return found


def _common(data, i, j, known, most):
    """How many bytes from ``i`` and from ``j`` agree, at most ``most``,
    given that the first ``known`` do: 32 bytes at a time, the first
    difference found from the top bit of their exclusive or."""
    while known < most:
        take = most - known if most - known < 32 else 32
        a = i + known
        b = j + known
        x = int.from_bytes(data[a:a + take], "big") ^ int.from_bytes(data[b:b + take], "big")
        if x:
            return known + take - 1 - ((x.bit_length() - 1) >> 3)
        known += take
    return known


def parse(data, found, literal_price, distance_price):
    """The cheapest tokens of ``data`` at these prices, as ``kernels.lz.parse``
    finds them: ``(lengths, distances)``, distance 0 for a literal.  The
    costs are summed in the kernel's order, so they are the same doubles."""
    n = len(data)
    cost = [math.inf] * (n + 1)
    cost[0] = 0.0
    step = [0] * (n + 1)
    source = [0] * (n + 1)
    last = [1] * (n + 1)
    length_price = [0.0] * (NICE + 1)
    for length in range(MIN_COPY, NICE + 1):
        s = slot(length - MIN_COPY)
        length_price[length] = literal_price[LITERALS + s] + slot_extra(s)
    slot_price = [distance_price[1 + s] for s in range(SLOTS)]
    slot_bits = [slot_extra(s) for s in range(SLOTS)]
    slots = _distance_slots(n)
    repeat_price = distance_price[REPEAT]
    i = 0
    while i < n:
        here = cost[i]
        offer_literal(cost, step, source, last, i, here + literal_price[data[i]])
        d = last[i]
        longest = 0
        # The last distance: a copy from it of MIN_COPY bytes or more.
        if d <= i and n - i >= MIN_COPY and data[i - d:i - d + MIN_COPY] == data[i:i + MIN_COPY]:
            longest = _common(data, i, i - d, MIN_COPY, n - i)
            _offer(cost, step, source, last, i, MIN_COPY, longest, d, here + repeat_price,
                   literal_price, length_price)
        shorter = MIN_COPY
        for length_to, d in found[i] if i < len(found) else ():
            ds = slots[d]
            _offer(cost, step, source, last, i, shorter, length_to, d,
                   here + slot_price[ds] + slot_bits[ds], literal_price, length_price)
            shorter = length_to + 1
            if length_to > longest:
                longest = length_to
        i = i + longest if longest >= NICE else i + 1
    lengths, distances = [], []
    i = n
    while i > 0:
        lengths.append(step[i])
        distances.append(source[i])
        i -= step[i]
    lengths.reverse()
    distances.reverse()
    return lengths, distances


_slots = [0]  # slot(d - 1) for each distance d, grown as blocks need


def offer_literal(cost, step, source, last, i, c):
    """Take a literal at ``i``, of ``c`` bits from the start, where that is
    the cheapest way to ``i + 1`` yet.  Both paths' parse: ``kernels.lz``
    compiles this function."""
    if c < cost[i + 1]:
        cost[i + 1] = c
        step[i + 1] = 1
        source[i + 1] = 0
        last[i + 1] = last[i]


def _distance_slots(n):
    while len(_slots) <= n:
        _slots.append(slot(len(_slots) - 1))
    return _slots


def _offer(cost, step, source, last, i, shortest, longest, d, base_cost, literal_price,
           length_price):
    """Offer the copies of ``shortest..longest`` bytes from ``d`` back at
    ``i``: past NICE, only the longest.  The plain twin of
    ``kernels.lz._offer``, which it follows step for step."""
    at = i + shortest
    for price in length_price[shortest:min(longest, NICE) + 1]:
        c = base_cost + price
        if c < cost[at]:
            cost[at] = c
            step[at] = at - i
            source[at] = d
            last[at] = d
        at += 1
    if longest > NICE:
        s = slot(longest - MIN_COPY)
        c = base_cost + literal_price[LITERALS + s] + slot_extra(s)
        if c < cost[i + longest]:
            cost[i + longest] = c
            step[i + longest] = longest
            source[i + longest] = d
            last[i + longest] = d


def symbols(data, lengths, distances):
    """Each token's literal/length symbol, distance symbol (-1 for a
    literal), and its length's and distance's extra values."""
    literal_symbols, distance_symbols, length_extra, distance_extra = [], [], [], []
    pos, last = 0, 1
    for length, d in zip(lengths, distances):
        if d == 0:
            literal_symbols.append(data[pos])
            distance_symbols.append(-1)
            length_extra.append(0)
            distance_extra.append(0)
        else:
            v = length - MIN_COPY
            s = slot(v)
            literal_symbols.append(LITERALS + s)
            length_extra.append(v - slot_base(s))
            if d == last:
                distance_symbols.append(REPEAT)
                distance_extra.append(0)
            else:
                s = slot(d - 1)
                distance_symbols.append(1 + s)
                distance_extra.append(d - 1 - slot_base(s))
            last = d
        pos += length
    return literal_symbols, distance_symbols, length_extra, distance_extra


def code_lengths(literal_symbols, distance_symbols):
    """The literal/length and distance codes' lengths for these symbols,
    each over the symbols up to the largest used (``format.codings.lz``)."""
    top = max(literal_symbols)
    copies = top >= LITERALS
    length_slots = top - LITERALS + 1 if copies else 0
    distance_slots = max(max(distance_symbols), 0)
    literal_freq = [0] * (LITERALS + length_slots)
    for s in literal_symbols:
        literal_freq[s] += 1
    distance_freq = [0] * (1 + distance_slots)
    for s in distance_symbols:
        if s >= 0:
            distance_freq[s] += 1
    distance_lengths = (huffman.code_lengths(distance_freq, MAX_CODE) if copies
                        else [0] * (1 + distance_slots))
    return literal_code(literal_freq, distance_lengths), distance_lengths


def literal_code(literal_freq, distance_lengths):
    """The literal/length code's lengths for symbols of these frequencies:
    its longest code SHORT_CODE bits, or as near as it goes, where that
    costs no bits, else MAX_CODE (``kernels.lz.code_lengths_of``)."""
    lengths = huffman.code_lengths(literal_freq, MAX_CODE)
    if max(lengths) <= SHORT_CODE:
        return lengths
    bits = _code_bits(literal_freq, lengths, distance_lengths)
    for limit in range(SHORT_CODE, max(lengths)):
        shorter = huffman.code_lengths(literal_freq, limit)
        if _code_bits(literal_freq, shorter, distance_lengths) <= bits:
            return shorter
    return lengths


def _code_bits(literal_freq, literal_lengths, distance_lengths):
    """The bits of the literal/length code's symbols and the code-length table."""
    table, _ = table_symbols(literal_lengths + distance_lengths)
    table_freq = [0] * TABLE_SYMBOLS
    for s in table:
        table_freq[s] += 1
    table_lengths = huffman.code_lengths(table_freq, TABLE_CODE)
    return (TABLE_SYMBOLS * TABLE_CODE_BITS
            + sum(table_lengths[s] + table_extra(s) for s in table)
            + sum(f * n for f, n in zip(literal_freq, literal_lengths)))


def table_symbols(lengths):
    """Code lengths as ``(table symbols, extra values)`` (``kernels.lz.table_symbols``)."""
    out, extra = [0] * len(lengths), [0] * len(lengths)
    count = table_symbols_into(lengths, out, extra)
    return out[:count], extra[:count]


def table_symbols_into(lengths, out, extra):
    """Write code lengths ``lengths`` as table symbols into ``out`` and
    their extra values into ``extra`` (zeros, each as long as ``lengths``),
    and return how many: each length a symbol, runs of 3 or more zeros
    ZEROS or MORE_ZEROS, and repeats of a length after it AGAIN.  The one
    algorithm of both paths: ``kernels.lz`` compiles this function."""
    n = len(lengths)
    count = 0
    i = 0
    while i < n:
        v = lengths[i]
        run = 1
        while i + run < n and lengths[i + run] == v:
            run += 1
        i += run
        if v != 0:
            out[count] = v
            count += 1
            run -= 1
        while run >= 3:
            if v == 0:
                take = min(run, 138)
                out[count] = MORE_ZEROS if take >= 11 else ZEROS
                extra[count] = take - (11 if take >= 11 else 3)
            else:
                take = min(run, 6)
                out[count] = AGAIN
                extra[count] = take - 3
            count += 1
            run -= take
        for _ in range(run):
            out[count] = v
            count += 1
    return count


def pack(literal_symbols, distance_symbols, length_extra, distance_extra):
    """``(payload, literal/length code lengths, distance code lengths)``."""
    literal_lengths, distance_lengths = code_lengths(literal_symbols, distance_symbols)
    table, table_values = table_symbols(literal_lengths + distance_lengths)
    table_freq = [0] * TABLE_SYMBOLS
    for s in table:
        table_freq[s] += 1
    table_lengths = huffman.code_lengths(table_freq, TABLE_CODE)
    table_codes = huffman.canonical_codes(table_lengths)
    literal_codes = huffman.canonical_codes(literal_lengths)
    distance_codes = huffman.canonical_codes(distance_lengths)
    out = BitWriter()
    put = out.put
    for s in range(TABLE_SYMBOLS):
        put(table_lengths[s], TABLE_CODE_BITS)
    for s, value in zip(table, table_values):
        put(table_codes[s], table_lengths[s])
        put(value, table_extra(s))
    for t, s in enumerate(literal_symbols):
        put(literal_codes[s], literal_lengths[s])
        if s < LITERALS:
            continue
        put(length_extra[t], slot_extra(s - LITERALS))
        d = distance_symbols[t]
        put(distance_codes[d], distance_lengths[d])
        if d != REPEAT:
            put(distance_extra[t], slot_extra(d - 1))
    head = bytes([len(literal_lengths) - LITERALS, len(distance_lengths) - 1])
    return head + out.finish(), literal_lengths, distance_lengths


def encode(data, max_chain, passes):
    """The smallest payload of ``passes`` parses of block ``data`` (bytes,
    not empty) over ``max_chain`` candidates (``format.codings.lz._encode_small``),
    as ``encoder.levels.Parse`` names them."""
    found = matches(data, max_chain)
    literal_price, distance_price = first_prices(histogram(data), len(data))
    best = None
    for _ in range(passes):
        tokens = parse(data, found, literal_price, distance_price)
        payload, literal_lengths, distance_lengths = pack(*symbols(data, *tokens))
        if best is None or len(payload) < len(best):
            best = payload
        literal_price, distance_price = prices(literal_lengths, distance_lengths)
    return best


# -- decoding ---------------------------------------------------------------------

COPY_FLAG = 1 << 8


def _read_table(reader, n):
    """``(problem, code lengths)``: ``n`` code lengths from the table."""
    table_lengths = [reader.read(TABLE_CODE_BITS) for _ in range(TABLE_SYMBOLS)]
    if not huffman.is_complete(table_lengths, HUFFMAN_MAX_LENGTH):
        return BAD_TABLE, None
    table = huffman.decoding_table(table_lengths, list(range(TABLE_SYMBOLS)), TABLE_CODE)
    lengths = []
    while len(lengths) < n:
        if reader.overrun():
            return BAD_TABLE, None
        entry = table[reader.peek(TABLE_CODE)]
        if entry == 0:
            return BAD_TABLE, None
        reader.skip(entry & 15)
        s = entry >> 4
        if s <= MAX_CODE:
            lengths.append(s)
            continue
        run = reader.read(table_extra(s))
        if s == AGAIN:
            if not lengths:
                return BAD_TABLE, None
            value = lengths[-1]
            run += 3
        else:
            value = 0
            run += 3 if s == ZEROS else 11
        if run > n - len(lengths):
            return BAD_TABLE, None
        lengths += [value] * run
    return 0, lengths


def decode(payload, size):
    """``(problem, bytes)``: the LZ payload decoded, as ``kernels.lz.decode_payload``
    decides it (problem 0 and ``size`` bytes, or a problem number)."""
    if len(payload) < HEAD or payload[0] > SLOTS or payload[1] > SLOTS:
        return BAD_HEAD, b""
    out = bytearray()
    problem = _decode(BitReader(payload, HEAD), payload[0], payload[1], 1, out, size,
                      list(FIRST_REPS))
    return (problem, b"") if problem else (0, bytes(out))


def decode_parts(payload, size):
    """``(problem, bytes)``: the LZ_PARTS payload decoded, as
    ``kernels.lz.decode_parts`` decides it.  A part's reader sees zeros past
    its stream where the kernel sees the next part: a part that decodes
    consumes none of those bits, so both succeed alike."""
    out = bytearray()
    reps = list(FIRST_REPS)
    at, n = 0, len(payload)
    while len(out) < size:
        if n - at < PART.size:
            return BAD_PART, b""
        part, length_slots, distance_slots, stream = PART.unpack_from(payload, at)
        if (part == 0 or part > size - len(out) or length_slots > SLOTS
                or distance_slots > SLOTS or stream > n - at - PART.size):
            return BAD_PART, b""
        at += PART.size
        reader = BitReader(payload[at:at + stream])
        problem = _decode(reader, length_slots, distance_slots, REPS, out, len(out) + part,
                          reps)
        if problem:
            return problem, b""
        at += stream
    return (BAD_PART, b"") if at != n else (0, bytes(out))


def _decode(reader, length_slots, distance_slots, nreps, out, size, reps):
    """0 or a problem number: a code-length table and its tokens from the
    reader's position, appended to ``out`` until it holds ``size`` bytes;
    ``reps`` become the repeat distances after them."""
    n_literal = LITERALS + length_slots
    problem, lengths = _read_table(reader, n_literal + nreps + distance_slots)
    if problem:
        return problem
    literal_lengths, distance_lengths = lengths[:n_literal], lengths[n_literal:]
    if not huffman.is_complete(literal_lengths, HUFFMAN_MAX_LENGTH):
        return BAD_LITERAL_CODE
    if any(distance_lengths) and not huffman.is_complete(distance_lengths, HUFFMAN_MAX_LENGTH):
        return BAD_DISTANCE_CODE
    literal_payloads, distance_payloads = payloads(length_slots, distance_slots, nreps)
    literal_bits = max(max(literal_lengths), 1)
    distance_bits = max(max(distance_lengths), 1)
    literal_table = huffman.decoding_table(literal_lengths, literal_payloads, literal_bits)
    distance_table = huffman.decoding_table(distance_lengths, distance_payloads, distance_bits)
    return _tokens(reader, literal_table, literal_bits, distance_table, distance_bits, out,
                   size, reps)


def payloads(length_slots, distance_slots, nreps):
    """``(literal, distance)``: what each symbol's decoding-table entry
    holds.  A literal/length symbol's: a literal's byte, or COPY_FLAG with
    its length slot's extra bits (from bit 9) and base length (from bit
    14); a distance symbol's: twice a repeat's index, or 1 with its slot's
    extra bits (from bit 1) and base distance (from bit 6)."""
    literal = list(range(LITERALS)) + [
        COPY_FLAG | (slot_extra(s) << 9) | ((MIN_COPY + slot_base(s)) << 14)
        for s in range(length_slots)]
    distance = [r << 1 for r in range(nreps)] + [
        1 | (slot_extra(s) << 1) | ((1 + slot_base(s)) << 6) for s in range(distance_slots)]
    return literal, distance


def _tokens(reader, literal_table, literal_bits, distance_table, distance_bits, out, size,
            reps):
    """0 or a problem number: the tokens from the reader's position
    appended to ``out`` until it holds ``size`` bytes, the stream ending
    cleanly after them; ``reps`` updated as ``kernels.lz.decode`` does."""
    padded, end, pos = reader.padded, reader.end, reader.pos
    literal_shift, distance_shift = 64 - literal_bits, 64 - distance_bits
    r0, r1, r2 = reps
    while len(out) < size:
        if pos > end:
            return BAD_TOKEN
        window = (int.from_bytes(padded[pos >> 3:(pos >> 3) + 8], "big") << (pos & 7)) & MASK64
        entry = literal_table[window >> literal_shift]
        if entry == 0:
            return BAD_TOKEN
        n = entry & 15
        p = entry >> 4
        if p < COPY_FLAG:
            out.append(p)
            pos += n
            continue
        extra = (p >> 9) & 31
        length = (p >> 14) + ((((window << n) & MASK64) >> (64 - extra)) if extra else 0)
        pos += n + extra
        window = (int.from_bytes(padded[pos >> 3:(pos >> 3) + 8], "big") << (pos & 7)) & MASK64
        entry = distance_table[window >> distance_shift]
        if entry == 0:
            return BAD_TOKEN
        n = entry & 15
        pos += n
        p = entry >> 4
        if p & 1:  # a new distance, pushed in front
            extra = (p >> 1) & 31
            r0, r1, r2 = ((p >> 6) + ((((window << n) & MASK64) >> (64 - extra)) if extra
                                      else 0)), r0, r1
            pos += extra
        elif p == 2:  # a repeat moved to the front
            r0, r1 = r1, r0
        elif p:
            r0, r1, r2 = r2, r0, r1
        here = len(out)
        if r0 > here or length > size - here:
            return BAD_COPY
        if r0 >= length:
            out += out[here - r0:here - r0 + length]
        else:
            out += (out[here - r0:] * (length // r0 + 1))[:length]
    reps[:] = r0, r1, r2
    if pos > end:
        return BAD_TOKEN
    spare = end - pos
    reader.pos = pos
    if spare >= 8 or reader.peek(spare) != 0:
        return BAD_END
    return 0
