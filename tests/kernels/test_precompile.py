"""``python -m gagebpe.precompile`` takes its checklist from the format:
every coding of the registry must be written by one of its inputs, so a
new coding cannot be left out of a cache filled at build time.  (The
slow tests of test_kernel_cache.py run it whole.)"""
import pytest

from gagebpe import precompile
from gagebpe.format.codings.registry import CODINGS, LZ_PARTS


def test_every_coding_written_passes():
    precompile._check_every_coding(set(CODINGS))


def test_a_coding_no_input_writes_is_named():
    with pytest.raises(RuntimeError, match="LZ_PARTS"):
        precompile._check_every_coding(set(CODINGS) - {LZ_PARTS})


def test_the_codings_of_a_stream_include_wrapped_ones():
    import numpy as np

    import gagebpe
    from gagebpe.format.codings.registry import FILTERED
    # numbered records of 13 bytes: FILTERED over a grammar coding
    rows = np.tile(np.arange(13, dtype=np.uint8) * 17, (20_000, 1))
    rows[:, :4] = np.arange(20_000, dtype="<u4").view(np.uint8).reshape(-1, 4)
    found = precompile._codings(gagebpe.compress(rows.tobytes(), 6))
    assert FILTERED in found and len(found) == 2
