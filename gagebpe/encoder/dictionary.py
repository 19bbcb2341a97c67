"""Training a dictionary (docs/DESIGN.md, "Dictionaries"): the block
engine's merges learned on the samples joined, and a code fitted to the
tokens those merges make of each sample, as many merges as fit the size
asked for, smoothed as much as the later samples show the earlier ones
need.

Imports ``format.dictionary`` and the kernels ``kernels.grammar`` and
``kernels.dictionary``.
"""
import numpy as np

from ..format.codings.dictionary_ids import joined
from ..format.dictionary import Dictionary, code_lengths, merge_tables
from ..kernels import dictionary as _kernels, grammar as _grammar

DEFAULT_SIZE = 112640  # zstd's default (110 KiB), so that sizes compare
# A first guess of a dictionary's bytes per merge: its two halves of about
# 15 bits and its code length.
BYTES_PER_MERGE = 3.2
SHRINK = 0.97  # a dictionary that came out too large is retried this much smaller
# What each symbol may be counted beyond its tokens in the samples, and
# how much of the samples, at their end, chooses among them.
SMOOTHINGS = (0.5, 1, 2, 4, 8, 16)
HELD_OUT_WINDOW = 1 << 20


def train_dictionary(samples, size=DEFAULT_SIZE, *, tokenizer=None):
    """The ``Dictionary`` of at most ``size`` bytes learned on ``samples``
    (bytes-like records, as the data to be compressed will come); the same
    samples always give the same dictionary.  With a ``tokenizer`` (a
    trained ``gagebpe.tokenizers.ByteBPE``), its merges, in rank order, take
    the place of the ones learned here; the code is still fitted to the
    samples."""
    records = [bytes(s) for s in samples]
    if not any(records):
        raise ValueError("no sample bytes to train a dictionary on")
    smallest = len(bytes(Dictionary.from_counts(np.empty((0, 2), np.int32),
                                                np.zeros(_kernels.N_BYTES, np.int64))))
    if size < smallest:
        raise ValueError(f"a dictionary takes at least {smallest} bytes")
    data, starts = joined(records)
    most = max(0, int((size - smallest) / BYTES_PER_MERGE))
    if tokenizer is None:
        merges = _grammar.build(b"".join(records), 2, most).merges
    else:
        merges = tokenizer_merges(tokenizer)[:most]
    tables = merge_tables(merges)
    smoothing = held_out_smoothing(records, most)
    n = len(merges)
    while True:  # ends: a dictionary of no merges is the smallest
        counts = _kernels.token_counts(data, starts, *tables, merges, n)
        dictionary = Dictionary.from_counts(merges[:n], counts, smoothing)
        if len(dictionary) <= size:
            return dictionary
        n = int(n * min(SHRINK, size / len(dictionary)))


def held_out_smoothing(records, most):
    """The one of SMOOTHINGS under which the last quarter of the last
    samples (HELD_OUT_WINDOW bytes of them) codes smallest, with up to
    ``most`` merges learned on the rest of those and a code fitted to them:
    records that drift from their samples (a log of later dates) want a
    flatter code than the samples alone suggest, records like them a
    sharper one.  Fewer than 8 samples choose 1."""
    window, size = [], 0
    for record in reversed(records):
        if size + len(record) > HELD_OUT_WINDOW and window:
            break
        window.append(record)
        size += len(record)
    window.reverse()
    cut = len(window) * 3 // 4
    if len(window) < 8 or not any(window[:cut]):
        return 1
    merges = _grammar.build(b"".join(window[:cut]), 2, most).merges
    tables = merge_tables(merges)
    fit, held = (_kernels.token_counts(*joined(part), *tables, merges, len(merges))
                 for part in (window[:cut], window[cut:]))
    bits = [int(held @ code_lengths(merges, fit, s)) for s in SMOOTHINGS]
    return SMOOTHINGS[bits.index(min(bits))]


def tokenizer_merges(tokenizer):
    """A ``ByteBPE`` tokenizer's merges as a dictionary numbers its symbols:
    a single-byte token is its byte value, the k-th longer token (in rank
    order) symbol 256 + k, which its k-th merge makes."""
    symbol, longer = {}, 0
    for token, rank in sorted(tokenizer.mergeable_ranks().items(), key=lambda item: item[1]):
        if len(token) == 1:
            symbol[rank] = token[0]
        else:
            symbol[rank] = _kernels.N_BYTES + longer
            longer += 1
    pairs = [(symbol[a], symbol[b]) for a, b in tokenizer.merges]
    return np.array(pairs, np.int32).reshape(-1, 2)
