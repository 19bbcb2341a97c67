"""Adding up training counts made apart (on many processes or machines).

Imports nothing.
"""


def merge_counts(parts):
    """One dict of the counts ``parts`` (dicts of chunk or word to count,
    from ``ByteBPE.count`` or ``WordBPE.count``), added in the order given:
    each key in order of first occurrence across the parts, so that parts
    counted from consecutive pieces of a corpus train exactly what the
    whole corpus would."""
    total = {}
    get = total.get
    for counts in parts:
        for key, n in counts.items():
            total[key] = get(key, 0) + n
    return total
