"""The LZ and LZ_PARTS block codings: tokens put back exactly, written
where they make the block smaller, and malformed blocks refused."""
import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe.encoder import block as _block, levels
from gagebpe.decoder import fast as _fast
from gagebpe.decoder import blocks
from gagebpe.format.codings import lz as _coding_lz
from gagebpe.format import container as _container
from gagebpe.kernels import lz as _lz, lz_floor
from gagebpe.format.codings.registry import LZ, LZ_PARTS, SEQUENCES
from gagebpe.sample import sample

from conftest import (assert_corruptions_refused, assert_truncations_refused, byte_strings,
                      coding_of, payload_spans, repetitive)
from reference import lz_decode, lz_parts_decode

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "canterbury"
SMALL_FILES = ("grammar.lsp", "xargs.1", "fields.c", "cp.html", "sum")


def full(data):
    """The parse level 9 makes of block ``data``: LZ's full parse of a
    block under 64 KiB, LZ_PARTS' of a larger one."""
    return levels.settings(9).row(len(data)).parse


def segments(size):
    """Level 9's parse of large blocks, in segments of ``size`` bytes."""
    return levels.PARTS._replace(segment=size)


def code(data):
    """``data`` coded as LZ (LZ_PARTS if large) and decoded again."""
    coding, payload = _coding_lz.encode(data, full(data))
    assert coding == (LZ if len(data) < 1 << 16 else LZ_PARTS)
    return payload, blocks.decode(coding, payload, len(data),
                                    np.empty(len(data), np.uint8)).tobytes()


@settings(deadline=None)
@given(st.one_of(byte_strings(3000), repetitive()))
def test_tokens_give_back_the_block(data):
    if not data:
        return
    payload, back = code(data)
    assert back == data


@settings(deadline=None, max_examples=30)
@given(st.one_of(byte_strings(1500), repetitive()))
def test_payloads_decode_as_the_format_says(data):
    if data:
        assert lz_decode(_coding_lz.encode(data, full(data))[1], len(data)) == data


@settings(deadline=None, max_examples=5)
@given(st.integers(0, 2**32 - 1))
def test_parts_payloads_decode_as_the_format_says(seed):
    data = pieces(6_000, seed) + code_like(300, seed)
    payload = _coding_lz.encode_parts(data, segments(4096))
    assert lz_parts_decode(payload, len(data)) == data == _decode(payload, len(data), LZ_PARTS)


def _tokens_with(payload, size, pairs):
    """LZ payload ``payload`` decoded with or without pairs in its table."""
    buffer = _lz.with_padding(payload[_lz.HEAD:])
    n_literal = _lz.LITERALS + int(payload[0])
    lengths = np.empty(n_literal + 1 + int(payload[1]), np.uint8)
    end = 8 * (len(payload) - _lz.HEAD)
    problem, bitpos = _lz._read_table(buffer, np.uint64(0), np.uint64(end), lengths)
    assert problem == 0
    problem, literal, distance = _lz.decoding_tables(lengths[:n_literal], lengths[n_literal:],
                                                     1, pairs)
    assert problem == 0
    out = np.empty(size, np.uint8)
    reps = np.array(_lz.FIRST_REPS, np.int64)
    problem = _lz.tokens(buffer, bitpos, end, literal, distance, out, 0, 0, size, reps,
                         np.empty(0, np.uint8))[0]
    return problem, out.tobytes(), literal


def pairs_in(table):
    """How many entries of a literal/length table are pairs."""
    entries = table[:-1]
    literals = entries[(entries & (_lz.COPY_FLAG << 4)) == 0]
    return int(((literals & _lz.PAIR) != 0).sum())


@settings(deadline=None, max_examples=40)
@given(st.one_of(byte_strings(3000), repetitive()), st.binary(min_size=1, max_size=3))
def test_literal_pairs_decode_as_single_literals(data, tail):
    """A table's pairs give the tokens' bytes as its single literals do,
    also where a block ends one byte into a pair."""
    data = sample()[:9000] + data + tail
    payload = np.frombuffer(_coding_lz.encode(data, full(data))[1], np.uint8)
    single = _tokens_with(payload, len(data), False)
    paired = _tokens_with(payload, len(data), True)
    assert single[:2] == paired[:2] == (0, data)
    assert pairs_in(paired[2]) and not pairs_in(single[2])
    if len(data) >= 8 << 10:  # the block's decoder takes pairs from this size on
        assert _decode(payload, len(data)) == data


