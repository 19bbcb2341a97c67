"""ByteBPE on its own: training against a plain-Python reference, streamed
and sliced training, pre-tokenization against the ``regex`` module, its
files, its errors, and the command line's train, encode and decode.

The same ids as tiktoken, Hugging Face and rustbpe: test_byte_bpe_models.py."""
import io
import re

import numpy as np
import pytest
from hypothesis import given, strategies as st

from gagebpe.tokenizers import ByteBPE, TokenizerError

import reference
from conftest import sample_text


def test_own_and_foreign_files_round_trip_the_ids(tmp_path, trained):
    text = sample_text()[:30_000] + " <|endoftext|>"
    ids = trained.encode(text, allowed_special="all")
    trained.save(tmp_path / "own.json")
    again = ByteBPE.load(tmp_path / "own.json")
    assert again.encode(text, allowed_special="all") == ids and again.merges == trained.merges
    trained.save_tiktoken(tmp_path / "ranks.tiktoken")
    ranks = ByteBPE.from_tiktoken(tmp_path / "ranks.tiktoken", pattern=trained.pattern,
                                  special_tokens=trained.special_tokens)
    assert ranks.encode(text, allowed_special="all") == ids
    assert ranks.merges == trained.merges  # recovered from the ranks alone
    trained.save_hf(tmp_path / "tokenizer.json")
    hf = ByteBPE.from_hf(tmp_path / "tokenizer.json")
    assert hf.encode(text, allowed_special="all") == ids


def test_merges_must_make_their_tokens():
    tokens = [bytes([b]) for b in range(256)] + [b"ab", b"abc"]
    a, b, c = ord("a"), ord("b"), ord("c")
    assert ByteBPE(tokens, merges=[(a, b), (256, c)]).encode_ordinary("abc") == [257]
    with pytest.raises(TokenizerError, match="does not make"):
        ByteBPE(tokens, merges=[(a, b), (a, c)])
    with pytest.raises(TokenizerError, match="merges for"):
        ByteBPE(tokens, merges=[(a, b)])


def test_decoding_refuses_ids_that_are_no_token(trained):
    assert trained.decode(trained.encode("héllo <|endoftext|>", allowed_special="all")) \
        == "héllo <|endoftext|>"
    for bad in ([trained.n_vocab], [-1], [2001]):
        with pytest.raises(TokenizerError, match="invalid token id"):
            trained.decode(bad)


def test_a_file_encodes_a_piece_at_a_time_as_whole(trained, monkeypatch):
    from gagebpe.tokenizers import _patterns
    monkeypatch.setattr(_patterns, "SLICE", 3000)
    text = sample_text() + "\n\n<|endoftext|>tail"
    pieces = list(trained.encode_file(io.StringIO(text), allowed_special="all"))
    assert len(pieces) > 10
    assert sum(pieces, []) == trained.encode(text, allowed_special="all")


@pytest.mark.parametrize("contents, words", [
    ("YWJj 0\nYWJj 1\n", "each once"),
    ("YWJj zero\n", "line 1"),
    ("!!! 0\n", "line 1"),
])
def test_malformed_rank_files_are_refused(tmp_path, contents, words):
    path = tmp_path / "bad.tiktoken"
    path.write_text(contents)
    with pytest.raises(TokenizerError, match=words):
        ByteBPE.from_tiktoken(path, pattern="gpt4")


def test_a_vocabulary_must_hold_every_byte():
    with pytest.raises(TokenizerError, match="single byte"):
        ByteBPE([bytes([b]) for b in range(255)])



# -- training ------------------------------------------------------------------------

@given(st.text(alphabet="ab cé\n'sT1", max_size=200), st.integers(256, 300),
       st.sampled_from(["first", "rustbpe"]))
