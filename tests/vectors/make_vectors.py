"""Write format 1.0's conformance vectors (docs/FORMAT.md, section 7):
streams with their expected outputs, and malformed streams with the error
each must raise, listed in vectors.json.

    python tests/vectors/make_vectors.py

Each valid vector is built from a fixed input by gagebpe's own coders,
the coding chosen here rather than by a level, so that every coding and
layout of section 4 has a stream; each malformed vector is a valid one
changed by hand, with its checks recomputed where the fault lies behind
them.  The files are committed: decoders are tested against them, and
this script only says how they were made.  Run it again only to add a
vector; a vector once published never changes: a run writes every stream
with today's coders, so restore the published files it rewrote (``git
checkout``) and keep only the new ones.
"""
import hashlib
import json
import struct
import sys
import zlib
from pathlib import Path

import numpy as np

import gagebpe
from gagebpe.encoder import block as encoder_block, levels
from gagebpe.format import container, dictionary as _dictionary
from gagebpe.format.codings import registry
from gagebpe.format.codings import (context, dictionary_ids, dictionary_ids_lz, dictionary_lz,
                                    filtered, lz, mixed, packed, repeats, sequences,
                                    sorted_rules)
from gagebpe.kernels import cutoff, filters, grammar
from gagebpe.plain.varint import varint_at
from gagebpe.sample import sample

PARTS_OF_1K = levels.PARTS._replace(segment=1024)  # several parts from a short input

HERE = Path(__file__).parent


def noise(n, seed):
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8).tobytes()


def log_lines(n, seed=0):
    """Lines of a package log, whose repeated strings fold into long rules."""
    rng = np.random.default_rng(seed)
    names = [b"libgagebpe-common", b"python3-numpy-kernels", b"zlib1g-development",
             b"fonts-dejavu-extra"]
    return b"".join(b"2026-12-03 07:%02d:%02d status half-configured %s:amd64 1.%d.%d\n"
                    % (k // 60 % 60, k % 60, names[rng.integers(len(names))],
                       rng.integers(9), rng.integers(30)) for k in range(n))


def records(length, count, seed):
    """Records of ``length`` bytes, each a copy of the first but for its
    row number and a byte or two."""
    rng = np.random.default_rng(seed)
    rows = np.tile(rng.integers(0, 256, length, dtype=np.uint8), (count, 1))
    for row in rows:
        row[rng.integers(0, length, 2)] = rng.integers(0, 256, 2)
    rows[:, :2] = np.arange(count, dtype="<u4").view(np.uint8).reshape(count, 4)[:, :2]
    return rows.tobytes()


def grammar_payload(coding, data):
    """``(coding, payload)`` of ``data`` in the grammar coding ``coding``,
    its rules cut where that coding codes smallest (gagebpe's choice)."""
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    built = grammar.build(data, 4)
    if coding == registry.PACKED:
        return coding, packed.encode(grammar.truncate(built, cutoff.for_packed(built, hist)),
                                     hist)
    cut = grammar.truncate(built, cutoff.for_sorted(built, hist))
    long_rules = coding in (registry.SORTED_LONG, registry.CONTEXT_LONG)
    table = sorted_rules.numbered(cut, hist > 0, long_rules)
    assert table.long_rules == long_rules, coding
    encode = (context.encode if coding in (registry.CONTEXT, registry.CONTEXT_LONG)
              else sorted_rules.encode)
    return coding, encode(cut, hist, table)


def single(data, coding, payload):
    return container.single_stream(container.block(coding, payload, data))


def blocks(pieces):
    """A stream of the block layout of ``(data, coding, payload)`` pieces."""
    framed = [container.block(c, p, d) for d, c, p in pieces]
    largest = max((len(d) for d, _, _ in pieces), default=1)
    return (container.stream_header(largest) + b"".join(framed)
            + container.trailer([(len(f), len(d)) for f, (d, _, _) in zip(framed, pieces)]))


