"""The stored gate: a block that could gain almost nothing by any coding
(random, compressed, encrypted data) is STORED without a try, and a block
with something to gain is not (``kernels.incompressible``, the rows'
``stored_below``)."""
import lzma
import zlib

import numpy as np
import pytest

import gagebpe
from gagebpe.encoder import block as _block, levels
from gagebpe.format.codings.registry import STORED
from gagebpe.kernels import incompressible
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
    assert incompressible.gains_less_than(rng_bytes, 0.01)
    assert not incompressible.gains_less_than(text, 0.01)
    assert not incompressible.gains_less_than(twice, 0.01)
    assert not incompressible.gains_less_than(rng_bytes[:0], 0.01)


@pytest.mark.parametrize("level", [1, 6, 9])
def test_noise_and_compressed_data_are_stored_at_every_level(level):
    text = sample(300_000)
    for data in (noise(300_000), lzma.compress(text), zlib.compress(text, 9)):
        blob = gagebpe.compress(data, level)
        assert coding_of(blob) == STORED
        assert len(blob) <= len(data) * 1.001
        assert gagebpe.decompress(blob) == data


def test_the_gate_leaves_what_repeats_to_the_tries():
    data = noise(60_000) * 2  # nothing to gain by frequencies, half by repeats
    for number in (1, 6, 9):
        level = levels.settings(number)
        assert _block.encode(data, level) == _block.encode(data, level.each_row(stored_below=0.0))
    for number in (6, 9):  # the levels that parse large blocks as LZ find the repeat
        assert len(gagebpe.compress(data, number)) < 0.6 * len(data)


def test_small_blocks_and_rows_without_the_gate_are_tried():
    data = noise(3000)  # a small input: its row has no stored gate
    assert levels.settings(6).row(len(data)).stored_below == 0
    row = levels.settings(6).row(100_000)
    assert row.stored_below > 0
    ungated = levels.settings(6).each_row(stored_below=0.0)
    # without the gate the tries run, and find nothing better than STORED
    assert _block.encode(noise(100_000), ungated) == _block.encode(noise(100_000),
                                                                   levels.settings(6))
