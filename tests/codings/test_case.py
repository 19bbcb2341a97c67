"""Case folding (the FOLDED coding, docs/FORMAT.md section 4.9; level 9): any text folds
and unfolds to itself, text that gains is written FOLDED, and malformed
FOLDED blocks are refused."""
import random
import string

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.encoder import block as _block
from gagebpe.decoder import blocks
from gagebpe.kernels import case as _case
from gagebpe.format.codings import folded as _coding_folded
from gagebpe.format.codings.registry import FOLDED, SORTED

from conftest import assert_corruptions_refused, payload_spans, trying

LETTERS = st.sampled_from(list(b"aAbBzZ XYxy.\nQq"))


def round_trip(data, single, word):
    folded = _case.fold(np.frombuffer(data, np.uint8), single, word)
    out = np.empty(len(data), np.uint8)
    assert _case.unfold(folded, single, word, out) == len(data)
    return folded, out.tobytes()


@given(st.lists(LETTERS, max_size=300).map(bytes))
def test_any_text_unfolds_to_itself(data):
    folded, back = round_trip(data, 1, 2)
    assert back == data
    assert len(data) <= len(folded) <= 2 * len(data)


def test_capitals_take_the_marker_their_run_needs():
    folded, _ = round_trip(b"The NASA THE.End McD ABc", 1, 2)
    assert folded.tobytes() == (b"\x01the \x02nasa \x02the.\x01end \x01mc\x01d "
                                b"\x01a\x01bc")


@pytest.mark.parametrize("bad", [b"\x01", b"\x01A", b"x\x02", b"\x02 a", b"\x01\x01a"])
def test_markers_without_small_letters_are_refused(bad):
    assert _case.unfold(np.frombuffer(bad, np.uint8), 1, 2, np.empty(10, np.uint8)) == -1


def test_unfold_never_writes_past_its_output():
    folded = np.frombuffer(b"\x02" + b"a" * 50, np.uint8)
    assert _case.unfold(folded, 1, 2, np.empty(10, np.uint8)) == -1


def test_markers_are_bytes_the_block_lacks():
    hist = np.bincount(np.frombuffer(b"Hello\x00\x01\x03", np.uint8), minlength=256)
    assert _case.markers(hist) == (2, 4)
    assert _case.markers(np.bincount(np.frombuffer(b"hello", np.uint8), minlength=256)) is None
    assert _case.markers(np.ones(256, np.int64)) is None


def _prose(n, seed=0):
    """Sentences whose words come both capitalised and not."""
    rng = np.random.default_rng(seed)
    words = [b"the", b"cat", b"sat", b"on", b"mat", b"and", b"dog", b"ran", b"away", b"home"]
    out = []
    while sum(map(len, out)) < n:
        sentence = [words[i] for i in rng.integers(0, len(words), rng.integers(3, 9))]
        sentence[0] = sentence[0].capitalize()
        out.append(b" ".join(sentence) + b". ")
    return b"".join(out)[:n]


def test_level_9_writes_prose_folded_where_it_is_smaller():
    data = _prose(100_000)
    coding, payload = _block.encode(data, trying(3, fold=True))
    unfolded = _block.encode(data, trying(3))
    assert coding == FOLDED and len(payload) < len(unfolded[1])
    blob = gagebpe.compress(data, 9)
    assert gagebpe.decompress(blob) == data
    assert len(blob) < len(gagebpe.compress(data, 8))


@given(st.lists(LETTERS, min_size=1, max_size=2000).map(bytes))
def test_folded_blocks_round_trip(data):
    coding, payload = _block.encode(data, trying(2, fold=True))
    out = np.empty(len(data), np.uint8)
    assert blocks.decode(coding, payload, len(data), out).tobytes() == data


def _folded_payload():
    data = _prose(20_000, seed=1)
    coding, payload = _block.encode(data, trying(3, fold=True))
    assert coding == FOLDED
    return data, payload


@pytest.mark.parametrize("field, value, message", [
    (0, 2, "markers are the same"),
    (2, 0, "folded size"), (2, 10**6, "folded size"),
    (6, FOLDED, "holds coding"), (6, 1, "holds coding"),
])
def test_malformed_folded_headers_are_refused(field, value, message):
    data, payload = _folded_payload()
    single, word, size, coding = _coding_folded.HEAD.unpack_from(payload)
    fields = [single, word, size, coding]
    fields[{0: 0, 2: 2, 6: 3}[field]] = value if field else word
    bad = _coding_folded.HEAD.pack(*fields) + payload[_coding_folded.HEAD.size:]
    with pytest.raises(gagebpe.GageBPEError, match=message):
        blocks.decode(FOLDED, bad, len(data), np.empty(len(data), np.uint8))


