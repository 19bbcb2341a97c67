"""The plain path (``gagebpe.plain``), which the command line takes for
small jobs without loading Numba, writes exactly what the kernels write and
reads exactly what they read; where it cannot, it declines."""
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.format.codings import lz as _coding_lz, mixed as _coding_mixed
from gagebpe.kernels import filters as _filters, mixing as _mixing
from gagebpe.plain import priming_text as _priming_text
from gagebpe.encoder import levels, small as _small
from gagebpe.kernels.xxh64 import xxh64 as kernel_xxh64
from gagebpe import _plain_jobs as stream
from gagebpe.plain import lags, lz, mixing, primed, xxh64
from gagebpe.sample import sample

from conftest import CANTERBURY, byte_strings

TEXTISH = st.lists(st.sampled_from(sample(2000).split(b" ")), max_size=600).map(b" ".join)


def small_inputs(max_size=levels.SMALL_BLOCK):
    """Inputs of up to ``max_size`` bytes: text, binary, and the shapes
    BPE meets."""
    return st.one_of(byte_strings(max_size), TEXTISH.map(lambda t: t[:max_size]),
                     st.binary(min_size=60, max_size=200))


@given(small_inputs(), st.integers(1, 9))
def test_plain_compress_writes_the_kernels_bytes(data, level):
    blob = stream.compress(data, level)
    if blob is None:  # declined: not a small input that LZ codes alone
        assert data and not _small.lz_alone(data, stream.CODERS)
        return
    assert blob == gagebpe.compress(data, level)
    assert stream.decompress(blob) == data


@given(small_inputs(8000), st.integers(1, 9), st.integers(1, 3))
def test_plain_decompress_reads_what_the_kernels_write(data, level, copies):
    blob = gagebpe.compress(data, level) * copies
    out = stream.decompress(blob)
    assert out is None or out == data * copies
    estimate = stream.decompress_seconds(blob)
    assert (out is None) == (estimate is None)


def test_plain_compress_takes_small_text_at_every_level():
    text = sample(levels.SMALL_BLOCK)
    for size in (0, 1, 40, 64, 65, 1000, 2048, 2049, levels.SMALL_BLOCK):
        for level in range(1, 10):
            blob = stream.compress(text[:size], level)
            assert blob == gagebpe.compress(text[:size], level), (size, level)
    assert stream.compress(text + b"x", 6) is None  # past SMALL_BLOCK


def test_plain_decompress_declines_every_corruption_the_kernels_refuse():
    for level in (1, 6, 9):
        for data in (sample(50), sample(1000), sample(3000)):
            blob = gagebpe.compress(data, level)
            rng = np.random.default_rng(level)
            for pos in range(len(blob)):
                bad = bytearray(blob)
                bad[pos] ^= int(rng.integers(1, 256))
                out = stream.decompress(bytes(bad))
                try:
                    want = gagebpe.decompress(bytes(bad))
                except (gagebpe.GageBPEError, EOFError):
                    want = None
                assert out is None or out == want, (level, len(data), pos)


@given(st.binary(min_size=1, max_size=3000))
def test_plain_mixing_codes_as_the_kernel(data):
    payload = mixing.encode(data)
    assert payload == _coding_mixed.encode(data)
    if payload is not None:
        assert mixing.decode(payload, len(data)) == (0, len(payload), data)


@given(st.binary(min_size=1, max_size=_mixing.PRIMED_MAX_SIZE))
def test_plain_primed_model_codes_as_the_kernel(data):
    payload = primed.encode(data)
    assert payload == _coding_mixed.encode_primed(data)
    if payload is not None:
        assert primed.decode(payload, len(data)) == (0, len(payload), data)


@given(st.binary(min_size=1, max_size=300), st.integers(1, 300))
def test_plain_mixing_decodes_any_payload_as_the_kernel(payload, size):
    out = np.empty(size, np.uint8)
    problem, end = _mixing.decode(np.frombuffer(payload, np.uint8), out)
    plain = mixing.decode(payload, size)
    assert plain[:2] == (problem, end)
    if not problem:
        assert plain[2] == out.tobytes()


def test_the_shipped_primed_model_is_the_priming_texts():
    """primed.bin holds what learning the priming text gives, in plain
    Python and in the kernel."""
    shipped, fresh = primed.load(primed.FILE), primed.compute()
    for name, _ in primed.FIELDS + (("history", ""), ("ptr", ""), ("length", "")):
        assert getattr(shipped, name) == getattr(fresh, name), name
    assert primed.dump(fresh) == open(primed.FILE, "rb").read()
    text = np.frombuffer(_priming_text.PRIMING_TEXT, np.uint8)
    model, history, ptr, length = _mixing.primed(text)
    assert (history, ptr, length) == (fresh.history, fresh.ptr, fresh.length)
    assert model[2].ravel().tolist() == fresh.probs
    assert model[3].ravel().tolist() == fresh.seen
    assert model[4].tolist() == fresh.weights
    assert model[8].tolist() == fresh.last


