"""Format 1.0's conformance vectors (tests/vectors/, docs/FORMAT.md section
7): every reader decodes each valid vector to its expected output, and
refuses each malformed one with the error it lists -- the one-shot and
incremental decompressors, the file reader, ``describe``, the one-block
fast path and the plain path, each where it takes the stream."""
import hashlib
import io
import json
import re
from pathlib import Path

import pytest

import gagebpe
from gagebpe.decoder import fast
from gagebpe.format.codings import registry
from gagebpe import _plain_jobs as plain

from conftest import coding_of

VECTORS = Path(__file__).parents[1] / "vectors"
MANIFEST = json.loads((VECTORS / "vectors.json").read_text())
FORMAT = Path(__file__).resolve().parents[2] / "docs" / "FORMAT.md"
ERRORS = {"GageBPEError": gagebpe.GageBPEError, "EOFError": EOFError}
PLAIN_CODINGS = {registry.STORED, registry.LZ, registry.LZ_PARTS, registry.SEQUENCES,
                 registry.MIXED, registry.MIXED_PRIMED}


def incremental(blob, piece):
    """``blob`` decoded by Decompressors fed ``piece`` bytes at a time."""
    out, d = [], gagebpe.Decompressor()
    for at in range(0, len(blob), piece):
        data = blob[at:at + piece]
        while data:
            if d.eof:
                d = gagebpe.Decompressor()
            out.append(d.decompress(data))
            data = d.unused_data if d.eof else b""
    if blob and not d.eof:
        raise EOFError("ended before the end-of-stream marker")
    return b"".join(out)


@pytest.mark.parametrize("name", sorted(MANIFEST["valid"]))
def test_every_reader_decodes_a_valid_vector(name):
    blob = (VECTORS / f"{name}.gbpe").read_bytes()
    expected = (VECTORS / f"{name}.out").read_bytes()
    entry = MANIFEST["valid"][name]
    assert (len(expected), hashlib.sha256(expected).hexdigest()) == (entry["size"],
                                                                      entry["sha256"])
    assert gagebpe.decompress(blob) == expected
    assert gagebpe.decompress(blob, threads=2) == expected
    for piece in (1, 7, 4096):
        assert incremental(blob, piece) == expected
    assert gagebpe.GageBPEFile(io.BytesIO(blob)).read() == expected
    infos = gagebpe.describe(io.BytesIO(blob))
    assert sum(i.size for i in infos) == len(expected)
    assert sum(i.stream_bytes for i in infos) == len(blob)
    assert {i.version for i in infos} == {"1.0"}
    taken = fast.decode(blob, 1 << 30)
    assert taken in (None, expected)
    if len(infos) == 1 and infos[0].blocks == 1 and blob[4] == 0:
        assert (taken is not None) == (coding_of(blob) in fast.TAKEN)
    plain_out = plain.decompress(blob)
    assert plain_out in (None, expected)
    codings = {unit.coding for unit in _block_headers(blob)}
    assert (plain_out is not None) == (codings <= PLAIN_CODINGS)


def _block_headers(blob, dictionaries=None):
    from gagebpe.format import container
    view, at = memoryview(blob), 0
    while at < len(blob):
        parser = container.Parser(dictionaries)
        while not parser.done:
            unit, n = parser.parse(view[at:], final=True)
            at += n
            if isinstance(unit, container.BlockHeader):
                yield unit


@pytest.mark.parametrize("name", sorted(MANIFEST["malformed"]))
def test_every_reader_refuses_a_malformed_vector(name):
    blob = (VECTORS / f"{name}.gbpe").read_bytes()
    entry = MANIFEST["malformed"][name]
    error = ERRORS[entry["error"]]
    with pytest.raises(error, match=entry["match"]):
        gagebpe.decompress(blob)
    for piece in (1, 4096):
        with pytest.raises(error):
            incremental(blob, piece)
    with pytest.raises(error):
        gagebpe.GageBPEFile(io.BytesIO(blob)).read()
    assert fast.decode(blob, 1 << 30) is None
    assert plain.decompress(blob) is None


def test_the_vectors_cover_every_coding_and_the_format_lists_them():
    covered = {unit.coding for name in MANIFEST["valid"]
               for unit in _block_headers((VECTORS / f"{name}.gbpe").read_bytes())}
    for name, entry in MANIFEST["with_dictionary"].items():
        if "sha256" in entry:
            d = gagebpe.Dictionary.from_bytes((VECTORS / entry["dictionary"]).read_bytes())
            covered |= {unit.coding for unit in _block_headers(
                (VECTORS / f"{name}.gbpe").read_bytes(), {d.id: d})}
    assert covered == set(registry.CODINGS) - {registry.END_OF_BLOCKS}
    section = FORMAT.read_text().split("## 7. Conformance vectors", 1)[1].split("\n## ", 1)[0]
    assert "tests/vectors/" in section and "vectors.json" in section
    assert re.search(r"malformed streams", section)


@pytest.mark.parametrize("name", sorted(MANIFEST["with_dictionary"]))
def test_every_reader_takes_a_vector_with_its_dictionary(name):
    entry = MANIFEST["with_dictionary"][name]
    dictionary = gagebpe.Dictionary.from_bytes((VECTORS / entry["dictionary"]).read_bytes())
    blob = (VECTORS / f"{name}.gbpe").read_bytes()
    readers = [lambda b: gagebpe.decompress(b, dictionary=dictionary),
               lambda b: gagebpe.decompress_many([b], dictionary=dictionary)[0],
               lambda b: gagebpe.Decompressor(dictionary=dictionary).decompress(b),
               lambda b: gagebpe.GageBPEFile(io.BytesIO(b), dictionary=dictionary).read(),
               lambda b: gagebpe.read_range(b, 0, 1 << 30, dictionary=dictionary)]
    if "error" in entry:
        for read in readers:
            with pytest.raises(ERRORS[entry["error"]], match=entry["match"]):
                read(blob)
        return
    expected = (VECTORS / f"{name}.out").read_bytes()
    assert hashlib.sha256(expected).hexdigest() == entry["sha256"]
    for read in readers:
        assert read(blob) == expected
    assert sum(i.size for i in gagebpe.describe(io.BytesIO(blob))) == len(expected)
    with pytest.raises(gagebpe.GageBPEError, match=f"{dictionary.id:#010x}"):
        gagebpe.decompress(blob)
