"""Random access (issue 41): ``GageBPEFile.seek`` and ``read_range`` give
exactly the bytes slicing the original gives, decode only the blocks a
read needs, and refuse a corrupt or forged index rather than trust it."""
import io
import lzma
import struct
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.decoder.ranges import BlockMap
from gagebpe.format import container as _container
from tests.conftest import byte_strings


def lines(n, seed=1):
    """``n`` lines of text that compress (a few words, numbered)."""
    words = [b"alpha", b"beta", b"gamma", b"delta", b"epsilon", b"zeta", b"eta"]
    return b"".join(b"%d %s %s\n" % (i, words[(i * seed) % 7], words[(i * i + seed) % 7])
                    for i in range(n))


DATA = lines(20000)


def stream(data, block_size=1 << 14, level=1):
    return gagebpe.compress(data, level=level, block_size=block_size)


class Counting(io.BytesIO):
    """A seekable file that counts the bytes read from it."""
    bytes_read = 0

    def read(self, size=-1):
        data = super().read(size)
        self.bytes_read += len(data)
        return data


class Unseekable(io.RawIOBase):
    def __init__(self, data):
        self._inner = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, b):
        return self._inner.readinto(b)


# -- reads give what slicing gives ----------------------------------------------

@st.composite
def files(draw):
    """``(original, compressed)``: one to three streams, concatenated, of
    small blocks, each written in one call or by ``Compressor`` in pieces."""
    parts, blobs = [], []
    for _ in range(draw(st.integers(1, 3))):
        data = draw(byte_strings(4000))
        level = draw(st.sampled_from([1, 6]))
        block_size = draw(st.sampled_from([64, 700, 4096, 1 << 20]))
        if draw(st.booleans()):
            blob = gagebpe.compress(data, level=level, block_size=block_size)
        else:
            compressor = gagebpe.Compressor(level, block_size=block_size)
            cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=4)))
            pieces = [data[a:b] for a, b in zip([0] + cuts, cuts + [len(data)])]
            blob = b"".join(compressor.compress(p) for p in pieces) + compressor.flush()
        parts.append(data)
        blobs.append(blob)
    return b"".join(parts), b"".join(blobs)


@given(files(), st.lists(st.tuples(st.integers(-50, 13000), st.integers(0, 5000)),
                         min_size=1, max_size=8))
def test_every_range_equals_slicing(file, reads):
    original, blob = file
    with gagebpe.open(io.BytesIO(blob)) as f:
        for offset, size in reads:
            start = max(0, offset)
            assert f.seek(offset) == min(start, len(original))
            assert f.read(size) == original[start:start + size]
            assert f.tell() == min(start + size, len(original))
            if offset >= 0:
                assert gagebpe.read_range(blob, offset, size) == original[offset:offset + size]


@given(files(), st.integers(0, 3000), st.integers(0, 3000))
def test_relative_seeks_behave_as_lzma(file, forward, back):
    """SEEK_CUR and SEEK_END, backwards and forwards, past either end:
    the positions and bytes ``lzma`` gives for the same calls."""
    original, blob = file
    ours = gagebpe.open(io.BytesIO(blob))
    theirs = lzma.open(io.BytesIO(lzma.compress(original)))
    for f in (ours, theirs):
        f.calls = [f.seek(forward), f.read(7), f.seek(-back, io.SEEK_CUR), f.read(5),
                   f.seek(-back, io.SEEK_END), f.read(), f.tell(), f.seek(forward, io.SEEK_END),
                   f.read(3), f.seek(-forward - back, io.SEEK_CUR), f.read(9)]
    assert ours.calls == theirs.calls


def test_sequential_reading_after_seeks_and_readline():
    with gagebpe.open(io.BytesIO(stream(DATA))) as f:
        f.seek(123457)
        assert f.readline() == DATA[123457:DATA.index(b"\n", 123457) + 1]
        f.seek(0)
        assert f.read() == DATA
        f.seek(len(DATA) - 3)
        assert f.read(100) == DATA[-3:] and f.read(1) == b""


def test_text_mode_seeks_to_a_told_position(tmp_path):
    path = tmp_path / "t.gbpe"
    path.write_bytes(stream(DATA))
    with gagebpe.open(path, "rt", encoding="ascii") as f:
        f.readline()
        mark = f.tell()
        second = f.readline()
        f.seek(0)
        f.read(50000)
        f.seek(mark)
        assert f.readline() == second


def test_a_file_not_at_its_start():
    """A wrapped file object maps its streams from where it stands."""
    fp = io.BytesIO(b"prefix" + stream(DATA))
    fp.seek(6)
    with gagebpe.open(fp) as f:
        f.seek(40000)
        assert f.read(10) == DATA[40000:40010]
    fp.seek(6)
    assert gagebpe.read_range(fp, 5, 5) == DATA[5:10]


def test_read_range_takes_paths_files_and_bytes(tmp_path):
    blob = stream(DATA)
    path = tmp_path / "x.gbpe"
    path.write_bytes(blob)
    for file in (str(path), path, io.BytesIO(blob), blob, bytearray(blob), memoryview(blob)):
        assert gagebpe.read_range(file, 99999, 33) == DATA[99999:100032]
    with pytest.raises(ValueError):
        gagebpe.read_range(blob, -1, 3)
    with pytest.raises(io.UnsupportedOperation):
        gagebpe.read_range(Unseekable(blob), 0, 3)