def valid():
    """``{name: (stream, output)}``."""
    text = sample(15_000)
    out = {}
    out["empty"] = (container.EMPTY_STREAM, b"")
    out["stored"] = (single(noise(100, 1), registry.STORED, noise(100, 1)), noise(100, 1))
    ab = b"ab" * 32
    out["packed"] = (single(ab, *grammar_payload(registry.PACKED, ab)), ab)
    out["example"] = out["packed"]  # FORMAT.md, section 9
    for name, coding, data in (("sorted", registry.SORTED, text[:3000]),
                               ("sorted-long", registry.SORTED_LONG, log_lines(250)),
                               ("context", registry.CONTEXT, text),
                               ("context-long", registry.CONTEXT_LONG, log_lines(250, 1))):
        out[name] = (single(data, *grammar_payload(coding, data)), data)
    for name, kind in (("filtered-delta", filters.DELTA), ("filtered-xor", filters.XOR)):
        data = records(13, 600, kind)
        inner = grammar_payload(registry.SORTED, filters.apply(data, kind, 13))
        out[name] = (single(data, registry.FILTERED, filtered.encode(kind, 13, *inner)), data)
    coded = encoder_block.encode_folded(text[:4000], 4)
    assert coded is not None and coded[0] == registry.FOLDED
    out["folded"] = (single(text[:4000], *coded), text[:4000])
    for name, inner_coding, data in (
            ("repeats-stored", registry.STORED, noise(3000, 2) * 2),
            ("repeats-sorted", registry.SORTED, text[:6000] + noise(500, 3) + text[:6000])):
        literals, copies = repeats.find(data)
        inner = ((registry.STORED, literals) if inner_coding == registry.STORED
                 else grammar_payload(inner_coding, literals))
        payload = repeats.encode(copies, len(literals), *inner)
        out[name] = (single(data, registry.REPEATS, payload), data)
    code = text[:3000]
    out["lz"] = (single(code, registry.LZ, lz.encode(code, levels.QUICK)[1]), code)
    # parts of 1 KiB, so that a small vector has several (an encoder's are
    # larger): repeat distances and copies reach across them
    parts = lz.encode_parts(code, PARTS_OF_1K, join=False)
    out["lz-parts"] = (single(code, registry.LZ_PARTS, parts), code)
    # the same parts as sequences; and records, whose copies follow copies
    # (runs of none) at repeat distances
    out["sequences"] = (single(code, registry.SEQUENCES, sequences_of(code)), code)
    rows = records(13, 300, 7)
    out["sequences-records"] = (single(rows, registry.SEQUENCES, sequences_of(rows)), rows)
    binary = noise(200, 4) * 3
    out["mixed"] = (single(binary, registry.MIXED, mixed.encode(binary)), binary)
    small = text[:100]
    out["mixed-primed"] = (single(small, registry.MIXED_PRIMED, mixed.encode_primed(small)),
                           small)
    pieces = [(text[:4000], *grammar_payload(registry.SORTED, text[:4000])),
              (noise(500, 5), registry.STORED, noise(500, 5)),
              (code[:1000], registry.LZ, lz.encode(code[:1000], levels.QUICK)[1]),
              (binary[:300], registry.MIXED, mixed.encode(binary[:300]))]
    out["blocks"] = (blocks(pieces), b"".join(d for d, _, _ in pieces))
    out["blocks-none"] = (blocks([]), b"")
    out["concatenated"] = (out["lz"][0] + out["blocks"][0] + out["empty"][0] + out["stored"][0],
                           out["lz"][1] + out["blocks"][1] + out["stored"][1])
    return out


def sequences_of(data):
    """The SEQUENCES payload of ``data`` in parts of 1 KiB."""
    return sequences.encode(lz.parts(data, PARTS_OF_1K, join=False))