@given(small_inputs(2000), st.booleans())
def test_plain_lz_codes_and_decodes_as_the_kernel(data, quick):
    if not data:
        return
    parse = levels.QUICK if quick else levels.FULL
    payload = _coding_lz.encode(data, parse)[1]
    assert lz.encode(data, parse.candidates, parse.passes) == payload
    assert lz.decode(payload, len(data)) == (0, data)


@given(st.binary(min_size=2, max_size=400), st.integers(1, 600))
def test_plain_lz_decodes_any_payload_as_the_kernel(payload, size):
    out = np.zeros(size, np.uint8)
    problem = _coding_lz._lz.decode_payload(np.frombuffer(payload, np.uint8), out)
    plain_problem, plain_out = lz.decode(payload, size)
    assert plain_problem == problem
    if not problem:
        assert plain_out == out.tobytes()


def _kernel_parts(payload, size):
    out = np.zeros(size, np.uint8)
    return _coding_lz._lz.decode_parts(np.frombuffer(payload, np.uint8), out), out.tobytes()


@given(small_inputs(6000), st.sampled_from([512, 1024, 4096]), st.booleans())
def test_plain_lz_parts_decodes_what_the_kernels_write(data, segment, join):
    if not data:
        return
    payload = _coding_lz.encode_parts(data, levels.PARTS._replace(segment=segment), join=join)
    assert lz.decode_parts(payload, len(data)) == (0, data)


@given(TEXTISH.map(lambda t: t[:3000]), st.data())
def test_plain_lz_parts_refuses_what_the_kernel_refuses(data, draw):
    """A mutated payload decodes on both paths alike or on neither (the
    problem named may differ where a part overruns its stream: the plain
    reader sees zeros there, the kernel the next part)."""
    if not data:
        return
    payload = bytearray(_coding_lz.encode_parts(data, levels.PARTS._replace(segment=512),
                                                join=False))
    for _ in range(draw.draw(st.integers(1, 3))):
        payload[draw.draw(st.integers(0, len(payload) - 1))] ^= draw.draw(st.integers(1, 255))
    size = len(data) + draw.draw(st.integers(-2, 2))
    if size <= 0:
        return
    problem, out = _kernel_parts(bytes(payload), size)
    plain_problem, plain_out = lz.decode_parts(bytes(payload), size)
    assert (plain_problem == 0) == (problem == 0)
    if not problem:
        assert plain_out == out


@given(st.binary(max_size=5000))
def test_plain_checks_and_lags_agree_with_the_kernels(data):
    assert xxh64.xxh64(data) == int(kernel_xxh64(np.frombuffer(data, np.uint8)))
    assert lags.repeat_counts(data, 64) == _filters.counts(data, 64).tolist()
    assert lags.best_lag(data) == _filters.best_lag(data)


def test_lags_are_chosen_as_before_on_records_and_text():
    records = bytes(np.tile(np.arange(13, dtype=np.uint8), 400))
    assert lags.best_lag(records) == 13
    assert lags.best_lag(sample(5000)) == 0
    if CANTERBURY.is_dir():
        xls = (CANTERBURY / "kennedy.xls").read_bytes()[20_000:36_384]
        assert lags.best_lag(xls) == _filters.best_lag(xls) != 0


SMALL_JOB = """
import sys
from gagebpe import cli
status = cli.main(sys.argv[1:])
assert "numba" not in sys.modules and "numpy" not in sys.modules, "loaded the kernels"
sys.exit(status)
"""


@pytest.mark.parametrize("level", ["-1", "-6", "-9"])
def test_a_small_command_line_job_loads_neither_numba_nor_numpy(tmp_path, level):
    text = tmp_path / "notes.txt"
    text.write_bytes(sample(3000))
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    run = subprocess.run([sys.executable, "-c", SMALL_JOB, level, "-k", str(text)], env=env,
                         capture_output=True)
    assert run.returncode == 0, run.stderr.decode()
    packed = text.with_name("notes.txt.gbpe")
    assert packed.read_bytes() == gagebpe.compress(sample(3000), int(level[1:]))
    text.unlink()
    run = subprocess.run([sys.executable, "-c", SMALL_JOB, "-d", str(packed)], env=env,
                         capture_output=True)
    assert run.returncode == 0, run.stderr.decode()
    assert text.read_bytes() == sample(3000)
