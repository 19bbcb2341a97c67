"""The Zarr v3 codec: stores, sharding, Zarr v2 through numcodecs, a fresh
process, corrupt chunks."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

zarr = pytest.importorskip("zarr")
pytest.importorskip("numcodecs")

import gagebpe  # noqa: E402
from gagebpe.numcodecs import GageBPE  # noqa: E402
from gagebpe.zarr import GageBPECodec  # noqa: E402


def sample_array():
    rng = np.random.default_rng(3)
    walk = np.cumsum(rng.integers(-3, 4, size=(120, 700)), axis=1).astype("i4")
    return walk


def write(store, data, **kwargs):
    array = zarr.create_array(store, shape=data.shape, chunks=(20, 100), dtype=data.dtype,
                              compressors=[GageBPECodec(level=kwargs.pop("level", 6))],
                              **kwargs)
    array[:] = data
    return array


def test_registered_by_entry_point():
    assert zarr.registry.get_codec_class("gagebpe") is GageBPECodec


def test_local_store_round_trip(tmp_path):
    data = sample_array()
    write(tmp_path / "a.zarr", data, level=1)
    array = zarr.open_array(tmp_path / "a.zarr", mode="r")
    np.testing.assert_array_equal(array[:], data)
    assert array.metadata.to_dict()["codecs"][-1] == {"name": "gagebpe",
                                                      "configuration": {"level": 1}}
    # chunks really are gagebpe streams
    chunk = (tmp_path / "a.zarr" / "c" / "0" / "0").read_bytes()
    assert chunk[:5] == b"\x89GBP\x00"  # the single layout
    assert np.frombuffer(gagebpe.decompress(chunk), "<i4").size == 20 * 100


def test_zip_store_round_trip(tmp_path):
    data = sample_array()
    store = zarr.storage.ZipStore(tmp_path / "a.zip", mode="w")
    write(store, data)
    store.close()
    store = zarr.storage.ZipStore(tmp_path / "a.zip", mode="r")
    np.testing.assert_array_equal(zarr.open_array(store, mode="r")[:], data)
    store.close()


def test_sharded_array_round_trip(tmp_path):
    data = sample_array()
    write(tmp_path / "s.zarr", data, shards=(60, 300), level=9)
    array = zarr.open_array(tmp_path / "s.zarr", mode="r")
    np.testing.assert_array_equal(array[:], data)
    np.testing.assert_array_equal(array[7:93, 150:611], data[7:93, 150:611])


def test_zarr_v2_through_numcodecs(tmp_path):
    data = sample_array()
    array = zarr.create_array(tmp_path / "v2.zarr", shape=data.shape, chunks=(20, 100),
                              dtype=data.dtype, compressors=GageBPE(level=3), zarr_format=2)
    array[:] = data
    reopened = zarr.open_array(tmp_path / "v2.zarr", mode="r")
    np.testing.assert_array_equal(reopened[:], data)
    assert reopened.metadata.compressor == GageBPE(level=3)


def test_config_round_trip():
    codec = GageBPECodec(level=4)
    assert GageBPECodec.from_dict(codec.to_dict()) == codec
    assert GageBPECodec.from_dict({"name": "gagebpe"}) == GageBPECodec()
    with pytest.raises(ValueError):
        GageBPECodec(level=12)
    with pytest.raises(TypeError):
        GageBPECodec(level="6")


@pytest.mark.slow
def test_fresh_process_reads_with_only_zarr(tmp_path):
    """An array written here is read back exactly by a process that
    imports only zarr: the entry point loads gagebpe."""
    data = sample_array()
    write(tmp_path / "a.zarr", data, shards=(40, 200))
    np.save(tmp_path / "expected.npy", data)
    code = textwrap.dedent(f"""
        import sys, numpy as np, zarr
        assert "gagebpe" not in sys.modules
        array = zarr.open_array({str(tmp_path / "a.zarr")!r}, mode="r")
        assert np.array_equal(array[:], np.load({str(tmp_path / "expected.npy")!r}))
        print("read", "gagebpe" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["read", "True"]


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage"])
def test_corrupt_chunk_raises(tmp_path, damage):
    data = sample_array()
    write(tmp_path / "a.zarr", data)
    chunk = tmp_path / "a.zarr" / "c" / "2" / "3"
    blob = bytearray(chunk.read_bytes())
    if damage == "flip":
        blob[len(blob) // 2] ^= 0x10
    elif damage == "truncate":
        del blob[-7:]
    else:
        blob[:] = b"\x00" * 100
    chunk.write_bytes(bytes(blob))
    array = zarr.open_array(tmp_path / "a.zarr", mode="r")
    np.testing.assert_array_equal(array[:20, :300], data[:20, :300])  # other chunks read
    expected = EOFError if damage == "truncate" else gagebpe.GageBPEError
    with pytest.raises(expected):
        array[40:60, 300:400]
