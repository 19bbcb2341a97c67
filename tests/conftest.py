import io
import os
import struct
import sys
import zlib
from unittest import mock
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings, strategies as st

import gagebpe
from gagebpe.encoder import block as _block, levels as _levels, small as _small
from gagebpe.format import container as _container

# First calls compile the kernels; warm them once (below) and never let a
# deadline trip on a compile.  CI runs a fixed, derandomised budget.
settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "dev", max_examples=100, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Some tests borrow another folder's helpers by module name (``from
# test_repeats import repeated``); every test folder is importable, so a
# run of one folder finds them too, not only a run of the whole suite.
sys.path[:0] = [str(p) for p in sorted(Path(__file__).resolve().parent.iterdir())
                if p.is_dir() and any(p.glob("test_*.py"))]

CANTERBURY = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "canterbury"


@pytest.fixture(scope="session", autouse=True)
def warm_kernels():
    sample = b"abracadabra abracadabra " * 40
    assert gagebpe.decompress(gagebpe.compress(sample)) == sample


def canterbury_files():
    if not CANTERBURY.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"Canterbury corpus not found at {CANTERBURY}"))]
    return sorted(p for p in CANTERBURY.iterdir() if p.name != "SHA256SUMS")


def byte_strings(max_size=3000):
    """Byte strings of the shapes BPE meets: empty, one byte, runs, every
    byte value, random, low-entropy, and repetitive structure."""
    runs = st.lists(st.tuples(st.integers(0, 255), st.integers(1, 300)),
                    max_size=20).map(lambda rs: b"".join(bytes([b]) * n for b, n in rs))
    low_entropy = st.lists(st.sampled_from(b"ab\n "), max_size=max_size).map(bytes)
    structured = st.tuples(st.binary(min_size=1, max_size=40),
                           st.integers(1, 80), st.binary(max_size=8)).map(
        lambda t: (t[0] * t[1] + t[2]))
    return st.one_of(
        st.just(b""), st.binary(min_size=1, max_size=1),
        st.just(bytes(range(256))), runs, st.binary(max_size=max_size),
        low_entropy, structured)


def payload_spans(blob, dictionaries=None):
    """``[(start, end, BlockHeader), ...]``: where the payload of each block
    of the single stream ``blob`` lies, and its block's header
    (``dictionaries``: the ``{id: Dictionary}`` it may name)."""
    parser, view, pos, spans = _container.Parser(dictionaries), memoryview(blob), 0, []
    while not parser.done:
        unit, n = parser.parse(view[pos:])
        if isinstance(unit, _container.Payload):
            spans.append((pos, pos + n, unit.block))
        pos += n
    return spans


def assert_corruptions_refused(blob, step, flip):
    """Every ``step``-th byte of the payload of the one-block stream
    ``blob``, xored with ``flip``, makes decompression raise
    ``GageBPEError`` -- or, for at most one flip in fifty, decode to the
    very bytes of ``blob``: a flip in a copy's distance may point it at
    the same bytes elsewhere, a stream no check could tell from the
    original (what the data check guards against is a wrong output)."""
    original = gagebpe.decompress(blob)
    (start, end, _), = payload_spans(blob)
    unchanged = 0
    for at in range(start, end, step):
        bad = bytearray(blob)
        bad[at] ^= flip
        try:
            out = gagebpe.decompress(bytes(bad))
        except gagebpe.GageBPEError:
            continue
        assert out == original, f"a flip at byte {at} decoded to other bytes"
        unchanged += 1
    assert unchanged * 50 <= len(range(start, end, step)), unchanged


def assert_truncations_refused(blob, step):
    """``blob`` cut after every ``step``-th byte raises ``EOFError``."""
    for cut in range(0, len(blob), step):
        with pytest.raises(EOFError):
            gagebpe.decompress(blob[:cut])


def block_spans(blob):
    """``[(offset, stream bytes, original size), ...]`` of the blocks of the
    single stream ``blob``, as the container's parser finds them."""
    parser, view, pos, spans = _container.Parser(), memoryview(blob), 0, []
    while not parser.done:
        unit, n = parser.parse(view[pos:])
        if isinstance(unit, _container.BlockHeader):
            start = pos
        elif isinstance(unit, _container.Payload):
            spans.append((start, pos + n - start, unit.block.size))
        pos += n
    return spans


@pytest.fixture(scope="session")
def bomb_64gib():
    """A stream of 1000 blocks of 64 MiB of zeros each (64 GiB declared),
    built from one coded block repeated: under 300 KB."""
    return bomb(1000)


def bomb(blocks, block_size=1 << 26):
    block = one_block(gagebpe.compress(bytes(block_size), block_size=block_size))
    return (_container.stream_header(block_size) + block * blocks
            + _container.trailer([(len(block), block_size)] * blocks))


def one_block(blob):
    """The block of the single stream ``blob``, header and payload, framed
    as in the block layout (``format.container.block``)."""
    parser = _container.Parser()
    header, n = parser.parse(blob)
    assert not header.blocks
    block, m = parser.parse(blob[n:])
    head = _container.BLOCK_HEADER.pack(*block, 0)[:-4]
    return head + struct.pack("<I", zlib.crc32(head)) + blob[n + m:]