def test_slots_cover_every_value_once():
    values = np.arange(1 << 20)
    slots = np.array([_lz.slot(int(v)) for v in values])
    assert (np.diff(slots) >= 0).all() and slots[:4].tolist() == [0, 1, 2, 3]
    for s in np.unique(slots):
        members = values[slots == s]
        assert members[0] == _lz.slot_base(int(s))
        assert len(members) == 1 << _lz.slot_extra(int(s)) or s == slots[-1]
    assert _lz.slot(_container.MAX_BLOCK_SIZE - 1) < _lz.SLOTS


def test_large_blocks_are_parsed_a_segment_at_a_time():
    data = code_like(20_000)  # 3 segments
    assert len(data) > 2 * levels.PARTS.segment
    payload, back = code(data)
    assert back == data and len(payload) < 0.3 * len(data)
    # copies reach back across segments, and one copy takes a long repeat
    noise = np.random.default_rng(3).integers(0, 256, 300_000, dtype=np.uint8).tobytes()
    twice, back = code(noise + noise)
    assert back == noise + noise and len(twice) < len(noise) + 1000


def part_sizes(payload):
    """The sizes of an LZ_PARTS payload's parts."""
    sizes, at = [], 0
    while at < len(payload):
        size, _, _, stream = struct.unpack_from("<IBBI", payload, at)
        sizes.append(size)
        at += 10 + stream
    return sizes


def test_segments_share_a_part_while_one_code_serves_them():
    steady = code_like(3000)
    payload = _coding_lz.encode_parts(steady, segments(4096))
    assert len(part_sizes(payload)) < len(steady) / 4096 / 2
    assert _decode(payload, len(steady), LZ_PARTS) == steady
    # text, then binary: the codes change where the data does
    changing = steady[:32768] + pieces(32768)
    sizes = part_sizes(_coding_lz.encode_parts(changing, segments(4096)))
    assert len(sizes) >= 2 and 32768 in np.cumsum(sizes)


def test_a_run_and_a_repeat_code_as_copies():
    data = b"a" * 1000 + b"the same words twice, " * 40
    payload, back = code(data)
    assert back == data and len(payload) < 60


def code_like(n_lines=300, seed=0):
    """Lines of a made-up program, half of them earlier lines again with a
    change: repeats seen a few times each, as source code has them."""
    rng = np.random.default_rng(seed)
    lines = []
    for _ in range(n_lines):
        if lines and rng.random() < 0.5:
            line = lines[int(rng.integers(0, len(lines)))]
            lines.append(line.replace("(", f"({int(rng.integers(0, 1000))}, ", 1))
        else:
            a, b, c = rng.integers(0, 10**6, 3)
            lines.append(f"    v{a} = f{b}(x{c})\n")
    return "".join(lines).encode()


def pieces(n, seed=0):
    """Random strings of a few hundred bytes, each seen many times, with a
    few random bytes between them: long repeats that pairs seen two or
    three times cannot pay for, as in binaries; of 7-bit bytes, whose
    frequencies gain a little too, as binaries' do (noise that only
    repeats takes the entropic gate: tests/encoder/test_incompressible.py)."""
    rng = np.random.default_rng(seed)
    pool = [rng.integers(0, 128, int(rng.integers(50, 600)), dtype=np.uint8).tobytes()
            for _ in range(200)]
    out = bytearray()
    while len(out) < n:
        out += pool[int(rng.integers(0, len(pool)))]
        out += rng.integers(0, 128, int(rng.integers(0, 8)), dtype=np.uint8).tobytes()
    return bytes(out[:n])