def test_streams_from_a_pipe_are_as_seekable(tmp_path):
    """The command line reading a pipe writes the layout a file gets."""
    out = subprocess.run([sys.executable, "-m", "gagebpe", "-c", "-1", "--block-size", "16384"],
                         input=DATA, capture_output=True, check=True).stdout
    assert gagebpe.decompress(out) == DATA
    blocks = BlockMap.scan(io.BytesIO(out)).blocks
    assert blocks == -(-len(DATA) // 16384)
    assert gagebpe.read_range(out, 200000, 70000) == DATA[200000:270000]


# -- reads decode only what they need ----------------------------------------------

def test_a_read_fetches_only_the_blocks_it_needs():
    blob = stream(DATA)
    fp = Counting(blob)
    with gagebpe.open(fp) as f:
        f.seek(0, io.SEEK_END)  # maps the file: headers and trailer only
        mapped = fp.bytes_read
        assert mapped == 13 + 17 * f._buffer.raw._map.blocks + _container.trailer_size(
            f._buffer.raw._map.blocks)
        blocks = f._buffer.raw._map
        f.seek(150000)
        assert f.read(4096) == DATA[150000:154096]
        needed = {blocks.block_of(150000), blocks.block_of(154095)}
        assert fp.bytes_read - mapped == sum(blocks.block_bytes(k) for k in needed)


def test_the_last_block_is_kept():
    blob = stream(DATA)
    fp = Counting(blob)
    blocks = BlockMap.scan(fp)
    blocks.read(1000, 10)
    before = fp.bytes_read
    assert blocks.read(2000, 10) == DATA[2000:2010]
    assert fp.bytes_read == before


def test_unseekable_sources_read_as_before():
    blob = stream(DATA)
    with gagebpe.open(Unseekable(blob)) as f:
        assert not f.seekable()
        assert f.read(10) == DATA[:10]
        with pytest.raises(io.UnsupportedOperation):
            f.seek(0)
        assert f.read() == DATA[10:]


# -- a bad index is refused -------------------------------------------------------

def trailer_at(blob):
    n_blocks, = struct.unpack_from("<I", blob, len(blob) - _container.FOOTER.size)
    return len(blob) - _container.trailer_size(n_blocks), n_blocks


def test_every_corrupt_header_or_index_byte_is_refused():
    """Any byte of the stream header, a block header or the trailer,
    changed: the map is refused before a range is read (or, for a block
    header's data check, the block is when it is read)."""
    blob = stream(DATA[:60000], block_size=1 << 13)
    start, n_blocks = trailer_at(blob)
    spans = [(0, 13), (start, len(blob))]
    at = 13
    for _ in range(n_blocks):
        payload_size, = struct.unpack_from("<I", blob, at + 5)
        spans.append((at, at + 17))
        at += 17 + payload_size
    for begin, end in spans:
        for i in range(begin, end):
            bad = bytearray(blob)
            bad[i] ^= 0x41
            with pytest.raises((gagebpe.GageBPEError, EOFError)):
                gagebpe.read_range(bytes(bad), 0, 60000)


def test_a_forged_index_is_refused():
    """Sizes moved between two blocks' index entries, with the checks
    recomputed: no read is trusted to the shifted offsets."""
    blob = bytearray(stream(DATA[:60000], block_size=1 << 13))
    start, n_blocks = trailer_at(blob)
    entries = list(struct.unpack_from(f"<{2 * n_blocks}I", blob, start + 1))
    entries[1] += 100
    entries[3] -= 100
    forged = blob[:start] + _container.trailer(list(zip(entries[::2], entries[1::2])))
    for offset in (0, 9000, 30000):
        with pytest.raises(gagebpe.GageBPEError, match="index disagrees"):
            gagebpe.read_range(bytes(forged), offset, 10)


def test_truncated_files_are_refused():
    blob = stream(DATA[:60000], block_size=1 << 13)
    for cut in (5, 20, len(blob) // 2, len(blob) - 1):
        with pytest.raises((EOFError, gagebpe.GageBPEError)):
            gagebpe.read_range(blob[:cut], 0, 10)


def test_trailing_garbage_is_refused():
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.read_range(stream(DATA) + b"junk", 0, 10)


def test_a_corrupt_payload_fails_its_block_only():
    blob = bytearray(stream(DATA, block_size=1 << 14))
    blocks = BlockMap.scan(io.BytesIO(blob))
    at, _, _ = blocks._places[3]
    blob[at + 40] ^= 0x10
    blocks = BlockMap.scan(io.BytesIO(blob))
    assert blocks.read(0, 1000) == DATA[:1000]
    with pytest.raises(gagebpe.GageBPEError):
        blocks.read(3 * (1 << 14) + 10, 10)


def test_the_limit_holds_on_a_seek():
    with gagebpe.open(io.BytesIO(stream(DATA)), limit=1000) as f:
        with pytest.raises(gagebpe.GageBPEError):
            f.seek(10)
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.read_range(stream(DATA), 0, 10, limit=len(DATA) - 1)
    assert gagebpe.read_range(stream(DATA), 0, 10, limit=len(DATA)) == DATA[:10]
