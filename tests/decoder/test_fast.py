"""The one-kernel path for single streams (``decoder.fast``): it decodes
exactly the streams it takes, and declines everything else, every corrupt
stream included, so that the general reader raises the error."""
import numpy as np
import pytest

import gagebpe
from gagebpe.format import container as _container
from gagebpe.decoder import fast as _fast
from gagebpe.kernels import varint as _varint
from gagebpe.plain.varint import varint_at
from gagebpe.format.codings import registry
from gagebpe.sample import sample

from conftest import block_layout, coding_of, one_block_payload, unprimed, without_lz

BIG = 1 << 40


@pytest.mark.parametrize("data, level", [
    (sample(4096), 6), (sample(60_000), 6), (b"x", 6),
    (bytes(np.random.default_rng(7).integers(0, 256, 3000, dtype=np.uint8)), 6),
    (sample(4096), 9), (sample(20_000), 7), (sample(30_000), 9), (sample(1500), 6)])
def test_takes_single_streams_and_gives_their_bytes(data, level):
    blob = gagebpe.compress(data, level)
    assert coding_of(blob) in _fast.TAKEN
    assert _fast.decode(blob, BIG) == data
    out = np.zeros(len(data), np.uint8)
    assert _fast.decode_into(blob, out)
    assert out.tobytes() == data


@pytest.mark.parametrize("coding, data", [
    (registry.SORTED, sample(3000)), (registry.CONTEXT, sample(15_000)),
    (registry.FOLDED, sample(3000)), (registry.PACKED, b"ab" * 32)])
def test_takes_the_grammar_codings_it_names_and_declines_the_others(coding, data):
    level = {registry.CONTEXT: 7, registry.FOLDED: 9}.get(coding, 6)
    blob = without_lz(data, level)
    assert coding_of(blob) == coding
    expected = data if coding in _fast.TAKEN else None
    assert _fast.decode(blob, BIG) == expected
    assert gagebpe.decompress(blob) == data


@pytest.mark.parametrize("blob", [
    gagebpe.compress(sample(5000), block_size=2000),      # several blocks
    gagebpe.compress(b"abc") + gagebpe.compress(b"d"),     # two streams
    gagebpe.compress(b"abc") + b"\0",                      # trailing bytes
    block_layout(gagebpe.compress(sample(3000))),          # the block layout
    gagebpe.compress(b""),                                 # no block
], ids=["blocks", "streams", "trailing", "block layout", "empty"])
def test_declines_what_it_does_not_take(blob):
    assert _fast.decode(blob, BIG) is None


def test_declines_a_dictionary_or_a_revision_and_the_general_path_names_them():
    blob = bytearray(gagebpe.compress(sample(3000)))
    for descriptor, message in ((0x10, "revision 1"), (0x04, "bit 2")):
        bad = bytearray(blob)
        bad[_container.SINGLE_AT - 1] = descriptor
        assert _fast.decode(bytes(bad), BIG) is None
        with pytest.raises(gagebpe.GageBPEError, match=message):
            gagebpe.decompress(bytes(bad))


@pytest.mark.parametrize("data, level", [(sample(3000), 6), (sample(3000), 9),
                                         (sample(15_000), 7), (sample(1500), 6)])
def test_declines_every_single_byte_corruption(data, level):
    blob = gagebpe.compress(data, level)
    rng = np.random.default_rng(1)
    for pos in range(len(blob)):
        for flip in (0x01, 0x80, int(rng.integers(1, 256))):
            bad = bytearray(blob)
            bad[pos] ^= flip
            out = _fast.decode(bytes(bad), BIG)
            assert out is None or out == data, (pos, flip)  # a flip may leave it valid
            if out is None:
                continue
            assert gagebpe.decompress(bytes(bad)) == out


def _repeats_stream(inner):
    """A level 9 stream of one REPEATS block whose literals take ``inner``."""
    from test_repeats import repeated
    data = {registry.STORED: repeated(1), registry.CONTEXT: sample(20_000) + repeated(7),
            registry.FOLDED: sample(3000).upper() + sample(9000) + sample(3000).upper()}
    blob = without_lz(data[inner], 9)
    assert coding_of(blob) == registry.REPEATS
    assert one_block_payload(blob)[0] == inner
    return data[inner], blob


