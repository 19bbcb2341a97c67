"""Adding up training counts made apart (on many processes or machines).

"""
from collections.abc import Iterable, Mapping
from typing import TypeVar

K = TypeVar("K", str, bytes)  # a word (WordBPE) or a chunk (ByteBPE)


def merge_counts(parts: Iterable[Mapping[K, int]]) -> dict[K, int]:
    """One dict of the counts ``parts`` (dicts of chunk or word to count,
    from ``ByteBPE.count`` or ``WordBPE.count``), added in the order given:
    each key in order of first occurrence across the parts, so that parts
    counted from consecutive pieces of a corpus train exactly what the
    whole corpus would."""
    total: dict[K, int] = {}
    get = total.get
    for counts in parts:
        for key, n in counts.items():
            total[key] = get(key, 0) + n
    return total
