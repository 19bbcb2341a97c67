"""Length-limited canonical Huffman codes in plain Python: the code
lengths ``gagebpe.kernels.huffman.code_lengths`` gives for the same counts, the
canonical codes, and the completeness check, on lists of ints.
"""


def code_lengths(freqs, max_length):
    """Huffman code lengths for ``freqs`` (0 for unused symbols), limited to
    ``max_length`` bits; at least two symbols get codes where two are used.
    The same lengths as the kernel: a two-queue Huffman over the leaves in
    a stable order of count, then JPEG's length limiting (Annex K.3)."""
    used = [s for s, f in enumerate(freqs) if f > 0]
    lengths = [0] * len(freqs)
    order = sorted(used, key=freqs.__getitem__)  # stable, as mergesort
    m = len(order)
    weight = [freqs[s] for s in order] + [0] * m
    assign_lengths(order, weight, [0] * (2 * m), [0] * (2 * m), [0] * max(96, max_length + 2),
                   lengths, max_length)
    return lengths


def assign_lengths(order, weight, parent, depth, per_length, lengths, max_length):
    """Set ``lengths`` of the ``m = len(order)`` used symbols, in ``order``
    of non-decreasing count, whose counts are ``weight[:m]``: a two-queue
    Huffman over the leaves (internal nodes are made in non-decreasing
    weight order, so no heap is needed), then JPEG's length limiting
    (Annex K.3: a pair of too-long codes becomes one code a level up, and a
    shorter code splits), the most frequent symbols taking the shortest
    codes.  ``weight``, ``parent`` and ``depth`` hold ``2m`` items, and
    ``per_length`` (zeros) more than ``max_length + 1``.  The one
    algorithm of both paths: ``kernels.huffman`` compiles this function."""
    m = len(order)
    if m > (1 << max_length):
        raise ValueError("more symbols than codes of the length limit")
    if m == 1:  # a code has at least one bit
        lengths[order[0]] = 1
        return
    leaf = 0
    node = m
    for made in range(m, 2 * m - 1):
        total = 0
        for _ in range(2):
            if leaf < m and (node >= made or weight[leaf] <= weight[node]):
                child = leaf
                leaf += 1
            else:
                child = node
                node += 1
            total += weight[child]
            parent[child] = made
        weight[made] = total
    for v in range(2 * m - 3, -1, -1):
        depth[v] = depth[parent[v]] + 1
    for v in range(m):
        per_length[depth[v]] += 1
    for i in range(len(per_length) - 1, max_length, -1):
        while per_length[i] > 0:
            j = i - 2
            while per_length[j] == 0:
                j -= 1
            per_length[i] -= 2
            per_length[i - 1] += 1
            per_length[j + 1] += 2
            per_length[j] -= 1
    v = m - 1
    for length in range(1, max_length + 1):
        for _ in range(per_length[length]):
            lengths[order[v]] = length
            v -= 1


def canonical_codes(lengths):
    """Each symbol's code, assigned in order of length, then of symbol."""
    longest = max(lengths, default=0)
    per_length = [0] * (longest + 2)
    for n in lengths:
        per_length[n] += 1
    per_length[0] = 0
    next_code = [0] * (longest + 2)
    code = 0
    for n in range(1, longest + 1):
        code = (code + per_length[n - 1]) << 1
        next_code[n] = code
    codes = [0] * len(lengths)
    for s, n in enumerate(lengths):
        if n:
            codes[s] = next_code[n]
            next_code[n] += 1
    return codes


def is_complete(lengths, max_length):
    """Whether ``lengths`` (0 or 1..``max_length``) form a complete prefix
    code, or a single one-bit code."""
    total = used = 0
    for n in lengths:
        if n:
            if n > max_length:
                return False
            total += 1 << (max_length - n)
            used += 1
    if used == 1:
        return total == 1 << (max_length - 1)
    return total == 1 << max_length


def decoding_table(lengths, payloads, bits):
    """A one-level table of 2^``bits`` entries, ``payload << 4 | length``
    for each value of the next ``bits`` bits (0 where no code starts), for
    codes no longer than ``bits``."""
    table = [0] * (1 << bits)
    for s, code in enumerate(canonical_codes(lengths)):
        n = lengths[s]
        if n:
            start = code << (bits - n)
            entry = (payloads[s] << 4) | n
            table[start:start + (1 << (bits - n))] = [entry] * (1 << (bits - n))
    return table