def test_swapped_markers_do_not_give_the_block():
    data, payload = _folded_payload()
    bad = bytes([payload[1], payload[0]]) + payload[2:]
    try:
        out = blocks.decode(FOLDED, bad, len(data), np.empty(len(data), np.uint8))
    except gagebpe.GageBPEError:
        return
    assert out.tobytes() != data  # then the stream's block check refuses it


def test_corrupt_folded_streams_are_refused():
    data = _prose(30_000, seed=2)
    blob = gagebpe.compress(data, 9)
    (_, _, block), = payload_spans(blob)
    assert block.coding == FOLDED
    assert_corruptions_refused(blob, 7, 0x24)


def test_non_text_is_not_folded():
    assert _block.encode_folded(b"ACGT" * 1000, 3) is None
    assert _block.encode(bytes(range(256)) * 10, trying(3, fold=True))[0] != FOLDED
    assert _block.encode(b"abc abd " * 300, trying(3, fold=True))[0] in (SORTED, 2, 6)


def test_level_9_keeps_the_smallest_of_its_pair_counts_on_small_blocks():
    from gagebpe.encoder import levels as _levels
    from gagebpe.sample import sample
    data = sample(11_000)
    counts = _levels.settings(9).row(len(data)).counts
    assert counts == (4, 2, 3)
    each = [_block.encode(data, trying(count, fold=True)) for count in counts[:2]]
    chosen = _block.encode(data, trying(4, fold=True, small_counts=(2,)))
    assert len(chosen[1]) == min(len(payload) for _, payload in each)
    assert len(chosen[1]) < len(each[0][1])  # the smaller counts pay here
    assert chosen == next(c for c in each if len(c[1]) == len(chosen[1]))  # first on a tie
    big = sample(1 << 16)
    assert _levels.settings(9).row(len(big)).counts == (4, 3)
    assert (_block.encode(big, trying(4, fold=True, small_counts=(2,)))
            == _block.encode(big, trying(4, fold=True)))


def test_level_9_keeps_the_smallest_of_its_pair_counts_on_every_block():
    from gagebpe.encoder import levels as _levels
    # random words seen three times each: whole words pay only as merges
    # of pairs counted 3 times
    rng = random.Random(5)
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(8, 14)))
             for _ in range(3000)]
    seen = words * 3
    rng.shuffle(seen)
    big = " ".join(seen).encode()
    assert _levels.settings(9).row(len(big)).counts == (4, 3)
    each = [_block.encode(big, trying(count, fold=True)) for count in (4, 3)]
    chosen = _block.encode(big, trying(4, fold=True, small_counts=(2,), more_counts=(3,)))
    assert chosen == min(each, key=lambda coded: len(coded[1]))
    assert len(chosen[1]) < len(each[0][1])  # pairs counted 3 times pay here


def test_level_9_keeps_the_smaller_of_its_grammars_by_count_and_by_gain():
    from gagebpe.encoder import levels as _levels
    from gagebpe.sample import sample
    assert all("gain" in row.tries for row in _levels.settings(9).rows)

    def each_and_chosen(data):
        counts = dict(fold=True, small_counts=(2,), more_counts=(3,))
        by_count = _block.encode(data, trying(4, **counts))
        by_gain = _block.encode(data, trying(4, ("gain",), **counts))
        chosen = _block.encode(data, trying(4, ("grammar", "gain"), **counts))
        return by_count, by_gain, chosen

    by_count, by_gain, chosen = each_and_chosen(sample(60_000))
    assert len(by_gain[1]) < 0.95 * len(by_count[1])  # English-like text gains
    assert chosen == by_gain
    rng = random.Random(5)
    # random words seen three times each: merges by count build whole words
    words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(8, 14)))
             for _ in range(3000)]
    by_count, by_gain, chosen = each_and_chosen(" ".join(words * 3).encode())
    assert len(by_count[1]) < len(by_gain[1])
    assert chosen == by_count
