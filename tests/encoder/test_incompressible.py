"""The entropic gate: a block that could gain almost nothing by its bytes'
frequencies takes no try: STORED where it could gain nothing by repeats
either (random, compressed, encrypted data), its greedy copies over
STORED literals where it repeats itself (archives, images); a block
whose frequencies gain a little is coded LZ by its greedy copies; a
block with more to gain by frequencies is tried (``kernels.incompressible``,
``kernels.greedy``, the rows' ``entropic_below`` and ``greedy_below``)."""
import lzma
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe.encoder import block as _block, levels
from gagebpe.format.codings import lz as _coding_lz
from gagebpe.format.codings.registry import LZ, REPEATS, STORED
from gagebpe.kernels import greedy, incompressible, lz as _lz, repeats
from gagebpe.sample import sample

from conftest import coding_of


def noise(n, seed=1):
    return np.random.default_rng(seed).integers(0, 256, n, dtype=np.uint8).tobytes()


def test_the_bounds_tell_noise_from_text_and_from_repeated_noise():
    rng_bytes = np.frombuffer(noise(200_000), np.uint8)
    text = np.frombuffer(sample(200_000), np.uint8)
    twice = np.frombuffer(noise(100_000) * 2, np.uint8)
    assert incompressible.order0_saving(rng_bytes) < 0.001
    assert incompressible.order0_saving(text) > 0.3
    assert incompressible.repeated_share(rng_bytes) < 0.001
    assert 0.3 < incompressible.repeated_share(twice) < 0.7  # its second half, about
    assert incompressible.gains(rng_bytes, 0.01) == incompressible.NOTHING
    assert incompressible.gains(text, 0.01) == incompressible.FREQUENCIES
    assert incompressible.gains(twice, 0.01) == incompressible.REPEATS


@pytest.mark.parametrize("level", [1, 6, 9])
def test_noise_and_compressed_data_are_stored_at_every_level(level):
    text = sample(300_000)
    for data in (noise(300_000), lzma.compress(text), zlib.compress(text, 9)):
        blob = gagebpe.compress(data, level)
        assert coding_of(blob) == STORED
        assert len(blob) <= len(data) * 1.001
        assert gagebpe.decompress(blob) == data


def pieces_of_noise(n, seed=2):
    """Noise whose pieces of 8 to 2,000 bytes recur at any distance, with
    noise between them: nothing to gain by frequencies, much by repeats
    (as zip archives and PNG images have it)."""
    rng = np.random.default_rng(seed)
    pool = [noise(int(rng.integers(8, 2000)), seed + k) for k in range(60)]
    out = bytearray()
    while len(out) < n:
        out += pool[int(rng.integers(0, len(pool)))]
        out += noise(int(rng.integers(0, 300)), int(rng.integers(1 << 30)))
    return bytes(out[:n])


@pytest.mark.parametrize("level", [1, 6, 9])
def test_noise_that_repeats_is_coded_by_its_copies_at_every_level(level):
    data = pieces_of_noise(300_000)
    blob = gagebpe.compress(data, level)
    assert coding_of(blob) == REPEATS
    assert gagebpe.decompress(blob) == data
    # the same copies at every level: what a repeat saves does not depend on it
    assert len(blob) < 0.5 * len(data)
    assert _block.encode(data, levels.settings(level)) == _block.encode_entropic(data)


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40_000), st.sampled_from([6, 8, 16, 64]))
def test_greedy_copies_rebuild_the_block(seed, n, shortest):
    data = np.frombuffer(pieces_of_noise(n, seed) if seed % 3 else noise(n, seed), np.uint8)
    copies = greedy.copies(data, shortest, greedy.REPEATS_WIDTH)
    if len(copies):
        assert copies[:, 2].min() >= shortest and copies[:, 1].min() >= 1
    literals = repeats.literals(data, copies)
    out = np.empty(len(data), np.uint8)
    out[len(data) - len(literals):] = literals
    assert repeats.restore(out, len(literals), repeats.pack(copies), len(copies)) == 0
    assert out.tobytes() == data.tobytes()


def skewed_pieces(n, seed=3):
    """``pieces_of_noise`` whose bytes are a little more often small: as
    a PNG or GIF image's, their frequencies save a few percent."""
    data = np.frombuffer(pieces_of_noise(n, seed), np.uint8)
    return (data & np.where(data & 7 == 0, 0x1F, 0xFF).astype(np.uint8)).tobytes()


