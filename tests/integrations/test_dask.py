"""gagebpe on a Dask cluster of worker processes: files, a Zarr array,
fsspec text, tokenizer counts; no worker compiles a kernel."""
import functools
import subprocess
import sys

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")
pytest.importorskip("zarr")

import gagebpe  # noqa: E402
import gagebpe.dask  # noqa: E402
from gagebpe.tokenizers import ByteBPE, WordBPE  # noqa: E402

from conftest import CANTERBURY  # noqa: E402

pytestmark = pytest.mark.slow

TEXTS = {f"part{i}.txt": "".join(f"{i}: record {j} of the {['quick', 'slow'][j % 2]} fox\n"
                                 for j in range(4000)) for i in range(4)}


@pytest.fixture(scope="module")
def client():
    # As a deployment does: fill the kernel cache once, then start workers.
    subprocess.run([sys.executable, "-m", "gagebpe.precompile"], check=True,
                   capture_output=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        gagebpe.dask.setup_workers(client)
        yield client


@pytest.fixture
def files(tmp_path):
    paths = []
    for name, text in TEXTS.items():
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    if CANTERBURY.is_dir():
        for name in ("alice29.txt", "sum", "fields.c"):
            (tmp_path / name).write_bytes((CANTERBURY / name).read_bytes())
            paths.append(str(tmp_path / name))
    return paths


def test_workers_are_processes(client):
    pids = client.run(lambda: __import__("os").getpid())
    assert len(set(pids.values())) == 2 and __import__("os").getpid() not in pids.values()


def test_compress_and_decompress_files(client, files, tmp_path):
    originals = {p: open(p, "rb").read() for p in files}
    outputs = gagebpe.dask.compress_files(client, files, level=6)
    assert outputs == [p + ".gbpe" for p in files]
    for path, out in zip(files, outputs):
        assert open(out, "rb").read() == gagebpe.compress(originals[path], 6)
    for path in files:
        (tmp_path / path).unlink()
    assert gagebpe.dask.decompress_files(client, outputs) == files
    for path in files:
        assert open(path, "rb").read() == originals[path]
    assert not list(tmp_path.glob(".*.tmp"))


def test_failed_file_leaves_nothing(client, tmp_path):
    bad = tmp_path / "bad.gbpe"
    bad.write_bytes(b"GBPE but not really a stream")
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.dask.decompress_files(client, [str(bad)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.gbpe"]


def test_zarr_array_on_workers(client, tmp_path):
    import dask.array as da
    import zarr
    from gagebpe.zarr import GageBPECodec
    data = np.cumsum(np.random.default_rng(5).integers(-2, 3, size=(400, 600)), axis=1)
    target = zarr.create_array(tmp_path / "a.zarr", shape=data.shape, chunks=(100, 150),
                               dtype=data.dtype, compressors=[GageBPECodec(level=1)])
    da.from_array(data, chunks=(100, 150)).store(target, lock=False, compute=True)
    # the chunks the workers wrote are the ones this process writes
    local = zarr.create_array(tmp_path / "b.zarr", shape=data.shape, chunks=(100, 150),
                              dtype=data.dtype, compressors=[GageBPECodec(level=1)])
    local[:] = data
    for key in ("c/0/0", "c/3/3"):
        assert (tmp_path / "a.zarr" / key).read_bytes() == (tmp_path / "b.zarr" / key).read_bytes()
    back = da.from_zarr(str(tmp_path / "a.zarr")).compute()
    np.testing.assert_array_equal(back, data)


def test_fsspec_text_on_workers(client, tmp_path):
    import dask.bag as bag
    for name, text in TEXTS.items():
        (tmp_path / (name + ".gbpe")).write_bytes(gagebpe.compress(text.encode()))
    lines = bag.read_text(str(tmp_path / "part*.txt.gbpe"), compression="infer").compute()
    assert "".join(lines) == "".join(TEXTS[name] for name in sorted(TEXTS))


def test_tokenizer_counts_on_workers(client, files):
    texts = [p for p in files if p.endswith(".txt")]
    counts = gagebpe.dask.count_files(client, texts, functools.partial(ByteBPE.count))
    here = ByteBPE.train([open(p, encoding="utf-8").read() for p in texts], 600)
    assert ByteBPE.train_counts(counts, 600).merges == here.merges
    words = gagebpe.dask.count_files(client, texts,
                                     functools.partial(WordBPE.count, ties="subword-nmt"))
    joined = "".join(open(p, encoding="utf-8").read() for p in texts)
    assert (WordBPE.train_counts(words, 300, ties="subword-nmt").merges
            == WordBPE.train(joined, 300, ties="subword-nmt").merges)


def test_no_worker_compiled_a_kernel(client, files):
    """Runs last in this module: after every task above, each worker
    loaded its kernels from the cache and compiled none."""
    gagebpe.dask.compress_files(client, files[:2], level=9)
    from gagebpe.precompile import kernel_counts
    counts = client.run(kernel_counts)
    assert len(counts) == 2
    for compiled, loaded in counts.values():
        assert compiled == 0 and loaded > 0
