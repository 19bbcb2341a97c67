"""Filters (the FILTERED coding): fixed-stride data is found, filtered
where it pays, and always decodes to the original; a malformed FILTERED
block raises GageBPEError."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.encoder import block as _block, levels
from gagebpe.format import container as _container
from gagebpe.kernels import filters as _filters
from gagebpe.decoder import blocks
from gagebpe.format.codings.registry import (CONTEXT_LONG, FILTERED, LZ_PARTS, SEQUENCES,
                                             SORTED_LONG, STORED)
from gagebpe.sample import sample

from conftest import payload_spans, trying



def records(length, count, seed, changes=2):
    """``count`` records of ``length`` bytes, a table in miniature: each a
    copy of the first, its first bytes the row number (little-endian), and
    ``changes`` bytes of the rest set at random."""
    rng = np.random.default_rng(seed)
    rows = np.tile(rng.integers(0, 256, length, dtype=np.uint8), (count, 1))
    for row in rows:
        row[rng.integers(0, length, changes)] = rng.integers(0, 256, changes)
    numbers = np.arange(count, dtype="<u4").view(np.uint8).reshape(count, 4)
    rows[:, :min(length, 2)] = numbers[:, :min(length, 2)]
    return rows.tobytes()


def coding_of(blob):
    parser, view, codings = _container.Parser(), memoryview(blob), []
    while not parser.done:
        unit, n = parser.parse(view)
        view = view[n:]
        if isinstance(unit, _container.BlockHeader):
            codings.append(unit.coding)
    return codings


@given(st.integers(1, _filters.MAX_LAG), st.sampled_from(_filters.FILTERS),
       st.binary(max_size=2000))
def test_unfilter_undoes_apply(lag, kind, data):
    out = np.frombuffer(_filters.apply(data, kind, lag), np.uint8).copy()
    _filters.unfilter(out, kind, lag)
    assert out.tobytes() == data


@pytest.mark.parametrize("length", [4, 13, 100, 216])
def test_the_record_length_is_found(length):
    assert _filters.best_lag(records(length, 200_000 // length, length, changes=1)) == length


def test_text_and_noise_are_not_filtered():
    text = sample(1 << 18)
    noise = np.random.default_rng(5).integers(0, 256, 1 << 18, dtype=np.uint8).tobytes()
    assert _filters.best_lag(text) == 0
    assert _filters.best_lag(noise) == 0
    # CONTEXT from 1 MB at level 6; both with the long rules' table
    assert coding_of(gagebpe.compress(text)) == [SORTED_LONG]
    assert coding_of(gagebpe.compress(text, 7)) == [CONTEXT_LONG]


@pytest.mark.parametrize("level", [1, 6, 9])
def test_records_are_filtered_smaller_and_round_trip(level):
    data = records(13, 40_000, 1, changes=1)
    coding, filtered = _block.choose(data, levels.settings(level), ("grammar",))
    assert coding == FILTERED
    coding, unfiltered = _block.smallest(data, gagebpe.grammar.encode(data, min_count=3))
    assert len(filtered) < 0.9 * len(unfiltered)
    # the levels that parse LZ fully may find copies smaller still
    blob = gagebpe.compress(data, level)
    assert coding_of(blob) in ([[FILTERED]] if level == 1 else [[SEQUENCES], [LZ_PARTS]])
    assert len(blob) < len(filtered) + 30
    assert gagebpe.decompress(blob) == data


@given(st.integers(2, 70), st.integers(8, 300), st.integers(0, 2**32 - 1),
       st.integers(0, 4), st.integers(1, 9))
def test_record_streams_round_trip_at_every_level(length, count, seed, changes, level):
    data = records(length, count, seed, changes)
    assert gagebpe.decompress(gagebpe.compress(data, level)) == data
    assert gagebpe.decompress(gagebpe.compress(data, level, block_size=1000)) == data


def _filtered_block(data):
    coding, payload = _block.encode(data, trying(3))
    assert coding == FILTERED
    return payload


@pytest.mark.parametrize("field, value, message", [
    (0, 0, "unknown filter"), (0, 9, "unknown filter"),
    (1, 0, "lag is zero"),
    (3, STORED, "holds coding"), (3, FILTERED, "holds coding"), (3, 77, "holds coding"),
])
def test_malformed_filter_headers_are_refused(field, value, message):
    data = records(13, 2000, 2)
    payload = bytearray(_filtered_block(data))
    if field == 1:
        payload[1:3] = value.to_bytes(2, "little")
    else:
        payload[field] = value
    with pytest.raises(gagebpe.GageBPEError, match=message):
        blocks.decode(FILTERED, bytes(payload), len(data), np.empty(len(data), np.uint8))


def test_a_wrong_lag_fails_the_block_check():
    data = records(13, 2000, 3)
    blob = bytearray(gagebpe.compress(data))
    (start, _, _), = payload_spans(blob)
    blob[start + 1] += 1  # the lag: no check covers the payload but the block's
    with pytest.raises(gagebpe.GageBPEError, match="block check failed"):
        gagebpe.decompress(bytes(blob))


def test_short_filtered_payloads_are_refused():
    for n in range(4):
        with pytest.raises(gagebpe.GageBPEError):
            blocks.decode(FILTERED, bytes(n), 10, np.empty(10, np.uint8))


def test_gagebpe_l_counts_the_merges_of_filtered_blocks():
    import io
    data = records(13, 20_000, 5, changes=1)
    (info,) = _container.describe(io.BytesIO(gagebpe.compress(data, 1)))
    payload = _filtered_block(data)
    assert info.merges == int.from_bytes(payload[4:8], "little") > 0
