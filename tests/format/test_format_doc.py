"""docs/FORMAT.md's worked example is what gagebpe writes and reads, and
the libmagic rule it points to recognises gagebpe's streams."""
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import gagebpe
from conftest import block_layout, without_lz

DOCS = Path(__file__).resolve().parents[2] / "docs"
FORMAT = DOCS / "FORMAT.md"


def example_text():
    return FORMAT.read_text().split("## 9. A complete example", 1)[1]


def example_stream():
    dump = example_text().split("```", 2)[1]
    return bytes.fromhex("".join(re.sub(r"^[0-9a-f]{4}  ", "", line)
                                 for line in dump.strip().splitlines()))


def test_the_example_stream_is_what_gagebpe_writes():
    blob = example_stream()
    assert len(blob) == 56
    assert blob == without_lz(b"ab" * 32)
    assert gagebpe.decompress(blob) == b"ab" * 32
    (info,) = gagebpe.describe(io.BytesIO(blob))
    assert (info.version, info.blocks, info.size, info.stream_bytes, info.merges) == \
        ("1.0", 1, 64, 56, 4)


def test_the_example_in_the_block_layout_is_what_gagebpe_reads():
    text = " ".join(example_text().split())
    header = bytes.fromhex(re.search(r"max(?:imum)? block size and check \(`([0-9a-f ]+)`", text)
                           .group(1))
    block_header = bytes.fromhex(re.search(r"block header \(`([0-9a-f ]+)`", text).group(1))
    index_check = bytes.fromhex(re.search(r"the index_check `([0-9a-f ]+)`", text).group(1))
    blob = (gagebpe.format.container.MAGIC + b"\x01" + header + block_header
            + example_stream()[12:] + bytes.fromhex("00 3d000000 40000000 01000000")
            + (64).to_bytes(8, "little") + index_check + bytes.fromhex("50424789"))
    assert blob == block_layout(example_stream())
    assert gagebpe.decompress(blob) == b"ab" * 32


@pytest.mark.skipif(shutil.which("file") is None, reason="file(1) is not installed")
def test_the_libmagic_rule_names_gagebpe_streams(tmp_path):
    for name, blob in (("single", gagebpe.compress(b"hello " * 100)),
                       ("blocks", gagebpe.compress(b"hello " * 100, block_size=100)),
                       ("empty", gagebpe.compress(b""))):
        path = tmp_path / name
        path.write_bytes(blob)
        out = subprocess.run(["file", "-b", "-m", str(DOCS / "gagebpe.magic"), str(path)],
                             capture_output=True, text=True, check=True).stdout
        assert out.startswith("gagebpe compressed data, format 1.0"), out
        assert ("several blocks" if name == "blocks" else "one block") in out
    text = tmp_path / "text"
    text.write_bytes(b"GBPE is not this")
    out = subprocess.run(["file", "-b", "-m", str(DOCS / "gagebpe.magic"), str(text)],
                         capture_output=True, text=True, check=True).stdout
    assert "gagebpe" not in out