@pytest.mark.parametrize("level", [1, 6, 9])
def test_blocks_whose_frequencies_gain_a_little_are_coded_by_greedy_copies(level):
    data = skewed_pieces(300_000)
    saving = incompressible.order0_saving(np.frombuffer(data, np.uint8))
    assert levels.ENTROPIC_BELOW < saving < levels.GREEDY_BELOW
    blob = gagebpe.compress(data, level)
    assert coding_of(blob) == LZ
    assert gagebpe.decompress(blob) == data
    assert _block.encode(data, levels.settings(level)) == _block.encode_greedy(data)
    assert len(blob) < 0.6 * len(data)


def test_arrays_of_numbers_are_tried_though_their_bytes_gain_little():
    rng = np.random.default_rng(5)
    for array in (rng.normal(size=40_000).astype("<f8"), rng.normal(size=80_000).astype("<f4")):
        data = array.tobytes()
        bytes_ = np.frombuffer(data, np.uint8)
        assert levels.ENTROPIC_BELOW < incompressible.order0_saving(bytes_) < levels.GREEDY_BELOW
        assert incompressible.lane_gain(bytes_) > incompressible.LANE_GAIN
        level = levels.settings(6)
        ungated = level.each_row(entropic_below=0.0, greedy_below=0.0)
        assert _block.encode(data, level) == _block.encode(data, ungated)
        assert len(_block.encode(data, level)[1]) < len(_block.encode_greedy(data)[1])
    # bytes whose frequencies do not depend on their offset show no gain by
    # lanes, however small the block
    for n in (5000, 20_000, 300_000):
        assert incompressible.lane_gain(np.frombuffer(noise(n), np.uint8)) < 0.01
        skewed = np.frombuffer(skewed_pieces(n), np.uint8)
        assert incompressible.lane_gain(skewed) < 0.01


def copy_tokens(copies, n):
    """The tokens (``kernels.lz.parse``'s) of ``n`` bytes holding
    ``copies``: a literal for each byte they leave."""
    lengths, distances = [], []
    for gap, distance, length in copies:
        lengths += [1] * int(gap) + [int(length)]
        distances += [0] * int(gap) + [int(distance)]
    lengths += [1] * int(n - sum(lengths))
    distances += [0] * (len(lengths) - len(distances))
    return np.array(lengths, np.int32), np.array(distances, np.int32)


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30_000), st.sampled_from([4, 5, 6]))
def test_packed_copies_are_their_tokens_packed(seed, n, width):
    """``pack_copies`` writes the stream ``pack`` writes for the same
    tokens (a token per literal), which decodes to the block."""
    data = np.frombuffer(skewed_pieces(n, seed), np.uint8)
    copies = greedy.copies(data, width, width)
    first = np.array(_lz.FIRST_REPS, np.int32)
    fused = _lz.pack_copies(data, copies, first.copy(), 1)
    tokens = _lz.pack(*_lz.symbols(data, 0, first.copy(), 1, *copy_tokens(copies, n)), 1)
    for ours, theirs in zip(fused, tokens):
        assert ours.tobytes() == theirs.tobytes()
    payload = _coding_lz.encode_greedy(data.tobytes(), width, width)
    out = np.empty(n, np.uint8)
    assert _coding_lz.decode_block(np.frombuffer(payload, np.uint8), n, out, LZ) == 0
    assert out.tobytes() == data.tobytes()


def test_a_block_that_gains_by_frequencies_is_tried():
    data = noise(60_000) * 2 + sample(100_000)  # frequencies gain 12.5%: the tries run
    gains = incompressible.gains(np.frombuffer(data, np.uint8), levels.ENTROPIC_BELOW,
                                 levels.GREEDY_BELOW)
    assert gains == incompressible.FREQUENCIES
    for number in (1, 6, 9):
        level = levels.settings(number)
        ungated = level.each_row(entropic_below=0.0, greedy_below=0.0)
        assert _block.encode(data, level) == _block.encode(data, ungated)


def test_small_blocks_and_rows_without_the_gate_are_tried():
    data = noise(3000)  # a small input: its row has no stored gate
    assert levels.settings(6).row(len(data)).entropic_below == 0
    row = levels.settings(6).row(100_000)
    assert row.entropic_below > 0
    ungated = levels.settings(6).each_row(entropic_below=0.0, greedy_below=0.0)
    # without the gate the tries run, and find nothing better than STORED
    assert _block.encode(noise(100_000), ungated) == _block.encode(noise(100_000),
                                                                   levels.settings(6))
