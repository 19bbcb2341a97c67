"""Pre-tokenization: the named patterns, and text cut into chunks by one.

The named patterns (tiktoken's and minbpe's texts) are cut by a kernel
scanner (``tokenizers.kernels.pretokenize``) with the character classes of Unicode 16.0, as
tiktoken's regular expressions have them; any other pattern, and o200k's,
by the ``regex`` module (``pip install regex``), whose Unicode tables are
its own.  ``None`` cuts nothing: the text is one chunk.
"""
import numpy as np

from .kernels import pretokenize as _pretokenize
from ._errors import TokenizerError
from . import _unicode

GPT2 = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
          r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
GPT4 = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}+|\p{N}{1,3}|"""
        r""" ?[^\s\p{L}\p{N}]++[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+""")
O200K = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
    r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""", r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""", r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""", r"""\s+"""])
SLICE = 1 << 20  # characters of a long text cut into chunks at a time
NAMED = {"gpt2": GPT2, "r50k": GPT2, "cl100k": CL100K, "gpt4": GPT4, "o200k": O200K}
# Other spellings of the same patterns: GPT-2's as published, minbpe's.
_SCANNED = {
    GPT2: _pretokenize.GPT2,
    r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""":
        _pretokenize.GPT2,
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""":
        _pretokenize.GPT2,
    CL100K: _pretokenize.CL100K,
    GPT4: _pretokenize.GPT4,
}


class Splitter:
    """Cuts UTF-8 text into chunks by ``pattern`` (a name, a regular
    expression, or None)."""

    def __init__(self, pattern):
        self.pattern = NAMED.get(pattern, pattern)
        self.scanner = _SCANNED.get(self.pattern)  # a kernel's pattern, or None
        self._after_space = self.scanner != _pretokenize.GPT2  # may a cut follow " \n"?
        self._regex = None
        if self.pattern is not None and self.scanner is None:
            try:
                import regex
            except ImportError:
                raise TokenizerError("patterns other than gpt2, cl100k and gpt4 need the "
                                     "regex module: pip install regex") from None
            try:
                self._regex = regex.compile(self.pattern)
            except regex.error as e:
                raise TokenizerError(f"invalid pattern {self.pattern!r}: {e}") from None

    def pieces(self, data, size=None):
        """``data`` (a str, a text file, or an iterable of either) in
        pieces that are cut into chunks on their own, as they would be in
        one text.  A long str or a file is read about ``size`` characters at
        a time and cut where the pattern ends a chunk without looking
        further: between a line end and an ASCII letter (the start of most
        lines of prose), and for gpt2, whose ``\\s+(?!\\S)`` splits a run of
        spaces before a line end differently at the end of a text, only
        after a visible ASCII character.  Other patterns cut nowhere, so a
        file is read whole.  The items of an iterable are texts of their
        own: no chunk spans two."""
        size = size or SLICE
        if hasattr(data, "read"):
            yield from self._file_pieces(data, size)
        elif not isinstance(data, str):
            for item in data:
                yield from self.pieces(item, size)
        elif self.scanner is None or len(data) <= size:
            yield data
        else:
            start = 0
            while start < len(data):
                cut = _next_cut(data, start + size, self._after_space)
                yield data[start:cut]
                start = cut

    def _file_pieces(self, fp, size):
        if self.scanner is None:
            yield fp.read()
            return
        parts, tail = [], ""  # the text read since the last cut, its last two characters
        while chunk := fp.read(size):
            # Only the new text is searched, and joined only at a cut: a file
            # without one is read in linear time.
            cut = _last_cut(tail + chunk, self._after_space) - len(tail)
            tail = (tail + chunk)[-2:]
            if cut < 0:
                parts.append(chunk)
                continue
            piece = "".join(parts) + chunk[:cut]
            if piece:
                yield piece
            parts = [chunk[cut:]]
        if "".join(parts):
            yield "".join(parts)

    def chunks(self, text, buf):
        """``(starts, ends)``: byte offsets in ``buf`` (``text`` as UTF-8)
        of the chunks, in order."""
        if self.pattern is None:
            return np.zeros(1, np.int64), np.full(1, len(buf), np.int64)
        if self.scanner is not None:
            bounds = _pretokenize.split(buf, _unicode.classes(), self.scanner)
            return bounds[:-1], bounds[1:]
        spans = np.array([m.span() for m in self._regex.finditer(text)], np.int64).reshape(-1, 2)
        if len(buf) != len(text):  # character offsets to byte offsets
            points = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), np.uint32)
            widths = 1 + (points >= 0x80) + (points >= 0x800) + (points >= 0x10000)
            offsets = np.concatenate([[0], np.cumsum(widths)])
            spans = offsets[spans]
        return spans[:, 0].copy(), spans[:, 1].copy()


_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_VISIBLE = frozenset(map(chr, range(0x21, 0x7F)))


def _is_cut(text, i, after_space):
    """Is there a cut after the line end at ``text[i]``?"""
    return (1 <= i < len(text) - 1 and text[i + 1] in _LETTERS
            and (after_space or text[i - 1] in _VISIBLE))


def _next_cut(text, at, after_space):
    """The first cut at or after ``at``, or the end of the text."""
    i = text.find("\n", max(at - 1, 0))
    while i != -1 and not _is_cut(text, i, after_space):
        i = text.find("\n", i + 1)
    return len(text) if i == -1 else i + 1


def _last_cut(text, after_space):
    """The last cut in ``text``, or -1."""
    i = text.rfind("\n")
    while i != -1 and not _is_cut(text, i, after_space):
        i = text.rfind("\n", 0, i)
    return -1 if i == -1 else i + 1
