"""docs/FORMAT.md's worked example is what gagebpe writes and reads."""
import re
from pathlib import Path

import gagebpe
from conftest import without_lz

FORMAT = Path(__file__).resolve().parents[1] / "docs" / "FORMAT.md"


def example_stream():
    text = FORMAT.read_text().split("## 7. A complete example", 1)[1]
    dump = text.split("```", 2)[1]
    return bytes.fromhex("".join(re.sub(r"^[0-9a-f]{4}  ", "", line)
                                 for line in dump.strip().splitlines()))


def test_the_example_stream_is_what_gagebpe_writes():
    blob = example_stream()
    assert len(blob) == 52
    assert blob == without_lz(b"ab" * 32)
    assert gagebpe.decompress(blob) == b"ab" * 32
    (info,) = gagebpe.describe(__import__("io").BytesIO(blob))
    assert (info.version, info.blocks, info.size, info.stream_bytes, info.merges) == \
        (10, 1, 64, 52, 4)


def test_the_example_in_the_block_layout_is_what_gagebpe_reads():
    text = FORMAT.read_text().split("## 7. A complete example", 1)[1]
    header = bytes.fromhex(re.search(r"header before it \(`([0-9a-f ]+)\n([0-9a-f ]+)`", text)
                           .expand(r"\1 \2"))
    block_header = bytes.fromhex(re.search(r"block header of section 3.3\n\(`([0-9a-f ]+)`",
                                           text).group(1))
    block = block_header + example_stream()[8:]
    trailer = bytes.fromhex("00" "3d000000" "40000000" "01000000" "4000000000000000"
                            "70402991") + b"EPBG"
    assert gagebpe.decompress(header + block + trailer) == b"ab" * 32
    assert gagebpe.decompress(b"GBPE\x04\x01" + block) == b"ab" * 32
    v7 = re.search(r"after a 6-byte preamble,\n`([0-9a-f ]+)`", text).group(1)
    assert gagebpe.decompress(bytes.fromhex(v7) + b"\x02" + example_stream()[2:]) == b"ab" * 32
    v9 = bytes.fromhex(re.search(r"with the magic `([0-9a-f ]+)` and the coding byte `([0-9a-f]+)`",
                                 text).expand(r"\1 \2"))
    assert gagebpe.decompress(v9 + example_stream()[2:]) == b"ab" * 32
