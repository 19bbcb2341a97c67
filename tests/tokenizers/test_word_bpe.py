"""WordBPE: the article's worked example, training and encoding against a
plain-Python reference, files, unknown characters."""
import json

import pytest
from hypothesis import given, strategies as st

from gagebpe.tokenizers import TokenizerError, UnknownCharacterError, WordBPE

from reference import END, merge_all, replay, units_of, word_bpe

ARTICLE = ("low low low low low lowest lowest newer newer newer newer newer newer "
           "wider wider wider new new")


@pytest.fixture(scope="module")
def article():
    return WordBPE.train(ARTICLE, 10)


def test_the_article_example(article):
    assert article.merges == [
        ("e", "r"), ("er", END), ("n", "e"), ("ne", "w"), ("l", "o"), ("lo", "w"),
        ("new", "er" + END), ("low", END), ("w", "i"), ("wi", "d")]
    assert article.frequencies == [9, 9, 8, 8, 7, 7, 6, 5, 3, 3]
    assert article.encode("low") == ["low</w>"]
    assert article.encode("lower") == ["low", "er</w>"]
    assert article.encode("newest") == ["new", "e", "s", "t", "</w>"]
    assert article.encode("lowering") == ["low", "er", "i", "n", "g", "</w>"]
    assert article.encode_word("lowering") == article.encode("lowering")


def test_the_article_trace(article):
    lines = article.trace("lowering").splitlines()
    assert lines[0] == "Merge 1: ('e', 'r') -> er (freq: 9)"
    assert lines[9] == "Merge 10: ('wi', 'd') -> wid (freq: 3)"
    assert lines[10] == "lowering: ['l', 'o', 'w', 'e', 'r', 'i', 'n', 'g', '</w>']"
    # (e, r) fires although </w> does not follow: rank order, not longest match.
    assert lines[11] == "  Merge 1 ('e', 'r'): ['l', 'o', 'w', 'er', 'i', 'n', 'g', '</w>']"
    assert lines[-1] == "  Merge 6 ('lo', 'w'): ['low', 'er', 'i', 'n', 'g', '</w>']"


texts = st.lists(st.text(alphabet="abcde \n\r\t", max_size=30), max_size=25).map("".join)


@given(texts, st.integers(0, 40), st.integers(1, 3), st.sampled_from(["first", "subword-nmt"]))
def test_training_matches_the_reference(text, num_merges, min_frequency, ties):
    bpe = WordBPE.train(text, num_merges, min_frequency=min_frequency, ties=ties)
    merges, frequencies = word_bpe(text, num_merges, min_frequency, ties)
    assert bpe.merges == merges
    assert bpe.frequencies == frequencies


@given(st.lists(st.text(alphabet="abcd", min_size=1, max_size=12), min_size=1, max_size=20),
       st.data())
def test_encoding_replays_the_merges_in_rank_order(words, data):
    # A merge list as training makes one: each merge joins units that exist
    # by then, and no two merges make the same token.
    units = {c for w in words for c in units_of(w, "first")}
    merges, made = [], set(units)
    for _ in range(data.draw(st.integers(0, 30))):
        pool = sorted(made)
        pair = (data.draw(st.sampled_from(pool)), data.draw(st.sampled_from(pool)))
        if pair[0] + pair[1] not in made:
            merges.append(pair)
            made.add(pair[0] + pair[1])
    bpe = WordBPE(merges, version="0.1")
    for word in words:
        assert bpe.encode_word(word) == replay(units_of(word, "first"), merges)


def test_long_words_take_the_heap_path_and_agree():
    bpe = WordBPE.train("ab " * 50 + "abab " * 40 + "aabb " * 20, 6)
    word = "ab" * 300 + "a" * 77 + "b"
    assert bpe.encode_word(word) == replay(units_of(word, "first"), bpe.merges)


def test_codes_files_round_trip(tmp_path, article):
    path = tmp_path / "codes"
    article.save_codes(path)
    text = path.read_text()
    assert not text.startswith("#version")  # 0.1: </w> is a unit of its own
    assert "er </w>\n" in text
    loaded = WordBPE.load_codes(path)
    assert loaded.merges == article.merges and loaded.version == "0.1"
    assert loaded.encode("lowering") == article.encode("lowering")
    snmt = WordBPE.train(ARTICLE, 10, ties="subword-nmt")
    snmt.save_codes(path)
    assert path.read_text().startswith("#version: 0.2\ne r</w>\n")
    assert WordBPE.load_codes(path).merges == snmt.merges


