"""The trie of a dictionary's coded phrases (``kernels.shortest_parse.trie``):
every walk it allows is a prefix of a coded phrase and ends at the
shortest code of that phrase, whether a node is read off its own entry
(one child, none) or off the hashed edges (several)."""
import numpy as np
from hypothesis import given, strategies as st

from gagebpe.kernels import shortest_parse

phrase_sets = st.lists(st.binary(min_size=1, max_size=12).map(
    lambda b: bytes(x % 4 for x in b)), min_size=1, max_size=40)


def built(phrases, lengths, prefixes=None):
    sizes = np.array([len(p) for p in phrases], np.int32)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    table = np.frombuffer(b"".join(phrases), np.uint8)
    prefixes = np.full(len(phrases), -1, np.int64) if prefixes is None else prefixes
    return shortest_parse.trie(table, offsets, sizes, np.array(lengths, np.int64),
                               np.asarray(prefixes, np.int64))


def walk(edges, symbols, text):
    node = shortest_parse._ROOT
    for byte in text:
        node = shortest_parse._child(edges, symbols, node, byte)
        if node == shortest_parse._NONE:
            return None
    return node


@given(phrase_sets, st.data())
def test_walks_end_at_the_shortest_code_of_their_phrase(phrases, data):
    lengths = data.draw(st.lists(st.integers(0, 9), min_size=len(phrases),
                                 max_size=len(phrases)))
    edges, symbols, bits = built(phrases, lengths)
    best = {}
    for s, (phrase, n) in enumerate(zip(phrases, lengths)):
        if n and n < best.get(phrase, (99, 0))[0]:
            best[phrase] = (n, s)
    prefixes = {p[:k] for p in best for k in range(len(p) + 1)}
    probes = prefixes | {bytes(x % 5 for x in p) + b"\x03" for p in phrases}
    for text in probes:
        node = walk(edges, symbols, text)
        assert (node is not None) == (text in prefixes), text
        if text in best:
            assert (bits[node], symbols[node]) == best[text]
        elif node is not None:
            assert symbols[node] == shortest_parse._NONE


def test_a_full_trie_keeps_the_phrases_laid_before_it_filled(monkeypatch):
    # Phrases stop at MAX_NODES nodes; the walk still reads what was laid.
    monkeypatch.setattr(shortest_parse, "MAX_NODES", 6)
    phrases = [b"abc", b"abd", b"xyz"]
    edges, symbols, bits = shortest_parse.trie.py_func(
        np.frombuffer(b"".join(phrases), np.uint8), np.array([0, 3, 6]),
        np.array([3, 3, 3], np.int32), np.ones(3, np.int64), np.full(3, -1, np.int64))
    assert symbols[walk(edges, symbols, b"abc")] == 0
    assert symbols[walk(edges, symbols, b"abd")] == 1
    assert walk(edges, symbols, b"x") is not None  # laid before the trie filled
    assert walk(edges, symbols, b"xy") is None


@given(st.lists(st.tuples(st.integers(0, 99), st.integers(0, 99)), min_size=1, max_size=60),
       st.data())
def test_phrases_laid_from_their_left_halves_make_the_same_trie(pairs, data):
    """Merges' phrases laid from the node of their left half, where it was
    laid, give the trie laid from the root, node for node."""
    phrases, prefixes = [bytes([b]) for b in range(4)], [-1] * 4
    for a, b in pairs:  # each merge of two earlier symbols
        a, b = a % len(phrases), b % len(phrases)
        if len(phrases[a]) + len(phrases[b]) > shortest_parse.MAX_DEPTH + 8:
            continue
        phrases.append(phrases[a] + phrases[b])
        prefixes.append(a)
    lengths = data.draw(st.lists(st.integers(0, 9), min_size=len(phrases),
                                 max_size=len(phrases)))
    laid = built(phrases, lengths, prefixes)
    assert all((x == y).all() for x, y in zip(laid, built(phrases, lengths)))
