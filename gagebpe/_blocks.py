"""Block codings: one block of bytes <-> (coding, payload).

STORED keeps the bytes as they are.  PACKED keeps a BPE grammar with every
symbol in a fixed number of bits; HUFFMAN codes the grammar's sequence with
a canonical Huffman code over its whole alphabet; SORTED does the same with
the merge table in compact form (``_rules``).  gagebpe writes STORED, PACKED
and SORTED, and reads all four (HUFFMAN is what version 0.1 wrote).  New
codings get new numbers; a decoder refuses a number it does not know
(docs/FORMAT.md).
"""
import struct

import numpy as np

from . import _bits, _entropy, _expand, _huffman, _rules, grammar
from ._errors import GageBPEError

STORED = 1
PACKED = 2
HUFFMAN = 3
SORTED = 4
CODINGS = (STORED, PACKED, HUFFMAN, SORTED)

_PACKED_HEAD = struct.Struct("<II32s")  # merges, ids, terminal bitmap
# merges, ids, bytes of the code-length section, terminal bitmap
_HUFFMAN_HEAD = struct.Struct("<III32s")
# merges, ids, bytes of the merge table, bytes of the code lengths, bitmap
_SORTED_HEAD = struct.Struct("<IIII32s")
# A compact table costs about log2(alphabet) + RULE_EXTRA_BITS per rule.
RULE_EXTRA_BITS = 0.4
# The code-length table's own code: lengths 0..MAX_LENGTH, each described
# by a 4-bit length.
_LENGTH_SYMBOLS = _huffman.MAX_LENGTH + 1
_LENGTH_CODE_BYTES = (4 * _LENGTH_SYMBOLS + 7) // 8
_LENGTH_CODE_MAX = 15


def bit_length(values):
    """``int.bit_length`` of each value of a non-negative int array."""
    return np.frexp(np.asarray(values, np.float64))[1].astype(np.int64)


def best_prefix(n, n_terminals, counts):
    """How many of the grammar's merges to keep so the PACKED payload is
    smallest: merge k pays while the symbols it removes outweigh its table
    entry and the wider codes every symbol needs as the alphabet grows."""
    d = np.arange(len(counts) + 1)
    seq_len = n - np.concatenate([[0], np.cumsum(counts)])
    merge_bits = np.concatenate(
        [[0], np.cumsum(2 * bit_length(n_terminals + d[:-1] - 1))])
    total = merge_bits + seq_len * bit_length(n_terminals + d - 1)
    return int(np.argmin(total))


def _section_sizes(n_terminals, n_merges, n_ids):
    """Bytes of the merge-table and sequence sections, and the id width."""
    id_width = int(n_terminals + n_merges - 1).bit_length()
    table_bits = int(_bits.merge_table_bits(n_terminals, n_merges))
    return (table_bits + 7) // 8, (n_ids * id_width + 7) // 8, id_width


def _compact(present, g):
    """The grammar's merges and ids renumbered compactly: the bytes present,
    in order, then the merges."""
    n_terminals = int(present.sum())
    compact = np.concatenate([np.cumsum(present) - 1,
                              n_terminals + np.arange(len(g.merges))]).astype(np.int32)
    return compact[g.merges], compact[g.ids]


