"""Long rules: merges used once inside another folded into it, their
table, the SORTED_LONG and CONTEXT_LONG codings, and the streams that
hold them."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gagebpe
from gagebpe.format.codings import context as _coding_context, sorted_rules as _coding_sorted
from gagebpe.format import container as _container
from gagebpe.decoder import blocks, fast as _fast
from gagebpe.format.codings import registry
from gagebpe.kernels import grammar as _grammar, long_rules as _long_rules
from gagebpe.kernels import cutoff as _cutoff, sorted_table as _sorted_table
from gagebpe._errors import GageBPEError
from conftest import check_every_reader, payload_spans
from test_sorted_table import expansions, random_merges

LONG_CODINGS = {registry.SORTED_LONG, registry.CONTEXT_LONG}


def log_lines(n, seed=0):
    """Lines of a package log: long strings repeated whole, with a few
    fields that vary, as long rules fold best."""
    rng = np.random.default_rng(seed)
    names = [b"libgagebpe-common", b"python3-numpy-kernels", b"zlib1g-development",
             b"fonts-dejavu-extra"]
    lines = []
    for k in range(n):
        name = names[rng.integers(len(names))]
        lines.append(b"2026-12-03 07:%02d:%02d status half-configured %s:amd64 1.%d.%d\n"
                     % (k // 60 % 60, k % 60, name, rng.integers(9), rng.integers(30)))
    return b"".join(lines)


def random_grammar(seed, n_terminals, n_merges, n_ids):
    rng = np.random.default_rng(seed)
    merges = random_merges(rng, n_terminals, n_merges)
    ids = rng.integers(0, n_terminals + n_merges, n_ids).astype(np.int32)
    return merges, ids


def phrases(merges, n_terminals, symbols):
    words = expansions(merges, n_terminals)
    return [words[s] for s in symbols]


def unpacked(table, n_terminals, n_rules):
    return _sorted_table.unpack_long(np.frombuffer(table, np.uint8), n_terminals, n_rules)


def as_merges(starts, parts, n_terminals):
    """The rules as the format's decoder makes them merges, in plain
    Python: each rule's parts folded from the left."""
    merges, internal = [], list(range(n_terminals))
    for i in range(len(starts) - 1):
        left = internal[parts[starts[i]]]
        for part in parts[starts[i] + 1:starts[i + 1]]:
            merges.append((left, internal[part]))
            left = n_terminals + len(merges) - 1
        internal.append(left)
    return merges, internal


def test_a_merge_used_once_inside_another_is_folded_into_it():
    # 3 = (0, 1), used only by 4 = (3, 2): 4 becomes (0, 1, 2).  5 = (0, 0)
    # is used by the ids, 6 = (5, 5) twice by one merge: both stay.
    merges = np.array([[0, 1], [3, 2], [0, 0], [5, 5]], np.int32)
    ids = np.array([4, 5, 6, 4], np.int32)
    kept, starts, parts = _long_rules.fold(merges, ids, 3)
    assert kept.tolist() == [4, 5, 6]
    assert [parts[starts[i]:starts[i + 1]].tolist() for i in range(3)] == [[0, 1, 2], [0, 0],
                                                                         [5, 5]]
    rules = _long_rules.build(merges, ids, 3)
    assert len(rules.starts) - 1 == 3
    assert phrases(rules.merges, 3, rules.internal[rules.ids]) == phrases(merges, 3, ids)


@settings(deadline=None)
@given(st.integers(1, 60), st.integers(0, 200), st.integers(0, 300), st.integers(0, 2**32))
def test_long_rules_expand_as_the_merges_did_and_their_table_round_trips(
        n_terminals, n_merges, n_ids, seed):
    merges, ids = random_grammar(seed, n_terminals, n_merges, n_ids)
    rules = _long_rules.build(merges, ids, n_terminals)
    # Every id expands to the phrase it did ...
    assert phrases(rules.merges, n_terminals, rules.internal[rules.ids]) == phrases(
        merges, n_terminals, ids)
    # ... the decoder's merges refer to earlier symbols and keep the order
    # of the rules' symbols (so that canonical codes stay the same) ...
    _grammar.check_merges(rules.merges, n_terminals)
    assert (np.diff(rules.internal) > 0).all()
    # ... and the table reads back as the rules it was written from.
    ok, merges_read, internal = unpacked(rules.table, n_terminals, len(rules.starts) - 1)
    expected, expected_internal = as_merges(rules.starts, rules.parts, n_terminals)
    assert ok and merges_read.tolist() == [list(m) for m in expected]
    assert internal.tolist() == expected_internal


def test_chains_of_single_use_merges_become_one_rule():
    # Each merge uses the one before, once: one rule of n + 1 parts.
    n = 40
    merges = np.array([[0, 1]] + [[2 + k, k % 2] for k in range(n - 1)], np.int32)
    ids = np.array([1 + n, 0, 1 + n], np.int32)
    rules = _long_rules.build(merges, ids, 2)
    assert np.diff(rules.starts).tolist() == [n + 1]
    assert phrases(rules.merges, 2, rules.internal[rules.ids]) == phrases(merges, 2, ids)


def long_table_example():
    merges, ids = random_grammar(11, 30, 300, 200)
    rules = _long_rules.build(merges, ids, 30)
    assert (np.diff(rules.starts) > 2).any()
    return rules, np.frombuffer(rules.table, np.uint8), len(rules.starts) - 1


