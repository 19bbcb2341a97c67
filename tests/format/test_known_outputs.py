"""The same input and settings always give the same bytes: outputs compared
with the SHA-256 digests of what an earlier gagebpe wrote (tests/data/
known_outputs.json), for generated inputs and, where it is at hand, every
file of the Canterbury corpus.

``PYTHONPATH=tests python tests/format/test_known_outputs.py "why"`` writes the digests again: only
for a change that means to change the bytes (a new format version, a new
coding), with the reason in the file's comment."""
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import gagebpe
from gagebpe.sample import sample

from conftest import CANTERBURY, canterbury_files

KNOWN = json.loads((Path(__file__).parents[1] / "data" / "known_outputs.json").read_text())


def generated(name):
    """The generated inputs the digests were taken of."""
    rng = np.random.default_rng(1994)
    noise = rng.integers(0, 256, 5000, dtype=np.uint8).tobytes()
    dna = rng.choice(np.frombuffer(b"ACGT", np.uint8), 1 << 21).tobytes()
    return {
        "empty": b"", "one": b"a", "sample-1500": sample(1500), "sample-3000": sample(3000),
        "sample-100000": sample(100_000), "sample-1MiB": sample(1 << 20),
        "runs": b"a" * 5000 + b"b" * 3 + b"ab" * 700, "noise-5000": noise, "dna-2MiB": dna,
    }[name]


GENERATED = ("empty", "one", "sample-1500", "sample-3000", "sample-100000", "sample-1MiB",
             "runs", "noise-5000", "dna-2MiB")


def digest(data):
    return hashlib.sha256(data).hexdigest()


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_generated_inputs_give_the_known_bytes(name):
    data, want = generated(name), KNOWN["generated"][name]
    assert digest(data) == want["input"]
    for level in (1, 6, 9):
        assert digest(gagebpe.compress(data, level)) == want[f"level {level}"], level
    assert digest(gagebpe.compress(data, block_size=4096, threads=2)) == want["block_size 4096"]
    assert digest(gagebpe.compress(data, format="gage1994")) == want["gage1994"]
    if "grammar" in want:
        g = gagebpe.grammar.encode(data)
        assert digest(g.merges.astype("<i4").tobytes() + g.ids.astype("<i4").tobytes()) \
            == want["grammar"]


@pytest.mark.slow
@pytest.mark.parametrize("path", canterbury_files(), ids=lambda p: getattr(p, "name", "absent"))
def test_canterbury_files_give_the_known_bytes(path):
    data, want = path.read_bytes(), KNOWN["canterbury"][path.name]
    for level in (1, 6, 9):
        blob = gagebpe.compress(data, level)
        assert digest(blob) == want[str(level)], level
        assert gagebpe.decompress(blob) == data
    blob = gagebpe.compress(data, format="gage1994")
    assert digest(blob) == want["gage1994"]
    assert gagebpe.decompress(blob, format="gage1994") == data


def test_the_digests_cover_the_whole_corpus():
    if not CANTERBURY.is_dir():
        pytest.skip(f"Canterbury corpus not found at {CANTERBURY}")
    assert sorted(KNOWN["canterbury"]) == sorted(p.name for p in canterbury_files())


def known_outputs(comment):
    """The digests of what this gagebpe writes, as known_outputs.json holds them."""
    out = {"comment": comment, "generated": {}, "canterbury": {}}
    for name in GENERATED:
        old, data = KNOWN["generated"].get(name, {}), generated(name)
        want = {"input": digest(data)}
        for level in (1, 6, 9):
            want[f"level {level}"] = digest(gagebpe.compress(data, level))
        want["block_size 4096"] = digest(gagebpe.compress(data, block_size=4096, threads=2))
        want["gage1994"] = digest(gagebpe.compress(data, format="gage1994"))
        if "grammar" in old:
            g = gagebpe.grammar.encode(data)
            want["grammar"] = digest(g.merges.astype("<i4").tobytes()
                                     + g.ids.astype("<i4").tobytes())
        out["generated"][name] = want
    for path in canterbury_files():
        data = path.read_bytes()
        want = {str(level): digest(gagebpe.compress(data, level)) for level in (1, 6, 9)}
        want["gage1994"] = digest(gagebpe.compress(data, format="gage1994"))
        out["canterbury"][path.name] = want
    return out


if __name__ == "__main__":
    import sys
    if not CANTERBURY.is_dir():
        sys.exit(f"Canterbury corpus not found at {CANTERBURY}")
    path = Path(__file__).parents[1] / "data" / "known_outputs.json"
    path.write_text(json.dumps(known_outputs(sys.argv[1]), indent=1, sort_keys=True) + "\n")
