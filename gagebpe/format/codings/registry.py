"""The block codings of format 1.0, each numbered once (docs/FORMAT.md,
section 4): its name, the module of ``format.codings`` that writes and
reads it, the inner codings it may wrap, and where a grammar coding keeps
its rule count, and a wrapper's header (the one definition its module
and ``describe`` read).  The container, the coding modules, the decoders
and ``describe`` all read this table; a later coding is a new entry under a
new number (section 6).  It imports no coding module: dispatching on it is
the decoder's (``decoder.blocks``).
"""
import re
import struct
from typing import NamedTuple

from ..._errors import GageBPEError
from ..._version import __version__

(END_OF_BLOCKS, STORED, PACKED, SORTED, SORTED_LONG, CONTEXT, CONTEXT_LONG, FILTERED, FOLDED,
 REPEATS, LZ, MIXED, MIXED_PRIMED, LZ_PARTS, DICTIONARY_IDS, DICTIONARY_LZ,
 SEQUENCES, DICTIONARY_IDS_LZ) = range(18)
GRAMMARS = (PACKED, SORTED, SORTED_LONG, CONTEXT, CONTEXT_LONG)




def fields_at(layout):
    """Where each field of ``layout`` (a little-endian ``struct.Struct``
    without padding) begins: what a kernel, which has no ``struct``, reads
    a header by."""
    offsets, at = [], 0
    for count, code in re.findall(r"(\d*)([a-zA-Z?])", layout.format[1:]):
        for _ in range(1 if code == "s" else int(count or 1)):
            offsets.append(at)
            at += struct.calcsize("<" + (count if code == "s" else "") + code)
    assert at == layout.size
    return tuple(offsets)


class Wrapper(NamedTuple):
    """A wrapper coding's header: its ``layout`` and which of its fields
    is the inner coding's number; the inner payload follows it."""
    layout: struct.Struct
    coding_field: int

    @property
    def inner_at(self):
        """(where the inner coding's number lies, where its payload begins)"""
        return fields_at(self.layout)[self.coding_field], self.layout.size


class Coding(NamedTuple):
    number: int
    name: str
    module: str  # under gagebpe.format.codings
    inner: tuple = ()  # the codings it may wrap
    head: Wrapper = None  # a wrapper's header
    rules_at: int = None  # where a grammar coding's rule count (u32) lies
    dictionary: bool = False  # reads the stream's dictionary

    @property
    def inner_at(self):
        return self.head.inner_at if self.head else None


CODINGS = {c.number: c for c in (
    Coding(STORED, "STORED", "stored"),
    Coding(PACKED, "PACKED", "packed", rules_at=0),
    Coding(SORTED, "SORTED", "sorted_rules", rules_at=0),
    Coding(SORTED_LONG, "SORTED_LONG", "sorted_rules", rules_at=0),
    Coding(CONTEXT, "CONTEXT", "context", rules_at=0),
    Coding(CONTEXT_LONG, "CONTEXT_LONG", "context", rules_at=0),
    # filter, lag, inner coding
    Coding(FILTERED, "FILTERED", "filtered", GRAMMARS, Wrapper(struct.Struct("<BHB"), 2)),
    # case markers (single, word), folded size, inner coding
    Coding(FOLDED, "FOLDED", "folded", GRAMMARS, Wrapper(struct.Struct("<BBIB"), 3)),
    # inner coding, literal size, copies, their bytes
    Coding(REPEATS, "REPEATS", "repeats", (STORED, *GRAMMARS, FILTERED, FOLDED),
           Wrapper(struct.Struct("<BIII"), 0)),
    Coding(LZ, "LZ", "lz"),
    Coding(MIXED, "MIXED", "mixed"),
    Coding(MIXED_PRIMED, "MIXED_PRIMED", "mixed"),
    Coding(LZ_PARTS, "LZ_PARTS", "lz"),
    Coding(DICTIONARY_IDS, "DICTIONARY_IDS", "dictionary_ids", dictionary=True),
    Coding(DICTIONARY_LZ, "DICTIONARY_LZ", "dictionary_lz", dictionary=True),
    Coding(SEQUENCES, "SEQUENCES", "sequences"),
    Coding(DICTIONARY_IDS_LZ, "DICTIONARY_IDS_LZ", "dictionary_ids_lz", dictionary=True),
)}
# The most bytes of a payload's head that say its rule count: REPEATS over
# FOLDED over a grammar coding.
HEAD_BYTES = CODINGS[REPEATS].head.layout.size + CODINGS[FOLDED].head.layout.size + 4


def name(number):
    return CODINGS[number].name if number in CODINGS else f"coding {number}"


def check_coding(number):
    """Refuse a coding number that format 1.0 does not define, naming it."""
    if number not in CODINGS:
        raise GageBPEError(f"block coding {number} is not one of format 1.0's: the stream "
                           f"needs a later gagebpe than {__version__}")


def check_inner(wrapper, inner):
    if inner not in CODINGS[wrapper].inner:
        raise GageBPEError(f"{name(wrapper)} block holds coding {inner}, which it may not wrap")


def codings_of(coding, payload):
    """The codings of a block of ``coding`` and ``payload``: its own, then
    its inner coding's, and so on, as far as ``payload`` holds them."""
    codings = [coding]
    while codings[-1] in CODINGS and CODINGS[codings[-1]].inner_at:
        coding_at, inner_at = CODINGS[codings[-1]].inner_at
        if len(payload) < inner_at:
            break
        codings.append(payload[coding_at])
        payload = payload[inner_at:]
    return codings


def merge_count(coding, head):
    """The number of rules of a block, from its coding and the first
    HEAD_BYTES bytes of its payload (fewer if it has fewer)."""
    check_coding(coding)
    entry = CODINGS[coding]
    if entry.inner_at:
        coding_at, inner_at = entry.inner_at
        if len(head) < inner_at:
            raise GageBPEError("block shorter than its header")
        return merge_count(head[coding_at], head[inner_at:])
    if entry.rules_at is None:
        return 0
    if len(head) < entry.rules_at + 4:
        raise GageBPEError("block shorter than its header")
    return struct.unpack_from("<I", head, entry.rules_at)[0]