def test_training_matches_the_reference(text, vocab_size, ties):
    regex = pytest.importorskip("regex")
    from gagebpe.tokenizers._patterns import GPT4
    ours = ByteBPE.train(text, vocab_size, min_frequency=1, ties=ties)
    want = reference.byte_bpe(text, vocab_size, regex.compile(GPT4), ties)
    assert list(ours.mergeable_ranks()) == want






def test_training_streams_an_iterable_and_stops_below_the_minimum():
    text = sample_text()
    # Pieces cut between a line end and a letter: the chunks are the same
    # (a cut the corpus's prose and the built-in sample both have).
    pieces = re.split(r"(?<=\n)(?=[A-Za-z])", text)
    assert len(pieces) > 100
    whole = ByteBPE.train(text, 600, ties="rustbpe", min_frequency=1)
    streamed = ByteBPE.train(iter(pieces), 600, ties="rustbpe", min_frequency=1)
    assert len(whole.mergeable_ranks()) == 600
    assert streamed.mergeable_ranks() == whole.mergeable_ranks()
    rare = ByteBPE.train("ab ab cd", 300, min_frequency=2)
    assert len(rare.mergeable_ranks()) == 257  # only (a, b) occurs twice
    assert ByteBPE.train("", 300).n_vocab == 256


def test_long_texts_are_counted_in_slices_alike():
    from gagebpe.tokenizers import _patterns
    text = sample_text() * 3
    whole = ByteBPE.train(text, 800)
    original = _patterns.SLICE
    _patterns.SLICE = 5000
    try:
        assert ByteBPE.train(text, 800).mergeable_ranks() == whole.mergeable_ranks()
        assert ByteBPE.train(io.StringIO(text), 800).mergeable_ranks() == whole.mergeable_ranks()
    finally:
        _patterns.SLICE = original


def test_patterns_by_name_regex_or_none():
    pytest.importorskip("regex")
    text = "Hello, world! It's 2026.\n"
    assert ByteBPE.train(text, 260, pattern=None).pattern is None
    custom = ByteBPE.train(text, 300, pattern=r"\w+|\W")
    assert custom.decode(custom.encode_ordinary(text)) == text
    with pytest.raises(TokenizerError, match="invalid pattern"):
        ByteBPE.train(text, 300, pattern="(")


# -- pre-tokenization ----------------------------------------------------------------

@pytest.fixture(scope="module")
def regex():
    return pytest.importorskip("regex", reason="the regex module is not installed")


