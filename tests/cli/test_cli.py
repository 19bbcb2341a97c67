"""The command line, run as a real program in subprocesses."""
import os
import pty
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gagebpe import describe
from gagebpe.sample import sample

TEXT = sample(200_000)
CLI = [sys.executable, "-m", "gagebpe"]


def gagebpe(*args, input=None, cwd=None, env=None, stdout=subprocess.PIPE, stdin=None):
    return subprocess.run(CLI + [str(a) for a in args], input=input, cwd=cwd, env=env,
                          stdout=stdout, stdin=stdin, stderr=subprocess.PIPE,
                          timeout=600)


def one_line_error(result, *words):
    """stderr is one line per problem, naming the cause; no traceback."""
    err = result.stderr.decode()
    assert "Traceback" not in err
    assert all(w in err for w in words), err
    return err


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(TEXT)
    os.chmod(path, 0o640)
    os.utime(path, ns=(1_600_000_000_000_000_000, 1_500_000_000_123_456_789))
    return path


@pytest.mark.slow
def test_console_script_and_module_agree(text_file, tmp_path):
    script = Path(sys.executable).with_name("gagebpe")
    if not script.exists():
        pytest.skip("console script not installed (pip install -e .)")
    out = subprocess.run([script, "-c", text_file], capture_output=True, check=True).stdout
    assert out == gagebpe("-c", text_file).stdout


def test_compress_then_decompress_keeps_input_and_metadata(text_file):
    packed = text_file.with_name("notes.txt.gbpe")
    assert gagebpe(text_file).returncode == 0
    assert text_file.read_bytes() == TEXT  # -k is the default
    st_in, st_out = text_file.stat(), packed.stat()
    assert (st_out.st_mode & 0o7777) == 0o640
    assert st_out.st_mtime_ns == st_in.st_mtime_ns
    text_file.unlink()
    assert gagebpe("-d", packed).returncode == 0
    assert text_file.read_bytes() == TEXT and packed.exists()
    assert text_file.stat().st_mtime_ns == st_in.st_mtime_ns
    assert not list(text_file.parent.glob(".*.tmp"))


def test_pipes_and_dash(text_file):
    blob = gagebpe(input=TEXT).stdout
    assert gagebpe("-d", input=blob).stdout == TEXT
    assert gagebpe("-d", "-", input=blob).stdout == TEXT
    assert gagebpe("-dc", "--", "-", input=blob).stdout == TEXT
    assert gagebpe("-c", text_file).stdout == blob
    assert gagebpe("-z", "-c", text_file).stdout == blob


def test_output_option(text_file, tmp_path):
    target = tmp_path / "elsewhere.bin"
    assert gagebpe("-o", target, text_file).returncode == 0
    assert gagebpe("-d", "-o", tmp_path / "back.txt", target).returncode == 0
    assert (tmp_path / "back.txt").read_bytes() == TEXT
    result = gagebpe("-o", target, text_file, text_file)
    assert result.returncode == 1
    one_line_error(result, "only one input")


def test_existing_target_is_refused_unless_forced(text_file):
    packed = text_file.with_name("notes.txt.gbpe")
    packed.write_bytes(b"precious")
    result = gagebpe(text_file)
    assert result.returncode == 1
    one_line_error(result, "notes.txt", "already exists")
    assert packed.read_bytes() == b"precious"
    assert gagebpe("-f", text_file).returncode == 0
    assert gagebpe("-dc", packed).stdout == TEXT


