"""Trained dictionaries (issue 42): training, the dictionary's bytes, the
DICTIONARY_IDS coding through every reader, batch calls, and the errors
for a missing, wrong or damaged dictionary."""
import io
import struct
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.format import container as _container
from gagebpe.format import dictionary as _dictionary
from gagebpe.format.codings.registry import (DICTIONARY_IDS, DICTIONARY_IDS_LZ, DICTIONARY_LZ, LZ,
                                             STORED)
from gagebpe.precompile import json_record
from tests.conftest import byte_strings, payload_spans

WORDS = [b"alpha", b"beta", b"gamma", b"delta", b"epsilon", b"zeta", b"eta", b"theta"]


SAMPLES = [json_record(i) for i in range(600)]
RECORDS = [json_record(i) for i in range(600, 900)]


@pytest.fixture(scope="module")
def dictionary():
    return gagebpe.train_dictionary(SAMPLES, 4096)


def coding_of(blob, dictionary):
    """The coding of a single stream's one block."""
    (_, _, header), = payload_spans(blob, {dictionary.id: dictionary})
    return header.coding


# -- training and the dictionary's bytes ------------------------------------------

def test_training_is_deterministic_and_within_size(dictionary):
    again = gagebpe.train_dictionary(SAMPLES, 4096)
    assert bytes(again) == bytes(dictionary) and again.id == dictionary.id
    assert len(dictionary) <= 4096 and len(dictionary.merges) > 50
    for size in (300, 1000, 20000):
        assert len(gagebpe.train_dictionary(SAMPLES, size)) <= size


def test_a_dictionary_size_is_known_before_it_is_made(dictionary):
    """The trainer sizes candidates without making them: the size it
    computes is the made dictionary's, whatever the number of merges."""
    counts = np.arange(256 + len(dictionary.merges), dtype=np.int64) % 7
    for n in (0, 1, 7, 100, len(dictionary.merges)):
        lengths = _dictionary.code_lengths(dictionary.merges[:n], counts[:256 + n])
        made = gagebpe.Dictionary(dictionary.merges[:n], lengths)
        assert _dictionary.serialized_size(n, lengths) == len(made) == len(bytes(made))


def test_training_on_threads_gives_the_same_dictionary():
    """The trial beside the learning, the content's probes side by side:
    nothing of the result may depend on which finishes first."""
    for size in (4096, 20000):
        alone = gagebpe.train_dictionary(SAMPLES, size)
        for threads in (0, 2, 3):
            assert bytes(gagebpe.train_dictionary(SAMPLES, size, threads=threads)) == bytes(alone)
    assert gagebpe.train_dictionary(SAMPLES, 20000).content  # the probes ran
    with pytest.raises(ValueError):
        gagebpe.train_dictionary(SAMPLES, 4096, threads=-1)


def test_bytes_round_trip(dictionary):
    loaded = gagebpe.Dictionary.from_bytes(bytes(dictionary))
    assert loaded == dictionary and loaded.id == dictionary.id


def test_a_dictionary_pickles_and_copies_as_its_bytes(dictionary):
    import copy
    import gc
    import pickle
    blobs = gagebpe.compress_many(RECORDS[:50], dictionary=dictionary)
    original = gagebpe.Dictionary.from_bytes(bytes(dictionary))
    assert gagebpe.decompress(blobs[0], dictionary=original) == RECORDS[0]  # its tables built
    copies = [pickle.loads(pickle.dumps(original)), copy.copy(original), copy.deepcopy(original)]
    del original
    gc.collect()
    for again in copies:
        assert again == dictionary
        assert [gagebpe.decompress(b, dictionary=again) for b in blobs] == RECORDS[:50]
        del again.decoder  # its tables are kept while it lives
        gc.collect()
        assert [gagebpe.decompress(b, dictionary=again) for b in blobs] == RECORDS[:50]


def test_an_address_given_to_kernels_stays_the_array_kept(dictionary):
    """Two threads may build a dictionary's packed tables at once (nothing
    locks ``cached_property`` since Python 3.12): the second build is
    dropped, so that the address the first gave out still points at the
    array kept."""
    d = gagebpe.Dictionary.from_bytes(bytes(dictionary))
    for name in ("record_tables_address", "decoder_address"):
        build = getattr(gagebpe.Dictionary, name).func
        first = build(d)
        del d.__dict__["decoder"]  # as though the other thread built its own
        assert build(d) == first


def test_training_refuses_nothing_to_learn_and_too_small_a_size():
    with pytest.raises(ValueError):
        gagebpe.train_dictionary([b"", b""], 4096)
    with pytest.raises(ValueError):
        gagebpe.train_dictionary(SAMPLES, 10)


