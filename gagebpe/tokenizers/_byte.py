"""``ByteBPE``: byte-level BPE with regex pre-tokenization, as GPT-2 and
tiktoken use it, trained and applied on gagebpe's kernels.

Text is UTF-8 bytes; the vocabulary starts from the 256 byte values, so
every string is representable without an unknown token.  A pattern cuts the
text into chunks and merges never cross them.  A token's id is its rank.

Encoding follows tiktoken exactly: a chunk that is a token is that token;
otherwise, from single bytes, the adjacent pair whose joined bytes are the
token of lowest rank is joined, the leftmost of equals, until none is.
The distinct chunks of a text are encoded once each.

Training keeps each distinct chunk once with its count (so memory grows
with the distinct chunks, not the text), counts pairs weighted by those
counts and merges the most frequent; ties go to the pair seen first in the
text (``ties="first"``: minbpe's rule) or to the smallest pair of ids
(``ties="rustbpe"``: rustbpe's).
"""
import functools
import os
import re
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TextIO

import numpy as np

from .. import _threads
from .._types import Specials, StrPath, TrainingText
from ..kernels import rank_merge as _rank_merge
from .kernels import (byte_vocab as _byte_vocab, distinct as _distinct,
                      word_merges as _word_merges)
from ._errors import TokenizerError
from . import _byte_files, _patterns, _short, _unicode

TIES = {"first": _word_merges.FIRST, "rustbpe": _word_merges.SMALLEST}


# A list of this many ids or more is decoded by a kernel (packed into an
# array by ``struct``, 7 ns an id), a shorter one in Python (``_short``):
# the crossover measured at 250-300 ids.
LONG_IDS = 200
# A single text of at most this many characters is encoded in Python
# (``_short``), where a kernel call's fixed cost would outweigh its speed.
SHORT_TEXT = 200


class DisallowedSpecialError(TokenizerError):
    """The text holds a special token that was not allowed (tiktoken's
    rule: every special token is disallowed unless ``allowed_special``
    names it, or ``disallowed_special`` is given)."""

    def __init__(self, token: str) -> None:
        super().__init__(
            f"Encountered text corresponding to disallowed special token {token!r}.\n"
            f"If you want this text to be encoded as a special token, pass it to "
            f"`allowed_special`, e.g. `allowed_special={{{token!r}, ...}}`.\n"
            f"If you want this text to be encoded as normal text, disable the check for "
            f"this token by passing `disallowed_special=(enc.special_tokens_set - "
            f"{{{token!r}}})`.\nTo disable this check for all special tokens, pass "
            f"`disallowed_special=()`.\n")
        self.token = token


def _utf8(text):
    """``(text, bytes)``: a string with lone surrogates is first repaired
    as tiktoken repairs it."""
    try:
        return text, text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return text, text.encode("utf-8")