def _merge_table(merges, n_terminals):
    table = np.zeros((_bits.merge_table_bits(n_terminals, len(merges)) + 7) // 8, np.uint8)
    _bits.pack_merges(merges, n_terminals, table)
    return table.tobytes()


def encode_packed(g, hist):
    """PACKED payload of the block with byte histogram ``hist`` and grammar
    ``g``, keeping the prefix of merges that makes it smallest."""
    present = hist > 0
    n_terminals = int(present.sum())
    g = grammar.truncate(g, best_prefix(int(hist.sum()), n_terminals, g.counts))
    n_merges, n_ids = len(g.merges), len(g.ids)
    _, ids_bytes, id_width = _section_sizes(n_terminals, n_merges, n_ids)
    merges, ids = _compact(present, g)
    packed_ids = np.zeros(ids_bytes, np.uint8)
    _bits.pack_fixed(ids, id_width, packed_ids)
    bitmap = np.packbits(present, bitorder="little").tobytes()
    return (_PACKED_HEAD.pack(n_merges, n_ids, bitmap)
            + _merge_table(merges, n_terminals) + packed_ids.tobytes())


def _check_padding(section, nbits):
    if nbits % 8 and section[-1] >> (nbits % 8):
        raise GageBPEError("PACKED block padding bits are not zero")


def decode_packed(payload, size, out):
    """Bytes of a PACKED payload that must expand to ``size`` bytes, into
    ``out``."""
    if len(payload) < _PACKED_HEAD.size:
        raise GageBPEError("PACKED block shorter than its header")
    n_merges, n_ids, bitmap = _PACKED_HEAD.unpack_from(payload)
    terminals = _terminals(bitmap)
    n_terminals = len(terminals)
    _check_counts(n_terminals, n_merges, n_ids, size)
    table_bytes, ids_bytes, id_width = _section_sizes(n_terminals, n_merges, n_ids)
    if len(payload) != _PACKED_HEAD.size + table_bytes + ids_bytes:
        raise GageBPEError("PACKED block length disagrees with its counts")
    body = np.frombuffer(payload, np.uint8, offset=_PACKED_HEAD.size)
    table, ids_section = body[:table_bytes], body[table_bytes:]
    _check_padding(table, int(_bits.merge_table_bits(n_terminals, n_merges)))
    _check_padding(ids_section, n_ids * id_width)
    if n_merges == 0:  # terminals only: decode them in one pass
        if n_ids != size:
            raise GageBPEError("grammar does not expand to the declared size")
        if not _bits.unpack_bytes(ids_section, id_width, terminals, out):
            raise GageBPEError("sequence refers to an undefined symbol")
        return out
    ids = np.empty(n_ids, np.int32)
    _bits.unpack_fixed(ids_section, id_width, ids)
    return _expand_sections(table, n_merges, ids, terminals, size, out)


def _unpack_merges(table, n_merges, n_terminals):
    merges = np.empty((n_merges, 2), np.int32)
    if not _bits.unpack_merges(table, n_terminals, merges):
        raise GageBPEError("merge table refers to an undefined symbol")
    return merges


def _expand_sections(table, n_merges, ids, terminals, size, out):
    merges = _unpack_merges(table, n_merges, len(terminals))
    return grammar.expand(merges, ids, len(terminals), terminals, size,
                          checked=True, out=out)


def _terminals(bitmap):
    return np.flatnonzero(
        np.unpackbits(np.frombuffer(bitmap, np.uint8), bitorder="little")
    ).astype(np.uint8)


# -- HUFFMAN ---------------------------------------------------------------------

def _huffman_section(symbols, lengths, streams=1):
    """The codes of ``symbols``, split round-robin over ``streams`` streams,
    each padded to a byte; with several, their sizes (u32, all but the
    last) come first."""
    parts = []
    for k in range(streams):
        part = symbols[k::streams]
        out = np.zeros((int(_huffman.encoded_bits(part, lengths)) + 7) // 8, np.uint8)
        _huffman.encode(part, lengths, out)
        parts.append(out.tobytes())
    sizes = b"".join(struct.pack("<I", len(p)) for p in parts[:-1])
    return sizes + b"".join(parts)


def _table_estimate(n_terminals, n_merges):
    """Estimated bits of the compact tables of each prefix of n_merges."""
    d = np.arange(n_merges + 1)
    return d * (np.log2(n_terminals + d) + RULE_EXTRA_BITS)


def encode_sorted(g, hist):
    """SORTED payload of the block with byte histogram ``hist`` and grammar
    ``g``, keeping the prefix of merges with the smallest estimated size;
    None if its sequence has too many symbols for the length limit."""
    present = hist > 0
    n_terminals = int(present.sum())
    keep = int(np.argmin(_entropy.prefix_bits(
        hist, g.merges, g.counts, _table_estimate(n_terminals, len(g.merges)))))
    merges, ids = _compact(present, grammar.truncate(g, keep))
    order, depth_sizes = _rules.canonical(merges, n_terminals)
    ids = order[ids]
    merges[order[n_terminals:] - n_terminals] = order[merges]
    freq = np.bincount(ids, minlength=n_terminals + len(merges))
    if np.count_nonzero(freq) > 1 << _huffman.MAX_LENGTH:
        return None
    table = _rules.pack(merges, depth_sizes, n_terminals).tobytes()
    lengths_section, sequence = _code_sections(ids, freq)
    head = _SORTED_HEAD.pack(len(merges), len(ids), len(table), len(lengths_section),
                             np.packbits(present, bitorder="little").tobytes())
    return head + table + lengths_section + sequence


def _code_sections(ids, freq):
    """The code-length and sequence sections of the sequence ``ids``, whose
    symbols occur ``freq`` times."""
    lengths = _huffman.code_lengths(freq, _huffman.MAX_LENGTH)
    length_code = _huffman.code_lengths(
        np.bincount(lengths, minlength=_LENGTH_SYMBOLS), _LENGTH_CODE_MAX)
    return (_nibbles(length_code)
            + _huffman_section(lengths.astype(np.int32), length_code),
            _huffman_section(ids, lengths, _huffman.STREAMS))


def _nibbles(values):
    padded = np.zeros(2 * _LENGTH_CODE_BYTES, np.uint8)
    padded[:len(values)] = values
    return (padded[0::2] | (padded[1::2] << 4)).tobytes()


def _huffman_streams(section, lengths, what, streams):
    """The streams of a section (see ``_huffman_section``) and their sizes,
    checked against the section; the code checked to be complete."""
    if not _huffman.is_complete(lengths):
        raise GageBPEError(f"{what} code is not a complete prefix code")
    head = 4 * (streams - 1)
    if len(section) < head:
        raise GageBPEError(f"{what} section shorter than its stream sizes")
    sizes = np.empty(streams, np.int64)
    sizes[:-1] = np.frombuffer(section[:head].tobytes(), "<u4")
    sizes[-1] = len(section) - head - sizes[:-1].sum()
    if sizes[-1] < 0:
        raise GageBPEError(f"{what} stream sizes overrun the section")
    return section[head:], sizes


def _decode_huffman_section(section, lengths, count, what):
    """``count`` symbols from a whole one-stream section, checked to fill
    it exactly."""
    body, sizes = _huffman_streams(section, lengths, what, 1)
    out = np.empty(count, np.int32)
    if not _huffman.decode(body, sizes, lengths, out):
        raise GageBPEError(f"{what} section disagrees with its codes")
    return out


def decode_huffman(payload, size, out):
    """Bytes of a HUFFMAN payload (fixed-width merge table), into ``out``."""
    if len(payload) < _HUFFMAN_HEAD.size:
        raise GageBPEError("HUFFMAN block shorter than its header")
    n_merges, n_ids, length_bytes, bitmap = _HUFFMAN_HEAD.unpack_from(payload)
    terminals = _terminals(bitmap)
    _check_counts(len(terminals), n_merges, n_ids, size)
    table_bits = int(_bits.merge_table_bits(len(terminals), n_merges))
    body = np.frombuffer(payload, np.uint8)
    table = _section(body, _HUFFMAN_HEAD.size, (table_bits + 7) // 8)
    _check_padding(table, table_bits)
    merges = _unpack_merges(table, n_merges, len(terminals))
    return _decode_coded(body, _HUFFMAN_HEAD.size + len(table), length_bytes,
                         merges, n_ids, terminals, size, out)


def decode_sorted(payload, size, out):
    """Bytes of a SORTED payload (compact merge table), into ``out``."""
    if len(payload) < _SORTED_HEAD.size:
        raise GageBPEError("SORTED block shorter than its header")
    n_merges, n_ids, table_bytes, length_bytes, bitmap = _SORTED_HEAD.unpack_from(payload)
    terminals = _terminals(bitmap)
    _check_counts(len(terminals), n_merges, n_ids, size)
    body = np.frombuffer(payload, np.uint8)
    table = _section(body, _SORTED_HEAD.size, table_bytes)
    merges = np.empty((n_merges, 2), np.int32)
    if not _rules.unpack(table, len(terminals), merges):
        raise GageBPEError("merge table is malformed or refers to an undefined symbol")
    return _decode_coded(body, _SORTED_HEAD.size + table_bytes, length_bytes,
                         merges, n_ids, terminals, size, out)


def _check_counts(n_terminals, n_merges, n_ids, size):
    # Every id expands to at least one byte and every merge removes one id.
    if n_ids > size or n_merges >= size or n_terminals == 0:
        raise GageBPEError("block counts disagree with its size")


def _section(body, start, length):
    if start + length > len(body):
        raise GageBPEError("block sections overrun its payload")
    return body[start:start + length]


def _decode_coded(body, start, length_bytes, merges, n_ids, terminals, size, out):
    """Expand the code-length and sequence sections from ``body[start:]``
    (checked merges ``merges``) to exactly ``size`` bytes, into ``out``."""
    n_terminals = len(terminals)
    n_symbols = n_terminals + len(merges)
    if length_bytes < _LENGTH_CODE_BYTES:
        raise GageBPEError("code-length section shorter than its header")
    section = _section(body, start, length_bytes)
    nibbles = section[:_LENGTH_CODE_BYTES]
    length_code = np.empty(2 * _LENGTH_CODE_BYTES, np.uint8)
    length_code[0::2] = nibbles & 15
    length_code[1::2] = nibbles >> 4
    if length_code[_LENGTH_SYMBOLS:].any():
        raise GageBPEError("code-length code padding is not zero")
    lengths = _decode_huffman_section(
        section[_LENGTH_CODE_BYTES:], length_code[:_LENGTH_SYMBOLS], n_symbols,
        "code-length").astype(np.uint8)
    streams, sizes = _huffman_streams(body[start + length_bytes:], lengths, "sequence",
                                      _huffman.STREAMS)
    written = _expand.expand_coded(
        streams, sizes, lengths, merges, n_terminals, terminals,
        _expand.symbol_lengths(merges, n_terminals, size), n_ids, out, size)
    if written != size:
        raise GageBPEError("sequence disagrees with its codes or "
                           "does not expand to the declared size")
    return out


def encode(data, min_count=2, probe=False, merge=None):
    """``(coding, payload)`` for one block: the smallest of its codings,
    preferring the faster to decode on a tie (STORED, PACKED, SORTED).
    ``merge``: whether to run the merge engine; None decides by
    ``worth_merging(data, min_count, probe)``."""
    data = bytes(data)
    if not data:
        return STORED, data
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    if merge is None:
        merge = worth_merging(data, min_count, probe)
    if merge:
        g = grammar.encode(data, min_count=min_count)
    else:
        g = grammar.Grammar(np.empty((0, 2), np.int32), grammar.as_ids(data),
                            np.empty(0, np.int64))
    candidates = [(STORED, data), (PACKED, encode_packed(g, hist)),
                  (SORTED, encode_sorted(g, hist))]
    return min((c for c in candidates if c[1] is not None), key=lambda c: len(c[1]))


# Probing: PROBE_SLICES slices of PROBE_SLICE bytes spread over a block of
# at least PROBE_FROM bytes.  A block whose merges save less than PROBE_GAIN
# of the sample's estimated size is coded without merges: the engine's time
# there buys nothing (random or already compressed data, DNA).
PROBE_SLICES = 4
PROBE_SLICE = 1 << 16
PROBE_FROM = 4 * PROBE_SLICES * PROBE_SLICE
PROBE_GAIN = 0.01


def worth_merging(data, min_count, probe):
    """Whether to run the merge engine on block ``data``: yes, unless
    ``probe`` is set and merging a sample of a large block does not pay."""
    return not (probe and len(data) >= PROBE_FROM
                and not merges_pay(_probe_sample(data), min_count))


def _probe_sample(data):
    step = len(data) // PROBE_SLICES
    return b"".join(data[i * step:i * step + PROBE_SLICE] for i in range(PROBE_SLICES))


def merges_pay(data, min_count):
    """Whether merging saves at least PROBE_GAIN of ``data``'s estimated
    coded size."""
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    g = grammar.encode(data, min_count=min_count)
    bits = _entropy.prefix_bits(hist, g.merges, g.counts,
                                _table_estimate(int((hist > 0).sum()), len(g.merges)))
    return bits.min() < (1 - PROBE_GAIN) * bits[0]


def merge_count(coding, payload_head):
    """The number of merges of a block, from its coding and the first four
    bytes of its payload (where every grammar coding keeps it)."""
    if coding == STORED:
        return 0
    if len(payload_head) < 4:
        raise GageBPEError("block shorter than its header")
    return struct.unpack_from("<I", payload_head)[0]


_DECODERS = {PACKED: decode_packed, HUFFMAN: decode_huffman, SORTED: decode_sorted}


def decode(coding, payload, size, out=None):
    """The bytes of one block, as a buffer: bytes, or a uint8 array (``out``,
    ``size`` writable bytes, if given, which decoders write into and nothing
    past); ``GageBPEError`` if the payload is malformed."""
    if coding not in CODINGS:
        raise GageBPEError(f"unknown block coding {coding}")
    if coding == STORED:
        if len(payload) != size:
            raise GageBPEError("STORED block length disagrees with its size")
        if out is None:
            return bytes(payload)
        out[:] = np.frombuffer(payload, np.uint8)
        return out
    if out is None:
        out = np.empty(size, np.uint8)
    elif len(out) != size:
        raise ValueError("out must hold exactly the block's size")
    return _DECODERS[coding](payload, size, out)