def test_rm_removes_input_only_after_success(text_file, tmp_path):
    packed = text_file.with_name("notes.txt.gbpe")
    assert gagebpe("--rm", text_file).returncode == 0
    assert not text_file.exists() and packed.exists()
    bad = tmp_path / "bad.txt.gbpe"
    blob = bytearray(packed.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    bad.write_bytes(blob)
    result = gagebpe("-d", "--rm", bad)
    assert result.returncode == 1
    one_line_error(result, "bad.txt.gbpe")
    assert bad.exists() and not (tmp_path / "bad.txt").exists()
    assert not list(tmp_path.glob(".*.tmp"))


@pytest.mark.slow
def test_unknown_suffix_is_a_warning(text_file):
    result = gagebpe("-d", text_file)
    assert result.returncode == 2
    one_line_error(result, "notes.txt", "unknown suffix")
    assert gagebpe("-q", "-d", text_file).stderr == b""
    packed = text_file.with_name("notes.txt.gbpe")
    gagebpe(text_file)
    result = gagebpe(packed)  # compressing a .gbpe again
    assert result.returncode == 2
    one_line_error(result, "already has .gbpe suffix")


def test_error_beats_warning_and_the_run_goes_on(text_file, tmp_path):
    already = tmp_path / "old.gbpe"
    already.write_bytes(b"anything")
    other = tmp_path / "other.txt"
    other.write_bytes(b"other " * 100)
    result = gagebpe(tmp_path / "missing.txt", text_file, already, other)
    assert result.returncode == 1
    err = one_line_error(result, "missing.txt", "old.gbpe")
    assert len(err.strip().splitlines()) == 2
    assert other.with_name("other.txt.gbpe").exists()
    assert text_file.with_name("notes.txt.gbpe").exists()


def test_test_mode_reports_corruption(text_file):
    gagebpe(text_file)
    packed = text_file.with_name("notes.txt.gbpe")
    good = gagebpe("-tv", packed)
    assert good.returncode == 0 and b"OK" in good.stderr
    blob = bytearray(packed.read_bytes())
    blob[100] ^= 0x10
    packed.write_bytes(blob)
    bad = gagebpe("-t", packed)
    assert bad.returncode == 1
    one_line_error(bad, "notes.txt.gbpe", "not valid gagebpe data")
    cut = gagebpe("-t", input=bytes(blob[:-30]))
    assert cut.returncode == 1
    one_line_error(cut, "-")


def test_list(text_file):
    gagebpe("--block-size", "64K", text_file)
    packed = text_file.with_name("notes.txt.gbpe")
    out = gagebpe("-l", packed).stdout.decode().splitlines()
    assert out[0].split() == ["compressed", "uncompressed", "ratio", "blocks",
                              "merges", "version", "name"]
    coded, original, ratio, blocks, merges, version, name = out[1].split()
    assert int(coded.replace(",", "")) == packed.stat().st_size
    assert int(original.replace(",", "")) == len(TEXT)
    assert int(blocks) == 4 and int(merges.replace(",", "")) > 100
    with open(packed, "rb") as f:
        assert version == describe(f)[0].version == "1.0"
    assert name == str(packed)
    assert abs(float(ratio) - len(TEXT) / packed.stat().st_size) < 0.001


@pytest.mark.slow
def test_recursive(tmp_path):
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "a.txt").write_bytes(TEXT[:5000])
    (tree / "sub" / "b.txt").write_bytes(TEXT[5000:9000])
    result = gagebpe(tree)
    assert result.returncode == 2
    one_line_error(result, "is a directory")
    assert gagebpe("-r", tree).returncode == 0
    assert (tree / "sub" / "b.txt.gbpe").exists()
    assert gagebpe("-r", tree).returncode == 1  # every target exists now
    for f in ("a.txt", "sub/b.txt"):
        (tree / f).unlink()
    assert gagebpe("-rd", tree).returncode == 0
    assert (tree / "sub" / "b.txt").read_bytes() == TEXT[5000:9000]


@pytest.mark.slow
def test_levels_block_size_and_threads(text_file):
    out1 = gagebpe("-1", "-c", text_file).stdout
    out9 = gagebpe("-9", "-c", text_file).stdout
    assert out1 != out9
    small = gagebpe("--block-size", "16K", "-T", "1", "-c", text_file).stdout
    assert gagebpe("--block-size", "16K", "-T", "2", "-c", text_file).stdout == small
    assert gagebpe("--block-size", "16K", "-T", "0", "-c", text_file).stdout == small
    for blob in (out1, out9, small):
        assert gagebpe("-d", "-T", "2", input=blob).stdout == TEXT
    bad = gagebpe("--block-size", "1G", "-c", text_file)
    assert bad.returncode == 1
    one_line_error(bad, "block_size")
    usage = gagebpe("--block-size", "lots", text_file)
    assert usage.returncode == 1
    one_line_error(usage, "invalid size")


def test_version_and_help():
    import gagebpe as g
    result = gagebpe("-V")
    assert result.returncode == 0 and g.__version__ in result.stdout.decode()
    result = gagebpe("-h")
    assert result.returncode == 0 and b"--decompress" in result.stdout


