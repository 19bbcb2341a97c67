"""Philip Gage's 1994 format: the original program's vectors, round trips,
the original's faults avoided, malformed files refused."""
import io
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe import GageBPEError, gage1994

from conftest import CANTERBURY, byte_strings
from reference import gage1994_decode

VECTORS = Path(__file__).resolve().parents[3] / "shared" / "vectors" / "gage1994"


def vectors():
    if not VECTORS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"Gage 1994 vectors not found at {VECTORS}"))]
    return sorted(VECTORS.glob("*.bpe"), key=lambda p: p.name)


def original_input(vector):
    name = vector.name[:-len(".bpe")]
    own = VECTORS / "inputs" / name
    return (own if own.exists() else CANTERBURY / name).read_bytes()


@pytest.mark.parametrize("vector", vectors(), ids=lambda p: getattr(p, "name", "none"))
def test_vector_decodes_and_reencodes_byte_for_byte(vector):
    data, blob = original_input(vector), vector.read_bytes()
    assert gage1994.decompress(blob) == data
    assert gage1994.compress(data) == blob
    assert gagebpe.decompress(blob, format="gage1994") == data
    assert gagebpe.compress(data, format="gage1994") == blob


def test_all_seventeen_vectors_are_there():
    if not VECTORS.is_dir():
        pytest.skip(f"Gage 1994 vectors not found at {VECTORS}")
    assert len(list(VECTORS.glob("*.bpe"))) == 17


def round_trip(data):
    blob = gage1994.compress(data)
    assert gage1994.decompress(blob) == data
    return blob


@given(byte_strings())
def test_round_trip(data):
    round_trip(data)


@given(st.integers(0, 2**32), st.integers(1, 30_000))
def test_random_bytes_round_trip(seed, n):
    rng = np.random.default_rng(seed)
    round_trip(bytes(rng.integers(0, 256, n, dtype=np.uint8)))


def test_where_the_original_loops_forever():
    # More than 4096 distinct adjacent pairs in a block: the original's hash
    # table fills and its lookup never returns.
    data = bytes(np.random.default_rng(7).integers(0, 150, 20_000, dtype=np.uint8))
    first_block = np.frombuffer(data[:5000], np.uint8).astype(np.int64)
    assert len(set((first_block[:-1] * 256 + first_block[1:]).tolist())) > 4096
    round_trip(data)


def test_where_the_original_expander_overflows():
    # Pairs nested deeper than the original expander's 30-entry stack allows
    # (15 levels): it writes garbage; gagebpe writes and reads them.
    source = VECTORS / "inputs" / "deep-nesting-120.bin"
    if not source.exists():
        pytest.skip(f"Gage 1994 vectors not found at {VECTORS}")
    blob = round_trip(source.read_bytes())
    assert _max_depth(blob) > 15


def _max_depth(blob):
    """The deepest pair nesting over the blocks of a 1994 file."""
    from gagebpe.kernels import gage1994 as _gage1994
    data = np.frombuffer(blob, np.uint8)
    left = np.zeros(256, np.int64)
    right = np.zeros(256, np.int64)
    pos = deepest = 0
    while pos < len(data):
        status, pos = _gage1994._read_table(data, pos, left, right)
        assert status == _gage1994.OK
        pos += 2 + (int(data[pos]) << 8 | int(data[pos + 1]))
        depth = {}

        def d(c):
            if left[c] == c:
                return 0
            if c not in depth:
                depth[c] = 1 + max(d(left[c]), d(right[c]))
            return depth[c]
        deepest = max(deepest, max(d(c) for c in range(256)))
    return deepest


def test_streaming_equals_one_shot():
    data = (CANTERBURY / "alice29.txt").read_bytes() if CANTERBURY.is_dir() else (
        gagebpe.sample.sample(100_000))
    blob = gage1994.compress(data)
    c = gage1994.Compressor()
    assert b"".join(c.compress(data[i:i + 777]) for i in range(0, len(data), 777)) \
        + c.flush() == blob
    d = gage1994.Decompressor()
    parts = []
    for i in range(0, len(blob), 333):
        parts.append(d.decompress(blob[i:i + 333], 1000))
        while not d.needs_input:
            parts.append(d.decompress(b"", 1000))
    d.flush()
    assert b"".join(parts) == data
    assert max(map(len, parts)) <= 1000 + 5000


# -- malformed files -----------------------------------------------------------------

ALL_LITERAL = bytes([0xFE, 0x7F, 0xFE, 0xFF])  # codes 0..255 all literal


def test_malformed_files_raise_documented_errors():
    pairs_0_and_1 = bytes([0x01, 1, 2, 0, 3])  # 0 -> (1, 2), 1 -> (0, 3): a cycle
    rest = bytes([0xFE, 0x81, 0xFD])  # literals up to 255
    cases = {
        "truncated table": (bytes([0x05, 1]), EOFError),
        "no size": (ALL_LITERAL + b"\x00", EOFError),
        "size beyond the data": (ALL_LITERAL + b"\x00\x05ab", EOFError),
        "cycle": (pairs_0_and_1 + rest + b"\x00\x01\x00", GageBPEError),
        "run past code 255": (bytes([0xFE, 0x7F, 0x47]) + bytes(range(128, 200))
                              + bytes([0xFF]), GageBPEError),
    }
    for name, (blob, error) in cases.items():
        with pytest.raises(error):
            gage1994.decompress(blob)
    # A pair that refers to itself: code 0 -> (0's right is 0): 0 = (1, 0).
    self_ref = bytes([0x00, 1, 0]) + bytes([0xFE, 0x80, 0xFE]) + b"\x00\x01\x00"
    with pytest.raises(GageBPEError, match="cycle"):
        gage1994.decompress(self_ref)