def test_every_damaged_byte_of_a_dictionary_is_refused(dictionary):
    data = bytes(dictionary)
    for at in range(0, len(data), max(1, len(data) // 300)):
        bad = bytearray(data)
        bad[at] ^= 0x24
        with pytest.raises(gagebpe.GageBPEError):
            gagebpe.Dictionary.from_bytes(bytes(bad))
    for cut in (0, 5, len(data) // 2, len(data) - 1):
        with pytest.raises(gagebpe.GageBPEError):
            gagebpe.Dictionary.from_bytes(data[:cut])


def forged(merges, lengths_section, revision=0, content=b""):
    """A dictionary's bytes with a valid id over whatever fields given."""
    from gagebpe.kernels import bits
    table = np.zeros((bits.merge_table_bits(256, len(merges)) + 7) // 8, np.uint8)
    bits.pack_merges(np.asarray(merges, np.int32).reshape(-1, 2), 256, table)
    body = (_dictionary.HEAD.pack(_dictionary.MAGIC, revision, len(merges), len(table))
            + table.tobytes() + content + lengths_section)
    from gagebpe.kernels.xxh64 import block_check
    return body + struct.pack("<I", block_check(body))


def test_forged_dictionaries_are_refused():
    import numpy as np
    from gagebpe.kernels import coded_sequence
    # phrases doubling 40 times: 2^40 bytes would be needed to decode
    merges = [(97, 97)] + [(256 + k, 256 + k) for k in range(40)]
    lengths = np.zeros(256 + len(merges), np.uint8)
    lengths[:254], lengths[254:256], lengths[-1] = 8, 9, 8  # a complete code
    with pytest.raises(gagebpe.GageBPEError, match="too long"):
        gagebpe.Dictionary.from_bytes(forged(merges, coded_sequence.lengths_section(lengths)))
    # a byte value without a code
    lengths = np.full(256, 8, np.uint8)
    lengths[0], lengths[1] = 0, 7
    with pytest.raises(gagebpe.GageBPEError, match="every byte value"):
        gagebpe.Dictionary.from_bytes(forged([], coded_sequence.lengths_section(lengths)))


def test_fewer_merges_count_as_tokenizing_with_fewer_merges(dictionary):
    """The trainer derives the token counts of a prefix of the merges from
    those of all of them; they are the counts of tokenizing with the
    prefix."""
    from gagebpe.format.codings.dictionary_records import joined
    from gagebpe.kernels import dictionary as kernels
    merges = dictionary.merges
    data, starts = joined(SAMPLES + RECORDS)
    tables = _dictionary.merge_tables(merges)
    full = kernels.token_counts(data, starts, *tables, merges, len(merges))
    for n in (0, 1, 7, len(merges) // 2, len(merges) - 1, len(merges)):
        assert (kernels.counts_below(full, merges, n)
                == kernels.token_counts(data, starts, *tables, merges, n)).all()


def test_content_makes_revision_1_and_only_content_does(dictionary):
    """A dictionary with content is of revision 1, which a reader of
    revision 0 refuses by name; without, the same merges and code are of
    revision 0, byte for byte what they were before content existed."""
    assert dictionary.content and bytes(dictionary)[4] == 1
    plain = gagebpe.Dictionary(dictionary.merges, dictionary.lengths)
    assert bytes(plain)[4] == 0 and not plain.content
    assert gagebpe.Dictionary.from_bytes(bytes(plain)) == plain
    table = bytes(plain)[_dictionary.HEAD.size:-4]
    assert forged(plain.merges, table[len(table) - len(_lengths_section(plain)):]) == bytes(plain)
    import unittest.mock
    with unittest.mock.patch.object(_dictionary, "REVISION", 0):
        with pytest.raises(gagebpe.GageBPEError, match="revision 1"):
            gagebpe.Dictionary.from_bytes(bytes(dictionary))


def _lengths_section(d):
    from gagebpe.kernels import coded_sequence
    return coded_sequence.lengths_section(d.lengths)


def with_content(d, content, lz_lengths):
    """``forged``'s bytes of ``d`` with these content fields."""
    from gagebpe.kernels import coded_sequence
    section = coded_sequence.lengths_section(np.asarray(lz_lengths, np.uint8))
    fields = struct.pack("<I", len(content)) + content + struct.pack("<I", len(section)) + section
    return forged(d.merges, _lengths_section(d), revision=1, content=fields)


def test_forged_content_is_refused(dictionary):
    """Content that is empty or past its dictionary's end, and LZ codes that
    are not complete or have a code longer than 11 bits, are refused."""
    good = dictionary.lz_lengths
    assert gagebpe.Dictionary.from_bytes(with_content(dictionary, dictionary.content, good))
    with pytest.raises(gagebpe.GageBPEError, match="content of 0 bytes"):
        gagebpe.Dictionary.from_bytes(with_content(dictionary, b"", good))
    incomplete = good.copy()
    incomplete[np.flatnonzero(incomplete)[0]] += 1
    too_long = np.zeros(len(good), np.uint8)
    too_long[:2] = 1  # complete codes, the distance code's longest of 12 bits
    too_long[_dictionary.LITERAL_SYMBOLS:_dictionary.LITERAL_SYMBOLS + 13] = [*range(1, 13), 12]
    for lengths in (incomplete, too_long):
        with pytest.raises(gagebpe.GageBPEError, match="complete codes"):
            gagebpe.Dictionary.from_bytes(with_content(dictionary, b"abc", lengths))
    fields = struct.pack("<I", 1 << 30) + b"abc"
    with pytest.raises(gagebpe.GageBPEError, match="ends inside its content"):
        gagebpe.Dictionary.from_bytes(forged(dictionary.merges, _lengths_section(dictionary),
                                             revision=1, content=fields))


def test_content_is_kept_only_where_it_helps():
    """Samples whose later ones share no strings with the earlier (random
    bytes) train no content: revision 0, as any 1.0 reader reads it."""
    rng = np.random.default_rng(7)
    samples = [rng.integers(0, 256, 100, dtype=np.uint8).tobytes() for _ in range(400)]
    d = gagebpe.train_dictionary(samples, 20000)
    assert not d.content and bytes(d)[4] == 0


@given(st.data())
def test_copies_reach_into_the_content_and_on_into_the_record(data):
    """Records made of pieces of the content and of themselves, coded by
    copies, decode exactly through every reader, wherever a copy starts."""
    content = data.draw(st.binary(min_size=1, max_size=300))
    d = gagebpe.Dictionary(np.empty((0, 2), np.int32), np.full(256, 8, np.uint8))
    d = d.with_content(content, _complete_lz_lengths())
    pieces = st.one_of(st.binary(max_size=20),
                       st.tuples(st.integers(0, len(content) - 1), st.integers(1, 300)).map(
                           lambda t: (content * 400)[t[0]:t[0] + t[1]]))
    records = [b"".join(data.draw(st.lists(pieces, min_size=1, max_size=6))) or b"x"
               for _ in range(3)]
    from gagebpe.format.codings import dictionary_lz
    blobs = [_container.single_stream(_container.block(DICTIONARY_LZ, payload, record)
                                      if len(payload) <= len(record)  # else it may not be
                                      else _container.block(STORED, record, record), d.id)
             for record, payload in zip(records, dictionary_lz.encode_many(records, d))]
    assert gagebpe.decompress_many(blobs, dictionary=d) == records
    for record, blob in zip(records, blobs):
        assert gagebpe.decompress(blob, dictionary=d) == record
        assert gagebpe.decompress(blob + blob, dictionary=d) == record * 2  # general reader


@given(st.lists(st.one_of(st.binary(min_size=1, max_size=600), st.sampled_from(RECORDS),
                          st.tuples(st.sampled_from(RECORDS), st.binary(max_size=40)).map(
                              lambda t: t[0][:len(t[1]) + 1] + t[1]),
                          st.tuples(st.binary(min_size=1, max_size=300), st.integers(2, 14)).map(
                              lambda t: t[0] * t[1])),
                min_size=1, max_size=4))
def test_a_record_per_call_is_the_stream_a_batch_gives(dictionary, records):
    """``compress`` writes a record's whole stream in a kernel, and tries
    the level beside it where that may gain; the batch frames its payloads
    in Python, and the general coder (which takes what is not bytes) tries
    the level as it does blocks of any size: the same bytes, STORED ones
    too, at the default level and at another."""
    from gagebpe.encoder.stream import _records
    from gagebpe.encoder.records import stream
    blobs = gagebpe.compress_many(records, dictionary=dictionary)
    assert [gagebpe.compress(r, dictionary=dictionary) for r in records] == blobs
    assert [gagebpe.compress(bytearray(r), dictionary=dictionary) for r in records] == blobs
    assert ([gagebpe.compress(r, 2, dictionary=dictionary) for r in records]
            == [gagebpe.compress(bytearray(r), 2, dictionary=dictionary) for r in records])
    blocks, own = _records(records, dictionary)
    assert [stream(r, dictionary) for r in records] == [
        (_container.single_stream(block, dictionary.id), len(block) - _container.BLOCK_HEADER.size,
         share) for block, share in zip(blocks, own)]
    assert gagebpe.decompress_many(blobs, dictionary=dictionary) == records


def test_beside_a_dictionary_levels_neither_mix_nor_parse_fully():
    from gagebpe.encoder.levels import FULL, LEVELS, ONE_PASS, QUICK
    for level in LEVELS.values():
        assert level.with_dictionary(content=False).rows[0].parse == QUICK
        first, *rest = level.with_dictionary().rows
        assert first.tries == ("lz",) and first.parse == ONE_PASS and not first.small
        # in one part, as the floor that gates the try bounds (kernels.lz_floor)
        assert not (first.parse.segment or first.entropic_below or first.greedy_below)
        for row, before in zip(rest, level.rows[1:]):
            assert "mixed" not in row.tries and row.parse != FULL
            assert row.parse == (QUICK if before.parse == FULL else before.parse)


def test_the_level_tries_only_records_that_copy_themselves(dictionary):
    from gagebpe.encoder.levels import DICTIONARY_ALONE, OWN_COPIES, settings
    from gagebpe.encoder.stream import _level_may_gain, _records
    from gagebpe.format.codings.lz import payload_floor
    from gagebpe.kernels.dictionary_records import copy_share, own_share
    level = settings(None).with_dictionary()
    rng = np.random.default_rng(5)
    repeated = rng.integers(0, 256, 200, dtype=np.uint8).tobytes() * 5
    assert not _level_may_gain(level, repeated[:DICTIONARY_ALONE], 1.0, DICTIONARY_ALONE)
    assert not _level_may_gain(level, repeated, OWN_COPIES / 2, len(repeated))
    assert _level_may_gain(level, repeated, OWN_COPIES, len(repeated))
    # where the dictionary took no more than any LZ payload could, the
    # level cannot win
    floor = payload_floor(repeated)
    assert not _level_may_gain(level, repeated, 1.0, floor)
    assert _level_may_gain(level, repeated, 1.0, floor + 1)
    assert _level_may_gain(level, repeated * 10, 0.0, 1)  # its row tries grammars too
    # lengths, distances (0: an id), ids: 4 bytes of ids, then 6 copied from
    # the record itself and 5 from the content before it
    tokens = tuple(np.array(a, np.int32) for a in ([4, 6, 5], [0, 4, 20], [7, 0, 0]))
    assert own_share(tokens, 15) == 6 / 15
    assert copy_share(tokens, 15) == 11 / 15  # what DICTIONARY_LZ is tried on (LZ_COPIES)
    assert own_share(tuple(np.zeros(0, np.int32) for _ in range(3)), 15) == 1.0
    rng = np.random.default_rng(5)
    repeated = rng.integers(0, 256, 200, dtype=np.uint8).tobytes() * 5
    _, own = _records([RECORDS[0], repeated], dictionary)
    assert own[0] < OWN_COPIES < 0.75 < own[1]  # the ids and content code the first
    # one record per call, the level tried beside the record's kernel:
    # its LZ codes repeats of noise smaller than the dictionary, as the
    # general coder finds
    from gagebpe.encoder.records import stream
    noise = np.random.default_rng(5).bytes(300) * 3
    blob = gagebpe.compress(noise, dictionary=dictionary)
    assert coding_of(blob, dictionary) == LZ and len(blob) < len(stream(noise, dictionary)[0])
    assert blob == gagebpe.compress(bytearray(noise), dictionary=dictionary)  # the general coder


def test_a_record_whose_kernel_made_nothing_is_coded_again(dictionary, monkeypatch):
    """Where the kernel that makes a record's stream made none (its coding
    raised, out of memory), ``stream`` codes the record and says so."""
    from gagebpe.encoder import records
    blobs = [gagebpe.compress(r, dictionary=dictionary) for r in RECORDS[:5]]
    monkeypatch.setattr(records, "_ENCODE_NEW", lambda *arguments: None)
    assert [gagebpe.compress(r, dictionary=dictionary) for r in RECORDS[:5]] == blobs
    monkeypatch.setattr(records, "_ENCODE_STREAM", _out_of_memory)
    with pytest.raises(MemoryError):
        gagebpe.compress(RECORDS[0], dictionary=dictionary)


def _out_of_memory(*arguments):
    raise MemoryError


def test_beside_a_dictionary_without_content_the_level_is_skipped_only_where_it_loses(
        dictionary):
    # No record's copies of itself are known there: the floor alone gates
    # the level's try, and the streams are those trying it on every record
    from gagebpe.encoder.levels import settings
    from gagebpe.encoder.records import stream
    from gagebpe.encoder.stream import _framed, _level_may_gain
    plain = gagebpe.Dictionary(dictionary.merges, dictionary.lengths)
    beside = settings(None).with_dictionary(content=False)
    noise = np.random.default_rng(5).bytes(300)
    records = [b"".join(RECORDS[i:i + n]) for n in (6, 12, 24) for i in range(0, 120, n)]
    records += [noise * 3, noise[:200] * 9, b"".join(SAMPLES[:4]) * 3]
    skipped = []
    for record in records:
        ours, payload, own = stream(record, plain)
        level = _container.single_stream(_framed(record, beside, None), plain.id)
        assert gagebpe.compress(record, dictionary=plain) == min(ours, level, key=len)
        if not _level_may_gain(beside, record, own, payload):
            skipped.append(len(level) - len(ours))
    assert 0 < len(skipped) < len(records) and min(skipped) >= 0


def test_a_record_no_coding_shrinks_is_stored(dictionary):
    record = np.random.default_rng(3).integers(0, 256, 300, dtype=np.uint8).tobytes()
    blob = gagebpe.compress(record, dictionary=dictionary)
    assert coding_of(blob, dictionary) == STORED
    assert gagebpe.decompress(blob, dictionary=dictionary) == record


def _complete_lz_lengths():
    """Lengths of two complete LZ codes over every symbol: the 308
    literal/length symbols', 204 of 8 bits and 104 of 9, then the 55
    distance symbols', 9 of 5 bits and 46 of 6."""
    literal = np.full(308, 9, np.uint8)
    literal[:204] = 8  # 204 * 2 + 104 = 512 codes of 9 bits: complete
    distance = np.full(55, 6, np.uint8)
    distance[:9] = 5  # 9 * 2 + 46 = 64
    return np.concatenate([literal, distance])


def test_copies_from_the_content_are_tried_on_blocks_up_to_64_kib(dictionary):
    from gagebpe.encoder.levels import DICTIONARY_COPIES
    small = dictionary.content[:400]
    large = (dictionary.content * (DICTIONARY_COPIES // len(dictionary.content) + 1))[
        :DICTIONARY_COPIES + 1]
    blobs = gagebpe.compress_many([small, large], dictionary=dictionary)
    assert coding_of(blobs[0], dictionary) == DICTIONARY_LZ
    assert coding_of(blobs[1], dictionary) != DICTIONARY_LZ
    assert gagebpe.decompress_many(blobs, dictionary=dictionary) == [small, large]


def test_a_content_coding_with_a_dictionary_without_content_is_refused(dictionary):
    blob = next(b for b in gagebpe.compress_many(RECORDS, dictionary=dictionary)
                if coding_of(b, dictionary) == DICTIONARY_LZ)
    plain = gagebpe.Dictionary(dictionary.merges, dictionary.lengths)
    renamed = blob[:len(dictionary.head) - 4] + struct.pack("<I", plain.id) \
        + blob[len(dictionary.head):]
    for decode in (lambda b: gagebpe.decompress(b, dictionary=plain),
                   lambda b: gagebpe.decompress_many([b], dictionary=plain)):
        with pytest.raises(gagebpe.GageBPEError, match="holds no content"):
            decode(renamed)


def test_every_symbol_gets_a_code_while_its_phrase_fits():
    # merge k doubles merge k - 1: 40 merges would need 2^41 bytes of phrases
    merges = np.array([(97, 97)] + [(256 + k, 256 + k) for k in range(40)], np.int32)
    counts = np.zeros(256 + len(merges), np.int64)
    counts[[97, 256 + 3]] = 50
    d = gagebpe.Dictionary.from_counts(merges, counts)
    coded = d.lengths > 0
    assert coded[:256].all() and coded[256 + 3]
    assert coded[256:256 + 24].all() and not coded[256 + 24:].any()  # 2^26 bytes in all
    again = gagebpe.Dictionary.from_bytes(bytes(d))
    assert gagebpe.decompress(gagebpe.compress(b"a" * 5000, dictionary=again),
                              dictionary=again) == b"a" * 5000


def test_the_smoothing_follows_how_the_later_samples_drift():
    """Samples whose last quarter says what the first three never did (a
    log of later dates) choose a flatter code than samples that repeat
    themselves; a smoothing below 1/2 would leave symbols without codes."""
    from gagebpe.encoder.dictionary import held_out_smoothing
    steady = [json_record(i % 50) for i in range(400)]
    drifting = [json_record(i) for i in range(300)] + [b"%d;%s;%d\n" % (i * 7919, WORDS[i % 8], i)
                                                  for i in range(100)]
    assert held_out_smoothing(steady, 2000) < held_out_smoothing(drifting, 2000)
    assert held_out_smoothing(steady[:7], 2000) == 1
    with pytest.raises(ValueError):
        gagebpe.Dictionary.from_counts(np.empty((0, 2), np.int32), np.ones(256, np.int64), 0.2)


def _shortest_bits(text, code):
    """The fewest code bits of a parse of ``text`` into the phrases of
    ``code`` ({phrase: bits}), found the plain way."""
    best = [0] + [None] * len(text)
    for i in range(len(text)):
        for j in range(i + 1, len(text) + 1):
            bits = code.get(text[i:j])
            if best[i] is not None and bits is not None and (
                    best[j] is None or best[i] + bits < best[j]):
                best[j] = best[i] + bits
    return best[-1]


@given(st.lists(st.sampled_from([*WORDS, b'"', b", ", b"{", b"}", b"id", b"\n", b"\xff"]),
                max_size=30).map(b"".join))
def test_records_take_their_shortest_parse(dictionary, text):
    """A record's ids are the parse into coded phrases of the fewest code
    bits, never more than its rank-merged ids (its phrases being shorter
    than the trie's MAX_DEPTH)."""
    from gagebpe.format.codings import dictionary_ids
    from gagebpe.format.dictionary import merge_tables
    from gagebpe.kernels import dictionary as kernels
    from gagebpe.kernels.shortest_parse import MAX_DEPTH, shortest
    merges, lengths = dictionary.merges, dictionary.lengths
    phrases = [bytes([b]) for b in range(256)]
    for left, right in merges:
        phrases.append(phrases[left] + phrases[right])
    code = {}
    for symbol, phrase in enumerate(phrases):
        if lengths[symbol] and lengths[symbol] < code.get(phrase, 99):
            code[phrase] = int(lengths[symbol])
    tables = dictionary.encoding()
    data = np.frombuffer(text, np.uint8)
    parse = shortest(data, tables[2], lengths, *tables[3:])
    assert b"".join(phrases[s] for s in parse) == text
    bits = sum(int(lengths[s]) for s in parse)
    assert bits == _shortest_bits(text, code)
    assert len(dictionary_ids.encode(text, dictionary)) == (bits + 7) // 8
    ids, _ = kernels.tokens(data, np.array([0, len(text)]), *merge_tables(merges), len(merges))

    def coded(s):  # a token without a code is written as its halves
        return [s] if lengths[s] else coded(merges[s - 256][0]) + coded(merges[s - 256][1])
    merged = [c for s in ids for c in coded(s)]
    if all(len(phrases[s]) <= MAX_DEPTH for s in merged):
        assert bits <= sum(int(lengths[s]) for s in merged)


# -- round trips ------------------------------------------------------------------

@given(st.lists(byte_strings(600), max_size=6))
def test_records_round_trip_through_every_reader(dictionary, records):
    blobs = gagebpe.compress_many(records, dictionary=dictionary)
    assert blobs == [gagebpe.compress(r, dictionary=dictionary) for r in records]
    assert gagebpe.decompress_many(blobs, dictionary=dictionary) == records
    for data, blob in zip(records, blobs):
        assert gagebpe.decompress(blob, dictionary=dictionary) == data
        assert gagebpe.decompress(blob, dictionary=bytes(dictionary)) == data
        assert gagebpe.Decompressor(dictionary=dictionary).decompress(blob) == data
        assert gagebpe.open(io.BytesIO(blob), dictionary=dictionary).read() == data


@given(st.lists(byte_strings(300), min_size=1, max_size=24),
       st.lists(byte_strings(700), max_size=6), st.sampled_from([300, 2000, 65536]))
def test_any_samples_train_a_dictionary_that_codes_any_records(samples, records, size):
    """Whatever the samples (empty ones among them), training is
    deterministic and within its size, or refuses nothing to learn; any
    records (empty ones too) come back through every reader."""
    if not any(samples):
        with pytest.raises(ValueError):
            gagebpe.train_dictionary(samples, size)
        return
    d = gagebpe.train_dictionary(samples, size)
    assert bytes(d) == bytes(gagebpe.train_dictionary(list(samples), size)) and len(d) <= size
    blobs = gagebpe.compress_many(records, dictionary=d)
    assert gagebpe.decompress_many(blobs, dictionary=d) == records
    assert [gagebpe.decompress(b, dictionary=bytes(d)) for b in blobs] == records


@given(byte_strings(3000), st.sampled_from([1, 6]), st.sampled_from([100, 1000, 1 << 20]))
def test_streams_of_many_blocks_round_trip(dictionary, data, level, block_size):
    blob = gagebpe.compress(data, level, block_size=block_size, dictionary=dictionary)
    assert gagebpe.decompress(blob, dictionary=dictionary) == data
    compressor = gagebpe.Compressor(level, block_size=block_size, dictionary=dictionary)
    assert compressor.compress(data) + compressor.flush() == blob
    assert gagebpe.read_range(blob, len(data) // 3, 50, dictionary=dictionary) == \
        data[len(data) // 3:len(data) // 3 + 50]


def test_records_take_the_dictionary_and_shrink(dictionary):
    """Each record by its ids, by copies from the dictionary's content or by
    both, the smallest; the records' own 16-byte frames aside, a third of
    them."""
    blobs = gagebpe.compress_many(RECORDS, dictionary=dictionary)
    codings = {coding_of(b, dictionary) for b in blobs}
    assert {DICTIONARY_IDS, DICTIONARY_IDS_LZ} <= codings
    assert codings <= {DICTIONARY_IDS, DICTIONARY_LZ, DICTIONARY_IDS_LZ}
    plain = sum(len(gagebpe.compress(r)) for r in RECORDS)
    assert sum(map(len, blobs)) * 3 < plain * 2
    noise = gagebpe.compress(bytes(range(40)), dictionary=dictionary)
    assert coding_of(noise, dictionary) == STORED


def test_a_file_written_with_a_dictionary(tmp_path, dictionary):
    path = tmp_path / "records.gbpe"
    with gagebpe.open(path, "wb", dictionary=dictionary, block_size=1000) as f:
        for r in RECORDS:
            f.write(r)
    with gagebpe.open(path, dictionary=dictionary) as f:
        f.seek(5000)
        assert f.read(100) == b"".join(RECORDS)[5000:5100]


def test_describe_names_the_dictionary_a_stream_needs(dictionary):
    """As compression.zstd's get_frame_info: the id, without the dictionary."""
    blob = gagebpe.compress(RECORDS[0], dictionary=dictionary)
    big = gagebpe.compress(b"".join(RECORDS), block_size=1000, dictionary=dictionary)
    infos = gagebpe.describe(io.BytesIO(blob + big + gagebpe.compress(RECORDS[0])))
    assert [info.dictionary_id for info in infos] == [dictionary.id, dictionary.id, None]


# -- errors ----------------------------------------------------------------------

def test_missing_and_wrong_dictionaries_are_named(dictionary):
    other = gagebpe.train_dictionary([r.upper() for r in SAMPLES], 4096)
    blob = gagebpe.compress(RECORDS[0], dictionary=dictionary)
    big = gagebpe.compress(b"".join(RECORDS), block_size=1000, dictionary=dictionary)
    name = f"{dictionary.id:#010x}"
    for stream in (blob, big):
        with pytest.raises(gagebpe.GageBPEError, match=name):
            gagebpe.decompress(stream)
        with pytest.raises(gagebpe.GageBPEError, match=name):
            gagebpe.decompress(stream, dictionary=other)
        with pytest.raises(gagebpe.GageBPEError, match=name):
            gagebpe.decompress_many([stream], dictionary=other)
        with pytest.raises(gagebpe.GageBPEError, match=name):
            gagebpe.read_range(stream, 0, 10)


def test_a_dictionary_coding_without_a_dictionary_is_refused(dictionary):
    """A DICTIONARY_IDS block in a stream that names no dictionary."""
    blob = gagebpe.compress(RECORDS[0], dictionary=dictionary)
    no_name = _container.MAGIC + b"\x00" + blob[len(dictionary.head):]
    with pytest.raises(gagebpe.GageBPEError, match="names no dictionary"):
        gagebpe.decompress(no_name)


def test_every_damaged_byte_of_a_record_is_refused_or_exact(dictionary):
    """Decoded alone or in a batch, a damaged record raises GageBPEError
    (the data check catches what decoding does not), never other bytes."""
    blobs = gagebpe.compress_many(RECORDS[:20], dictionary=dictionary)
    for k, blob in enumerate(blobs):
        for at in range(len(blob)):
            for flip in (0x01, 0x80):
                bad = bytearray(blob)
                bad[at] ^= flip
                bad = bytes(bad)
                # Alone, and in a batch beside a good record, either first
                # (a batch decodes two records at a time).
                for decode in (lambda b: gagebpe.decompress(b, dictionary=dictionary),
                               lambda b: gagebpe.decompress_many([blobs[0], b],
                                                                 dictionary=dictionary)[1],
                               lambda b: gagebpe.decompress_many([b, blobs[0], blobs[1]],
                                                                 dictionary=dictionary)[0]):
                    try:
                        assert decode(bad) == RECORDS[k]
                    except (gagebpe.GageBPEError, EOFError):
                        pass


def test_lz_and_stored_records_are_read_and_refused_when_damaged(dictionary):
    """A record whose own repeats code it smaller by LZ than by the
    dictionary, one coded by copies from the dictionary's content, and
    one of noise, stored, decode through the record readers as the others
    do; damaged, they raise what the general reader raises, never other
    bytes."""
    repeats = b"".join(b"%d\t%s\t%d\n" % (i % 7, WORDS[i % 3], i % 5) for i in range(80))
    copies = next(r for r, b in zip(RECORDS, gagebpe.compress_many(RECORDS, dictionary=dictionary))
                  if coding_of(b, dictionary) == DICTIONARY_LZ)
    noise = np.random.default_rng(5).bytes(300)
    records = [RECORDS[0], repeats, copies, noise, RECORDS[1]]
    blobs = gagebpe.compress_many(records, dictionary=dictionary)
    assert [coding_of(b, dictionary) for b in blobs][1:4] == [LZ, DICTIONARY_LZ, STORED]
    assert gagebpe.decompress_many(blobs, dictionary=dictionary) == records
    for k in (1, 2, 3):
        assert gagebpe.decompress(blobs[k], dictionary=dictionary) == records[k]
        for at in range(len(blobs[k])):
            bad = bytearray(blobs[k])
            bad[at] ^= 0x10
            for decode in (lambda b: gagebpe.decompress(b, dictionary=dictionary),
                           lambda b: gagebpe.decompress_many([blobs[0], b],
                                                             dictionary=dictionary)[1]):
                try:
                    assert decode(bytes(bad)) == records[k]
                except (gagebpe.GageBPEError, EOFError):
                    pass


def test_a_batch_of_any_bytes_like_blobs(dictionary):
    """Blobs as bytearrays, views and views of wider items, in any
    iterable, decode as their bytes do."""
    blobs = gagebpe.compress_many(RECORDS[:8], dictionary=dictionary)
    even = next(i for i, b in enumerate(blobs) if len(b) % 2 == 0)
    given = [bytearray(b) if i % 2 else memoryview(b) for i, b in enumerate(blobs)]
    given[even] = memoryview(np.frombuffer(blobs[even], np.uint16))
    assert gagebpe.decompress_many(iter(given), dictionary=dictionary) == RECORDS[:8]


def test_the_batch_limit_holds(dictionary):
    blobs = gagebpe.compress_many(RECORDS[:10], dictionary=dictionary)
    total = sum(map(len, RECORDS[:10]))
    assert gagebpe.decompress_many(blobs, dictionary=dictionary, limit=total) == RECORDS[:10]
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress_many(blobs, dictionary=dictionary, limit=total - 1)
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(blobs[0], dictionary=dictionary, limit=len(RECORDS[0]) - 1)
    # the limit's old name holds for a record too
    with pytest.warns(DeprecationWarning), pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(blobs[0], dictionary=dictionary, max_length=len(RECORDS[0]) - 1)


def test_a_record_of_any_size_and_any_limit(dictionary, monkeypatch):
    """One record per call decodes into the bytes object its kernel makes,
    holding the GIL up to HELD_BYTES and letting it go above, on any
    thread; a damaged one is decoded again into its thread's scratch
    buffer, or one of its own where it does not fit that, to say what is
    wrong; every limit a caller may give holds as in the general reader."""
    from gagebpe.decoder import records
    from gagebpe.format.codings import dictionary_ids

    def forced(data, dictionary):  # a DICTIONARY_IDS record, whatever codes it smaller
        block = _container.block(DICTIONARY_IDS, dictionary_ids.encode(data, dictionary), data)
        return _container.single_stream(block, dictionary.id)

    # The shortest: a byte under a code of 8 bits a byte, and the first two
    # bytes whose codes fit in them.
    flat = gagebpe.Dictionary.from_counts(np.empty((0, 2), np.int32), np.ones(256, np.int64))
    joined = b"".join(RECORDS)
    two = next(t for t in (joined[i:i + 2] for i in range(len(joined)))
               if len(dictionary_ids.encode(t, dictionary)) <= 2)
    held = records.HELD_BYTES
    cases = [(b"{", flat), (two, dictionary)] + [
        (joined[:n], dictionary) for n in (20, 127, 128, held, held + 1, 16384, 20000)]
    cases = [(data, d, forced(data, d)) for data, d in cases]
    cases += [(data, dictionary, gagebpe.compress(data, dictionary=dictionary))
              for data in (joined[:held], joined[:held + 1] * 3)]  # in the coding it takes
    monkeypatch.setattr(records, "SCRATCH_BYTES", 64)  # a new thread's buffer
    with ThreadPoolExecutor(4) as pool:
        for data, d, blob in cases:
            decode = lambda: gagebpe.decompress(blob, dictionary=d)  # noqa: E731
            assert [f.result() for f in [pool.submit(decode) for _ in range(8)]] == [data] * 8
            damaged = blob[:-1] + bytes([blob[-1] ^ 0x10])
            with pytest.raises(gagebpe.GageBPEError):
                pool.submit(gagebpe.decompress, damaged, dictionary=d).result()
    for data, d, blob in cases:
        for limit in (None, len(data), 1 << 62, 1 << 63, 1 << 70):
            assert gagebpe.decompress(blob, dictionary=d, limit=limit) == data
        for limit in (len(data) - 1, -1):
            with pytest.raises((gagebpe.GageBPEError, ValueError)):
                gagebpe.decompress(blob, dictionary=d, limit=limit)


def test_batches_decode_alike_on_threads(dictionary):
    records = [json_record(i) for i in range(900, 9000)] + [bytes(range(200)), b""]
    blobs = gagebpe.compress_many(records, dictionary=dictionary)
    assert sum(map(len, records)) > 4 * (1 << 16)  # enough for four threads
    for threads in (0, 2, 4):
        assert gagebpe.decompress_many(blobs, dictionary=dictionary, threads=threads) == records
    damaged = list(blobs)
    damaged[-5] = damaged[-5][:-1] + bytes([damaged[-5][-1] ^ 1])  # in the last thread's share
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress_many(damaged, dictionary=dictionary, threads=4)
    with pytest.raises(ValueError):
        gagebpe.decompress_many(blobs, dictionary=dictionary, threads=-1)


def test_gage1994_has_no_dictionaries(dictionary):
    with pytest.raises(ValueError):
        gagebpe.compress(b"x", format="gage1994", dictionary=dictionary)


def test_a_dictionary_from_a_tokenizer():
    """A ByteBPE tokenizer's merges make a dictionary: its phrases are the
    tokenizer's tokens, and records round-trip with it."""
    from gagebpe.tokenizers import ByteBPE
    text = [r.decode() for r in SAMPLES]
    bpe = ByteBPE.train(text, 400, pattern=None)
    d = gagebpe.train_dictionary(SAMPLES, 4096, tokenizer=bpe)
    tokens = sorted(bpe.mergeable_ranks().items(), key=lambda item: item[1])
    longer = [t for t, _ in tokens if len(t) > 1]
    assert 0 < len(d.merges) <= len(longer)
    phrases = {}
    for k, (a, b) in enumerate(d.merges.tolist()):
        phrases[256 + k] = phrases.get(a, bytes([a]) if a < 256 else None) + \
            phrases.get(b, bytes([b]) if b < 256 else None)
    assert [phrases[256 + k] for k in range(len(d.merges))] == longer[:len(d.merges)]
    blobs = gagebpe.compress_many(RECORDS, dictionary=d)
    assert gagebpe.decompress_many(blobs, dictionary=d) == RECORDS


def test_the_constructor_refuses_merges_of_symbols_not_yet_made():
    """The kernels index their tables by a dictionary's symbols unchecked:
    a merge must name bytes or earlier merges, and every symbol have a
    code length."""
    lengths = np.full(258, 8, np.uint8)
    lengths[-4:] = 9  # a complete code
    for merges in ([[97, 98], [300, 5]], [[97, 98], [-7, 2]], [[97, 256], [97, 98]],
                   [[97, 98], [257, 98]]):
        with pytest.raises(ValueError, match="not made before"):
            gagebpe.Dictionary(np.array(merges), lengths)
    with pytest.raises(ValueError, match="258 code lengths"):
        gagebpe.Dictionary(np.array([[97, 98], [256, 98]]), lengths[:257])
    made = gagebpe.Dictionary(np.array([[97, 98], [256, 98]]), lengths)
    assert gagebpe.Dictionary.from_bytes(bytes(made)).merges.tolist() == [[97, 98], [256, 98]]
