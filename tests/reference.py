"""Plain-Python specifications the kernels must match: greedy BPE (merge
the most frequent pair, count = non-overlapping occurrences, left to right;
ties to the smallest pair, while it occurs at least ``min_count`` times;
over records, pairs within each),
the word-level and byte-level trainers, and decoders of Gage's 1994 format
and of LZ, LZ_PARTS, MIXED, MIXED_PRIMED and DICTIONARY_IDS_LZ payloads
written from their descriptions in docs/FORMAT.md."""
import struct


def count_pairs(ids):
    counts = {}
    prev_was_self_pair = False
    for a, b in zip(ids, ids[1:]):
        if a == b and prev_was_self_pair:
            prev_was_self_pair = False
            continue
        counts[(a, b)] = counts.get((a, b), 0) + 1
        prev_was_self_pair = a == b
    return counts


def replace(ids, pair, new_id):
    out = []
    i = 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def bpe(data, min_count=2, max_merges=None):
    return bpe_records([data], min_count, max_merges)


def bpe_records(records, min_count=2, max_merges=None):
    """Greedy BPE over ``records`` at once, no pair straddling two: the
    merges and the records' ids joined."""
    pieces = [list(r) for r in records]
    merges = []
    while max_merges is None or len(merges) < max_merges:
        counts = {}
        for ids in pieces:
            for pair, count in count_pairs(ids).items():
                counts[pair] = counts.get(pair, 0) + count
        if not counts:
            break
        pair = min(counts, key=lambda p: (-counts[p], p))
        if counts[pair] < min_count:
            break
        pieces = [replace(ids, pair, 256 + len(merges)) for ids in pieces]
        merges.append(pair)
    return merges, [i for ids in pieces for i in ids]


def gage1994_decode(blob, max_block=1 << 16):
    """Gage's 1994 format, decoded as docs/FORMAT.md (section 8) defines it:
    the bytes, or ``EOFError`` where a block is cut short, or ``ValueError``
    for a table past code 255, pairs in a cycle (anywhere in the table), or
    a block whose codes expand past ``max_block`` bytes."""
    out = bytearray()
    pos = 0
    while pos < len(blob):
        left, right = list(range(256)), [0] * 256
        c = 0
        while c < 256:
            count = _byte(blob, pos)
            pos += 1
            if count > 127:
                c += count - 127
                count = 0
                if c == 256:
                    break
                if c > 256:
                    raise ValueError("table past code 255")
            if c + count > 255:
                raise ValueError("table past code 255")
            for _ in range(count + 1):
                left[c] = _byte(blob, pos)
                pos += 1
                if left[c] != c:
                    right[c] = _byte(blob, pos)
                    pos += 1
                c += 1
        size = _byte(blob, pos) << 8 | _byte(blob, pos + 1)
        pos += 2
        codes = blob[pos:pos + size]
        if len(codes) < size:
            raise EOFError("block cut short")
        pos += size
        lengths = _pair_lengths(left, right, max_block)
        if sum(lengths[c] for c in codes) > max_block:
            raise ValueError("block too large")
        for c in codes:
            out += _phrase(left, right, c)
    return bytes(out)


def _byte(blob, pos):
    if pos >= len(blob):
        raise EOFError("table cut short")
    return blob[pos]


def _pair_lengths(left, right, cap):
    """Each code's expanded length (capped above ``cap``); ValueError if
    pairs refer to themselves in a cycle."""
    lengths = {}

    def length(c, path):
        if left[c] == c:
            return 1
        if c in path:
            raise ValueError("cycle")
        if c not in lengths:
            path.add(c)
            lengths[c] = min(cap + 1, length(left[c], path) + length(right[c], path))
            path.discard(c)
        return lengths[c]

    return [length(c, set()) for c in range(256)]


def _phrase(left, right, c):
    if left[c] == c:
        return bytes([c])
    return _phrase(left, right, left[c]) + _phrase(left, right, right[c])


# -- word-level BPE (Sennrich et al.), as the article and subword-nmt define it

END = "</w>"


def words_of(text, ties):
    """The words of ``text`` in order: the article splits on whitespace;
    subword-nmt strips each line's spaces and carriage returns at its ends
    and splits it on spaces."""
    if ties == "first":
        return text.split()
    return [w for line in text.split("\n") for w in line.strip("\r ").split(" ") if w]


def units_of(word, ties):
    if ties == "first":
        return tuple(word) + (END,)
    return tuple(word[:-1]) + (word[-1] + END,)


