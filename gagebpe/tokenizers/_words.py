"""Text as words, the way each word-level BPE convention splits it.

``WHITESPACE`` (the article's trainer, ``str.split``): words are the runs
between any whitespace.  ``SPACES`` (subword-nmt, as it reads a file on
Linux): lines end at ``\\n``; each line loses the spaces and carriage
returns at its ends and is split on spaces; a tab, a carriage return
inside a line or any other whitespace is part of a word.

Text comes as a str or as an iterable of str pieces that end where words
end (the lines of a file, say); a large str is read a slice at a time, so
that counting its words never holds a list of all of them.
"""
from collections import Counter

import re

WHITESPACE, SPACES = "whitespace", "spaces"
SLICE = 1 << 16  # characters counted at a time
_SPACE = re.compile(r"\s")


def split(text, convention):
    """The words of the str ``text``, in order."""
    if convention == WHITESPACE:
        return text.split()
    return [w for w in _space_words(text) if w]


def _space_words(text):
    """subword-nmt's words of whole lines, and empty strings among them."""
    if "\r" not in text:
        return text.replace("\n", " ").split(" ")
    words = []
    for line in text.split("\n"):
        words += line.strip("\r ").split(" ")
    return words


def _pieces(text, convention):
    """``text`` (a str, a text file, or an iterable of str) in pieces that
    end at word boundaries (for SPACES, at line ends)."""
    if hasattr(text, "read"):
        yield from line_pieces(text)
        return
    if not isinstance(text, str):
        yield from text
        return
    start = 0
    while start < len(text):
        if convention == SPACES:
            end = text.find("\n", start + SLICE) + 1 or len(text)
        else:
            found = _SPACE.search(text, start + SLICE)
            end = found.end() if found else len(text)
        yield text[start:end]
        start = end


def line_pieces(fp, size=1 << 20):
    """The text of the file ``fp`` in pieces of about ``size`` characters
    that end at line ends (so at word boundaries for both conventions)."""
    rest = ""
    while True:
        chunk = fp.read(size)
        if not chunk:
            if rest:
                yield rest
            return
        cut = chunk.rfind("\n") + 1
        if cut == 0:
            rest += chunk
            continue
        yield rest + chunk[:cut]
        rest = chunk[cut:]


def count(text, convention, progress=None):
    """``Counter`` of the words of ``text``, in order of first occurrence.
    ``progress(n)`` is told the characters read, a piece at a time."""
    counts = Counter()
    for piece in _pieces(text, convention):
        counts.update(piece.split() if convention == WHITESPACE else _space_words(piece))
        if progress is not None:
            progress(len(piece))
    counts.pop("", None)
    return counts
