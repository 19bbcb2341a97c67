"""Every stream gagebpe writes starts with the format's magic number,
whatever its size, level, layout or path (docs/FORMAT.md, section 3.2)."""
import numpy as np
import pytest

import gagebpe
from gagebpe.format.container import MAGIC
from gagebpe import _plain_jobs as plain
from gagebpe.sample import sample

SIZES = (0, 1, 10, 100, 4096)  # and 1 MB, in the slow test


def inputs(size):
    noise = np.random.default_rng(size).integers(0, 256, size, dtype=np.uint8).tobytes()
    return sample(size), noise, bytes(size)


def assert_starts_with_the_magic(blob, data):
    assert blob[:4] == MAGIC == b"\x89GBP"
    assert gagebpe.decompress(blob) == data


@pytest.mark.parametrize("level", range(1, 10))
def test_every_stream_starts_with_the_magic(level):
    for size in SIZES:
        for data in inputs(size):
            assert_starts_with_the_magic(gagebpe.compress(data, level), data)
            assert_starts_with_the_magic(gagebpe.compress(data, level, block_size=64), data)
            c = gagebpe.Compressor(level)
            assert_starts_with_the_magic(c.compress(data) + c.flush(), data)
            small = plain.compress(data, level)  # the command line's small jobs
            assert small is None or small == gagebpe.compress(data, level)


@pytest.mark.slow
@pytest.mark.parametrize("level", range(1, 10))
def test_every_megabyte_stream_starts_with_the_magic(level):
    for data in inputs(1 << 20):
        assert_starts_with_the_magic(gagebpe.compress(data, level), data)
