"""A plain-Python greedy BPE, the specification the kernels must match:
merge the most frequent pair (count = non-overlapping occurrences, left to
right; ties to the smallest pair) while it occurs at least ``min_count``
times."""


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


def bpe(data, min_count=2):
    ids = list(data)
    merges = []
    while True:
        counts = count_pairs(ids)
        if not counts:
            break
        pair = min(counts, key=lambda p: (-counts[p], p))
        if counts[pair] < min_count:
            break
        ids = replace(ids, pair, 256 + len(merges))
        merges.append(pair)
    return merges, ids