def test_decompression_bomb_is_refused():
    # 255 -> (254, 254), 254 -> (253, 253), ...: one byte would expand to
    # 2^40 bytes.  Refused from the table, before any output.
    left = list(range(256))
    right = [0] * 256
    for c in range(200, 256):
        left[c], right[c] = c - 1, c - 1
    blob = _table(left, right) + b"\x00\x01\xff"
    with pytest.raises(GageBPEError, match="size limit"):
        gage1994.decompress(blob)


def _table(left, right):
    """A pair table in the 1994 layout: entry runs of one code each, and
    skips over literals."""
    out = bytearray()
    c = 0
    while c < 256:
        if left[c] == c:
            n = 1
            while n < 127 and c + n < 256 and left[c + n] == c + n:
                n += 1
            out.append(n + 127)
            c += n
            if c == 256:
                break
        else:
            out.append(0)
        out.append(left[c])
        if left[c] != c:
            out.append(right[c])
        c += 1
    return bytes(out)


@given(st.integers(0, 2**32), st.booleans())
def test_tables_in_any_order_expand_like_the_definition(seed, writer_order):
    """Valid tables whose pairs refer to lower codes (which the 1994 writer
    never makes, and the expander takes a slower path for) expand the same
    as tables in the writer's order: as the format defines them."""
    rng = np.random.default_rng(seed)
    n_pairs = int(rng.integers(1, 60))
    pairs = rng.choice(256, n_pairs, replace=False)
    if writer_order:
        pairs = np.sort(pairs)[::-1]
    left, right = list(range(256)), [0] * 256
    literals = [c for c in range(256) if c not in set(pairs.tolist())]
    phrase = {c: bytes([c]) for c in literals}
    for k, c in enumerate(pairs.tolist()):  # each pair refers to earlier ones
        known = literals + pairs[:k].tolist()
        a, b = (known[int(i)] for i in rng.integers(len(known), size=2))
        if len(phrase[a]) + len(phrase[b]) > 300:
            a, b = literals[0], literals[-1]
        left[c], right[c] = a, b
        phrase[c] = phrase[a] + phrase[b]
    codes = rng.integers(0, 256, int(rng.integers(0, 200)), dtype=np.uint8)
    blob = _table(left, right) + len(codes).to_bytes(2, "big") + codes.tobytes()
    assert gage1994.decompress(blob) == b"".join(phrase[c] for c in codes.tolist())


@given(st.integers(0, 2**32))
def test_mutated_vectors_decode_as_the_format_defines(seed):
    """The 1994 format has no check, so a changed file may decode to other
    bytes: exactly those its definition gives (``reference.gage1994_decode``),
    or the same error."""
    if not VECTORS.is_dir():
        pytest.skip(f"Gage 1994 vectors not found at {VECTORS}")
    rng = np.random.default_rng(seed)
    files = [p for p in vectors() if p.stat().st_size < 20_000]
    blob = bytearray(files[int(rng.integers(len(files)))].read_bytes())
    for _ in range(int(rng.integers(1, 4))):
        if blob:
            blob[int(rng.integers(len(blob)))] = int(rng.integers(256))
    cut = int(rng.integers(len(blob) + 1))
    for candidate in (bytes(blob), bytes(blob[:cut])):
        try:
            want = gage1994_decode(candidate)
        except (ValueError, EOFError) as e:
            error = EOFError if isinstance(e, EOFError) else GageBPEError
            with pytest.raises(error):
                gage1994.decompress(candidate)
            continue
        assert gage1994.decompress(candidate) == want


def test_format_argument():
    with pytest.raises(ValueError):
        gagebpe.compress(b"x", format="zip")
    with pytest.raises(ValueError):
        gagebpe.compress(b"x", 9, format="gage1994")
    with pytest.raises(GageBPEError, match="magic"):
        gagebpe.decompress(gage1994.compress(b"abc" * 100))  # never guessed


@given(byte_strings(), st.lists(st.integers(1, 3000), max_size=6), st.sampled_from([-1, 1, 700]))
def test_files_and_the_decompressor_protocol(data, reads, max_length):
    """The 1994 format through the same reader and protocol as gbpe:
    ``max_length`` is kept exactly, ``eof`` when the input so far ended on a
    block boundary and all its output is out."""
    buf = io.BytesIO()
    with gagebpe.open(buf, "wb", format="gage1994") as f:
        f.write(data)
    blob = buf.getvalue()
    assert blob == gage1994.compress(data)
    buf.seek(0)
    with gagebpe.open(buf, format="gage1994") as f:
        got = [f.read(n) for n in reads] + [f.read()]
    assert b"".join(got) == data
    d = gage1994.Decompressor()
    out = [d.decompress(blob, max_length)]
    while not d.eof:
        assert not d.needs_input
        out.append(d.decompress(b"", max_length))
        assert max_length < 0 or len(out[-1]) <= max_length
    assert b"".join(out) == data and d.unused_data == b""


def test_a_file_cut_inside_a_block_is_cut_short():
    blob = gage1994.compress(b"abcabcabc" * 500)
    with pytest.raises(EOFError):
        with gagebpe.open(io.BytesIO(blob[:-3]), format="gage1994") as f:
            f.read()
    d = gage1994.Decompressor()
    d.decompress(blob[:-3])
    assert d.needs_input and not d.eof
    with pytest.raises(EOFError):
        d.flush()
