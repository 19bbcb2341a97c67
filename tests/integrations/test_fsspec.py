"""The ``gbpe`` fsspec compression: registration whatever the import
order, text and binary modes, open_files, pandas and Dask bags."""
import subprocess
import sys
import textwrap

import pytest

fsspec = pytest.importorskip("fsspec")

import gagebpe  # noqa: E402

TEXT = "".join(f"line {i}: the quick brown fox jumps over the lazy dog\n" for i in range(3000))


def run_fresh(code):
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.slow
@pytest.mark.parametrize("first", ["gagebpe", "fsspec"])
def test_registered_in_either_import_order(first, tmp_path):
    """``import gagebpe`` before fsspec loads, or after: both register."""
    path = tmp_path / "x.txt.gbpe"
    path.write_bytes(gagebpe.compress(b"hello\n"))
    second = "fsspec" if first == "gagebpe" else "gagebpe"
    out = run_fresh(f"""
        import {first}, {second}
        with fsspec.open({str(path)!r}, "rt", compression="infer") as f:
            print(repr(f.read()))
    """)
    assert out.strip() == repr("hello\n")


def test_fsspec_is_not_loaded_by_gagebpe():
    out = run_fresh("""
        import sys, gagebpe
        gagebpe.compress(b"x")
        print("fsspec.compression" in sys.modules)
    """)
    assert out.strip() == "False"


def test_text_mode_round_trip(tmp_path):
    path = str(tmp_path / "notes.txt.gbpe")
    with fsspec.open(path, "wt", compression="infer", encoding="utf-8") as f:
        f.write(TEXT)
    with open(path, "rb") as f:
        assert gagebpe.decompress(f.read()).decode() == TEXT
    with fsspec.open(path, "rt", compression="infer", encoding="utf-8") as f:
        assert f.readline() == TEXT.splitlines(True)[0]
        assert f.read() == "".join(TEXT.splitlines(True)[1:])


def test_binary_open_files_and_names(tmp_path):
    for i in range(3):
        (tmp_path / f"part{i}.bin.gbpe").write_bytes(
            gagebpe.compress(bytes([i]) * 5000 + TEXT.encode()))
    files = fsspec.open_files(str(tmp_path / "part*.bin.gbpe"), "rb", compression="infer")
    assert len(files) == 3
    for i, of in enumerate(sorted(files, key=lambda f: f.path)):
        with of as f:
            assert f.read() == bytes([i]) * 5000 + TEXT.encode()


def test_corrupt_file_raises(tmp_path):
    blob = bytearray(gagebpe.compress(TEXT.encode()))
    blob[len(blob) // 2] ^= 1
    (tmp_path / "bad.txt.gbpe").write_bytes(bytes(blob))
    with pytest.raises(gagebpe.GageBPEError):
        with fsspec.open(str(tmp_path / "bad.txt.gbpe"), "rt", compression="infer") as f:
            f.read()


def test_pandas_reads_through_fsspec(tmp_path):
    pd = pytest.importorskip("pandas")
    csv = "a,b\n" + "".join(f"{i},{i * i}\n" for i in range(2000))
    path = str(tmp_path / "t.csv.gbpe")
    with fsspec.open(path, "wt", compression="infer") as f:
        f.write(csv)
    with fsspec.open(path, "rt", compression="infer") as f:
        frame = pd.read_csv(f)
    assert frame.shape == (2000, 2) and int(frame.b.iloc[-1]) == 1999 ** 2


def test_dask_bag_read_text(tmp_path):
    bag = pytest.importorskip("dask.bag")
    for i in range(2):
        with fsspec.open(str(tmp_path / f"p{i}.txt.gbpe"), "wt", compression="infer") as f:
            f.write(TEXT)
    lines = bag.read_text(str(tmp_path / "p*.txt.gbpe"), compression="infer").compute(
        scheduler="sync")
    assert "".join(lines) == TEXT * 2


def test_dask_read_bytes(tmp_path):
    read_bytes = pytest.importorskip("dask.bytes").read_bytes
    for i in range(2):
        (tmp_path / f"b{i}.bin.gbpe").write_bytes(gagebpe.compress(bytes([i]) * 3000))
    sample, blocks = read_bytes(str(tmp_path / "b*.bin.gbpe"), compression="infer",
                                blocksize=None, sample=False)
    parts = [block.compute(scheduler="sync") for file_blocks in blocks for block in file_blocks]
    assert parts == [bytes([0]) * 3000, bytes([1]) * 3000]


class RangeFile(fsspec.spec.AbstractBufferedFile):
    """A remote-like file: every read is a ranged fetch, counted."""

    def _fetch_range(self, start, end):
        self.fs.fetched.append(end - start)
        return self.fs.blobs[self.path][start:end]


class RangeFileSystem(fsspec.AbstractFileSystem):
    """Files held in memory and read only by ranges, as HTTP or S3 is; its
    files' cache chosen as s3fs's are (``default_cache_type``)."""
    protocol = "gbperanges"
    cachable = False
    blobs, fetched = {}, []

    def __init__(self, default_cache_type="readahead", **kwargs):
        super().__init__(**kwargs)
        self.default_cache_type = default_cache_type

    def info(self, path, **kwargs):
        path = self._strip_protocol(path)
        return {"name": path, "size": len(self.blobs[path]), "type": "file"}

    def _open(self, path, mode="rb", **kwargs):
        return RangeFile(self, path, mode, cache_type=self.default_cache_type, **kwargs)


LINES = b"".join(b"%d: the quick brown fox, %d lazy dogs\n" % (i, i * 7 % 13) for i in range(60000))


def test_reads_fetch_only_the_blocks_they_need():
    """A seek and a 4 KB read on a remote-like filesystem, its files
    uncached (fsspec's read-ahead caches fetch megabytes past each read:
    docs/INTEGRATIONS.md), fetch the headers and trailers once, then only
    the block that holds the range."""
    fsspec.register_implementation(RangeFileSystem.protocol, RangeFileSystem, clobber=True)
    blob = gagebpe.compress(LINES, level=1, block_size=1 << 16)
    RangeFileSystem.blobs["x.gbpe"] = blob
    RangeFileSystem.fetched.clear()
    n_blocks = -(-len(LINES) // (1 << 16))
    with fsspec.open("gbperanges://x.gbpe", "rb", compression="gbpe",
                     default_cache_type="none") as f:
        assert f.seekable()
        f.seek(-10, 2)  # maps the file
        mapped = sum(RangeFileSystem.fetched)
        blocks = f._buffer.raw._map
        assert f.read() == LINES[-10:]
        offset = 1_000_000
        f.seek(offset)
        before = sum(RangeFileSystem.fetched)
        assert f.read(4096) == LINES[offset:offset + 4096]
        read = sum(RangeFileSystem.fetched) - before
    structure = 13 + 17 * n_blocks + 1 + 8 * n_blocks + 20
    assert mapped == structure  # headers and trailer, no payload
    assert read == sum(blocks.block_bytes(k)
                       for k in {blocks.block_of(offset), blocks.block_of(offset + 4095)})