def word_bpe(text, num_merges, min_frequency=2, ties="first"):
    """``(merges, frequencies)``: recount every pair after every merge; the
    article's max over an insertion-ordered dict for "first", subword-nmt's
    max over (count, pair) otherwise."""
    counts = {}
    for w in words_of(text, ties):
        counts[w] = counts.get(w, 0) + 1
    vocab = {units_of(w, ties): c for w, c in counts.items()}
    merges, frequencies = [], []
    for _ in range(num_merges):
        found = most_frequent_pair(vocab, "first" if ties == "first" else "largest")
        if found is None or found[1] < min_frequency:
            break
        best, count = found
        vocab = {merge_all(word, best): freq for word, freq in vocab.items()}
        merges.append(best)
        frequencies.append(count)
    return merges, frequencies


def most_frequent_pair(words, ties):
    """``(pair, count)``: the most frequent adjacent pair of the sequences
    ``words`` (sequence -> count), or None if there is none.  Ties go to the
    pair seen first ("first": a max over an insertion-ordered dict), the
    largest pair ("largest") or the smallest ("smallest")."""
    pairs = {}
    for word, n in words.items():
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + n
    if not pairs:
        return None
    if ties == "first":
        best = max(pairs, key=pairs.get)
    elif ties == "largest":
        best = max(pairs, key=lambda p: (pairs[p], p))
    else:
        best = min(pairs, key=lambda p: (-pairs[p], p))
    return best, pairs[best]