@pytest.mark.parametrize("inner", [registry.STORED, registry.CONTEXT, registry.FOLDED])
def test_takes_repeats_over_what_it_takes(inner):
    data, blob = _repeats_stream(inner)
    assert _fast.decode(blob, BIG) == data


def test_declines_every_single_byte_corruption_of_repeats():
    data, blob = _repeats_stream(registry.FOLDED)
    rng = np.random.default_rng(2)
    for pos in range(len(blob)):
        bad = bytearray(blob)
        bad[pos] ^= int(rng.integers(1, 256))
        assert _fast.decode(bytes(bad), BIG) in (None, data), pos


def test_declines_every_truncation():
    blob = unprimed(sample(3000))
    for cut in range(len(blob)):
        assert _fast.decode(blob[:cut], BIG) is None, cut


def test_declines_a_block_past_the_limit():
    data = sample(4096)
    blob = gagebpe.compress(data)
    assert _fast.decode(blob, len(data) - 1) is None
    with pytest.raises(gagebpe.GageBPEError):
        gagebpe.decompress(blob, limit=len(data) - 1)


def test_decode_into_declines_another_size():
    blob = gagebpe.compress(sample(4096))
    assert not _fast.decode_into(blob, np.zeros(4095, np.uint8))
    assert not _fast.decode_into(blob, np.zeros(4097, np.uint8))


def test_a_forged_size_allocates_nothing_past_a_block():
    blob = gagebpe.compress(sample(4096))
    size_at = _container.SINGLE_AT + 1
    assert blob[size_at:size_at + 2] == _container.varint(4096)
    for forged in (_container.MAX_BLOCK_SIZE + 1, (1 << 28) - 1):
        bad = blob[:size_at] + _container.varint(forged) + blob[size_at + 2:]
        assert _fast._declared(bad) == (0, 0)
        assert _fast.decode(bad, BIG) is None
        with pytest.raises(gagebpe.GageBPEError):
            gagebpe.decompress(bad, limit=None)
        with pytest.raises(gagebpe.GageBPEError):  # a plain call: tried before any check
            gagebpe.decompress(bad)


def test_a_plain_call_and_a_checked_one_agree():
    """``decompress`` takes a chunk called with bytes and default
    arguments before it checks them; any other call is checked first."""
    data = sample(4096)
    blob = gagebpe.compress(data)
    assert gagebpe.decompress(blob) == data
    assert gagebpe.decompress(bytearray(blob)) == data
    assert gagebpe.decompress(blob, limit=len(data)) == data
    with pytest.raises(ValueError):
        gagebpe.decompress(blob, limit=-1)
    with pytest.raises(ValueError):
        gagebpe.decompress(blob, format="gzip")


@pytest.mark.parametrize("value", [0, 127, 128, 260, 1 << 20, (1 << 28) - 1])
def test_varints_read_alike_from_bytes_and_arrays(value):
    """The kernels compile ``varint_at``; without Numba it reads uint8
    arrays as plain Python, where a NumPy byte shifted left once lost its
    high bits (a batch of records of 128 bytes or more failed)."""
    data = b"\x00" + _container.varint(value) + b"\x00"
    expected = (value, len(data) - 1)
    assert varint_at(data, 1) == expected
    assert varint_at(np.frombuffer(data, np.uint8), 1) == expected
    assert _varint.varint_at(np.frombuffer(data, np.uint8), 1) == expected  # compiled


@pytest.mark.parametrize("reader", ["plain", "compiled"])
def test_one_varint_reader_for_sizes_and_copies(reader):
    # The container's sizes must be in their shortest form (FORMAT.md
    # section 2); REPEATS' copy numbers need not be (section 4.10).
    read = varint_at if reader == "plain" else _varint.varint_at
    padded = np.frombuffer(b"\x85\x80\x00", np.uint8)  # 5, written in three bytes
    assert read(padded, 0) == (-2, 0)
    assert read(padded, 0, False) == (5, 3)
    too_long = np.frombuffer(b"\x80\x80\x80\x80\x01", np.uint8)
    assert read(too_long, 0) == read(too_long, 0, False) == (-2, 0)
    assert read(padded[:2], 0, False) == (-1, 0)  # cut short