def regex_classes(regex):
    """The table's flags as the ``regex`` module computes them for every
    code point (its Unicode version may be newer than the table's)."""
    from gagebpe.tokenizers import _unicode
    points = np.arange(0x110000)
    points = points[(points < 0xD800) | (points > 0xDFFF)]
    text = "".join(map(chr, points.tolist()))
    flags = np.zeros(0x110000, np.uint8)
    for flag, cls in [(_unicode.LETTER, r"\p{L}"), (_unicode.NUMBER, r"\p{N}"),
                      (_unicode.SPACE, r"\s"),
                      (_unicode.CASED_OR_MARK, r"[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]"),
                      (_unicode.LOWER_OR_MARK, r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]")]:
        at = [m.start() for m in regex.finditer(cls, text)]
        flags[points[at]] |= flag
    return flags


@pytest.fixture(scope="module")
def agreed_characters(regex):
    """Characters both Unicode versions class alike, for comparing the
    scanner with ``regex.findall``."""
    from gagebpe.tokenizers import _unicode
    same = np.flatnonzero(regex_classes(regex) == _unicode.classes())
    assert len(same) > 1_000_000  # Unicode 16 and 17 differ in a few thousand at most
    # Surrogates are no text (str.encode refuses them), and recent
    # Hypothesis draws them from an alphabet that holds them.
    return same[(same < 0xD800) | (same > 0xDFFF)]


def test_the_character_table_is_unicode_16():
    ucd = pytest.importorskip("unicodedata2", reason="unicodedata2 is not installed")
    from gagebpe.tokenizers import _unicode
    if ucd.unidata_version != _unicode.VERSION:
        pytest.skip(f"unicodedata2 has Unicode {ucd.unidata_version}, not {_unicode.VERSION}")
    assert np.array_equal(_unicode.build(ucd), _unicode.classes())


def scanned_texts(points):
    chars = st.sampled_from(points.tolist()).map(chr)
    pieces = st.one_of(
        st.text(alphabet=chars, max_size=8),
        st.text(alphabet="aZ1 \t\r\n'sSdDlLvVeEmMtT.,!-é中😀\u0301\u00a0\u3000", max_size=12),
        st.sampled_from(["'s", "'LL", "'ſ", " 'Re", "\r\n", "  \n", "\t \n ", "12345", " !!\n\n"]))
    return st.lists(pieces, max_size=20).map("".join)


@pytest.mark.parametrize("name", ["gpt2", "cl100k", "gpt4"])
def test_the_scanner_cuts_as_regex_does(regex, agreed_characters, name):
    from gagebpe.tokenizers import _patterns
    splitter = _patterns.Splitter(name)
    assert splitter.scanner is not None
    compiled = regex.compile(splitter.pattern)

    @given(scanned_texts(agreed_characters))
    def check(text):
        buf = text.encode()
        starts, ends = splitter.chunks(text, np.frombuffer(buf, np.uint8))
        got = [buf[s:e].decode() for s, e in zip(starts.tolist(), ends.tolist())]
        assert got == compiled.findall(text)

    check()


@given(st.text(alphabet="aB \n\n\r\t1'.é!\u00a0", max_size=400), st.integers(1, 50))
def test_pieces_cut_only_where_chunks_end(text, size):
    from gagebpe.tokenizers import _patterns
    for name in ("gpt2", "cl100k", "gpt4"):
        splitter = _patterns.Splitter(name)
        whole = chunk_texts(splitter, text)
        for pieces in (list(splitter.pieces(text, size)),
                       list(splitter.pieces(io.StringIO(text), size))):
            assert "".join(pieces) == text
            assert sum((chunk_texts(splitter, p) for p in pieces), []) == whole


def chunk_texts(splitter, text):
    buf = text.encode()
    starts, ends = splitter.chunks(text, np.frombuffer(buf, np.uint8))
    return [buf[s:e] for s, e in zip(starts.tolist(), ends.tolist())]


# -- command line --------------------------------------------------------------------

class Kept(io.BytesIO):
    def close(self):  # the command wraps and closes standard streams; keep the bytes
        pass


def run(monkeypatch, argv, stdin=b""):
    """``(status, stdout bytes, stderr text)`` of the command in this process."""
    from gagebpe.tokenizers import cli
    streams = {name: Kept(data) for name, data in
               (("stdin", stdin), ("stdout", b""), ("stderr", b""))}
    for name, raw in streams.items():
        monkeypatch.setattr(f"sys.{name}", io.TextIOWrapper(raw, encoding="utf-8"))
    status = cli.main([str(a) for a in argv])
    import sys
    sys.stdout.flush()
    sys.stderr.flush()
    return status, streams["stdout"].getvalue(), streams["stderr"].getvalue().decode()


def test_the_command_line_trains_encodes_and_decodes(tmp_path, monkeypatch):
    text = sample_text()
    (tmp_path / "a.txt").write_text(text[:60_000])
    (tmp_path / "b.txt").write_text(text[60_000:])
    tok = tmp_path / "tok.tiktoken"
    status, _, err = run(monkeypatch, ["train", "--vocab-size", 600, "--pattern", "cl100k",
                                       tmp_path / "a.txt", tmp_path / "b.txt", "-o", tok])
    assert (status, err) == (0, "")
    bpe = ByteBPE.from_tiktoken(tok, pattern="cl100k")
    assert bpe.mergeable_ranks() == ByteBPE.train(
        [text[:60_000], text[60_000:]], 600, pattern="cl100k").mergeable_ranks()
    sample = (text[:5000] + "\n\n\n  tail").encode()
    status, ids, _ = run(monkeypatch, ["encode", "-t", tok, "--pattern", "cl100k"], sample)
    assert status == 0 and [int(i) for i in ids.split()] == bpe.encode(sample.decode())
    status, back, _ = run(monkeypatch, ["decode", "-t", tok], ids)
    assert (status, back) == (0, sample)
    status, npy, _ = run(monkeypatch, ["encode", "-t", tok, "--pattern", "cl100k", "--npy"],
                         sample)
    assert np.load(io.BytesIO(npy)).tolist() == bpe.encode(sample.decode())
    assert run(monkeypatch, ["decode", "-t", tok, "--npy"], npy)[1] == sample


def test_the_command_line_writes_each_format_and_reads_it_back(tmp_path, monkeypatch):
    (tmp_path / "in.txt").write_text(sample_text()[:20_000])
    text = "hello <|endoftext|> world"
    for name, fmt in (("own.json", "gagebpe"), ("tokenizer.json", "hf")):
        out = tmp_path / name
        status, _, err = run(monkeypatch, ["train", "--vocab-size", 400, "--special",
                                           "<|endoftext|>", "--format", fmt,
                                           tmp_path / "in.txt", "-o", out])
        assert (status, err) == (0, "")
        status, ids, err = run(monkeypatch, ["encode", "-t", out], text.encode())
        assert status == 1 and "disallowed special token" in err and "\n" not in err.strip()
        status, ids, _ = run(monkeypatch, ["encode", "-t", out, "--special", "allow"],
                             text.encode())
        assert status == 0 and 400 in [int(i) for i in ids.split()]
        assert run(monkeypatch, ["decode", "-t", out], ids)[1] == text.encode()
        status, ids, _ = run(monkeypatch, ["encode", "-t", out, "--special", "ignore"],
                             text.encode())
        assert 400 not in [int(i) for i in ids.split()]


@pytest.mark.parametrize("argv, stdin, words", [
    (["decode", "-t", "{tok}"], b"1 2 banana", "token ids"),
    (["decode", "-t", "{tok}"], b"1 99999", "invalid token id 99999"),
    (["decode", "-t", "{tok}"], b"1 99999999999999999999999", "token ids"),
    (["decode", "-t", "{tok}", "--npy"], b"not an array", ".npy"),
    (["encode", "-t", "{tok}"], b"\xff\xfe", "UTF-8"),
    (["encode", "-t", "{missing}"], b"x", "missing"),
    (["encode", "-t", "{bad}"], b"x", "line 1"),
    (["train", "--vocab-size", "300", "{missing}", "-o", "{out}"], b"", "missing"),
    (["train", "--vocab-size", "300", "-o", "{out}"], b"\xff text", "UTF-8"),
])
def test_the_command_line_reports_problems_in_one_line(tmp_path, monkeypatch, argv, stdin,
                                                       words):
    ByteBPE.train("abc abc", 257).save_tiktoken(tmp_path / "tok.tiktoken")
    (tmp_path / "bad.tiktoken").write_text("!!! 0\n")
    names = {"tok": tmp_path / "tok.tiktoken", "bad": tmp_path / "bad.tiktoken",
             "missing": tmp_path / "missing", "out": tmp_path / "out.tiktoken"}
    status, out, err = run(monkeypatch, [a.format(**names) for a in argv], stdin)
    assert status == 1 and words in err and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert not (tmp_path / "out.tiktoken").exists()
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []


def test_a_failed_training_leaves_no_output(tmp_path, monkeypatch):
    out = tmp_path / "tok.tiktoken"
    out.write_text("the old contents\n")
    status, _, err = run(monkeypatch, ["train", "--vocab-size", "300", "-o", out], b"\xff")
    assert status == 1 and out.read_text() == "the old contents\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tok.tiktoken"]
