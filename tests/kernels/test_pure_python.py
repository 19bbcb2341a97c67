"""The kernels run as plain Python (Numba's NUMBA_DISABLE_JIT=1, for
debugging) give exactly the bytes the compiled kernels give.  (The command
line's path for small jobs is another, ``gagebpe.plain``: test_plain.py.)"""
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe.sample import sample

from conftest import CANTERBURY, byte_strings
from test_repeats import repeated

pytestmark = pytest.mark.slow  # each case starts Python without Numba

SCRIPT = """
import pickle, sys
import gagebpe
from gagebpe import _jit
assert _jit.PURE_PYTHON and "numba" not in sys.modules
cases, blobs, format = pickle.load(sys.stdin.buffer)
out = [gagebpe.compress(data, level, format=format) for data, level in cases]
back = [gagebpe.decompress(blob, format=format) for blob in blobs]
assert "numba" not in sys.modules
pickle.dump((out, back), sys.stdout.buffer)
"""


def in_pure_python(cases, blobs, format="gbpe"):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", SCRIPT], env=env,
                            input=pickle.dumps((cases, blobs, format)), capture_output=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr.decode()
    return pickle.loads(result.stdout)


def check_same_bytes(cases):
    blobs = [gagebpe.compress(data, level) for data, level in cases]
    old = Path(__file__).parents[1] / "data"
    legacy = [p.read_bytes() for p in sorted(old.glob("*.gbpe"))]
    out, back = in_pure_python(cases, blobs + legacy)
    assert out == blobs
    assert back[:len(cases)] == [data for data, _ in cases]
    assert back[len(cases):] == [gagebpe.decompress(b) for b in legacy]


def test_fixed_cases():
    rng = np.random.default_rng(5)
    cases = [
        (b"", 6), (b"a", 6), (b"ab" * 500, 1), (b"a" * 3000, 9),  # LZ
        (sample(8000), 6), (sample(5000), 1), (sample(3000), 9),
        (bytes(rng.integers(0, 256, 2000, dtype=np.uint8)), 6),  # STORED
        (bytes(rng.integers(0, 3, 4000, dtype=np.uint8)), 6),  # few symbols
        (bytes(range(256)) * 4, 6),
        (bytes(rng.integers(0, 256, 2500, dtype=np.uint8)) * 2 + sample(2000), 9),  # LZ
        (repeated(2), 9),  # REPEATS
        (sample(1500), 9),  # MIXED
    ]
    if CANTERBURY.is_dir():
        for name in ("grammar.lsp", "xargs.1", "fields.c"):
            cases.append(((CANTERBURY / name).read_bytes()[:8000], 6))
    check_same_bytes(cases)


@settings(max_examples=3)
@given(st.lists(st.tuples(byte_strings(2000), st.integers(1, 9)), min_size=6, max_size=6))
def test_generated_cases(cases):
    check_same_bytes(cases)


def test_gage1994_cases():
    """The 1994 writer's pair search and moves read eight bytes at a time
    in compiled code; as Python they must make the same choices."""
    rng = np.random.default_rng(6)
    inputs = [b"", b"a" * 3000, b"abab" * 700 + b"a", sample(8000),
              bytes(rng.integers(0, 150, 6000, dtype=np.uint8)),  # a full hash table
              bytes(rng.integers(0, 4, 5003, dtype=np.uint8))]
    if CANTERBURY.is_dir():
        inputs.append((CANTERBURY / "fields.c").read_bytes()[:7000])
    cases = [(data, None) for data in inputs]
    blobs = [gagebpe.compress(data, format="gage1994") for data in inputs]
    out, back = in_pure_python(cases, blobs, "gage1994")
    assert out == blobs
    assert back == inputs


DICTIONARY_SCRIPT = """
import pickle, sys
import gagebpe
from gagebpe import _jit
assert _jit.PURE_PYTHON and "numba" not in sys.modules
samples, records = pickle.load(sys.stdin.buffer)
d = gagebpe.train_dictionary(samples, 4096)
blobs = gagebpe.compress_many(records, dictionary=d)
back = (gagebpe.decompress_many(blobs, dictionary=d),
        [gagebpe.decompress(b, dictionary=d) for b in blobs])
pickle.dump((bytes(d), blobs, back), sys.stdout.buffer)
"""


def test_dictionaries_with_content():
    """Training (content included), records by ids, by copies and by both,
    and both record readers give the same bytes as plain Python."""
    from test_dictionary import RECORDS, SAMPLES
    records = RECORDS[:60]
    d = gagebpe.train_dictionary(SAMPLES, 4096)
    blobs = gagebpe.compress_many(records, dictionary=d)
    assert d.content and len({b[len(d.head)] for b in blobs}) == 3  # all three codings
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", DICTIONARY_SCRIPT], env=env,
                            input=pickle.dumps((SAMPLES, records)), capture_output=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr.decode()
    assert pickle.loads(result.stdout) == (bytes(d), blobs, (records, records))
