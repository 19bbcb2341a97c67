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
from gagebpe.format import fast, registry
from gagebpe import _plain_jobs as plain

from conftest import coding_of

VECTORS = Path(__file__).parent / "vectors"
MANIFEST = json.loads((VECTORS / "vectors.json").read_text())
FORMAT = Path(__file__).resolve().parents[1] / "docs" / "FORMAT.md"
ERRORS = {"GageBPEError": gagebpe.GageBPEError, "EOFError": EOFError}
PLAIN_CODINGS = {registry.STORED, registry.LZ, registry.LZ_PARTS, registry.MIXED,
                 registry.MIXED_PRIMED}


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


def _block_headers(blob):
    from gagebpe.format import container
    view, at = memoryview(blob), 0
    while at < len(blob):
        parser = container.Parser()
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
    assert covered == set(registry.CODINGS) - {registry.END_OF_BLOCKS}
    section = FORMAT.read_text().split("## 7. Conformance vectors", 1)[1].split("\n## ", 1)[0]
    assert "tests/vectors/" in section and "vectors.json" in section
    assert re.search(r"malformed streams", section)