@pytest.mark.parametrize("text, words", [
    ("#version: 0.2\na b\nab\n", "line 3"),
    ("#version: 0.2\na b c\n", "line 2"),
    ("a b\n\nc d\n", "line 2"),
    ("#version: 0.7\na b\n", "version"),
])
def test_malformed_codes_are_refused_naming_the_line(tmp_path, text, words):
    path = tmp_path / "codes"
    path.write_text(text)
    with pytest.raises(TokenizerError, match=words):
        WordBPE.load_codes(path)


def test_apply_keeps_lines_and_spaces_as_subword_nmt(article):
    text = "low lower  newest\n lowering \r\n\nx\r\n  \n"
    assert article.apply(text) == (
        "low low@@ er new@@ e@@ s@@ t\n low@@ er@@ i@@ n@@ g \r\n\nx\r\n  \n")
    assert article.apply("lowering", separator="~~") == "low~~ er~~ i~~ n~~ g"


def test_unknown_characters_are_an_error_naming_them(article):
    with pytest.raises(UnknownCharacterError) as caught:
        article.encode_ids("new lowering")
    assert caught.value.character == "g" and caught.value.position == 11
    assert "'g'" in str(caught.value) and "11" in str(caught.value)
    assert article.encode("lowering")[-2] == "g"  # strings keep it as it is


def test_unknown_characters_map_to_unk_or_bytes():
    unk = WordBPE.train(ARTICLE, 10, unk_token="<unk>")
    ids = unk.encode_ids("lowering")
    assert ids[-2] == unk.vocab["<unk>"] == 0
    assert [unk.tokens[i] for i in ids[:-2]] == ["low", "er", "i", "n"]
    fallback = WordBPE.train(ARTICLE, 10, byte_fallback=True)
    ids = fallback.encode_ids("lowering é")
    tokens = [fallback.tokens[i] for i in ids]
    assert tokens == ["low", "er", "i", "n", "<0x67>", END, "<0xC3>", "<0xA9>", END]


def test_the_vocabulary_is_deterministic_and_ids_survive_saving(tmp_path, article):
    assert list(article.vocab.values()) == list(range(len(article.vocab)))
    assert article.tokens[:3] == [END, "d", "e"]  # the alphabet, sorted
    assert article.tokens[-1] == "wid"
    path = tmp_path / "model.json"
    article.save(path)
    loaded = WordBPE.load(path)
    assert loaded.vocab == article.vocab and loaded.frequencies == article.frequencies
    assert loaded.encode_ids("lower newer") == article.encode_ids("lower newer")
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(TokenizerError):
        WordBPE.load(path)


def test_training_takes_lines_as_well_as_text():
    lines = [line + "\n" for line in ARTICLE.split(" ")]
    assert WordBPE.train(lines, 10).merges == WordBPE.train(ARTICLE, 10).merges
    assert WordBPE.train(iter(lines), 10, ties="subword-nmt").merges == \
        WordBPE.train(ARTICLE, 10, ties="subword-nmt").merges


def test_training_stops_below_the_minimum_frequency():
    bpe = WordBPE.train(ARTICLE, 100, min_frequency=4)
    assert len(bpe.merges) == 8 and min(bpe.frequencies) >= 4
    assert WordBPE.train("", 10).merges == []
    with pytest.raises(ValueError):
        WordBPE.train(ARTICLE, 10, ties="longest")


def test_a_full_word_cache_loses_no_word(monkeypatch):
    """Words found in the cache stay found when the same call empties the
    full cache for its new words (an encoding once failed there)."""
    from gagebpe.tokenizers import _word
    bpe = WordBPE.train(ARTICLE, 10)
    monkeypatch.setattr(_word, "CACHE_WORDS", 3)
    bpe.encode("low lower")  # two words cached
    assert bpe.encode("low newest widest lower") == (bpe.encode("low") + bpe.encode("newest")
                                                    + bpe.encode("widest") + bpe.encode("lower"))


def test_merge_all_is_left_to_right():
    assert merge_all(("a", "a", "a"), ("a", "a")) == ("aa", "a")