def _rechecked(stream, start, length):
    """``stream`` with the CRC32 after ``length`` bytes at ``start`` recomputed."""
    stream = bytearray(stream)
    stream[start + length:start + length + 4] = struct.pack(
        "<I", zlib.crc32(bytes(stream[start:start + length])))
    return bytes(stream)


def malformed(good):
    """``{name: (stream, exception name, message pattern)}``."""
    lz_stream, blocks_stream = good["lz"][0], good["blocks"][0]
    head = container.SINGLE_AT + 8  # a block-layout stream's header
    at = container.SINGLE_AT

    def descriptor(value, stream=lz_stream):
        return stream[:at - 1] + bytes([value]) + stream[at:]

    def size_field(raw):
        return lz_stream[:at + 1] + raw + lz_stream[at + 3:]

    bad_index = bytearray(blocks_stream)
    bad_index[-24] ^= 1  # the last index entry's block size
    truncated_trailer = blocks_stream[:-1]
    wrong_inner = filtered.encode(filters.DELTA, 13, registry.LZ, b"")
    big_mixed = (container.MAGIC + bytes([0, registry.MIXED]) + container.varint(65_537)
                 + container.varint(2) + bytes(4) + b"\0\0")
    big_primed = (container.MAGIC + bytes([0, registry.MIXED_PRIMED])
                  + container.varint(4097) + container.varint(2) + bytes(4) + b"\0\0")
    return {
        "bad-magic": (b"\x89GBQ" + lz_stream[4:], "GageBPEError", "bad magic"),
        "pre-1.0": (b"GBPE\x0e\x00\x00\x00" + bytes(8), "GageBPEError", "bad magic"),
        "descriptor-bit-2": (descriptor(0x04), "GageBPEError", "reserved descriptor bit 2"),
        "descriptor-bit-3": (descriptor(0x08), "GageBPEError", "reserved descriptor bit 3"),
        "revision-1": (descriptor(0x10), "GageBPEError", "revision 1"),
        "dictionary": (lz_stream[:at - 1] + bytes([0x02]) + struct.pack("<I", 0xC0FFEE)
                       + lz_stream[at:], "GageBPEError", "dictionary 0x00c0ffee"),
        # 14 and 15 were unknown when these were made; they are now
        # DICTIONARY_IDS and DICTIONARY_LZ, which a stream naming no
        # dictionary may not hold (sections 4.15 and 4.16).
        "coding-14": (lz_stream[:at] + bytes([14]) + lz_stream[at + 1:], "GageBPEError",
                      "names no dictionary"),
        "coding-14-blocks": (_rechecked(blocks_stream[:head] + bytes([14])
                                        + blocks_stream[head + 1:], head, 13),
                             "GageBPEError", "names no dictionary"),
        "coding-15": (lz_stream[:at] + bytes([15]) + lz_stream[at + 1:], "GageBPEError",
                      "names no dictionary"),
        "coding-15-blocks": (_rechecked(blocks_stream[:head] + bytes([15])
                                        + blocks_stream[head + 1:], head, 13),
                             "GageBPEError", "names no dictionary"),
        # 16 was unknown when these were made; it is now SEQUENCES, which
        # the LZ payload they hold is not (section 4.17).
        "coding-16": (lz_stream[:at] + bytes([16]) + lz_stream[at + 1:], "GageBPEError",
                      "SEQUENCES block"),
        "coding-16-blocks": (_rechecked(blocks_stream[:head] + bytes([16])
                                        + blocks_stream[head + 1:], head, 13),
                             "GageBPEError", "SEQUENCES block"),
        # 17 was unknown when these were made; it is now DICTIONARY_IDS_LZ,
        # which needs a dictionary that these streams do not name.
        "coding-17": (lz_stream[:at] + bytes([17]) + lz_stream[at + 1:], "GageBPEError",
                      "names no dictionary"),
        "coding-17-blocks": (_rechecked(blocks_stream[:head] + bytes([17])
                                        + blocks_stream[head + 1:], head, 13),
                             "GageBPEError", "names no dictionary"),
        "coding-18": (lz_stream[:at] + bytes([18]) + lz_stream[at + 1:], "GageBPEError",
                      "block coding 18 is not one of format 1.0's"),
        "coding-18-blocks": (_rechecked(blocks_stream[:head] + bytes([18])
                                        + blocks_stream[head + 1:], head, 13),
                             "GageBPEError", "block coding 18"),
        **lz_parts_faults(*good["lz-parts"]),
        **sequences_faults(*good["sequences"]),
        "size-0": (size_field(b"\x00\x00"), "GageBPEError", "size 0 out of range"),
        "size-too-large": (lz_stream[:at + 1] + container.varint((1 << 26) + 1)
                           + lz_stream[at + 3:], "GageBPEError", "out of range"),
        "size-not-shortest": (lz_stream[:at + 1] + b"\xb8\x97\x00" + lz_stream[at + 3:],
                              "GageBPEError", "shortest form"),
        "payload-larger": (single(b"abcd", registry.LZ, b"abcde"), "GageBPEError",
                           "larger than its contents"),
        "data-check": (lz_stream[:-1] + bytes([lz_stream[-1] ^ 1]), "GageBPEError", "."),
        "single-check": (lz_stream[:at + 5] + b"\0\0\0\0" + lz_stream[at + 9:], "GageBPEError",
                         "block check failed"),
        "header-check": (blocks_stream[:head - 1] + bytes([blocks_stream[head - 1] ^ 1])
                         + blocks_stream[head:], "GageBPEError", "stream header check failed"),
        "block-header-check": (blocks_stream[:head + 16] + bytes([blocks_stream[head + 16] ^ 1])
                               + blocks_stream[head + 17:], "GageBPEError",
                               "block header check failed"),
        "index": (bytes(bad_index), "GageBPEError", "index disagrees"),
        "footer-magic": (blocks_stream[:-1] + b"\0", "GageBPEError", "end-of-stream"),
        "bytes-after": (lz_stream + b"\0", "GageBPEError", "bad magic"),
        "filtered-wrong-inner": (single(b"x" * 20, registry.FILTERED, wrong_inner),
                                 "GageBPEError", "FILTERED block holds coding 10"),
        "mixed-too-large": (big_mixed, "GageBPEError", "MIXED block larger than 65536"),
        "primed-too-large": (big_primed, "GageBPEError", "MIXED_PRIMED block larger than 4096"),
        "truncated-magic": (container.MAGIC[:3], "EOFError", "ended before"),
        "truncated-single": (lz_stream[:-1], "EOFError", "ended before"),
        "truncated-blocks": (truncated_trailer, "EOFError", "ended before"),
        "truncated-header": (blocks_stream[:head - 1], "EOFError", "ended before"),
    }


