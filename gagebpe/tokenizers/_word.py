"""``WordBPE``: Sennrich's word-level BPE (Sennrich, Haddow & Birch 2016),
trained and applied on gagebpe's kernels.

Two conventions, each reproduced exactly, chosen by ``ties`` when training
(and by the codes file's version when loading):

- the article's (``ties="first"``; codes version 0.1): words are split on
  whitespace; a word is its characters followed by ``</w>``, a symbol of
  its own; ties go to the pair seen first, scanning the distinct words in
  order of first occurrence and each left to right.
- subword-nmt's (``ties="subword-nmt"``; codes version 0.2, what
  ``subword-nmt learn-bpe`` writes): words are split on spaces and line
  ends; ``</w>`` is attached to a word's last character; ties go to the
  pair whose (left, right) strings are largest.

Both count a pair's adjacent occurrences (overlapping ones too) weighted by
word counts, and merge its non-overlapping occurrences left to right.
Encoding merges the lowest-ranked pair present, repeatedly: the merges
replayed in rank order.
"""
import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from ..kernels import rank_merge as _rank_merge
from .kernels import distinct as _distinct, word_merges as _word_merges, word_text as _word_text
from ._errors import TokenizerError, UnknownCharacterError
from .._types import StrPath, TrainingText
from . import _codes, _words

END = "</w>"
TIES = {"first": "0.1", "subword-nmt": "0.2"}
CONVENTIONS = {"0.1": _words.WHITESPACE, "0.2": _words.SPACES}
CACHE_WORDS = 1 << 20  # encoded words kept; the cache is emptied past this
# ``apply`` takes a text of at most this many characters line by line in
# Python, through the word cache, rather than in kernel calls.
SHORT_TEXT = 1000
FORMAT = "gagebpe-wordbpe"


def _byte_piece(byte):
    return f"<0x{byte:02X}>"


def _units(word, version):
    """The symbols a word starts as."""
    if version == "0.1":
        return list(word) + [END]
    return list(word[:-1]) + [word[-1] + END]


# A unit's key sorts as its string does: character c is 2c; version 0.2's
# word-final c</w> is 2c + 1; version 0.1's </w> is 2 * ord("<") + 1.
_END_KEY = 2 * ord("<") + 1


def _check_training(num_merges, min_frequency, ties):
    if ties not in TIES:
        raise ValueError(f"ties must be one of {tuple(TIES)}, not {ties!r}")
    if num_merges < 0 or min_frequency < 1:
        raise ValueError("num_merges must be >= 0 and min_frequency >= 1")


def _code_points(text):
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)


def _unit_keys(chars, length, version):
    """``(keys, units_per_word)``: the keys of the units of words whose code
    points are ``chars``, ``length[i]`` of them for word i, in order."""
    keys = chars.astype(np.int64) * 2
    if version == "0.2":
        keys[np.cumsum(length) - 1] += 1
        return keys, length
    length = length + 1
    with_end = np.full(int(length.sum()), _END_KEY, np.int64)
    inside = np.ones(len(with_end), np.bool_)
    inside[np.cumsum(length) - 1] = False
    with_end[inside] = keys
    return with_end, length


def _key_unit(key, version):
    if key == _END_KEY and version == "0.1":
        return END
    return chr(key >> 1) + (END if key & 1 else "")


def _unit_key(unit, version):
    """The key of a unit string, or None if no word starts with it."""
    if version == "0.1" and unit == END:
        return _END_KEY
    if len(unit) == 1:
        return 2 * ord(unit)
    if version == "0.2" and len(unit) == 1 + len(END) and unit.endswith(END):
        return 2 * ord(unit[0]) + 1
    return None


def _gather(cps, starts, ends):
    """The code points of the spans ``cps[starts[i]:ends[i]]``, end to end,
    and their lengths."""
    length = ends - starts
    offsets = np.repeat(starts - np.concatenate([[0], np.cumsum(length)[:-1]]), length)
    return cps[np.arange(int(length.sum())) + offsets], length


