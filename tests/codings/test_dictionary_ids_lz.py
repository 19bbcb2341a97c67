"""DICTIONARY_IDS_LZ (docs/FORMAT.md, section 4.18): its block code made
from a dictionary's two codes as the text says, its records decoded as
the text says, through every reader, and damaged ones refused."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe.format import container as _container
from gagebpe.format.codings import dictionary_ids_lz, registry
from gagebpe.format.codings.registry import DICTIONARY_IDS_LZ, STORED
from gagebpe.kernels import ids_lz
from gagebpe.precompile import json_record
from reference import ids_lz_code_lengths, ids_lz_decode
from tests.conftest import payload_spans

SAMPLES = [json_record(i) for i in range(600)]
RECORDS = [json_record(i) for i in range(600, 700)]


@pytest.fixture(scope="module")
def dictionary():
    d = gagebpe.train_dictionary(SAMPLES, 4096)
    assert d.ids_lz_encoding() is not None
    return d


def lz_lengths(slots=True):
    """Two complete LZ codes (docs/FORMAT.md, section 10): the literal/length
    code's 256 bytes of 8 or 9 bits and 52 slots of 9 (or, without
    ``slots``, the bytes alone, 8 bits each), the distance code's 55
    symbols of 5 or 6 bits."""
    literal = np.full(308, 9, np.uint8)
    literal[:204] = 8  # 204 * 2 + 104 = 512 codes of 9 bits: complete
    if not slots:
        literal[:256], literal[256:] = 8, 0
    distance = np.full(55, 6, np.uint8)
    distance[:9] = 5
    return np.concatenate([literal, distance])


def stream(record, payload, d):
    return _container.single_stream(_container.block(DICTIONARY_IDS_LZ, payload, record), d.id)


def decoded_by_reference(payload, size, d):
    return ids_lz_decode(payload, size, d.merges.tolist(), d.lengths.tolist(), d.content,
                         d.lz_lengths.tolist())


def test_the_block_code_is_made_as_the_text_says(dictionary):
    rng = np.random.default_rng(3)
    for id_lengths, literal in [(dictionary.lengths, dictionary.lz_lengths[:308]),
                                (np.full(256, 8, np.uint8), lz_lengths()[:308]),
                                (dictionary.lengths, rng.permutation(lz_lengths()[:308]))]:
        lengths = ids_lz.code_lengths(np.asarray(id_lengths, np.uint8), literal)
        assert lengths.tolist() == ids_lz_code_lengths(id_lengths, literal)
        assert sum(2.0 ** -int(n) for n in lengths if n) == 1.0 and lengths.max() <= 20
    # The ids keep their order of length, a little longer: three quarters of the weight.
    lengths = ids_lz.code_lengths(dictionary.lengths, dictionary.lz_lengths[:308])
    ids = dictionary.lengths > 0
    assert (lengths[:len(ids)][ids] >= dictionary.lengths[ids]).all()
    assert (lengths[:len(ids)][ids] <= dictionary.lengths[ids] + 1).all()


def test_a_dictionary_whose_copies_have_no_code_takes_no_such_blocks(dictionary):
    plain = gagebpe.Dictionary(dictionary.merges, dictionary.lengths)
    without = plain.with_content(dictionary.content, lz_lengths(slots=False))
    assert plain.ids_lz_encoding() is None and without.ids_lz_encoding() is None
    payload, = dictionary_ids_lz.encode_many([RECORDS[0]], dictionary)
    for other, fault in ((plain, "holds no content"), (without, "does not decode")):
        blob = stream(RECORDS[0], payload, other)
        # Records are coded without it, and without copies where the
        # content's code gives them none.
        assert gagebpe.decompress_many(gagebpe.compress_many(RECORDS, dictionary=other),
                                       dictionary=other) == RECORDS
        for decode in (lambda b: gagebpe.decompress(b, dictionary=other),
                       lambda b: gagebpe.decompress_many([b], dictionary=other)):
            with pytest.raises(gagebpe.GageBPEError, match=fault):
                decode(blob)


def test_records_decode_as_the_text_says(dictionary):
    """Records of ids and copies from the content and from themselves."""
    records = RECORDS[:12] + [RECORDS[0] + RECORDS[0][::-1] + RECORDS[0], RECORDS[1] + RECORDS[2]]
    payloads = dictionary_ids_lz.encode_many(records, dictionary)
    for record, payload in zip(records, payloads):
        assert decoded_by_reference(payload, len(record), dictionary) == record
    # The last is both: smaller than by its ids alone or by copies alone.
    from gagebpe.format.codings import dictionary_ids, dictionary_lz
    alone = (dictionary_ids.encode(records[-1], dictionary),
             dictionary_lz.encode_many(records[-1:], dictionary)[0])
    assert len(payloads[-1]) < min(map(len, alone))
    blobs = [stream(r, p, dictionary) for r, p in zip(records, payloads)]
    assert gagebpe.decompress_many(blobs, dictionary=dictionary) == records
    for record, blob in zip(records, blobs):
        assert gagebpe.decompress(blob, dictionary=dictionary) == record
        assert gagebpe.decompress(blob + blob, dictionary=dictionary) == record * 2


def test_runs_and_copies_near_the_end_decode_as_the_text_says(dictionary):
    """Copies from fewer than 8 bytes back (runs of a short period), which
    the decoder writes byte by byte, and copies that end at the record's
    end or near it, which it writes without running past the output; the
    others it writes 8 bytes at a time past their ends."""
    records = []
    for period in range(1, 10):
        unit = bytes(range(0x41, 0x41 + period))
        for length in (5, 9, 16, 23, 64, 200):
            for tail in (b"", b"}", RECORDS[period][-20:]):
                records.append(RECORDS[period][:30] + (unit * 200)[:length] + tail)
    payloads = dictionary_ids_lz.encode_many(records, dictionary)
    for record, payload in zip(records, payloads):
        assert decoded_by_reference(payload, len(record), dictionary) == record
    blobs = [stream(r, p, dictionary) for r, p in zip(records, payloads)]
    assert gagebpe.decompress_many(blobs, dictionary=dictionary) == records
    assert [gagebpe.decompress(b, dictionary=dictionary) for b in blobs] == records
    # The runs are copies from each period back, not ids.
    from gagebpe.format.codings.dictionary_records import DEPTH
    from gagebpe.kernels import primed_lz
    _, _, sizes, edges, symbols, _ = dictionary.encoding()
    _, _, price, _, _, distance_price = dictionary.ids_lz_encoding()
    periods = set()
    for record in records:
        data = np.frombuffer(record, np.uint8)
        window, head, chain = dictionary.content_finder(len(data))
        copied, found = primed_lz.content_matches(window, len(dictionary.content), data, head,
                                                  chain, DEPTH)
        lengths, distances, _ = ids_lz.parse(copied, len(dictionary.content), found, sizes,
                                             edges, symbols, price, distance_price)
        periods.update(int(d) for d in distances if 0 < d < 8)
    assert periods == set(range(1, 8))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_pieces_of_the_content_and_of_the_grammar_round_trip(dictionary, data):
    """Any record, however its pieces fall, decodes exactly through every
    reader and as the text says."""
    content = dictionary.content
    pieces = st.one_of(st.binary(max_size=12),
                       st.tuples(st.integers(0, len(content) - 1), st.integers(1, 200)).map(
                           lambda t: (content * 50)[t[0]:t[0] + t[1]]),
                       st.sampled_from(SAMPLES).map(lambda s: s[:60]))
    records = [b"".join(data.draw(st.lists(pieces, min_size=1, max_size=8))) or b"x"
               for _ in range(3)]
    payloads = dictionary_ids_lz.encode_many(records, dictionary)
    blobs = []
    for record, payload in zip(records, payloads):
        assert decoded_by_reference(payload, len(record), dictionary) == record
        blobs.append(stream(record, payload, dictionary) if len(payload) <= len(record) else
                     _container.single_stream(_container.block(STORED, record, record),
                                              dictionary.id))
    assert gagebpe.decompress_many(blobs, dictionary=dictionary) == records
    for record, blob in zip(records, blobs):
        assert gagebpe.decompress(blob + blob, dictionary=dictionary) == record * 2


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_both_parses_on_one_trie_walk_are_each_parse_alone(dictionary, data):
    """``parse_both`` gives this coding's tokens and DICTIONARY_IDS's
    symbols exactly as the two parses alone do, long copies (whose inner
    positions this coding does not leave from) included."""
    from gagebpe.format.codings.dictionary_records import DEPTH
    from gagebpe.kernels import primed_lz
    from gagebpe.kernels.shortest_parse import shortest
    content = dictionary.content
    pieces = st.one_of(st.binary(max_size=12),
                       st.tuples(st.integers(0, len(content) - 1), st.integers(1, 600)).map(
                           lambda t: (content * 50)[t[0]:t[0] + t[1]]),
                       st.sampled_from(SAMPLES))
    record = np.frombuffer(b"".join(data.draw(st.lists(pieces, min_size=1, max_size=6))) or b"x",
                           np.uint8)
    _, lengths, sizes, edges, symbols, bits = dictionary.encoding()
    window, head, chain = dictionary.content_finder(len(record))
    copied, found = primed_lz.content_matches(window, len(content), record, head, chain, DEPTH)
    _, _, price, _, _, distance_price = dictionary.ids_lz_encoding()
    alone = ids_lz.parse(copied, len(content), found, sizes, edges, symbols, price,
                         distance_price)
    tokens, ids = ids_lz.parse_both(copied, len(content), found, sizes, edges, symbols, price,
                                    distance_price, bits)
    assert all((a == b).all() for a, b in zip(tokens, alone))
    assert (ids == shortest(record, sizes, lengths[0], edges, symbols, bits)).all()


def test_damaged_records_are_refused_or_decode_the_same(dictionary):
    """Every byte of two records flipped: each reader raises GageBPEError
    or gives the record's own bytes, never others."""
    for record in RECORDS[:2]:
        payload, = dictionary_ids_lz.encode_many([record], dictionary)
        blob = stream(record, payload, dictionary)
        (start, end, _), = payload_spans(blob, {dictionary.id: dictionary})
        for at in range(start, end):
            for flip in (0x01, 0x80):
                bad = bytearray(blob)
                bad[at] ^= flip
                for decode in (lambda b: gagebpe.decompress(b, dictionary=dictionary),
                               lambda b: gagebpe.decompress_many([blob, b],
                                                                 dictionary=dictionary)[1]):
                    try:
                        assert decode(bytes(bad)) == record
                    except gagebpe.GageBPEError:
                        pass
        for cut in range(start, end):  # a payload cut short, its sizes made to agree
            short = stream(record, payload[:cut - start], dictionary)
            with pytest.raises(gagebpe.GageBPEError):
                gagebpe.decompress(short, dictionary=dictionary)


def test_a_1_0_decoder_from_before_would_refuse_them_by_number():
    """Section 6: the number is new, so an older decoder names it."""
    assert DICTIONARY_IDS_LZ == 17 and registry.name(17) == "DICTIONARY_IDS_LZ"
    with pytest.raises(gagebpe.GageBPEError, match="block coding 18 is not one of"):
        registry.check_coding(18)