def lz_parts_faults(stream, data):
    """Malformed LZ_PARTS streams: a part's head changed, the payload's
    size kept (section 4.14)."""
    # where the payload begins: the stream's end less the payload
    payload_at = len(stream) - len(lz.encode_parts(data, PARTS_OF_1K, join=False))
    first_stream = struct.unpack_from("<I", stream, payload_at + 6)[0]
    second = payload_at + 10 + first_stream

    def changed(at, raw):
        return stream[:at] + raw + stream[at + len(raw):]

    return {name: (bad, "GageBPEError", "LZ_PARTS block's parts") for name, bad in (
        ("lz-parts-empty-part", changed(payload_at, bytes(4))),
        ("lz-parts-past-block", changed(second, struct.pack("<I", 1 << 20))),
        ("lz-parts-slots", changed(payload_at + 4, bytes([53]))),
        ("lz-parts-stream-past-payload", changed(second + 6, struct.pack("<I", 1 << 20))))}


def sequences_faults(stream, data):
    """Malformed SEQUENCES streams: the first part's head, or the stream's
    last bit, changed (section 4.17)."""
    payload = sequences_of(data)
    fields, at = [], 0  # the first part's head: 3 varints, 3 bytes, 7 varints
    for k in range(3 + 3 + 7):
        end = at + 1 if k in (3, 4, 5) else varint_at(payload, at)[1]
        fields.append(payload[at:end])
        at = end
    size = varint_at(fields[0], 0)[0]

    def with_fields(**changed):
        new = list(fields)
        for k, value in changed.items():
            index = int(k[1:])
            new[index] = bytes([value]) if index in (3, 4, 5) else container.varint(value)
        return single(data, registry.SEQUENCES, b"".join(new) + payload[at:])

    faults = {
        "sequences-empty-part": (with_fields(f0=0), "SEQUENCES block's parts"),
        "sequences-too-many": (with_fields(f2=size), "SEQUENCES block's parts"),
        "sequences-slots": (with_fields(f3=53), "SEQUENCES block's parts"),
        "sequences-stream-past-payload": (with_fields(f6=1 << 20), "SEQUENCES block's parts"),
        "sequences-last-bit": (stream[:-1] + bytes([stream[-1] ^ 1]),
                               "SEQUENCES block|block check"),
    }
    return {name: (bad, "GageBPEError", pattern) for name, (bad, pattern) in faults.items()}