def test_malformed_long_tables_are_refused():
    rules, table, n_rules = long_table_example()
    assert unpacked(table, 30, n_rules)[0]
    for cut in range(len(table)):  # every truncation
        assert not unpacked(table[:cut], 30, n_rules)[0]
    assert not unpacked(np.append(table, np.uint8(0)), 30, n_rules)[0]  # bytes to spare
    assert not unpacked(table, 30, n_rules + 1)[0]  # more rules than it holds
    refused = 0
    for at in range(len(table)):
        for bit in range(8):
            bad = table.copy()
            bad[at] ^= 1 << bit
            ok, merges, internal = unpacked(bad, 30, n_rules)
            if not ok:
                refused += 1
                continue
            # What a flip leaves readable still refers to earlier symbols.
            _grammar.check_merges(merges, 30)
            assert (internal < 30 + len(merges)).all()
    assert refused > 0


def test_a_part_is_refused_where_it_is_not_yet_defined():
    # One depth of one rule of three parts over 2 terminals: (0, 1, p),
    # where the third part p takes one bit; p = 1 is terminal 1.
    starts = np.array([0, 3], np.int64)
    classes = np.array([[1, 3, 1]], np.int64)
    good = _sorted_table.pack_long(starts, np.array([0, 1, 1], np.int32), classes, 2)
    ok, merges, internal = unpacked(good.tobytes(), 2, 1)
    assert ok and merges.tolist() == [[0, 1], [2, 1]] and internal.tolist() == [0, 1, 3]
    # Over 1 terminal, 1 is undefined (the part still takes one bit).
    bad = _sorted_table.pack_long(starts, np.array([0, 0, 1], np.int32), classes, 1)
    assert not unpacked(bad.tobytes(), 1, 1)[0]


def grammar_of(data, by_gain=False):
    hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
    g = _grammar.build(data, 4, by_gain=by_gain)
    return _grammar.truncate(g, _cutoff.for_sorted(g, hist)), hist


@pytest.mark.parametrize("coder, coding, long_coding", [
    (_coding_sorted, registry.SORTED, registry.SORTED_LONG),
    (_coding_context, registry.CONTEXT, registry.CONTEXT_LONG)])
def test_long_payloads_decode_and_are_smaller_on_logs(coder, coding, long_coding):
    data = log_lines(3000)
    g, hist = grammar_of(data)
    rules = _coding_sorted.numbered(g, hist > 0, long_rules=True)
    assert rules.long_rules
    payload = coder.encode(g, hist, rules)
    assert len(payload) < len(coder.encode(g, hist))
    assert blocks.decode(long_coding, payload, len(data),
                         np.empty(len(data), np.uint8)).tobytes() == data
    with pytest.raises(GageBPEError):  # its table is not a merge table
        blocks.decode(coding, payload, len(data), np.empty(len(data), np.uint8))


def test_the_smaller_table_is_chosen_and_merges_win_a_tie():
    merges = np.array([[0, 1], [0, 0]], np.int32)  # nothing to fold
    g = _grammar.Grammar(merges, np.array([2, 3, 2, 3], np.int32), np.array([2, 2]))
    hist = np.zeros(256, np.int64)
    hist[:2] = 1
    assert not _coding_sorted.numbered(g, hist > 0, long_rules=True).long_rules


@pytest.mark.parametrize("level", [6, 9])
def test_logs_are_written_with_long_rules_at_levels_6_to_9(level):
    data = log_lines(4000)
    blob = gagebpe.compress(data, level)
    assert LONG_CODINGS & set(_coding_chain(blob))
    assert gagebpe.decompress(blob) == data


def _coding_chain(blob):
    """The codings of a one-block stream's block, outer first."""
    parser = _container.Parser()
    view = memoryview(blob)
    at = 0
    while True:
        unit, n = parser.parse(view[at:], True)
        assert unit is not None
        at += n
        if isinstance(unit, _container.Payload):
            return registry.codings_of(unit.block.coding, bytes(unit.data))


def test_levels_1_to_5_keep_to_merges():
    data = log_lines(4000)
    for level in (1, 5):
        assert not LONG_CODINGS & set(_coding_chain(gagebpe.compress(data, level)))


def test_a_stream_of_long_blocks_is_read_by_every_reader():
    pieces = [log_lines(3000, seed) for seed in range(2)]
    blob = gagebpe.compress(b"".join(pieces), 6, block_size=len(pieces[0]))
    assert blob[:4] == _container.MAGIC
    assert gagebpe.decompress(blob) == b"".join(pieces)
    streams = [gagebpe.compress(p, 6) for p in pieces] + [blob]
    check_every_reader(streams, pieces + [b"".join(pieces)])


def test_every_corrupted_byte_of_a_sorted_long_payload_is_refused():
    # (CONTEXT_LONG's: test_context.py)
    data = log_lines(1500)
    blob = gagebpe.compress(data, 6)
    (start, end, block), = payload_spans(blob)
    assert block.coding == registry.SORTED_LONG
    for at in range(start, end):
        bad = bytearray(blob)
        bad[at] ^= 0x41
        with pytest.raises(GageBPEError):
            gagebpe.decompress(bytes(bad))


def test_the_one_block_path_decodes_long_streams():
    data = log_lines(3000)
    blob = gagebpe.compress(data, 6)
    assert _fast.decode(blob, len(data)) == data