class ByteBPE:
    """A byte-level BPE tokenizer: its tokens by rank, its pattern, its
    special tokens.

    ``tokens`` is the mergeable vocabulary, token ``r`` (bytes) of rank and
    id ``r``; all 256 single bytes must be among them.  ``pattern`` is a
    named pattern ("gpt2", "cl100k", "gpt4", "o200k"), a regular expression
    in the ``regex`` module's syntax, or None.  ``special_tokens`` maps
    strings to ids past the ranks.  ``merges`` (pairs of ids, one per token
    that is not a single byte, in rank order) is kept when known.
    """

    def __init__(self, tokens: Iterable[bytes], *, pattern: str | None = "gpt4",
                 special_tokens: Mapping[str, int] | None = None,
                 merges: Iterable[tuple[int, int]] | None = None,
                 name: str | None = None) -> None:
        self._tokens = [bytes(t) for t in tokens]
        self._splitter = _patterns.Splitter(pattern)
        self.pattern = self._splitter.pattern
        self.special_tokens = dict(special_tokens or {})
        self.name = name
        self._merges = None if merges is None else [(int(a), int(b)) for a, b in merges]
        self.n_vocab = max([len(self._tokens)] + [i + 1 for i in self.special_tokens.values()])
        if set(self.special_tokens.values()) & set(range(len(self._tokens))):
            raise TokenizerError("special token ids overlap the ranks")
        self._flat = np.frombuffer(b"".join(self._tokens), np.uint8)
        self._offsets = np.zeros(len(self._tokens) + 1, np.int64)
        np.cumsum([len(t) for t in self._tokens], out=self._offsets[1:])
        self._index = _byte_vocab.index(self._flat, self._offsets)
        self._byte_ids = np.array([_byte_vocab.find(self._flat, self._offsets, self._index,
                                                    np.array([b], np.uint8), 0, 1)
                                   for b in range(256)], np.int32)
        if (self._byte_ids < 0).any():
            missing = int(np.flatnonzero(self._byte_ids < 0)[0])
            raise TokenizerError(f"the vocabulary lacks the single byte {bytes([missing])!r}")
        if self._merges is not None:
            self._check_merges()
        lefts, rights, results = _byte_vocab.split_pairs(self._flat, self._offsets, self._index)
        keys, vals = _rank_merge.merge_table(lefts, rights)
        self._merge_table = (keys, vals, results.astype(np.int64), results)
        self._vocab = (self._flat, self._offsets, self._index, self._byte_ids,
                       *self._merge_table)
        self._id_objects = np.arange(len(self._tokens)).astype(object)  # ids as Python ints
        # Decoding covers the special tokens too; ids in neither are invalid.
        every = self._tokens + [b""] * (self.n_vocab - len(self._tokens))
        for token, i in self.special_tokens.items():
            every[i] = token.encode("utf-8")
        self._all_flat = np.frombuffer(b"".join(every) + bytes(_byte_vocab.COPY_WIDTH), np.uint8)
        self._all_offsets = np.zeros(self.n_vocab + 1, np.int64)
        np.cumsum([len(t) for t in every], out=self._all_offsets[1:])
        self._valid = np.zeros(self.n_vocab, np.bool_)
        self._valid[:len(self._tokens)] = True
        self._valid[list(self.special_tokens.values())] = True
        self._short_encoder = None  # built on first use
        self._short_decoder = _short.ShortDecoder(
            [t if ok else None for t, ok in zip(every, self._valid.tolist())])

    # -- what it holds ----------------------------------------------------------------

    @property
    def special_tokens_set(self) -> frozenset[str]:
        return frozenset(self.special_tokens)

    def mergeable_ranks(self) -> dict[bytes, int]:
        """token bytes -> rank, as tiktoken's ``mergeable_ranks``."""
        return {t: r for r, t in enumerate(self._tokens)}

    @property
    def merges(self) -> list[tuple[int, int]]:
        """``[(left id, right id), ...]``: the merge that made each token
        past the single bytes, in rank order (recovered from the ranks for
        vocabularies loaded without them)."""
        if self._merges is None:
            self._merges = self._recover_merges()
        return self._merges

    def _check_merges(self):
        """Each multi-byte token, in rank order, must be the joined bytes
        of its merge's two tokens of lower rank."""
        multi = [r for r, t in enumerate(self._tokens) if len(t) > 1]
        if len(multi) != len(self._merges):
            raise TokenizerError(f"{len(self._merges)} merges for {len(multi)} multi-byte tokens")
        for r, (a, b) in zip(multi, self._merges):
            if not (0 <= a < r and 0 <= b < r and self._tokens[a] + self._tokens[b]
                    == self._tokens[r]):
                raise TokenizerError(f"merge ({a}, {b}) does not make token "
                                     f"{self._tokens[r]!r} (rank {r})")

    def _recover_merges(self):
        """Each multi-byte token as the two tokens its bytes become when
        encoded with the lower ranks alone."""
        multi = [r for r, t in enumerate(self._tokens) if len(t) > 1]
        ids = np.concatenate([self._byte_ids[np.frombuffer(self._tokens[r], np.uint8)]
                              for r in multi] + [np.empty(0, np.int32)]).astype(np.int32)
        starts = np.zeros(len(multi) + 1, np.int64)
        np.cumsum([len(self._tokens[r]) for r in multi], out=starts[1:])
        tokens, token_starts = _rank_merge.encode_pieces(
            ids, starts, *self._merge_table, np.array(multi, np.int64))
        merges = []
        for k, r in enumerate(multi):
            parts = tokens[token_starts[k]:token_starts[k + 1]].tolist()
            if len(parts) != 2:
                raise TokenizerError(f"token {self._tokens[r]!r} (rank {r}) is not the merge "
                                     "of two tokens of lower rank")
            merges.append(tuple(parts))
        return merges

    # -- encoding ------------------------------------------------------------------------

    def encode_ordinary(self, text: str, *, as_numpy: bool = False) -> list[int] | np.ndarray:
        """The ids of ``text`` (a list of ints; with ``as_numpy``, a uint32
        array), special tokens taken as ordinary text."""
        if as_numpy:
            return self._encode_segments([text])[0].astype(np.uint32)
        return self._encode_group([text], None, None)[0]

    def encode(self, text: str, *, allowed_special: Specials = frozenset(),
               disallowed_special: Specials = "all",
               as_numpy: bool = False) -> list[int] | np.ndarray:
        """The ids of ``text``, as tiktoken's ``encode``: an allowed special
        token (``allowed_special``: a set, or "all") in the text becomes its
        id; a disallowed one (``disallowed_special``: "all", the default,
        means every special token not allowed) raises
        ``DisallowedSpecialError``.  A list of ints, or with ``as_numpy`` a
        uint32 array."""
        ids = self._encode_group([text], *self._special_rule(allowed_special,
                                                             disallowed_special))[0]
        return np.array(ids, np.uint32) if as_numpy else ids

    def encode_batch(self, texts: Sequence[str], *, threads: int = 0,
                     allowed_special: Specials = frozenset(),
                     disallowed_special: Specials = "all") -> list[list[int]]:
        """``encode`` of each text, on ``threads`` threads (0: one per
        core).  The threads encode runs of texts, each run in one kernel
        call that holds no lock (each distinct chunk once)."""
        rule = self._special_rule(allowed_special, disallowed_special)
        texts = list(texts)
        threads = min(threads or os.cpu_count() or 1, len(texts))
        if threads <= 1:
            return self._encode_group(texts, *rule)
        # Two runs per thread, of about equal length.  Each run takes the lock
        # to start and to make its lists; more runs mean more waiting for it
        # (measured: 16 per thread scale worse than 2, and lists made on this
        # thread while the others encode no better), fewer leave a thread
        # idle when the other's core is slow.
        cuts = np.searchsorted(np.cumsum([len(t) for t in texts]),
                               np.linspace(0, sum(map(len, texts)), 2 * threads + 1)[1:-1])
        bounds = sorted(set([0, *cuts.tolist(), len(texts)]))
        runs = _threads.pool(threads).map(
            lambda ab: self._encode_group(texts[ab[0]:ab[1]], *rule), zip(bounds, bounds[1:]))
        return [ids for run in runs for ids in run]

    def _special_rule(self, allowed_special, disallowed_special):
        """``(allowed, disallowed)``: regular expressions finding the
        special tokens of each kind in a text, or None for none."""
        allowed = self.special_tokens_set if allowed_special == "all" else frozenset(
            allowed_special)
        if disallowed_special == "all":
            disallowed = self.special_tokens_set - allowed
        else:
            disallowed = frozenset(disallowed_special)
        return (_special_regex(allowed) if allowed else None,
                _special_regex(disallowed) if disallowed else None)

    def _encode_group(self, texts, allowed, disallowed):
        """The ids of each of ``texts`` (lists)."""
        if len(texts) == 1 and len(texts[0]) <= SHORT_TEXT and self._splitter.scanner is not None:
            return [self._encode_short(texts[0], allowed, disallowed)]
        return self._as_lists(*self._encode_run(texts, allowed, disallowed))

    def _encode_short(self, text, allowed, disallowed):
        """``_encode_group`` of one short text, in Python (``_short``)."""
        if disallowed is not None and (found := disallowed.search(text)):
            raise DisallowedSpecialError(found.group())
        if self._short_encoder is None:
            self._short_encoder = _short.ShortEncoder(self.pattern, self._tokens,
                                                      self._encode_chunks)
        encode = self._short_encoder.encode
        if not text.isascii():
            text, _ = _utf8(text)
        if allowed is None:
            return encode(text)
        ids, start = [], 0
        for found in allowed.finditer(text):
            ids += encode(text[start:found.start()])
            ids.append(self.special_tokens[found.group()])
            start = found.end()
        return ids + encode(text[start:])

    def _encode_chunks(self, chunks):
        """The ids of each chunk (bytes) of ``chunks``, as lists."""
        lengths = np.fromiter(map(len, chunks), np.int64, len(chunks))
        ends = np.cumsum(lengths)
        ids, id_starts = _byte_vocab.encode_chunks(np.frombuffer(b"".join(chunks), np.uint8),
                                                   ends - lengths, ends, *self._vocab)
        ids, id_starts = ids.tolist(), id_starts.tolist()
        return [ids[a:b] for a, b in zip(id_starts, id_starts[1:])]

    def _encode_run(self, texts, allowed, disallowed):
        """``(ids, id_starts, layout, specials)``: the ordinary text between
        the allowed special tokens of ``texts``, segment k's ids at
        ``ids[id_starts[k]:id_starts[k + 1]]``, followed by ``specials[k]``
        (an id, or None at the end of a text); text t's segments are
        ``range(*layout[t])``.  The encoding is one kernel call."""
        segments, specials = [], []
        layout = []
        for text in texts:
            if disallowed is not None and (found := disallowed.search(text)):
                raise DisallowedSpecialError(found.group())
            first = len(segments)
            start = 0
            if allowed is not None:
                for found in allowed.finditer(text):
                    segments.append(text[start:found.start()])
                    specials.append(self.special_tokens[found.group()])
                    start = found.end()
            segments.append(text[start:])
            specials.append(None)
            layout.append((first, len(segments)))
        ids, id_starts = self._encode_segments(segments)
        return ids, id_starts.tolist(), layout, specials

    def _as_lists(self, ids, id_starts, layout, specials):
        """Each text's ids as a list (of ``_encode_run``'s result)."""
        def segment(k):  # Python ints taken from a table: faster than making them
            return self._id_objects.take(ids[id_starts[k]:id_starts[k + 1]]).tolist()

        out = []
        for first, end in layout:
            if end == first + 1:
                out.append(segment(first))
                continue
            one = []
            for k in range(first, end):
                one += segment(k)
                if specials[k] is not None:
                    one.append(specials[k])
            out.append(one)
        return out

    def _encode_segments(self, segments):
        """``(ids, id_starts)`` of the ordinary texts ``segments`` (the
        kernels' ``encode_spans``)."""
        pairs = [_utf8(s) for s in segments]
        buf = np.frombuffer(b"".join([b for _, b in pairs]), np.uint8)
        lengths = np.fromiter((len(b) for _, b in pairs), np.int64, len(pairs))
        text_starts = np.concatenate([[0], np.cumsum(lengths)])
        scanner = self._splitter.scanner
        if scanner is not None:
            return _byte_vocab.encode_texts(buf, text_starts, _unicode.classes(), scanner,
                                            *self._vocab)
        starts, ends, chunk_starts = [], [], [0]
        for (text, b), offset in zip(pairs, text_starts.tolist()):
            s, e = self._splitter.chunks(text, np.frombuffer(b, np.uint8))
            starts.append(s + offset)
            ends.append(e + offset)
            chunk_starts.append(chunk_starts[-1] + len(s))
        return _byte_vocab.encode_spans(buf, np.concatenate(starts), np.concatenate(ends),
                                        np.array(chunk_starts, np.int64), *self._vocab)

    def encode_file(self, fp: TextIO, *, allowed_special: Specials = frozenset(),
                    disallowed_special: Specials = "all",
                    progress: Callable[[int], object] | None = None) -> Iterator[list[int]]:
        """The ids of the text file ``fp``, a list per piece read: together
        ``encode(fp.read(), ...)``, without holding the whole text.
        ``progress(n)``, if given, is told the characters read."""
        rule = self._special_rule(allowed_special, disallowed_special)

        def encode(text: str) -> list[int]:
            return self._encode_group([text], *rule)[0]

        if any("\n" in token for token in self.special_tokens):
            yield encode(fp.read())  # a cut could split one
            return
        for piece in self._splitter.pieces(fp):
            yield encode(piece)
            if progress is not None:
                progress(len(piece))

    # -- decoding ------------------------------------------------------------------------

    def decode_bytes(self, ids: Iterable[int] | np.ndarray) -> bytes:
        """The bytes of ``ids`` (ints, or an integer array);
        ``TokenizerError`` for an id that is no token, ``TypeError`` for
        one that is not an integer."""
        if type(ids) is not list and type(ids) is not tuple and not isinstance(ids, np.ndarray):
            ids = list(ids)
        if type(ids) is not np.ndarray:
            if len(ids) < LONG_IDS:
                found = self._short_decoder.decode(ids)
            else:  # ids packed into an array in C, then one kernel call
                try:
                    ids = np.frombuffer(struct.pack(f"{len(ids)}q", *ids), np.int64)
                except struct.error:
                    found = None
                else:
                    found, _ = self._decode_array(ids)
            if found is not None:
                return found
        ids = np.asarray(ids).reshape(-1)
        if ids.size and ids.dtype.kind not in "iu":
            if ids.dtype.kind == "O" and all(isinstance(i, int) for i in ids.tolist()):
                raise TokenizerError("invalid token id " + str(next(  # one past int64
                    i for i in ids.tolist() if not (0 <= i < self.n_vocab and self._valid[i]))))
            raise TypeError(f"token ids must be integers, not {ids.dtype}")
        ids = ids.astype(np.int64)
        found, bad = self._decode_array(ids)
        if found is None:
            raise TokenizerError(f"invalid token id {int(ids[bad])}")
        return found

    def _decode_array(self, ids):
        """``(bytes, -1)`` of the int64 array ``ids``, or ``(None, i)`` if
        ``ids[i]`` is the first that is no token."""
        out, bad = _byte_vocab.decode(ids, self._all_flat, self._all_offsets, self._valid)
        return (out.tobytes(), bad) if bad < 0 else (None, bad)

    def decode(self, ids: Iterable[int] | np.ndarray, errors: str = "replace") -> str:
        return self.decode_bytes(ids).decode("utf-8", errors)

    # -- training ------------------------------------------------------------------------

    @classmethod
    def train(cls, data: TrainingText, vocab_size: int, *, pattern: str | None = "gpt4",
              special_tokens: Iterable[str] | Mapping[str, int] | None = None,
              min_frequency: int = 2, ties: str = "first",
              progress: Callable[[int], object] | None = None) -> "ByteBPE":
        """Learn a vocabulary of ``vocab_size`` tokens (the 256 bytes and
        ``vocab_size - 256`` merges; fewer if no pair occurs
        ``min_frequency`` times) from ``data``: a str, a text file, or an
        iterable of either (each a text of its own: no chunk spans two),
        read a piece at a time so that a corpus larger than memory
        streams.  ``special_tokens`` (a list or a dict of ids)
        are added past the ranks.  ``ties``: "first" or "rustbpe"; with
        ``min_frequency=1`` and the gpt4 pattern, "rustbpe" learns what
        rustbpe learns and "first" what minbpe learns.  ``progress(n)``, if
        given, is told the bytes read.  The same as ``train_counts`` of
        ``count(data)``."""
        _check_training(vocab_size, min_frequency, ties)  # before reading a corpus
        return cls.train_counts(cls.count(data, pattern=pattern, progress=progress), vocab_size,
                                pattern=pattern, special_tokens=special_tokens,
                                min_frequency=min_frequency, ties=ties)

    @staticmethod
    def count(data: TrainingText, *, pattern: str | None = "gpt4",
              progress: Callable[[int], object] | None = None) -> dict[bytes, int]:
        """What training learns from: a dict of each chunk of ``data`` (as
        ``train`` takes it) split by ``pattern``, as UTF-8 bytes, to its
        count, in order of first occurrence.  Counts of the parts of a
        corpus, added in order (``gagebpe.tokenizers.merge_counts``), are
        the counts of the whole: count on many machines, train once."""
        return _count_chunks(_patterns.Splitter(pattern), data, progress)

    @classmethod
    def train_counts(cls, counts: Mapping[bytes, int], vocab_size: int, *,
                     pattern: str | None = "gpt4",
                     special_tokens: Iterable[str] | Mapping[str, int] | None = None,
                     min_frequency: int = 2, ties: str = "first") -> "ByteBPE":
        """``train`` from chunk counts made by ``count`` with the same
        ``pattern`` (which the tokenizer keeps for encoding)."""
        _check_training(vocab_size, min_frequency, ties)
        chunks = list(counts)
        sym = np.frombuffer(b"".join(chunks), np.uint8).astype(np.int32)
        length = np.fromiter(map(len, chunks), np.int64, len(chunks))
        start = np.zeros(len(chunks), np.int64)
        np.cumsum(length[:-1], out=start[1:])
        freq = np.fromiter(counts.values(), np.int64, len(chunks))
        num_merges = vocab_size - 256
        char_len = np.ones(256 + num_merges, np.int64)
        char_start = np.zeros_like(char_len)
        char_start[:256] = np.arange(256)
        merged, _, _ = _word_merges.learn(sym, start, length, freq, np.arange(256, dtype=np.int32),
                                          char_start, char_len, 256, num_merges, min_frequency,
                                          TIES[ties])
        tokens = [bytes([b]) for b in range(256)]
        merges = []
        for left, right in merged.tolist():
            tokens.append(tokens[left] + tokens[right])
            merges.append((left, right))
        if isinstance(special_tokens, dict):
            specials = dict(special_tokens)
        else:
            specials = {t: len(tokens) + k for k, t in enumerate(special_tokens or ())}
        return cls(tokens, pattern=pattern, special_tokens=specials, merges=merges)

    # -- files --------------------------------------------------------------------------

    @classmethod
    def from_tiktoken(cls, path: StrPath, *, pattern: str | None,
                      special_tokens: Mapping[str, int] | None = None,
                      name: str | None = None) -> "ByteBPE":
        """A tokenizer of a tiktoken rank file (``base64(token) rank`` lines),
        with the pattern and special tokens it goes with (the file has
        neither): for cl100k_base, ``pattern="cl100k"`` and, for instance,
        ``{"<|endoftext|>": 100257}``."""
        return cls(_byte_files.read_tiktoken(path), pattern=pattern,
                   special_tokens=special_tokens, name=name)

    def save_tiktoken(self, path: StrPath) -> None:
        """Write the ranks as a tiktoken rank file (not the pattern or the
        special tokens: the format has no place for them)."""
        with open(path, "w", encoding="ascii", newline="\n") as f:
            f.write(_byte_files.format_tiktoken(self._tokens))

    @classmethod
    def from_gpt2(cls, encoder_json: StrPath, vocab_bpe: StrPath, *,
                  name: str = "gpt2") -> "ByteBPE":
        """GPT-2's tokenizer from its ``encoder.json`` and ``vocab.bpe``:
        the ranks the merges give, checked against the encoder's ids, the
        GPT-2 pattern, and the encoder's special tokens."""
        tokens, special = _byte_files.read_gpt2(encoder_json, vocab_bpe)
        return cls(tokens, pattern="gpt2", special_tokens=special, name=name)

    @classmethod
    def from_hf(cls, path: StrPath, *, name: str | None = None) -> "ByteBPE":
        """A tokenizer of a Hugging Face ``tokenizer.json`` with a byte-level
        BPE model (its ids are taken as ranks)."""
        tokens, merges, pattern, special = _byte_files.read_hf(path)
        return cls(tokens, pattern=pattern, special_tokens=special, merges=merges or None,
                   name=name)

    def save_hf(self, path: StrPath) -> None:
        """Write a Hugging Face ``tokenizer.json`` that encodes as this one."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(_byte_files.format_hf(self._tokens, self.merges, self.pattern,
                                          self.special_tokens))

    def save(self, path: StrPath) -> None:
        """Write gagebpe's own file: tokens in rank order, the merges that
        made them, the pattern and the special tokens."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(_byte_files.format_own(self._tokens, self.merges, self.pattern,
                                           self.special_tokens))

    @classmethod
    def load(cls, path: StrPath, *, name: str | None = None) -> "ByteBPE":
        tokens, merges, pattern, special = _byte_files.read_own(path)
        return cls(tokens, pattern=pattern, special_tokens=special, merges=merges, name=name)

    def __repr__(self):
        name = f" {self.name!r}" if self.name else ""
        return f"<ByteBPE{name}: {len(self._tokens)} ranks, {len(self.special_tokens)} special>"


def _check_training(vocab_size, min_frequency, ties):
    if ties not in TIES:
        raise ValueError(f"ties must be one of {tuple(TIES)}, not {ties!r}")
    if vocab_size < 256 or min_frequency < 1:
        raise ValueError("vocab_size must be at least 256 and min_frequency at least 1")


@functools.lru_cache(maxsize=64)
def _special_regex(tokens):
    """Finds any of ``tokens`` (longest first where one begins another)."""
    return re.compile("|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True)))


def _count_chunks(splitter, data, progress):
    """dict chunk bytes -> count, in order of first occurrence."""
    counts = {}
    for text in splitter.pieces(data):
        text, raw = _utf8(text)
        buf = np.frombuffer(raw, np.uint8)
        starts, ends = splitter.chunks(text, buf)
        ids, firsts = _distinct.distinct(buf, starts, ends)
        n = np.bincount(ids, minlength=len(firsts)).tolist()
        get = counts.get
        for s, e, c in zip(starts[firsts].tolist(), ends[firsts].tolist(), n):
            chunk = raw[s:e]  # slicing bytes: a tenth of slicing the array
            counts[chunk] = get(chunk, 0) + c
        if progress is not None:
            progress(len(raw))
    return counts