DICTIONARY = "dictionary.gbpd"
CONTENT_DICTIONARY = "dictionary-content.gbpd"
SHORTER_CONTENT_DICTIONARY = "dictionary-shorter-content.gbpd"


def with_dictionary():
    """``{dictionary file: (dictionary, {name: (stream, output or None,
    error, pattern)})}``: streams that need a dictionary (section 10) and
    the faults of its codings (sections 4.15 and 4.16)."""
    lines = [b"%d %s\n" % (i, sample(40 + i % 30)[i % 11:]) for i in range(300)]
    # Trained by gagebpe 0.23 on lines[:200] with a size of 6000 (the trainer
    # has learned since): the published file is its source.
    dictionary = gagebpe.Dictionary.from_bytes((HERE / DICTIONARY).read_bytes())
    record = gagebpe.compress(lines[250], dictionary=dictionary)
    payload = dictionary_ids.encode(lines[250], dictionary)
    assert record.endswith(payload)
    short = container.single_stream(container.block(registry.DICTIONARY_IDS, payload[:-1],
                                                    lines[250]), dictionary.id)
    blocks = gagebpe.compress(b"".join(lines[200:]), 1, block_size=1000, dictionary=dictionary)
    last = record[-1]
    streams = {
        "dictionary-ids": (record, lines[250], None, None),
        "dictionary-ids-blocks": (blocks, b"".join(lines[200:]), None, None),
        "dictionary-ids-short": (short, None, "GageBPEError", "does not decode"),
        "dictionary-ids-last-bit": (record[:-1] + bytes([last ^ 1]), None, "GageBPEError",
                                    "DICTIONARY_IDS|block check"),
    }
    with_content, shorter, lz_streams = content_vectors(dictionary, lines)
    streams["dictionary-lz-no-content"] = lz_streams.pop("no content")
    streams["dictionary-ids-lz-no-content"] = lz_streams.pop("ids-lz no content")
    return {DICTIONARY: (dictionary, streams),
            CONTENT_DICTIONARY: (with_content, lz_streams),
            SHORTER_CONTENT_DICTIONARY: (shorter, {
                "dictionary-lz-past-content": lz_streams.pop("past content"),
                "dictionary-ids-lz-past-content": lz_streams.pop("ids-lz past content")})}