class WordBPE:
    """A word-level BPE tokenizer: its ``merges`` in rank order, and the
    vocabulary they make.

    ``merges`` are ``(left, right)`` token strings; ``frequencies`` the count
    each had when chosen (None for merges loaded from a codes file);
    ``version`` "0.1" or "0.2" (see the module's docstring); ``alphabet``
    the symbols words start as (inferred from the merges if not given);
    ``unk_token`` and ``byte_fallback`` what ``encode_ids`` does with a
    character outside the vocabulary.
    """

    def __init__(self, merges: Iterable[tuple[str, str]], *, version: str = "0.1",
                 frequencies: Iterable[int] | None = None,
                 alphabet: Iterable[str] | None = None, unk_token: str | None = None,
                 byte_fallback: bool = False) -> None:
        if version not in _codes.VERSIONS:
            raise ValueError(f"version must be one of {_codes.VERSIONS}, not {version!r}")
        self.merges = [(str(left), str(right)) for left, right in merges]
        self.frequencies = None if frequencies is None else [int(f) for f in frequencies]
        self.version = version
        self.unk_token = unk_token
        self.byte_fallback = bool(byte_fallback)
        results = {left + right for left, right in self.merges}
        if alphabet is None:  # the units no merge makes
            alphabet = {u for pair in self.merges for u in pair} - results
        self.alphabet = sorted(set(alphabet))
        self.vocab = self._make_vocab()
        self.tokens = list(self.vocab)  # by id
        self._table = self._merge_table()
        self._key_ids = self._alphabet_keys()
        self._cache: dict[str, list[int]] = {}  # word -> its tokens' ids
        self._rendered: dict[str, dict[str, str]] = {}  # separator -> {word: how apply writes it}
        # Units outside the vocabulary get ids past it, as they are met.
        self._unknown: dict[str, int] = {}  # unit -> id
        self._unknown_units: dict[int, str] = {}  # id -> unit

    # -- the vocabulary ------------------------------------------------------------

    def _make_vocab(self):
        """token -> id: the declared <unk>, the byte pieces, the alphabet,
        then what the merges make, in rank order."""
        tokens = []
        if self.unk_token is not None:
            tokens.append(self.unk_token)
        if self.byte_fallback:
            tokens += [_byte_piece(b) for b in range(256)]
            if self.version == "0.2":
                tokens.append(END)
        tokens += self.alphabet
        tokens += [left + right for left, right in self.merges]
        vocab = {}
        for token in tokens:
            vocab.setdefault(token, len(vocab))
        return vocab

    def _merge_table(self):
        """The kernels' merge table over vocabulary ids."""
        ids = self.vocab
        lefts = np.array([ids.get(left, -1) for left, _ in self.merges], np.int32)
        rights = np.array([ids.get(right, -1) for _, right in self.merges], np.int32)
        results = np.array([ids[left + right] for left, right in self.merges], np.int32)
        # A merge of a unit in no vocabulary can never apply: leave it out.
        usable = (lefts >= 0) & (rights >= 0)
        keys, vals = _rank_merge.merge_table(lefts[usable], rights[usable])
        return keys, vals, np.flatnonzero(usable).astype(np.int64), results[usable]

    def _alphabet_keys(self):
        """``(keys, ids)``: the alphabet's units words can start as, by key."""
        pairs = sorted((key, self.vocab[u]) for u in self.alphabet
                       if (key := _unit_key(u, self.version)) is not None)
        return (np.array([k for k, _ in pairs], np.int64),
                np.array([i for _, i in pairs], np.int64))

    # -- training ------------------------------------------------------------------

    @classmethod
    def train(cls, text: TrainingText, num_merges: int, *, min_frequency: int = 2,
              ties: str = "first", unk_token: str | None = None, byte_fallback: bool = False,
              progress: Callable[[int], object] | None = None) -> "WordBPE":
        """Learn up to ``num_merges`` merges from ``text`` (a str, a text
        file, or an iterable of str pieces that end at word boundaries, such
        as lines),
        stopping early once the most frequent pair occurs fewer than
        ``min_frequency`` times.  ``ties`` is "first" or "subword-nmt" (see
        the module's docstring).  ``progress(n)``, if given, is told the
        characters read as they are.  The same as ``train_counts`` of
        ``count(text)``."""
        _check_training(num_merges, min_frequency, ties)  # before reading a corpus
        return cls.train_counts(cls.count(text, ties=ties, progress=progress), num_merges,
                                min_frequency=min_frequency, ties=ties, unk_token=unk_token,
                                byte_fallback=byte_fallback)

    @staticmethod
    def count(text: TrainingText, *, ties: str = "first",
              progress: Callable[[int], object] | None = None) -> dict[str, int]:
        """What training learns from: a dict of each word of ``text`` (as
        ``train`` takes it, split as ``ties``' convention splits) to its
        count, in order of first occurrence.  Counts of the parts of a
        corpus, added in order (``gagebpe.tokenizers.merge_counts``), are
        the counts of the whole: count on many machines, train once."""
        _check_training(0, 1, ties)
        return dict(_words.count(text, CONVENTIONS[TIES[ties]], progress))

    @classmethod
    def train_counts(cls, counts: Mapping[str, int], num_merges: int, *,
                     min_frequency: int = 2, ties: str = "first",
                     unk_token: str | None = None, byte_fallback: bool = False) -> "WordBPE":
        """``train`` from word counts made by ``count`` with the same ``ties``."""
        _check_training(num_merges, min_frequency, ties)
        version = TIES[ties]
        words = list(counts)
        length = np.fromiter(map(len, words), np.int64, len(words))
        sym, keys = _word_text.unit_ids(_code_points("".join(words)), length,
                                        _END_KEY if version == "0.1" else -1,
                                        1 if version == "0.2" else 0)
        if version == "0.1":
            length = length + 1
        order = np.argsort(keys)  # number the alphabet in string order
        sym = np.argsort(order).astype(np.int32)[sym]
        alphabet = [_key_unit(k, version) for k in keys[order].tolist()]
        start = np.zeros(len(length), np.int64)
        np.cumsum(length[:-1], out=start[1:])
        freq = np.fromiter(counts.values(), np.int64, len(length))
        unit_chars = [np.frombuffer(u.encode("utf-32-le", "surrogatepass"), np.int32)
                      for u in alphabet]
        chars = np.concatenate(unit_chars + [np.empty(0, np.int32)])
        char_len = np.zeros(len(alphabet) + num_merges, np.int64)
        char_len[:len(alphabet)] = [len(c) for c in unit_chars]
        char_start = np.zeros_like(char_len)
        np.cumsum(char_len[:len(alphabet) - 1], out=char_start[1:len(alphabet)])
        merged, frequencies, _ = _word_merges.learn(
            sym, start, length, freq, chars, char_start, char_len, len(alphabet),
            num_merges, min_frequency,
            _word_merges.FIRST if ties == "first" else _word_merges.LARGEST)
        strings = list(alphabet)
        merges = []
        for left, right in merged.tolist():
            merges.append((strings[left], strings[right]))
            strings.append(strings[left] + strings[right])
        return cls(merges, version=version, frequencies=frequencies.tolist(),
                   alphabet=alphabet, unk_token=unk_token, byte_fallback=byte_fallback)

    # -- encoding ------------------------------------------------------------------

    def _encode_words(self, words):
        """Each of ``words`` as token ids (ids at or past ``len(vocab)``
        stand for units outside the vocabulary), through the cache.  Each
        word is read from the cache once, into this call's own dict: the
        cache may be emptied (by this call or another thread's) before the
        words are gathered."""
        cache = self._cache
        found = {w: cache.get(w) for w in words}
        new = [w for w, ids in found.items() if ids is None]
        if new:
            length = np.fromiter(map(len, new), np.int64, len(new))
            tokens, token_starts = self._encode_units(_code_points("".join(new)), length)
            bounds = token_starts.tolist()
            flat = tokens.tolist()
            fresh = {w: flat[bounds[k]:bounds[k + 1]] for k, w in enumerate(new)}
            if len(cache) + len(fresh) > CACHE_WORDS:
                cache.clear()
            cache.update(fresh)
            found.update(fresh)
        return [found[w] for w in words]

    def _encode_units(self, chars, length):
        """``(tokens, token_starts)`` of the words whose code points are
        ``chars``, ``length[i]`` of them for word i."""
        keys, units = _unit_keys(chars, length, self.version)
        known, ids = self._key_ids
        at = np.minimum(np.searchsorted(known, keys), max(len(known) - 1, 0))
        found = known[at] == keys if len(known) else np.zeros(len(keys), np.bool_)
        unit_ids = np.where(found, ids[at] if len(known) else 0, -1).astype(np.int32)
        if not found.all():
            for key in np.unique(keys[~found]).tolist():
                unit_ids[keys == key] = self._unit_id(_key_unit(key, self.version))
        starts = np.zeros(len(units) + 1, np.int64)
        np.cumsum(units, out=starts[1:])
        limits = np.full(len(units), _rank_merge.NO_RANK, np.int64)
        return _rank_merge.encode_pieces(unit_ids, starts, *self._table, limits)

    def _unit_id(self, unit):
        i = self.vocab.get(unit)
        if i is None:
            i = self._unknown.get(unit)
            if i is None:
                i = self._unknown[unit] = len(self.vocab) + len(self._unknown)
                self._unknown_units[i] = unit
        return i

    def _strings(self, ids):
        tokens = self.tokens
        return [tokens[i] if i < len(tokens) else self._unknown_units[i] for i in ids]

    def encode_word(self, word: str) -> list[str]:
        """The tokens of one word (strings; the last carries ``</w>``)."""
        return self._strings(self._encode_words([word])[0])

    def encode(self, text: str) -> list[str]:
        """The tokens (strings) of the words of ``text``, split on
        whitespace; a character outside the vocabulary stays a token of its
        own."""
        out = []
        for ids in self._encode_words(_words.split(text, _words.WHITESPACE)):
            out += self._strings(ids)
        return out

    def encode_ids(self, text: str) -> list[int]:
        """The token ids of the words of ``text``, split on whitespace.  A
        character outside the vocabulary becomes the ``unk_token``'s id if
        one was declared, else its UTF-8 bytes' pieces (``<0x67>``) with
        ``byte_fallback``, else raises ``UnknownCharacterError`` naming it
        and its position in ``text``."""
        words = _words.split(text, _words.WHITESPACE)
        out = []
        n = len(self.vocab)
        for k, ids in enumerate(self._encode_words(words)):
            if max(ids) < n:
                out += ids
            else:
                for i in ids:
                    out += [i] if i < n else self._unknown_ids(i, text, k)
        return out

    def _unknown_ids(self, i, text, k):
        """The ids standing for the unknown unit ``i`` of word ``k``."""
        if self.unk_token is not None:
            return [self.vocab[self.unk_token]]
        unit = self._unknown_units[i]
        final = unit.endswith(END) and unit != END
        character = unit[:-len(END)] if final else unit
        if self.byte_fallback:
            ids = [self.vocab[_byte_piece(b)] for b in character.encode("utf-8")]
            return ids + ([self.vocab[END]] if final else [])
        word = next(m for j, m in enumerate(re.finditer(r"\S+", text)) if j == k)
        position = word.start() + word.group().find(character)
        if final:
            position = word.end() - 1
        raise UnknownCharacterError(character, position)

    def apply(self, text: str, separator: str = "@@") -> str:
        """``text`` segmented as ``subword-nmt apply-bpe`` writes it: each
        line (ending at ``\\n``) has its words (split on spaces) joined by
        single spaces, every subword but a word's last followed by
        ``separator``, and keeps the spaces and carriage returns at its
        ends.  The distinct words are encoded once each."""
        if len(text) <= SHORT_TEXT:
            return "\n".join([self._apply_line(line, separator) for line in text.split("\n")])
        cps = _code_points(text)
        starts, ends = _word_text.space_words(cps)
        ids, firsts = _distinct.distinct(cps, starts, ends)
        tokens, token_starts = self._encode_units(*_gather(cps, starts[firsts], ends[firsts]))
        glyphs, glyph_starts, final_len = self._glyphs()
        end_token = self.vocab[END] if self.version == "0.1" else -1
        rendered, rendered_starts = _word_text.render(
            tokens, token_starts, glyphs, glyph_starts, final_len,
            _code_points(separator + " "), end_token)
        out = _word_text.write_lines(cps, ids, rendered, rendered_starts, starts, ends)
        return out.tobytes().decode("utf-32-le", "surrogatepass")

    def _apply_line(self, line, separator):
        """``apply`` of one line without its ``\\n``, in Python: a short
        text would spend more on a kernel call's fixed cost than on its
        words.  Each word's rendering is kept (``_rendered``, bounded as the
        word cache; lookups are single dict operations, safe under threads)."""
        core = line.strip("\r ")
        if not core:
            return line
        rendered = self._rendered.setdefault(separator, {})
        words = [w for w in core.split(" ") if w]
        found = [rendered.get(w) for w in words]
        if None in found:
            missing = [w for w, r in zip(words, found) if r is None]
            fresh = {w: self._render(ids, separator)
                     for w, ids in zip(missing, self._encode_words(missing))}
            if len(rendered) + len(fresh) > CACHE_WORDS:
                rendered.clear()
            rendered.update(fresh)
            found = [r if r is not None else fresh[w] for w, r in zip(words, found)]
        lead = len(line) - len(line.lstrip("\r "))
        trail = len(line) - len(line.rstrip("\r "))
        return line[:lead] + " ".join(found) + line[len(line) - trail:]

    def _render(self, ids, separator):
        """A word's tokens ``ids`` as ``apply`` writes them."""
        strings = self._strings(ids)
        if strings[-1] == END and len(strings) > 1:  # version 0.1's unmerged end
            strings.pop()
        last = strings.pop()
        return "".join([s + separator + " " for s in strings]) + (
            last[:-len(END)] if last.endswith(END) and last != END else last)

    def _glyphs(self):
        """``(glyphs, glyph_starts, final_len)``: every token's code points
        end to end (the vocabulary's, then units met outside it), and how
        many of them a word's last token writes (without ``</w>``)."""
        strings = self.tokens + [self._unknown_units[i] for i in sorted(self._unknown_units)]
        if getattr(self, "_glyph_table", (None,))[0] != len(strings):
            lengths = np.fromiter(map(len, strings), np.int64, len(strings))
            glyph_starts = np.zeros(len(strings) + 1, np.int64)
            np.cumsum(lengths, out=glyph_starts[1:])
            final_len = lengths - np.fromiter(
                (len(END) if t.endswith(END) and t != END else 0 for t in strings),
                np.int64, len(strings))
            self._glyph_table = (len(strings), (_code_points("".join(strings)),
                                                glyph_starts, final_len))
        return self._glyph_table[1]

    # -- the article's step-through --------------------------------------------

    def trace(self, text: str) -> str:
        """The step-through the article shows, as text: each merge as it was
        learned (``Merge 1: ('e', 'r') -> er (freq: 9)``), then for each
        distinct word of ``text`` its tokens after every merge that changed
        them."""
        lines = []
        for k, (left, right) in enumerate(self.merges, 1):
            freq = "" if self.frequencies is None else f" (freq: {self.frequencies[k - 1]})"
            lines.append(f"Merge {k}: {(left, right)!r} -> {left + right}{freq}")
        rank = {pair: k for k, pair in reversed(list(enumerate(self.merges, 1)))}
        for word in dict.fromkeys(_words.split(text, _words.WHITESPACE)):
            tokens = _units(word, self.version)
            lines.append(f"{word}: {tokens}")
            while True:
                ranked = [(rank[p], p) for p in zip(tokens, tokens[1:]) if p in rank]
                if not ranked:
                    break
                k, pair = min(ranked)
                tokens = _merge_all(tokens, pair)
                lines.append(f"  Merge {k} {pair!r}: {tokens}")
        return "\n".join(lines)

    # -- files ------------------------------------------------------------------------

    def codes(self) -> str:
        """The merges as the text of a subword-nmt codes file."""
        return _codes.format_codes(self.merges, self.version)

    def save_codes(self, path: StrPath) -> None:
        """Write the merges as a subword-nmt codes file (UTF-8)."""
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(self.codes())

    @classmethod
    def load_codes(cls, path: StrPath, **options: Any) -> "WordBPE":
        """A tokenizer of the merges in a subword-nmt codes file (its
        version from its header).  ``TokenizerError`` names a malformed line."""
        with open(path, encoding="utf-8", newline="") as f:
            return cls.load_codes_text(f.read(), str(path), **options)

    @classmethod
    def load_codes_text(cls, text: str, name: str = "codes", **options: Any) -> "WordBPE":
        """``load_codes`` of a codes file's text."""
        merges, version = _codes.parse_codes(text, name)
        return cls(merges, version=version, **options)

    def save(self, path: StrPath) -> None:
        """Write the whole tokenizer (merges, counts, alphabet, settings) as
        gagebpe's JSON: unlike a codes file, it keeps the alphabet, so ids
        are the same after loading."""
        model = {"format": FORMAT, "version": self.version, "alphabet": self.alphabet,
                 "merges": [list(m) for m in self.merges], "frequencies": self.frequencies,
                 "unk_token": self.unk_token, "byte_fallback": self.byte_fallback}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(model, f, ensure_ascii=False, indent=0)

    @classmethod
    def load(cls, path: StrPath) -> "WordBPE":
        with open(path, encoding="utf-8") as f:
            try:
                model = json.load(f)
            except ValueError as e:
                raise TokenizerError(f"{path}: not a WordBPE file ({e})") from None
        if not isinstance(model, dict) or model.get("format") != FORMAT:
            raise TokenizerError(f"{path}: not a WordBPE file")
        try:
            return cls([tuple(m) for m in model["merges"]], version=model["version"],
                       frequencies=model["frequencies"], alphabet=model["alphabet"],
                       unk_token=model["unk_token"], byte_fallback=model["byte_fallback"])
        except (KeyError, TypeError, ValueError) as e:
            raise TokenizerError(f"{path}: malformed WordBPE file ({e})") from None

    def __repr__(self):
        return (f"WordBPE({len(self.merges)} merges, version {self.version}, "
                f"{len(self.vocab)} tokens)")


def _merge_all(tokens, pair):
    """``tokens`` with every non-overlapping ``pair``, left to right, merged."""
    out, i = [], 0
    while i < len(tokens):
        if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == pair:
            out.append(tokens[i] + tokens[i + 1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out
