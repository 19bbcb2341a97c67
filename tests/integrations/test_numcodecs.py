"""The numcodecs codec: numcodecs' own checks, stored fixtures, errors."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

numcodecs = pytest.importorskip("numcodecs")
common = pytest.importorskip("numcodecs.tests.common")

import gagebpe  # noqa: E402
from gagebpe.numcodecs import GageBPE  # noqa: E402

FIXTURES = Path(__file__).parents[1] / "data"  # holds fixture/gagebpe/
CODECS = [GageBPE(level=1), GageBPE(), GageBPE(level=9), GageBPE(level=6, block_size=4096)]


def arrays():
    """Arrays of several dtypes, shapes and orders, as numcodecs' own
    codec tests use."""
    rng = np.random.default_rng(7)
    return [
        np.arange(1000, dtype="i4"),
        np.linspace(1000, 1001, 1000, dtype="f8"),
        rng.normal(loc=1000, scale=1, size=(100, 10)),
        rng.integers(0, 2, size=1000, dtype=bool).reshape(100, 10, order="F"),
        rng.integers(0, 200, size=1000, dtype="u1").reshape(10, 10, 10),
        np.array([b"a", b"bb", b"ccc"] * 300, dtype="S3"),
        np.array(["gagebpe", "zarr", "numcodecs"] * 100, dtype="U"),
        np.arange(1000, dtype="i8").view("M8[ns]"),
        np.arange(1000, dtype="i8").view("m8[s]").reshape(10, 100),
        np.zeros(0, dtype="f4"),
    ]


@pytest.mark.parametrize("codec", CODECS, ids=repr)
def test_encode_decode(codec):
    for arr in arrays():
        common.check_encode_decode(arr, codec)


@pytest.mark.parametrize("codec", CODECS, ids=repr)
def test_config(codec):
    common.check_config(codec)


def test_repr():
    # check_repr evaluates the statement in numcodecs' test namespace
    common.GageBPE = GageBPE
    common.check_repr("GageBPE(level=9)")
    common.check_repr("GageBPE(level=6, block_size=4096)")


def test_backwards_compatibility(monkeypatch):
    """Streams committed by an earlier version decode to their arrays."""
    fixture_dir = FIXTURES / "fixture" / "gagebpe"
    assert (fixture_dir / "codec.00" / "config.json").is_file(), \
        "fixtures missing: the check would write them instead of testing them"
    monkeypatch.chdir(FIXTURES)
    common.check_backwards_compatibility("gagebpe", arrays(), CODECS)


def test_registered_without_import():
    """numcodecs finds the codec through the entry point, in a process
    that never imported gagebpe."""
    code = ("import numcodecs, sys; c = numcodecs.get_codec({'id': 'gagebpe', 'level': 3}); "
            "print(type(c).__module__, c.level)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["gagebpe.numcodecs", "3"]


def test_decode_into_out():
    data = np.arange(5000, dtype="i8").reshape(50, 100)
    codec = GageBPE()
    out = np.empty_like(data)
    assert codec.decode(codec.encode(data), out=out) is out
    np.testing.assert_array_equal(out, data)
    with pytest.raises(gagebpe.GageBPEError):
        codec.decode(codec.encode(data), out=np.empty(10, "i8"))


def test_bad_arguments():
    with pytest.raises(ValueError):
        GageBPE(level=0)
    with pytest.raises(ValueError):
        GageBPE(block_size=0)
    with pytest.raises(ValueError):
        numcodecs.get_codec({"id": "gagebpe", "level": 10})


def test_corrupt_and_truncated_chunks():
    codec = GageBPE()
    blob = bytearray(codec.encode(np.arange(20000, dtype="i4")))
    with pytest.raises(EOFError):
        codec.decode(bytes(blob[:-5]))
    blob[len(blob) // 2] ^= 0x40
    with pytest.raises(gagebpe.GageBPEError):
        codec.decode(bytes(blob))
    with pytest.raises(gagebpe.GageBPEError):
        codec.decode(b"not a stream at all")


def test_config_is_json():
    config = GageBPE(level=2, block_size=1 << 16).get_config()
    assert json.loads(json.dumps(config)) == {"id": "gagebpe", "level": 2, "block_size": 65536}


def test_a_dictionary_travels_in_the_config(tmp_path):
    """A chunk coded with a dictionary is read back in a fresh process
    from the codec's config alone."""
    rows = [b"%d,sensor-%d,ok,%d.5\n" % (i, i % 17, i * 3) for i in range(3000)]
    dictionary = gagebpe.train_dictionary(rows[:2000], 8192)
    codec = GageBPE(dictionary=dictionary)
    chunk = np.frombuffer(b"".join(rows[2000:2040]), dtype="u1")
    blob = codec.encode(chunk)
    assert len(blob) <= len(GageBPE().encode(chunk)) + 4  # at worst: the dictionary's id
    config = codec.get_config()
    json.dumps(config)
    again = numcodecs.get_codec(dict(config))
    assert again.dictionary == dictionary
    assert np.array_equal(again.decode(blob, out=np.empty_like(chunk)), chunk)
    (tmp_path / "config.json").write_text(json.dumps(config))
    (tmp_path / "chunk.gbpe").write_bytes(blob)
    code = (f"import json, numcodecs, numpy as np; "
            f"c = numcodecs.get_codec(json.load(open({str(tmp_path / 'config.json')!r}))); "
            f"print(bytes(c.decode(open({str(tmp_path / 'chunk.gbpe')!r}, 'rb').read())) == "
            f"{bytes(chunk)!r})")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr
