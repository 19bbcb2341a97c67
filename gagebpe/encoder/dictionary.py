"""Training a dictionary (docs/DESIGN.md, "Dictionaries"): the block
engine's merges learned on the samples, each merged within itself, and a
code fitted to the tokens that leaves, as many merges as fit the size
asked for, smoothed as much as the later samples show the earlier ones
need; then, in the room the merges leave, raw content chosen from the
samples and two LZ codes for copies from it, kept where the later samples
code smaller with them.
"""
from collections.abc import Iterable, Sequence
from typing import NamedTuple, Protocol

import numpy as np

from ..format.codings import dictionary_records as _records
from ..format.codings.dictionary_ids import encode_many
from ..format.codings.dictionary_records import joined
from ..format.codings.lz import first_prices
from ..format.dictionary import (LITERAL_SYMBOLS, N_BYTES, Dictionary, code_lengths,
                                 merge_tables, serialized_size)
from ..kernels import (dictionary as _kernels, grammar as _grammar, huffman as _huffman,
                       lz as _lz, primed_lz as _primed)
from .._arguments import check_threads
from .._threads import pool
from .._types import BytesLike

DEFAULT_SIZE = 112640  # zstd's default (110 KiB), so that sizes compare
# A first guess of a dictionary's bytes per merge: its two halves of about
# 15 bits and its code length.
BYTES_PER_MERGE = 3.2
SHRINK = 0.97  # a dictionary that came out too large is retried this much smaller
# What each symbol may be counted beyond its tokens in the samples, and
# how much of the samples, at their end, chooses among them.
SMOOTHINGS = (0.5, 1, 2, 4, 8, 16)
HELD_OUT_WINDOW = 1 << 20
# Content: at least MIN_CONTENT bytes, only where the held-out samples code
# at least CONTENT_GAIN smaller with it; its codes are fitted by FIT_PASSES
# parses.
MIN_CONTENT = 1024
CONTENT_GAIN = 0.01
# The shares of the size content may take from the merges, besides the room
# they leave.
CONTENT_SHARES = (1 / 4, 1 / 2)
FIT_PASSES = 2


class MergeSource(Protocol):
    """What ``train_dictionary`` takes as a ``tokenizer``: a trained
    ``gagebpe.tokenizers.ByteBPE``, or anything with its ranks and merges."""

    @property
    def merges(self) -> Sequence[tuple[int, int]]: ...

    def mergeable_ranks(self) -> dict[bytes, int]: ...


def train_dictionary(samples: Iterable[BytesLike], size: int = DEFAULT_SIZE, *,
                     tokenizer: MergeSource | None = None, threads: int = 1) -> Dictionary:
    """The ``Dictionary`` of at most ``size`` bytes learned on ``samples``
    (bytes-like records, as the data to be compressed will come); the same
    samples always give the same dictionary, on any number of ``threads``
    (0: one per core; the trial on the last samples runs beside the
    learning on all of them, so a second thread is what helps).  With a
    ``tokenizer`` (a trained ``gagebpe.tokenizers.ByteBPE``), its merges,
    in rank order, take the place of the ones learned here; the code is
    still fitted to the samples."""
    threads = check_threads(threads)
    records = [bytes(s) for s in samples]
    if not any(records):
        raise ValueError("no sample bytes to train a dictionary on")
    smallest = len(bytes(Dictionary.from_counts(np.empty((0, 2), np.int32),
                                                np.zeros(_kernels.N_BYTES, np.int64))))
    if size < smallest:
        raise ValueError(f"a dictionary takes at least {smallest} bytes")
    most = max(0, int((size - smallest) / BYTES_PER_MERGE))
    trial = _started(threads, held_out_trial, records, most)
    if tokenizer is None:
        merges, counts = learned(records, most)
    else:
        merges = tokenizer_merges(tokenizer)[:most]
        counts = _kernels.token_counts(*joined(records), *merge_tables(merges), merges,
                                       len(merges))
    trial = trial()

    sized = {}  # n: (code lengths, dictionary size) of the first n merges

    def within(budget):  # the most of the merges a dictionary of ``budget`` bytes holds
        n = len(merges)
        while True:  # ends: a dictionary of no merges is the smallest
            if n not in sized:
                lengths = code_lengths(merges[:n], _kernels.counts_below(counts, merges, n),
                                       trial.smoothing)
                sized[n] = lengths, serialized_size(n, lengths)
            lengths, size = sized[n]
            if size <= budget:
                return Dictionary(merges[:n], lengths)
            n = int(n * min(SHRINK, budget / size))

    return with_content(within, trial, size, threads)


def _started(threads, function, *args):
    """``function(*args)`` started on the shared pool where ``threads``
    leave one to spare, else run now: a call that gives its result."""
    if threads < 2:
        result = function(*args)
        return lambda: result
    return pool(threads).submit(function, *args).result


def learned(records, most):
    """``(merges, counts)``: up to ``most`` merges the samples ``records``
    teach, merged within each record, and how often each symbol is a token
    of the merged records (docs/DESIGN.md, "Dictionaries")."""
    grammar = _grammar.build(b"".join(records), 2, most, starts=joined(records)[1])
    return grammar.merges, np.bincount(grammar.ids, minlength=N_BYTES + len(grammar.merges))


def parsed_counts(records, dictionary):
    """How often each of ``dictionary``'s symbols is in the shortest
    parses of ``records``."""
    _, lengths, *tables = dictionary.encoding()
    return _kernels.parse_counts(*joined(records), lengths[0], *tables)