def merge_all(tokens, pair, joined=None):
    """``tokens`` with every non-overlapping ``pair``, left to right, merged
    into ``joined`` (by default the pair's two tokens added)."""
    out, i = [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
            out.append(tokens[i] + tokens[i + 1] if joined is None else joined)
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return tuple(out)


# -- byte-level BPE (GPT-2), as minbpe and rustbpe train it


def byte_bpe(text, vocab_size, splitter, ties):
    """The tokens by rank (bytes) learned from ``text`` cut into chunks by
    the compiled regular expression ``splitter``: recount every pair of
    ids after every merge, no minimum count; ties to the pair seen first
    (minbpe's RegexTokenizer) or to the smallest pair (rustbpe's)."""
    counts = {}
    for m in splitter.finditer(text):
        chunk = m.group().encode()
        counts[chunk] = counts.get(chunk, 0) + 1
    words = {tuple(chunk): n for chunk, n in counts.items()}
    tokens = [bytes([b]) for b in range(256)]
    while len(tokens) < vocab_size:
        found = most_frequent_pair(words, "first" if ties == "first" else "smallest")
        if found is None:
            break
        (a, b), _ = found
        words = {merge_all(word, (a, b), len(tokens)): n for word, n in words.items()}
        tokens.append(tokens[a] + tokens[b])
    return tokens


def replay(units, merges):
    """The article's encoder: each merge in rank order, applied to the whole
    word, left to right."""
    tokens = tuple(units)
    for pair in merges:
        tokens = merge_all(tokens, pair)
    return list(tokens)


def lz_decode(payload, size):
    """An LZ payload (docs/FORMAT.md, section 4.11) decoded as the text
    says, bit by bit: the bytes of its block."""
    out = bytearray()
    _lz_tokens(payload[2:], payload[0], payload[1], 1, [1], out, size)
    return bytes(out)


def lz_parts_decode(payload, size):
    """An LZ_PARTS payload (docs/FORMAT.md, section 4.14) decoded as the
    text says: the bytes of its block."""
    out, reps, at = bytearray(), [1, 2, 3], 0
    while len(out) < size:
        part, length_slots, distance_slots, stream = struct.unpack_from("<IBBI", payload, at)
        at += 10
        assert 0 < part <= size - len(out) and stream <= len(payload) - at
        _lz_tokens(payload[at:at + stream], length_slots, distance_slots, 3, reps, out,
                   len(out) + part)
        at += stream
    assert at == len(payload)
    return bytes(out)


def _lz_tokens(stream, length_slots, distance_slots, nreps, reps, out, size):
    """Append the tokens of one LZ bit stream to ``out`` until it holds
    ``size`` bytes; ``reps`` (the repeat distances, latest first) change
    as the text says."""
    bits = _Bits(stream)
    table = _canonical([bits.take(3) for _ in range(15)])
    lengths = []
    while len(lengths) < 256 + length_slots + nreps + distance_slots:
        s = bits.code(table)
        if s <= 11:
            lengths.append(s)
        elif s == 12:
            lengths += [0] * (3 + bits.take(3))
        elif s == 13:
            lengths += [0] * (11 + bits.take(7))
        else:
            lengths += [lengths[-1]] * (3 + bits.take(2))
    literal_codes = _canonical(lengths[:256 + length_slots])
    distance_codes = _canonical(lengths[256 + length_slots:])
    while len(out) < size:
        c = bits.code(literal_codes)
        if c < 256:
            out.append(c)
            continue
        length = 3 + bits.slot_value(c - 256)
        d = bits.code(distance_codes)
        if d < nreps:  # a repeat distance, moved to the front
            reps.insert(0, reps.pop(d))
        else:  # a new distance, pushed in front
            reps.insert(0, 1 + bits.slot_value(d - nreps))
            reps.pop()
        assert 0 < reps[0] <= len(out) and len(out) + length <= size
        for _ in range(length):
            out.append(out[-reps[0]])
    bits.end()


# MIXED and MIXED_PRIMED (docs/FORMAT.md sections 4.12 and 4.13), step by step as the text says.
SQUASH_POINTS = [1, 2, 4, 6, 10, 17, 27, 45, 74, 120, 194, 311, 488, 747, 1102, 1546, 2048,
                 2550, 2994, 3349, 3608, 3785, 3902, 3976, 4022, 4051, 4069, 4079, 4086, 4090,
                 4092, 4094, 4095]


def squash(d):
    d = min(max(d, -2047), 2047)
    i, w = (d >> 7) + 16, d - ((d >> 7) << 7)
    return (SQUASH_POINTS[i] * (128 - w) + SQUASH_POINTS[i + 1] * w + 64) >> 7


STRETCH = []
for _q in range(4096):
    STRETCH.append(next((d for d in range(-2047, 2048) if squash(d) >= _q), 2047))


def mixed_decode(payload, size, text=b""):
    """The MIXED block's bytes, or None where the payload does not end
    exactly where its coded bits do.  With the priming ``text``, a
    MIXED_PRIMED block."""
    t = len(text)
    B = 14 if t else min(22, max(10, size.bit_length() + 5))
    M = 13 if t else min(16, size.bit_length() + 1)
    tables = [[[32768, 0] for _ in range(256)]] + [{} for _ in range(3)]
    W = [[19661] * 6 for _ in range(10)]
    h, out = 0, bytearray()
    low, high, shifted = 0, 2**32 - 1, 0
    L, a, length = {}, 0, 0
    Q, N = [49152] * 16, [0] * 16

    def byte_at(k):
        return payload[k] if k < len(payload) else 255

    x = int.from_bytes(bytes(byte_at(k) for k in range(4)), "big")
    for i in range(t + size):
        if i == t and t:  # primed: the counts capped
            for entry in tables[0] + [e for table in tables[1:] for e in table.values()]:
                entry[1] = min(entry[1], 2)
            N = [min(n, 2) for n in N]
        if length:
            a, length = a + 1, min(length + 1, 15)
        if i >= 3:
            g = (h * 0x9E3779B1 % 2**32) >> (32 - M)
            if length == 0 and g in L:
                j, k = L[g], 0
                while k < 15 and k < j and out[j - 1 - k] == out[i - 1 - k]:
                    k += 1
                if k >= 3:
                    a, length = j, k
            L[g] = i
        expected = out[a] if length else 0
        H = [None] + [((h % 2 ** (8 * k)) + k * 2**24) * 0x9E3779B1 % 2**32 for k in (1, 2, 3)]
        c = 1
        for bit in range(8):
            u = (expected >> (7 - bit)) & 1
            entries = [tables[0][c]]
            for k in (1, 2, 3):
                slot = ((H[k] + c * 0x6F4F2A35) % 2**32) >> (32 - B)
                entries.append(tables[k].setdefault(slot, [32768, 0]))
            xm = (STRETCH[Q[length] >> 4] * (1 if u else -1)) if length else 0
            xs = [STRETCH[q >> 4] if n > 0 else 0 for q, n in entries] + [64, xm]
            s = sum(1 for _, n in entries if n > 0) + (5 if length else 0)
            p = min(max(squash(sum(W[s][m] * xs[m] for m in range(6)) >> 16), 1), 4095)
            if i < t:  # the priming text's bit, not coded
                y = (text[i] >> (7 - bit)) & 1
            else:
                mid = low + ((high - low) >> 12) * p
                y = 1 if x <= mid else 0
                if y:
                    high = mid
                else:
                    low = mid + 1
            e = (4096 * y - p) * 82
            for m in range(6):
                W[s][m] += (xs[m] * e) >> 16
            for entry in entries:
                entry[1] = min(entry[1] + 1, 30)
                entry[0] += ((65535 * y - entry[0]) * (131072 // (2 * entry[1] + 1))) >> 16
            if length:
                N[length] = min(N[length] + 1, 30)
                step = 131072 // (2 * N[length] + 1)
                Q[length] += ((65535 * (y == u) - Q[length]) * step) >> 16
                if y != u:
                    length = 0
            c = 2 * c + y
            while i >= t and low >> 24 == high >> 24:
                low, high = (low << 8) % 2**32, ((high << 8) % 2**32) + 255
                x = ((x << 8) % 2**32) + byte_at(4 + shifted)
                shifted += 1
        out.append(c - 256)
        h = (256 * h + c - 256) % 2**24
    if len(payload) != shifted + 1 or payload[shifted] != low >> 24:
        return None
    return bytes(out[t:])


# DICTIONARY_IDS_LZ (docs/FORMAT.md section 4.18), as the text says.
def ids_lz_code_lengths(id_lengths, literal_lengths):
    """The block code's lengths, made from a dictionary's two codes by the
    four steps of the text."""
    slots = [int(m) for m in literal_lengths[256:]]
    total = sum(2 ** (11 - m) for m in slots if m)
    weights = [3 * total * 2 ** (20 - int(n)) if n else 0 for n in id_lengths]
    weights += [2 ** (31 - m) if m else 0 for m in slots]
    leaves = sorted((w, v) for v, w in enumerate(weights) if w)
    nodes, taken, depth_of = [], [0, 0], {}  # node: (weight, children)

    def take():
        leaf, node = taken
        if leaf < len(leaves) and not (node < len(nodes) and nodes[node][0] < leaves[leaf][0]):
            taken[0] += 1
            return leaves[leaf][0], ("leaf", leaf)
        taken[1] += 1
        return nodes[node][0], ("node", node)

    for _ in range(len(leaves) - 1):
        (wa, a), (wb, b) = take(), take()
        nodes.append((wa + wb, (a, b)))

    def visit(item, depth):
        kind, k = item
        if kind == "leaf":
            depth_of[k] = depth
        else:
            for child in nodes[k][1]:
                visit(child, depth + 1)

    visit(("node", len(nodes) - 1), 0)
    count = [0] * 100
    for depth in depth_of.values():
        count[depth] += 1
    for n in range(99, 20, -1):
        while count[n] > 0:
            j = n - 2
            while count[j] == 0:
                j -= 1
            count[n] -= 2
            count[n - 1] += 1
            count[j + 1] += 2
            count[j] -= 1
    lengths, k = [0] * len(weights), len(leaves) - 1
    for n in range(1, 21):
        for _ in range(count[n]):
            lengths[leaves[k][1]] = n
            k -= 1
    return lengths


def ids_lz_decode(payload, size, merges, id_lengths, content, lz_lengths):
    """A DICTIONARY_IDS_LZ payload decoded bit by bit as the text says."""
    n_ids = len(id_lengths)
    phrases = [bytes([v]) for v in range(256)]
    for left, right in merges:
        phrases.append(phrases[left] + phrases[right])
    block_codes = _canonical(ids_lz_code_lengths(id_lengths, lz_lengths[:256 + 52]))
    distance_codes = _canonical(list(lz_lengths[256 + 52:]))
    bits = _Bits(payload)
    out, reps = bytearray(), [1, 2, 3]
    while len(out) < size:
        v = bits.code(block_codes)
        if v < n_ids:
            out += phrases[v]
            assert len(out) <= size
            continue
        length = 3 + bits.slot_value(v - n_ids)
        d = bits.code(distance_codes)
        if d < 3:
            reps.insert(0, reps.pop(d))
        else:
            reps.insert(0, 1 + bits.slot_value(d - 3))
            reps.pop()
        assert 0 < reps[0] <= len(out) + len(content) and len(out) + length <= size
        for _ in range(length):
            k = len(out) - reps[0]
            out.append(out[k] if k >= 0 else content[len(content) + k])
    bits.end()
    return bytes(out)


def _canonical(lengths):
    """{(length, code): symbol} of section 4.4's canonical code."""
    codes, code = {}, 0
    for n in range(1, max(lengths) + 1):
        for symbol, length in enumerate(lengths):
            if length == n:
                codes[(n, code)] = symbol
                code += 1
        code <<= 1
    return codes


class _Bits:
    """An MSB-first bit stream of a payload, read as the text reads it."""

    def __init__(self, payload):
        self.bits, self.pos = "".join(f"{byte:08b}" for byte in payload), 0

    def take(self, n):
        self.pos += n
        if self.pos > len(self.bits):
            raise ValueError("stream ends inside a token")
        return int(self.bits[self.pos - n:self.pos] or "0", 2)

    def code(self, codes):
        """The symbol of the code at the stream's position."""
        n = code = 0
        while (n, code) not in codes:
            if n > 20:
                raise ValueError("no such code")
            code = code << 1 | self.take(1)
            n += 1
        return codes[(n, code)]

    def slot_value(self, s):
        if s < 4:
            return s
        e = s // 2 - 1
        return ((2 + s % 2) << e) + self.take(e)

    def end(self):
        assert len(self.bits) - self.pos < 8 and "1" not in self.bits[self.pos:]