def content_vectors(dictionary, lines):
    """``(dictionary with content, the same with the content's first byte
    cut, {name: stream})``: revision 1 (section 10), DICTIONARY_LZ (section
    4.16) and DICTIONARY_IDS_LZ (section 4.18); the record's first copy is
    of the content's first byte on, and its last copies reach into the
    record itself."""
    content = b"".join(lines[:40])
    literal = np.full(_dictionary.LITERAL_SYMBOLS, 9, np.uint8)
    literal[:204] = 8  # 204 codes of 8 bits and 104 of 9: complete
    distance = np.full(_dictionary.LZ_SYMBOLS - _dictionary.LITERAL_SYMBOLS, 6, np.uint8)
    distance[:9] = 5  # 9 of 5 bits and 46 of 6
    lz_lengths = np.concatenate([literal, distance])
    with_content = dictionary.with_content(content, lz_lengths)
    shorter = dictionary.with_content(content[1:], lz_lengths)
    data = content[:60] + lines[250] + lines[250][::-1] + lines[250]
    payload, = dictionary_lz.encode_many([data], with_content)
    mixed_payload, = dictionary_ids_lz.encode_many([data], with_content)

    def stream(payload, named=with_content, coding=registry.DICTIONARY_LZ):
        block = container.block(coding, payload, data)
        return container.single_stream(block, named.id)

    def mixed(payload, named=with_content):
        return stream(payload, named, registry.DICTIONARY_IDS_LZ)

    return with_content, shorter, {
        "dictionary-ids-lz": (mixed(mixed_payload), data, None, None),
        "dictionary-ids-lz-short": (mixed(mixed_payload[:-1]), None, "GageBPEError",
                                    "does not decode"),
        "dictionary-ids-lz-last-bit": (mixed(mixed_payload[:-1] + bytes([mixed_payload[-1] ^ 1])),
                                       None, "GageBPEError", "does not decode|block check"),
        "ids-lz past content": (mixed(mixed_payload, shorter), None, "GageBPEError",
                                "does not decode"),
        "ids-lz no content": (mixed(mixed_payload, dictionary), None, "GageBPEError",
                              "holds no content"),
        "dictionary-lz": (stream(payload), data, None, None),
        "dictionary-lz-short": (stream(payload[:-1]), None, "GageBPEError",
                                "tokens disagree with their codes"),
        "dictionary-lz-last-bit": (stream(payload[:-1] + bytes([payload[-1] ^ 1])), None,
                                   "GageBPEError", "bits after its last token|block check"),
        "past content": (stream(payload, shorter), None, "GageBPEError",
                         "copy reaches outside it"),
        "no content": (stream(payload, dictionary), None, "GageBPEError", "holds no content"),
    }


def main():
    good, manifest = valid(), {"valid": {}, "malformed": {}, "with_dictionary": {}}
    for old in list(HERE.glob("*.gbpe")) + list(HERE.glob("*.out")):
        old.unlink()
    for name, (stream, output) in sorted(good.items()):
        assert gagebpe.decompress(stream) == output, name
        (HERE / f"{name}.gbpe").write_bytes(stream)
        (HERE / f"{name}.out").write_bytes(output)
        manifest["valid"][name] = {"size": len(output),
                                   "sha256": hashlib.sha256(output).hexdigest()}
    for name, (stream, error, pattern) in sorted(malformed(good).items()):
        (HERE / f"{name}.gbpe").write_bytes(stream)
        manifest["malformed"][name] = {"error": error, "match": pattern}
    for file, (dictionary, streams) in with_dictionary().items():
        (HERE / file).write_bytes(bytes(dictionary))
        for name, (stream, output, error, pattern) in sorted(streams.items()):
            (HERE / f"{name}.gbpe").write_bytes(stream)
            if output is not None:
                assert gagebpe.decompress(stream, dictionary=dictionary) == output, name
                (HERE / f"{name}.out").write_bytes(output)
                entry = {"size": len(output), "sha256": hashlib.sha256(output).hexdigest()}
            else:
                entry = {"error": error, "match": pattern}
            manifest["with_dictionary"][name] = {"dictionary": file, **entry}
    (HERE / "vectors.json").write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"{len(good)} valid and {len(manifest['malformed'])} malformed vectors", file=sys.stderr)


if __name__ == "__main__":
    main()