@st.composite
def repetitive(draw):
    """Bytes built from earlier bytes: runs, near and far copies."""
    out = bytearray(draw(st.binary(min_size=1, max_size=40)))
    for _ in range(draw(st.integers(0, 30))):
        if draw(st.booleans()):
            out += draw(st.binary(max_size=20))
        else:
            start = draw(st.integers(0, len(out) - 1))
            n = draw(st.integers(1, 400))
            for k in range(n):  # a source overlapping its copy repeats it
                out.append(out[start + k])
    return bytes(out)


def coding_of(blob):
    """The coding of the single stream ``blob``'s block."""
    return one_block(blob)[0]


def check_every_reader(streams, pieces):
    """Check that every reader decodes the concatenation of ``streams`` to
    that of ``pieces`` (what each holds): the one-shot call, a
    Decompressor a stream fed a byte at a time (as lzma's take them), the
    file reader, and ``describe``."""
    blob, data = b"".join(streams), b"".join(pieces)
    assert gagebpe.decompress(blob) == data
    d, out = gagebpe.Decompressor(), []
    for i in range(len(blob)):
        if d.eof:
            assert d.unused_data == b""
            d = gagebpe.Decompressor()
        out.append(d.decompress(blob[i:i + 1]))
    assert d.eof and b"".join(out) == data
    assert gagebpe.GageBPEFile(io.BytesIO(blob)).read() == data
    infos = gagebpe.describe(io.BytesIO(blob))
    assert [i.size for i in infos] == [len(p) for p in pieces]
    assert [i.stream_bytes for i in infos] == [len(s) for s in streams]


def check_readers_agree(blob):
    """Check that every reader refuses the stream ``blob`` (forged, say),
    or that each decodes it to the same bytes: those bytes, or None."""
    from gagebpe.decoder import fast
    try:
        out = gagebpe.decompress(blob)
    except (gagebpe.GageBPEError, EOFError):
        assert fast.decode(blob, 1000) is None
        with pytest.raises((gagebpe.GageBPEError, EOFError)):
            gagebpe.GageBPEFile(io.BytesIO(blob)).read()
        with pytest.raises((gagebpe.GageBPEError, EOFError)):
            gagebpe.describe(io.BytesIO(blob))
        return None
    assert fast.decode(blob, 1000) in (None, out)
    assert gagebpe.GageBPEFile(io.BytesIO(blob)).read() == out
    (info,) = gagebpe.describe(io.BytesIO(blob))
    assert (info.version, info.size, info.stream_bytes) == ("1.0", len(out), len(blob))
    return out


def unprimed(data, level=None, **kw):
    """``data`` compressed with no MIXED_PRIMED block and no long rules,
    and MIXED tried on text too: a block in the coding a test of MIXED, or
    of the block layout, wants."""
    pairs = {k: level.each_row(long_rules=False) for k, level in _levels.LEVELS.items()}
    with (mock.patch.object(_block, "encode_primed", lambda data: None),
          mock.patch.object(_small, "looks_like_text", lambda data: False),
          mock.patch.dict(_levels.LEVELS, pairs)):
        return gagebpe.compress(data, level, **kw)


def one_block_payload(blob):
    """The payload of the single stream ``blob``."""
    return one_block(blob)[_container.BLOCK_HEADER.size:]


def block_layout(blob):
    """The single stream ``blob`` in the block layout (header, block,
    trailer), as an incremental writer writes a stream of one block."""
    block = one_block(blob)
    size = _container.BLOCK_HEADER.unpack_from(block)[1]
    return (_container.stream_header(size) + block
            + _container.trailer([(len(block), size)]))


def sample_text():
    """English prose: alice29.txt where the corpus is, else the built-in sample."""
    if CANTERBURY.is_dir():
        return (CANTERBURY / "alice29.txt").read_text()
    from gagebpe.sample import sample
    return sample(150_000).decode()


@pytest.fixture(scope="session")
def trained():
    """A ByteBPE of 2,000 tokens trained on ``sample_text()``."""
    from gagebpe.tokenizers import ByteBPE
    return ByteBPE.train(sample_text(), 2000, special_tokens=["<|endoftext|>"])


def without_lz(data, level=6):
    """The one-block stream of ``data`` as ``level`` writes it, LZ and the
    entropic gate aside: for tests of the codings LZ would otherwise win
    over (every level codes small blocks as LZ where smaller) or that
    noise would not reach."""
    from gagebpe.encoder import block as _block, levels as _levels
    level = _levels.LEVELS[level].each_row(
        tries=lambda row: tuple(name for name in row.tries if name in ("grammar", "repeats")),
        long_rules=False, small=False, alone_below=0, lz_keep=0.0, entropic_below=0.0,
        greedy_below=0.0)
    coding, payload = _block.encode(data, level)
    return _container.single_stream(_container.block(coding, payload, data))


def trying(min_count, tries=("grammar",), small_counts=(), more_counts=(), **settings):
    """A level (``encoder.levels.Level``) for tests of the block policy:
    ``tries`` at smallest count ``min_count`` (and ``small_counts`` too on
    blocks under 64 KiB, ``more_counts`` on all), unprobed, CONTEXT tried
    on every block, with the rows' ``settings`` changed."""
    from gagebpe.encoder.levels import CLASSES, Level, Row
    under_64k = [bound <= 1 << 16 for bound in CLASSES] + [False]
    rows = tuple(Row(tuple(tries), (min_count, *(small_counts if small else ()), *more_counts),
                     context=True)._replace(**settings) for small in under_64k)
    return Level(1 << 25, rows)