class Trial(NamedTuple):
    """What the last samples show of the others: the ``smoothing`` they
    choose; the ``merges`` learned on the first half of them, and the
    ``fit`` samples' token counts with those, with which the ``held`` ones,
    the last quarter, are coded (none where there are too few samples to
    tell); and the samples before the quarter left out, ``earlier``."""
    smoothing: float
    merges: np.ndarray | None = None
    fit: np.ndarray | None = None  # the fit samples' token counts
    held: Sequence[bytes] = ()
    earlier: Sequence[bytes] = ()

    def probe(self, share):
        """The dictionary of the first ``share`` of the merges, its code fitted
        to the fit samples."""
        n = round(len(self.merges) * share)
        return Dictionary.from_counts(self.merges[:n],
                                      _kernels.counts_below(self.fit, self.merges, n),
                                      self.smoothing)


def held_out_trial(records, most):
    """The ``Trial`` of the last samples (HELD_OUT_WINDOW bytes of them):
    up to ``most`` merges learned on the first half of those, and the one
    of SMOOTHINGS under which the last quarter codes smallest with a code
    fitted to the first half: records that drift from their samples (a log
    of later dates) want a flatter code than the samples alone suggest,
    records like them a sharper one.  The quarter between is left out, as
    records to compress come later than the samples: held records next to
    the trial's own flattered its merges (web server log, 4 KB records:
    8.9:1 on the held ones, 6.3:1 on the later ones) and turned down the
    content those later records wanted.  Fewer than 8 samples choose 1
    and have no merges."""
    window, size = [], 0
    for record in reversed(records):
        if size + len(record) > HELD_OUT_WINDOW and window:
            break
        window.append(record)
        size += len(record)
    window.reverse()
    learn, cut = len(window) // 2, len(window) * 3 // 4
    if len(window) < 8 or not any(window[:learn]):
        return Trial(1)
    merges, fit = learned(window[:learn], most)
    held = parsed_counts(window[cut:], Dictionary.from_counts(merges, fit))
    bits = [int(held @ code_lengths(merges, fit, s)) for s in SMOOTHINGS]
    held, gap = len(window) - cut, cut - learn
    return Trial(SMOOTHINGS[bits.index(min(bits))], merges, fit, records[-held:],
                 records[:-(held + gap)])


def held_out_smoothing(records, most):
    """``held_out_trial``'s smoothing."""
    return held_out_trial(records, most).smoothing


def with_content(within, trial, size, threads=1):
    """The dictionary of ``size`` bytes whose held-out samples code
    smallest: ``within(size)`` (merges and their code only), or
    ``within(budget)`` with raw content in the room left (chosen from the
    samples before the ``trial``'s held ones) and LZ codes fitted to the
    first half of the held samples, for each budget of CONTENT_SHARES, if
    it codes the second half at least CONTENT_GAIN smaller.  The held
    samples are coded as the encoder would, each record its smallest way
    (stored too), by a probe of as large a share of the trial's merges."""
    dictionary = within(size)
    half = len(trial.held) // 2
    if trial.merges is None or not any(trial.earlier) or not any(trial.held[:half]):
        return dictionary
    bases = [dictionary]
    for share in CONTENT_SHARES:
        base = within(int(size * (1 - share)))
        if len(base.merges) < len(bases[-1].merges):
            bases.append(base)
    content = _primed.choose_content(joined(trial.earlier)[0], size - len(bases[-1]))
    lz_lengths = _fitted_codes(content, trial.held[:half])
    test = [r for r in trial.held[half:] if r]
    best, best_bits = dictionary, (1 - CONTENT_GAIN) * sum(
        min(len(a), len(r)) for a, r in zip(encode_many(test, trial.probe(1))[0], test))
    tried = []
    for base in bases:
        room = size - (len(base.with_content(b"x", lz_lengths)) - 1)
        if room < MIN_CONTENT:
            continue
        candidate = base.with_content(content[-room:].tobytes(), lz_lengths)
        probe = trial.probe(len(base.merges) / max(1, len(dictionary.merges)))
        probe = probe.with_content(candidate.content, lz_lengths)
        tried.append((candidate, _started(threads, _records.encode_many, test, probe,
                                          probe.codings)))
    for candidate, coded in tried:
        bits = sum(min(len(p), len(r)) for p, r in zip(coded()[1], test))
        if bits < best_bits:
            best, best_bits = candidate, bits
    return best


def _fitted_codes(content, records):
    """The LZ code lengths (literal/length, then distance) for copies from
    ``content`` fitted to how ``records`` parse after it: at the prices of
    the bytes' frequencies first, then FIT_PASSES - 1 times at the codes of
    the parse before; every symbol is counted once more (halves of counts),
    so that any record can be coded."""
    records = [r for r in records if r]
    data, starts = joined(records)
    window, head, chain = _primed.content_finder(content, int(np.diff(starts).max()))
    matches = _primed.all_matches(data, starts, window, len(content), head, chain,
                                  _records.DEPTH)
    literal_price, distance_price = first_prices(data, _lz.REPS)
    for _ in range(FIT_PASSES):
        literal, distance = _primed.symbol_counts(data, starts, window, len(content), matches,
                                                  literal_price, distance_price)
        lengths = np.concatenate([_huffman.code_lengths(2 * counts + 1, _lz.MAX_CODE)
                                  for counts in (literal, distance)])
        literal_price = lengths[:LITERAL_SYMBOLS].astype(np.float64)
        distance_price = lengths[LITERAL_SYMBOLS:].astype(np.float64)
    return lengths


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