def test_blocks_are_coded_as_lz_where_smaller():
    source = code_like()
    blob = gagebpe.compress(source, 9)
    assert coding_of(blob) == LZ
    assert len(blob) < len(gagebpe.compress(source, 5))  # a full parse, not a quick one
    assert gagebpe.decompress(blob) == source
    # the fast path of one-block streams takes it, to the same bytes
    assert _fast.decode(blob, len(source)) == source
    # a large block is tried where a sample says LZ may pay, from level 6,
    # and alone at levels 6-8 where it says LZ wins clearly
    level6, level9 = levels.settings(6), levels.settings(9)
    row6, row9 = level6.row(300_000), level9.row(300_000)
    assert _block.lz_tries(pieces(300_000), row6, row6.tries) == ("lz",)
    assert _block.lz_tries(pieces(300_000), row9, row9.tries) == row9.tries
    assert "lz" not in _block.lz_tries(sample(300_000), row6, row6.tries)
    # arrays of numbers, whose samples miss few long repeats, keep their
    # grammar however close the sample says the two are
    floats = np.random.default_rng(5).normal(size=40_000).astype("<f8").tobytes()
    lenient = row6._replace(lz_keep=10.0, lz_alone=10.0)
    assert _block.lz_tries(floats, lenient, row6.tries) == row6.tries
    assert _block.lz_tries(pieces(300_000), lenient, row6.tries) == ("lz",)
    for level in (6, 9):
        blob = gagebpe.compress(pieces(300_000), level)
        assert coding_of(blob) == SEQUENCES and gagebpe.decompress(blob) == pieces(300_000)
        assert _fast.decode(blob, 300_000) == pieces(300_000)
    # the levels that favour speed do not parse large blocks as LZ
    assert coding_of(gagebpe.compress(pieces(300_000), 5)) not in (LZ, LZ_PARTS, SEQUENCES)
    text = sample(60_000)
    assert coding_of(gagebpe.compress(text, 9)) != LZ


