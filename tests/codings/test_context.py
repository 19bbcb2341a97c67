"""The CONTEXT coding (docs/FORMAT.md, section 4.6): ids coded in two contexts, the
class of the id before; round trips for any class map and any block shape,
the text gain it is there for, and malformed payloads refused."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.encoder import block as _block
from gagebpe.encoder import levels as _levels
from gagebpe.decoder import blocks
from gagebpe.format.codings import context as _coding_context, sorted_rules as _coding_sorted
from gagebpe.format.codings.registry import CONTEXT, CONTEXT_LONG
from gagebpe.sample import sample

from conftest import byte_strings, payload_spans, trying


def coded(data, class_of_byte=_coding_context.LETTERS, min_count=2):
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    grammar = gagebpe.grammar.encode(data, min_count=min_count)
    return _coding_context.encode(grammar, hist, class_of_byte=class_of_byte), hist, grammar


def decoded(payload, size):
    return blocks.decode(CONTEXT, payload, size, np.empty(size, np.uint8)).tobytes()


@given(byte_strings(), st.integers(0, 2**256 - 1))
def test_any_block_round_trips_with_any_class_map(data, classes):
    if not data:
        return
    class_of_byte = np.array([(classes >> v) & 1 for v in range(256)], bool)
    payload, _, _ = coded(data, class_of_byte)
    assert decoded(payload, len(data)) == data


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 8, 9, 1000])
def test_blocks_of_few_ids_round_trip(size):
    data = (b"The cat, the hat. " * 100)[:size]
    for class_of_byte in (np.zeros(256, bool), np.ones(256, bool), _coding_context.LETTERS):
        payload, _, _ = coded(data, class_of_byte)
        assert decoded(payload, size) == data


def test_contexts_make_text_smaller_than_one_code():
    text = sample(1 << 20)
    payload, hist, grammar = coded(text, min_count=3)
    one_code = _coding_sorted.encode(grammar, hist)
    assert len(payload) < 0.99 * len(one_code)  # about 2% on this generated text
    blob = gagebpe.compress(text)
    assert gagebpe.decompress(blob) == text


def test_text_is_written_in_contexts():
    text = sample(200_000)
    assert _block.encode(text, trying(3))[0] == CONTEXT


def _head(payload):
    return list(_coding_context.HEAD.unpack_from(payload))


def _with_head(payload, fields):
    return _coding_context.HEAD.pack(*fields) + payload[_coding_context.HEAD.size:]


def test_class_bits_of_absent_bytes_are_refused():
    data = b"abc abc abd abd " * 50
    payload, _, _ = coded(data)
    fields = _head(payload)
    fields[6] = bytes([0xFF]) * 32  # every byte value in class 1
    with pytest.raises(gagebpe.GageBPEError, match="class bitmap"):
        decoded(_with_head(payload, fields), len(data))


def test_segments_out_of_order_are_refused():
    data = sample(20_000)
    payload, _, _ = coded(data)
    n_merges, n_ids, table, lengths0, lengths1, _, _ = _head(payload)
    at = _coding_context.HEAD.size + table + lengths0 + lengths1 + 12  # the segment starts
    starts = np.frombuffer(payload[at:at + 12], "<u4").copy()
    for wrong in ([starts[1], starts[0], starts[2]], [starts[0], starts[1], len(data) + 1]):
        bad = payload[:at] + np.array(wrong, "<u4").tobytes() + payload[at + 12:]
        with pytest.raises(gagebpe.GageBPEError):
            decoded(bad, len(data))


@pytest.mark.parametrize("long_rules", [False, True])
def test_every_corrupted_byte_is_refused_or_caught_by_the_check(monkeypatch, long_rules):
    # levels 1-6 take CONTEXT from 1 MB blocks; the sample's table of long
    # rules is the smaller (CONTEXT_LONG)
    monkeypatch.setitem(_levels.LEVELS, 7, _levels.LEVELS[7].each_row(long_rules=long_rules))
    data = sample(20_000)
    blob = gagebpe.compress(data, 7)
    (start, end, block), = payload_spans(blob)
    assert block.coding == (CONTEXT_LONG if long_rules else CONTEXT)
    for at in range(start, end):
        bad = bytearray(blob)
        bad[at] ^= 0x41
        with pytest.raises(gagebpe.GageBPEError):
            gagebpe.decompress(bytes(bad))


def test_truncated_payloads_are_refused():
    data = sample(5000)
    payload, _, _ = coded(data)
    for n in (0, 10, _coding_context.HEAD.size, len(payload) // 2, len(payload) - 1):
        with pytest.raises(gagebpe.GageBPEError):
            decoded(payload[:n], len(data))
