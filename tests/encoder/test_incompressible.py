"""The entropic gate: a block that could gain almost nothing by its bytes'
frequencies takes no try: STORED where it could gain nothing by repeats
either (random, compressed, encrypted data), its greedy copies over
STORED literals where it repeats itself (archives, images); a block with
something to gain by frequencies is tried (``kernels.incompressible``,
``kernels.greedy``, the rows' ``entropic_below``)."""
import lzma
import zlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe.encoder import block as _block, levels
from gagebpe.format.codings.registry import REPEATS, STORED
from gagebpe.kernels import greedy, incompressible, repeats
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
    copies = greedy.copies(data, shortest)
    if len(copies):
        assert copies[:, 2].min() >= shortest and copies[:, 1].min() >= 1
    literals = repeats.literals(data, copies)
    out = np.empty(len(data), np.uint8)
    out[len(data) - len(literals):] = literals
    assert repeats.restore(out, len(literals), repeats.pack(copies), len(copies)) == 0
    assert out.tobytes() == data.tobytes()


def test_a_block_that_gains_by_frequencies_too_is_tried():
    data = noise(60_000) * 2 + sample(20_000)  # frequencies gain a little: the tries run
    gains = incompressible.gains(np.frombuffer(data, np.uint8), levels.ENTROPIC_BELOW)
    assert gains == incompressible.FREQUENCIES
    for number in (1, 6, 9):
        level = levels.settings(number)
        assert _block.encode(data, level) == _block.encode(data, level.each_row(entropic_below=0.0))


def test_small_blocks_and_rows_without_the_gate_are_tried():
    data = noise(3000)  # a small input: its row has no stored gate
    assert levels.settings(6).row(len(data)).entropic_below == 0
    row = levels.settings(6).row(100_000)
    assert row.entropic_below > 0
    ungated = levels.settings(6).each_row(entropic_below=0.0)
    # without the gate the tries run, and find nothing better than STORED
    assert _block.encode(noise(100_000), ungated) == _block.encode(noise(100_000),
                                                                   levels.settings(6))