def test_terminal_is_refused_for_compressed_data(text_file, tmp_path):
    small = tmp_path / "small.txt"  # its output fits the terminal's buffer
    small.write_bytes(TEXT[:2000])
    controller, terminal = pty.openpty()
    try:
        result = gagebpe("-c", text_file, stdout=terminal)
        assert result.returncode == 1
        one_line_error(result, "terminal")
        result = gagebpe("-d", stdin=terminal)
        assert result.returncode == 1
        one_line_error(result, "terminal")
        result = gagebpe("-f", "-c", small, stdout=terminal)
        assert result.returncode == 0
        assert os.read(controller, 1) == b"\x89"  # the magic's first byte
    finally:
        os.close(controller)
        os.close(terminal)


def test_full_disk_is_an_error():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "wb") as full:
        result = gagebpe("-c", input=TEXT, stdout=full)
    assert result.returncode == 1
    one_line_error(result, "No space left")


@pytest.mark.slow
def test_sigterm_leaves_no_partial_output(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(sample(24 << 20))
    proc = subprocess.Popen(CLI + ["-1", str(big)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while not list(tmp_path.glob(".big.txt.gbpe.*.tmp")):
        assert proc.poll() is None, "finished before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(1)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=120) == -signal.SIGTERM
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt"]
    assert big.stat().st_size == 24 << 20


def test_small_jobs_skip_numba_and_give_the_same_bytes(tmp_path):
    import gagebpe as g
    small = tmp_path / "small.txt"
    small.write_bytes(TEXT[:2000])
    blob = gagebpe("-c", small).stdout
    assert blob == g.compress(TEXT[:2000])
    packed = tmp_path / "small.txt.gbpe"
    packed.write_bytes(blob)
    assert gagebpe("-dc", packed).stdout == TEXT[:2000]
    assert gagebpe("-l", packed).returncode == 0


def test_small_files_are_compressed_without_the_kernels_at_every_level(tmp_path):
    from gagebpe import cli
    small, large = tmp_path / "small.txt", tmp_path / "large.txt"
    small.write_bytes(TEXT[:2000])
    large.write_bytes(TEXT[:5000])
    for level in (1, 6, None, 9):
        args = cli.parser().parse_args(([f"-{level}"] if level else []) + [str(small)])
        args.mode = "compress"
        assert cli._plain_job(args, [str(small)])
        assert not cli._plain_job(args, [str(large)])  # past what the plain path takes
        # Many small files add up to more than loading the kernels takes.
        assert not cli._plain_job(args, [str(small)] * 200)


def test_small_streams_are_decompressed_without_the_kernels_where_that_is_faster(tmp_path):
    import gagebpe as g
    from gagebpe import cli
    mixed, lz, grammar = (tmp_path / f"{name}.gbpe" for name in ("mixed", "lz", "grammar"))
    mixed.write_bytes(g.compress(TEXT[:2000]))  # MIXED_PRIMED, which plain Python decodes slowly
    lz.write_bytes(g.compress(TEXT[:3000], 1))
    grammar.write_bytes(g.compress(TEXT[:20000], 1))  # SORTED: only the kernels decode it
    args = cli.parser().parse_args(["-d", str(mixed)])
    for names, plain in (([mixed], True), ([mixed] * 20, False), ([lz] * 20, True),
                         ([grammar], False)):
        assert cli._plain_job(args, [str(n) for n in names]) == plain


@pytest.mark.slow
def test_gage1994_format_by_option_and_suffix(tmp_path):
    from test_gage1994 import VECTORS
    if not VECTORS.is_dir():
        pytest.skip(f"Gage 1994 vectors not found at {VECTORS}")
    for name, source in (("grammar.lsp", VECTORS.parents[1] / "corpus" / "canterbury"),
                         ("aaaa-20000.bin", VECTORS / "inputs")):
        original = tmp_path / name
        original.write_bytes((source / name).read_bytes())
        assert gagebpe("--format", "gage1994", original).returncode == 0
        packed = tmp_path / (name + ".bpe")
        assert packed.read_bytes() == (VECTORS / (name + ".bpe")).read_bytes()
        original.unlink()
        assert gagebpe("-d", packed).returncode == 0  # .bpe: read as gage1994
        assert original.read_bytes() == (source / name).read_bytes()
    # Standard input is never guessed: gbpe unless --format says otherwise.
    blob = (VECTORS / "grammar.lsp.bpe").read_bytes()
    assert gagebpe("-d", input=blob).returncode == 1
    assert gagebpe("-d", "--format", "gage1994", input=blob).stdout == \
        (VECTORS.parents[1] / "corpus" / "canterbury" / "grammar.lsp").read_bytes()
    cut = tmp_path / "cut.bpe"
    cut.write_bytes(blob[:-10])
    result = gagebpe("-t", cut)
    assert result.returncode == 1
    one_line_error(result, "cut.bpe", "unexpected end")


@pytest.mark.slow
def test_progress_bar_on_request_and_only_then(text_file):
    pytest.importorskip("tqdm")
    shown = gagebpe("--progress", "-c", text_file)
    assert shown.returncode == 0
    err = shown.stderr.decode()
    assert "notes.txt" in err and "B/s" in err and "ratio=" in err
    assert gagebpe("--no-progress", "-c", text_file).stderr == b""
    # Off by default when stderr is not a terminal, and for small inputs
    # even when it is.
    assert gagebpe("-c", text_file).stderr == b""
    controller, terminal = pty.openpty()
    try:
        result = subprocess.run(CLI + ["-c", str(text_file)], stdout=subprocess.PIPE,
                                stderr=terminal, timeout=600)
        assert result.returncode == 0
        os.set_blocking(controller, False)
        try:
            assert os.read(controller, 1000) == b""
        except BlockingIOError:
            pass  # nothing was written to the terminal
    finally:
        os.close(controller)
        os.close(terminal)


def test_keep_flag_and_verbose_summary(text_file):
    result = gagebpe("-k", "-v", text_file)
    assert result.returncode == 0 and text_file.exists()
    assert b"ratio" in result.stderr


def test_train_and_use_a_dictionary(tmp_path):
    """--train writes a dictionary; -D compresses, decompresses and tests
    with it; without it the stream is refused, naming its id."""
    lines = TEXT.splitlines(True)
    for i in range(200):
        (tmp_path / f"s{i}.txt").write_bytes(b"".join(lines[i * 5:i * 5 + 5]))
    samples = [f"s{i}.txt" for i in range(200)]
    result = gagebpe("--train", *samples, "-o", "d.dict", "--maxdict", "8K", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    import gagebpe as api
    dictionary = api.Dictionary.from_bytes((tmp_path / "d.dict").read_bytes())
    assert len(dictionary) <= 8192
    threaded = gagebpe("--train", *samples, "-o", "t.dict", "--maxdict", "8K", "-T", "2",
                       cwd=tmp_path)
    assert threaded.returncode == 0, threaded.stderr
    assert (tmp_path / "t.dict").read_bytes() == (tmp_path / "d.dict").read_bytes()
    record = tmp_path / "record.txt"
    record.write_bytes(b"".join(lines[2000:2004]))
    assert gagebpe("-D", "d.dict", "record.txt", cwd=tmp_path).returncode == 0
    blob = (tmp_path / "record.txt.gbpe").read_bytes()
    assert api.decompress(blob, dictionary=dictionary) == record.read_bytes()
    assert gagebpe("-D", "d.dict", "-t", "record.txt.gbpe", cwd=tmp_path).returncode == 0
    out = gagebpe("-D", "d.dict", "-dc", "record.txt.gbpe", cwd=tmp_path)
    assert out.returncode == 0 and out.stdout == record.read_bytes()
    missing = gagebpe("-dc", "record.txt.gbpe", cwd=tmp_path)
    assert missing.returncode == 1
    one_line_error(missing, "record.txt.gbpe", f"{dictionary.id:#010x}")
    (tmp_path / "bad.dict").write_bytes(b"\x89GBD" + bytes(20))
    bad = gagebpe("-D", "bad.dict", "-t", "record.txt.gbpe", cwd=tmp_path)
    assert bad.returncode == 1
    one_line_error(bad, "bad.dict", "not a valid dictionary")
    assert gagebpe("--maxdict", "8K", "record.txt", cwd=tmp_path).returncode == 1
    assert gagebpe("--train", "-o", "x.dict", cwd=tmp_path).returncode == 1
    assert not (tmp_path / "x.dict").exists()
