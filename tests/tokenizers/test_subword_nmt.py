"""WordBPE as a drop-in for subword-nmt (Sennrich's reference implementation,
from PyPI): the same codes file byte for byte, the same segmented text, and
the same command line."""
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from gagebpe.tokenizers import WordBPE, _word

from conftest import CANTERBURY

learn_bpe = pytest.importorskip("subword_nmt.learn_bpe", reason="subword-nmt is not installed")
apply_bpe = pytest.importorskip("subword_nmt.apply_bpe")

SMALL = ["alice29.txt", "fields.c", "grammar.lsp", "xargs.1"]
LARGE = ["asyoulik.txt", "lcet10.txt", "plrabn12.txt", "world192.txt", "bible.txt"]
CLI = [sys.executable, "-m", "gagebpe.tokenizers"]


def text(name):
    if not CANTERBURY.is_dir():
        pytest.skip(f"Canterbury corpus not found at {CANTERBURY}")
    return (CANTERBURY / name).read_text(encoding="utf-8")


def their_codes(source, merges):
    out = io.StringIO()
    learn_bpe.learn_bpe(io.StringIO(source), out, merges)
    return out.getvalue()


def their_segmentation(codes, source):
    bpe = apply_bpe.BPE(io.StringIO(codes))
    return "".join(bpe.process_line(line) for line in source.splitlines(keepends=True))


@pytest.mark.parametrize("name", SMALL)
def test_the_same_codes_as_learn_bpe(name):
    source = text(name)
    assert WordBPE.train(source, 1000, ties="subword-nmt").codes() == their_codes(source, 1000)


@pytest.mark.slow
@pytest.mark.parametrize("name, merges", [(name, 10000) for name in SMALL + LARGE]
                         + [(name, 1000) for name in LARGE])
def test_the_same_codes_as_learn_bpe_up_to_10000_merges(name, merges):
    source = text(name)
    assert WordBPE.train(source, merges, ties="subword-nmt").codes() == \
        their_codes(source, merges)


@pytest.mark.parametrize("learned_on, applied_to", [
    ("alice29.txt", "lcet10.txt"), ("lcet10.txt", "asyoulik.txt"), ("asyoulik.txt", "fields.c"),
    ("plrabn12.txt", "alice29.txt")])
def test_the_same_segmentation_as_apply_bpe_on_unseen_text(learned_on, applied_to):
    codes = WordBPE.train(text(learned_on), 3000, ties="subword-nmt").codes()
    source = text(applied_to)
    assert WordBPE.load_codes_text(codes).apply(source) == their_segmentation(codes, source)


@pytest.mark.slow
def test_the_same_segmentation_of_the_bible_with_the_worlds_codes():
    codes = their_codes(text("world192.txt"), 10000)
    source = text("bible.txt")
    assert WordBPE.load_codes_text(codes).apply(source) == their_segmentation(codes, source)


@pytest.mark.slow
def test_the_command_line_is_a_drop_in(tmp_path):
    source = text("alice29.txt")
    learned = subprocess.run(CLI + ["learn-bpe", "-s", "500"], input=source.encode(),
                             capture_output=True, check=True)
    assert learned.stdout.decode() == their_codes(source, 500)
    codes = tmp_path / "codes"
    codes.write_bytes(learned.stdout)
    held_out = text("asyoulik.txt")
    applied = subprocess.run(CLI + ["apply-bpe", "-c", codes], input=held_out.encode(),
                             capture_output=True, check=True)
    assert applied.stdout.decode() == their_segmentation(learned.stdout.decode(), held_out)
    # Files by name too, and the article's conventions on request.
    (tmp_path / "in.txt").write_text(source)
    subprocess.run(CLI + ["learn-bpe", "-s", "50", "--ties", "first", "-i", tmp_path / "in.txt",
                          "-o", tmp_path / "first.codes"], check=True)
    assert (tmp_path / "first.codes").read_text() == \
        WordBPE.train(source, 50, ties="first").codes()


@pytest.mark.slow
def test_the_command_line_reports_problems_in_one_line(tmp_path):
    bad = tmp_path / "bad.codes"
    bad.write_text("#version: 0.2\na b\nab\n")
    result = subprocess.run(CLI + ["apply-bpe", "-c", bad], input=b"a b\n", capture_output=True)
    assert result.returncode == 1
    err = result.stderr.decode()
    assert "line 3" in err and "Traceback" not in err and len(err.splitlines()) == 1
    result = subprocess.run(CLI + ["apply-bpe", "-c", tmp_path / "missing"], input=b"",
                            capture_output=True)
    assert result.returncode == 1 and b"missing" in result.stderr
    result = subprocess.run(CLI + ["learn-bpe", "-s", "5"], input=b"\xff\xfe text\n",
                            capture_output=True)
    assert result.returncode == 1 and b"UTF-8" in result.stderr
    assert subprocess.run(CLI + ["learn-bpe", "--bogus"], capture_output=True).returncode == 2


@pytest.mark.slow
def test_the_console_script_is_installed():
    script = Path(sys.executable).with_name("gagebpe-tokenizers")
    if not script.exists():
        pytest.skip("console script not installed (pip install -e .)")
    result = subprocess.run([script, "learn-bpe", "-s", "3"], input=b"ab ab ab cd cd\n",
                            capture_output=True, check=True)
    assert result.stdout.decode() == their_codes("ab ab ab cd cd\n", 3)


@pytest.mark.slow
def test_a_progress_bar_on_request(tmp_path):
    pytest.importorskip("tqdm")
    source = tmp_path / "in.txt"
    source.write_text("low lower newest " * 2000)
    result = subprocess.run(CLI + ["learn-bpe", "-s", "5", "--progress", "-i", source],
                            capture_output=True, check=True)
    assert b"reading" in result.stderr and b"B/s" in result.stderr
    quiet = subprocess.run(CLI + ["learn-bpe", "-s", "5", "-i", source], capture_output=True,
                           check=True)
    assert quiet.stderr == b""  # not a terminal: no bar


TRAINING = ("the quick brown fox jumps over the lazy dog; the dog sleeps. " * 20
            + "tabs\tand\tcarriage returns\r\n lower upper UPPER Ünïcödé 東京 " * 10)


@pytest.mark.parametrize("version", ["0.1", "0.2"])
@given(st.lists(st.sampled_from(["the", "dog", " ", "  ", "\r", "\n", "\t", "fox.", "Ünï",
                                 "東", "x", "zzz", "</w>", "@@", "UPPER"]), max_size=30)
       .map("".join))
def test_short_texts_apply_in_python_as_apply_bpe_does(version, source):
    """``apply`` of a short text (Python, the word cache) against the
    kernels' (a long text) and subword-nmt's ``process_line``."""
    codes = WordBPE.train(TRAINING, 60, ties="subword-nmt").codes()
    if version == "0.2":
        codes = codes.replace("#version: 0.1", "#version: 0.2")
    ours = WordBPE.load_codes_text(codes)
    assert len(source) <= _word.SHORT_TEXT
    short = ours.apply(source)
    bpe = apply_bpe.BPE(io.StringIO(codes))  # lines end at "\n" alone, as apply's do
    assert short == "".join(bpe.process_line(line) for line in re.findall(r"[^\n]*\n|[^\n]+$",
                                                                           source))
    padding = "\n" * (_word.SHORT_TEXT + 1)  # a text this long takes the kernels
    assert ours.apply(source + padding) == short + padding