def longest_matches(data, tree, depth):
    """The longest match ``kernels.lz.matches`` finds at each position of
    ``data``, in two segments (0 where it finds none)."""
    head, links = _lz.finder(len(data), tree)
    longest = []
    for start, end in ((0, len(data) // 2), (len(data) // 2, len(data))):
        starts, lengths, distances = _lz.matches(data, start, end, head, links, depth, tree)
        for i in range(end - start):
            found = lengths[starts[i]:starts[i + 1]]
            assert (np.diff(found) > 0).all()  # each longer than the one before
            for length, distance in zip(found, distances[starts[i]:starts[i + 1]]):
                at = start + i
                assert 0 < distance <= at and at + length <= end
                assert (data[at:at + length] == data[at - distance:at - distance + length]).all()
            longest.append(int(found[-1]) if len(found) else 0)
    return longest


def _stride_table(rows):
    """Rows of a constant 3-byte field and one varying byte: copies of
    three bytes at the repeat distance are what codes them small."""
    return b"".join(b"abc" + bytes([(k * 37) % 251]) for k in range(rows))


@settings(deadline=None)
@given(st.one_of(byte_strings(3000), repetitive(), st.integers(1, 900).map(_stride_table)))
def test_no_parse_codes_a_block_below_its_floor(data):
    # ``payload_floor`` is a bound, not an estimate: it holds for every
    # parse the levels make and for greedy copies, on any bytes
    if not data:
        return
    floor = _coding_lz.payload_floor(data)
    assert floor >= lz_floor.HEAD == len(_coding_lz._head(np.zeros(257), np.zeros(2), 1))
    for parse in (levels.ONE_PASS, levels.QUICK, levels.FULL):
        assert floor <= len(_coding_lz.encode(data, parse)[1])
    assert floor <= len(_coding_lz.encode_greedy(data, 3, 3))


@settings(deadline=None, max_examples=40)
@given(st.one_of(byte_strings(2000), repetitive()))
def test_a_parse_gives_up_only_where_its_first_pass_is_too_large(data):
    # ``most`` stops the parse after its first pass, or changes nothing
    if not data:
        return
    parse = levels.QUICK
    whole = _coding_lz.encode(data, parse)
    first = len(_coding_lz.encode(data, parse._replace(passes=1))[1])
    assert _coding_lz.encode(data, parse, first) == whole
    assert _coding_lz.encode(data, parse, first - 1) is None


def test_a_floor_grows_with_what_no_copy_can_hold():
    rng = np.random.default_rng(7)
    noise = rng.integers(0, 256, 2000, dtype=np.uint8).tobytes()
    # bytes that repeat nothing cost their entropy, nearly 8 bits each; a
    # block that repeats itself only a few bytes, whatever its length
    assert _coding_lz.payload_floor(noise) > 0.95 * len(noise)
    assert _coding_lz.payload_floor(noise[:500] * 4) < _coding_lz.payload_floor(noise[:600])
    assert _coding_lz.payload_floor(b"a" * 4000) < 10



@settings(deadline=None, max_examples=40)
@given(repetitive())
def test_binary_trees_find_the_longest_match_hash_chains_find(data):
    # Visiting every candidate, both finders see the longest match at each
    # position; the trees' matches are real copies, within their segment.
    data = np.frombuffer(data * 3, np.uint8)
    exhaustive = longest_matches(data, False, len(data))
    assert longest_matches(data, True, len(data)) == exhaustive
    # a shallow walk finds real matches too (``longest_matches`` checks each)
    assert len(longest_matches(data, True, 2)) == len(data)


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no Canterbury corpus at {CORPUS}")
@pytest.mark.parametrize("name", SMALL_FILES)
def test_small_corpus_files_beat_zlib_9(name):
    data = (CORPUS / name).read_bytes()
    blob = gagebpe.compress(data, 9)
    assert len(blob) <= len(zlib.compress(data, 9))
    assert gagebpe.decompress(blob) == data


def _stream(tokens, reps, nreps):
    """``(slots, bit stream)`` of these tokens, whatever they say: an int
    is a literal byte, a pair ``(length, distance)`` a copy."""
    lengths, distances, data = [], [], bytearray()
    for token in tokens:
        if isinstance(token, int):
            lengths.append(1), distances.append(0), data.append(token)
        else:
            lengths.append(token[0]), distances.append(token[1])
            data += bytes(token[0])
    symbols = _lz.symbols(np.frombuffer(bytes(data), np.uint8), 0, reps, nreps,
                          np.array(lengths, np.int32), np.array(distances, np.int32))
    stream, literal_lengths, distance_lengths = _coding_lz._pack(*symbols, nreps)
    return _coding_lz._head(literal_lengths, distance_lengths, nreps), stream


def _payload(tokens):
    """An LZ payload of these tokens (``_stream``)."""
    return b"".join(_stream(tokens, np.array([1, 2, 3], np.int32), 1))


def _parts(*parts):
    """An LZ_PARTS payload of parts of these tokens (``_stream``), each
    part's size the bytes its tokens give."""
    reps, out = np.array([1, 2, 3], np.int32), b""
    for tokens in parts:
        size = sum(1 if isinstance(t, int) else t[0] for t in tokens)
        slots, stream = _stream(tokens, reps, 3)
        out += struct.pack("<I", size) + slots + struct.pack("<I", len(stream)) + stream
    return out


def _decode(payload, size, coding=LZ):
    return blocks.decode(coding, payload, size, np.empty(size, np.uint8)).tobytes()


def test_hand_made_tokens_decode():
    payload = _payload([ord("a"), ord("b"), (6, 2), (3, 1)])
    assert _decode(payload, 11) == b"abababab" + b"bbb"


def test_hand_made_parts_decode_with_three_repeat_distances():
    # distances 3 (repeat 2 of the first 1, 2, 3), 1 (repeat 1), 3 (repeat
    # 1), 5 (new), 1 (repeat 2), 3 (repeat 2), 3 (repeat 0): the repeats
    # carry from one part into the next
    first = [ord(c) for c in "abcde"] + [(3, 3), (3, 1), (3, 3)]
    second = [(4, 5), (3, 1), (3, 3), (3, 3)]
    payload = _parts(first, second)
    expected = b"abcde" + b"cde" + b"eee" * 2 + b"eeee" + b"eee" * 3
    assert _decode(payload, 27, LZ_PARTS) == expected == lz_parts_decode(payload, 27)
    symbols = _lz.symbols(np.zeros(27, np.uint8), 0, np.array([1, 2, 3], np.int32), 3,
                          np.array([1] * 5 + [3] * 3 + [4, 3, 3, 3], np.int32),
                          np.array([0] * 5 + [3, 1, 3, 5, 1, 3, 3], np.int32))[1]
    assert symbols[5:].tolist() == [2, 1, 1, 3 + _lz.slot(4), 2, 2, 0]


@pytest.mark.parametrize("tokens, size, message", [
    ([97, (5, 2)], 6, "copy reaches outside"),  # before the block
    ([97, (9, 1)], 6, "copy reaches outside"),  # past its end
    ([97, (5, 1)], 5, "copy reaches outside"),
    ([97, (5, 1)], 40, "overrun|outside"),  # tokens end before the block does
    ([97, (5, 1)] + [98] * 9, 6, "bits after"),
])
def test_malformed_tokens_are_refused(tokens, size, message):
    with pytest.raises(gagebpe.GageBPEError, match=message):
        _decode(_payload(tokens), size)


def test_malformed_parts_are_refused():
    good = _parts([97, 98, (4, 2)], [(6, 1), 99])
    assert _decode(good, 13, LZ_PARTS) == b"ababab" + b"bbbbbb" + b"c"
    first = 10 + struct.unpack_from("<I", good, 6)[0]
    for bad, size in [
            (good, 14),  # the parts stop short of the block
            (good, 12),  # a part passes its end
            (good + b"\0", 13),  # bytes after the last part
            (good[:first + 9], 13),  # a part shorter than its head
            (b"\0\0\0\0" + good[4:], 13),  # a part of no bytes
            (good[:4] + bytes([_lz.SLOTS + 1]) + good[5:], 13),
            (good[:5] + bytes([_lz.SLOTS + 1]) + good[6:], 13),
            (good[:6] + struct.pack("<I", len(good)) + good[10:], 13),  # a stream past the end
    ]:
        with pytest.raises(gagebpe.GageBPEError, match="LZ_PARTS block's parts"):
            _decode(bad, size, LZ_PARTS)
    # a copy may reach into an earlier part, not before the block
    with pytest.raises(gagebpe.GageBPEError, match="copy reaches outside"):
        _decode(_parts([97], [(3, 2)]), 4, LZ_PARTS)
    # a part's stream is checked as LZ's: bits after its last token
    padded = _parts([97, 98, (4, 2)])
    padded = padded[:6] + struct.pack("<I", len(padded) - 9) + padded[10:] + b"\0"
    with pytest.raises(gagebpe.GageBPEError, match="bits after"):
        _decode(padded, 6, LZ_PARTS)


def test_malformed_heads_tables_and_padding_are_refused():
    data = b"abcabcabcabd" * 20
    payload = _coding_lz.encode(data, full(data))[1]
    assert _decode(payload, len(data)) == data
    for bad, message in [
            (payload[:1], "shorter than its header"),
            (bytes([_lz.SLOTS + 1]) + payload[1:], "more slots"),
            (payload[:1] + bytes([_lz.SLOTS + 1]) + payload[2:], "more slots"),
            (payload[:2] + b"\xff" * 8 + payload[10:], "table is malformed"),
            (payload[:2], "table is malformed"),
            (payload + b"\x00", "bits after"),
    ]:
        with pytest.raises(gagebpe.GageBPEError, match=message):
            _decode(bad, len(data))


def test_corrupt_lz_streams_are_refused():
    source = code_like(100)
    blob = gagebpe.compress(source, 9)
    (_, _, block), = payload_spans(blob)
    assert block.coding == LZ
    assert_corruptions_refused(blob, 3, 0x41)
    assert_truncations_refused(blob, 7)


def test_describe_gives_lz_blocks_no_merges():
    source = code_like()
    info, = gagebpe.describe(io.BytesIO(gagebpe.compress(source, 9)))
    assert info.version == "1.0" and info.merges == 0
