"""subword-nmt's codes files: the merges of a word-level BPE, one a line.

    #version: 0.2
    t h
    th e</w>

A merge is its two units separated by one space.  Version 0.2 (the header
line) attaches the end-of-word marker to a word's last character; a file
without the header is version 0.1, where ``</w>`` is a unit of its own.
Files are UTF-8.
"""
import re

from ._errors import TokenizerError

VERSIONS = ("0.1", "0.2")


def format_codes(merges, version):
    """The text of a codes file."""
    head = "#version: 0.2\n" if version == "0.2" else ""
    return head + "".join(f"{left} {right}\n" for left, right in merges)


def parse_codes(text, name="codes"):
    """``(merges, version)`` of the text of a codes file; ``TokenizerError``
    naming the line if it is malformed."""
    lines = text.rstrip("\n").split("\n")
    version, first = "0.1", 1
    if lines and lines[0].startswith("#version:"):
        version = re.sub(r"(\.0+)*$", "", lines[0].split()[-1])
        if version not in VERSIONS:
            raise TokenizerError(f"{name}: unsupported codes version {version!r}")
        lines, first = lines[1:], 2
    if lines in ([], [""]):  # no merges
        return [], version
    merges = []
    for number, line in enumerate(lines, first):
        units = line.strip("\r\n ").split(" ")
        if len(units) != 2 or not all(units):
            raise TokenizerError(f"{name}, line {number}: {line!r} is not two units "
                                 "separated by a space")
        merges.append((units[0], units[1]))
    return merges, version
