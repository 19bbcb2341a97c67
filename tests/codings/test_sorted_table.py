"""The compact merge table of SORTED blocks: canonical order, round trips,
malformed tables; and the probe that decides whether a block is merged."""
from pathlib import Path

import numpy as np
from hypothesis import given, strategies as st

import gagebpe
from gagebpe.encoder import block as _block, levels
from gagebpe.decoder import blocks
from gagebpe.format.codings import packed as _coding_packed, sorted_rules as _coding_sorted
from gagebpe.kernels import grammar as _grammar, cutoff as _cutoff, sorted_table as _sorted_table
from gagebpe import grammar, sample
from conftest import trying

DATA = Path(__file__).parents[1] / "data"


def random_merges(rng, n_terminals, n_merges, chain=False):
    """Distinct merges, merge k over symbols below n_terminals + k (as BPE
    makes them); with ``chain``, each uses the one before (depth k + 1)."""
    merges, seen = [], set()
    for k in range(n_merges):
        limit = n_terminals + k
        pair = tuple(int(x) for x in rng.integers(0, limit, 2))
        if (chain and k) or pair in seen:
            pair = (limit - 1, pair[1])  # the newest symbol: never used yet
        seen.add(pair)
        merges.append(pair)
    return np.array(merges, np.int32).reshape(-1, 2)


def canonical_table(merges, n_terminals):
    order, sizes = _sorted_table.canonical(merges, n_terminals)
    table = np.empty_like(merges)
    table[order[n_terminals:] - n_terminals] = order[merges]
    return order, sizes, table


def expansions(merges, n_terminals, base=1_000_003, prime=(1 << 61) - 1):
    """Each symbol's expansion as (length, polynomial hash): expansions
    double with depth, so they are compared by fingerprint."""
    words = [(1, t + 1) for t in range(n_terminals)]
    for a, b in merges:
        (la, ha), (lb, hb) = words[a], words[b]
        words.append((la + lb, (ha * pow(base, lb, prime) + hb) % prime))
    return words


@given(st.integers(1, 300), st.integers(0, 300), st.booleans(), st.integers(0, 2**32))
def test_canonical_table_round_trips_and_keeps_every_expansion(
        n_terminals, n_merges, chain, seed):
    merges = random_merges(np.random.default_rng(seed), n_terminals, n_merges, chain)
    order, sizes, table = canonical_table(merges, n_terminals)
    assert sizes.sum() == n_merges
    if chain:
        assert len(sizes) == n_merges
    # A topological numbering: every merge refers to earlier symbols ...
    _grammar.check_merges(table, n_terminals)
    # ... and symbol s of the old table expands as order[s] of the new one.
    old, new = expansions(merges, n_terminals), expansions(table, n_terminals)
    assert [new[s] for s in order] == old
    packed = _sorted_table.pack(table, sizes, n_terminals)
    out = np.empty_like(table)
    assert _sorted_table.unpack(packed, n_terminals, out)
    assert np.array_equal(out, table)


def packed_example():
    merges = random_merges(np.random.default_rng(7), 40, 200)
    _, sizes, table = canonical_table(merges, 40)
    return table, _sorted_table.pack(table, sizes, 40)


def test_unpack_rejects_malformed_tables():
    table, packed = packed_example()
    out = np.empty_like(table)
    assert _sorted_table.unpack(packed, 40, out)
    for cut in range(len(packed)):  # every truncation
        assert not _sorted_table.unpack(packed[:cut], 40, out)
    assert not _sorted_table.unpack(np.append(packed, np.uint8(0)), 40, out)  # bytes to spare
    assert not _sorted_table.unpack(packed, 40, np.empty((len(table) - 1, 2), np.int32))
    zeros = np.zeros(64, np.uint8)  # unary codes that never end
    assert not _sorted_table.unpack(zeros, 40, out)
    ones = np.full(64, 255, np.uint8)  # m = 1 with k past its bound
    assert not _sorted_table.unpack(ones, 40, out)


def test_unpack_rejects_codes_out_of_range():
    # One depth of one merge, k = 0, gap 40 * 40: key limit * limit.
    bits = "1" + format(0, "06b")[::-1] + "0" * 1600 + "1"
    bits += "0" * (-len(bits) % 8)
    table = np.array([int(bits[i:i + 8][::-1], 2) for i in range(0, len(bits), 8)],
                     np.uint8)
    assert not _sorted_table.unpack(table, 40, np.empty((1, 2), np.int32))
    table_ok = np.array([0b10000001, 0], np.uint8)  # gap 0: merge (0, 0)
    out = np.empty((1, 2), np.int32)
    assert _sorted_table.unpack(table_ok[:1], 40, out) and out.tolist() == [[0, 0]]


def test_sorted_blocks_are_smaller_than_fixed_width_tables():
    text = sample.sample(200_000)
    hist = np.bincount(np.frombuffer(text, np.uint8), minlength=256)
    g = grammar.encode(text)
    packed = _coding_packed.encode(_grammar.truncate(g, _cutoff.for_packed(g, hist)), hist)
    compact = _coding_sorted.encode(_grammar.truncate(g, _cutoff.for_sorted(g, hist)), hist)
    assert len(compact) < 0.97 * len(packed)


def test_probe_skips_merges_only_where_they_do_not_pay():
    noise = np.random.default_rng(1).integers(0, 256, 1 << 20, dtype=np.uint8).tobytes()
    text = sample.sample(1 << 20)
    assert not _block.merges_pay(_block.probe_sample(noise), 4, levels.PROBE)
    assert _block.merges_pay(_block.probe_sample(text), 4, levels.PROBE)
    coding, payload = _block.encode(noise, trying(4, probe=levels.PROBE))
    out = np.empty(len(noise), np.uint8)
    assert bytes(blocks.decode(coding, payload, len(noise), out)) == noise
    assert gagebpe.decompress(gagebpe.compress(noise + text)) == noise + text


def test_the_quick_probe_answers_as_the_full_one_would():
    rng = np.random.default_rng(2)
    text = sample.sample(1 << 18)
    dna = bytes(rng.choice(np.frombuffer(b"ACGT", np.uint8), 1 << 18))
    noise = rng.integers(0, 256, 1 << 18, dtype=np.uint8).tobytes()
    # Noise with a 32 KB stretch four times over: the first merges save
    # almost nothing, the whole grammar a quarter.
    repeated = noise[:1 << 17] + noise[-(1 << 15):] * 4
    hist = np.bincount(np.frombuffer(repeated, np.uint8), minlength=256)
    quick = _cutoff.sorted_bits(_grammar.build(repeated, 4, _block.QUICK_PROBE_MERGES), hist)
    gain = levels.PROBE
    assert quick.min() > (1 - gain) * quick[0]
    for data in (text, dna, noise, repeated, text[:4096] * 64):
        hist = np.bincount(np.frombuffer(data, np.uint8), minlength=256)
        full = _cutoff.sorted_bits(_grammar.build(data, 4), hist)
        quick = _cutoff.sorted_bits(_grammar.build(data, 4, _block.QUICK_PROBE_MERGES), hist)
        assert np.array_equal(quick, full[:len(quick)])  # a prefix's estimate
        assert _block.merges_pay(data, 4, gain) == (full.min() < (1 - gain) * full[0])
