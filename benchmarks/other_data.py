"""Gather data unlike the Canterbury corpus from this machine into a
directory, to check that what gagebpe tunes on the corpus holds elsewhere:
text in other languages and scripts, source code, a binary, logs.

    python benchmarks/other_data.py /tmp/other
    python benchmarks/bench.py /tmp/other --levels 6,9 --peers "zlib -9,bz2 -9,xz -6,brotli -11"

Each file is the concatenation, in sorted order, of what a standard place
of a Debian-like system holds, cut at a size cap; a source that is absent
is skipped (and said so).  The files are written, never read from the
repository: they depend on the machine.
"""
import argparse
import gzip
import sys
import sysconfig
from pathlib import Path

CAP = 4 << 20


def concatenation(paths, cap=CAP, opener=Path.read_bytes):
    out = bytearray()
    for path in sorted(paths):
        try:
            out += opener(path)
        except (OSError, EOFError):
            continue
        if len(out) >= cap:
            break
    return bytes(out[:cap])


def man_pages(language):
    return concatenation(Path(f"/usr/share/man/{language}").glob("man*/*.gz"),
                         2 << 20, lambda p: gzip.decompress(p.read_bytes()))


def sources():
    """name -> bytes of each data set found on this machine."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    import numpy
    numpy_dir = Path(numpy.__file__).parent
    return {
        "man-de.roff": man_pages("de"),       # German
        "man-ru.roff": man_pages("ru"),       # Russian, Cyrillic UTF-8
        "man-ja.roff": man_pages("ja"),       # Japanese, multi-byte UTF-8
        "stdlib.py": concatenation(stdlib.glob("*.py")),
        "headers.h": concatenation(Path("/usr/include").rglob("*.h"), 2 << 20),
        "numpy-core.so": concatenation(numpy_dir.rglob("_multiarray_umath*.so")),
        "dpkg.log": concatenation([Path("/var/log/dpkg.log"), Path("/var/log/apt/term.log")]),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    args = parser.parse_args()
    args.directory.mkdir(parents=True, exist_ok=True)
    for name, data in sources().items():
        if not data:
            print(f"{name}: not found on this machine, skipped", file=sys.stderr)
            continue
        (args.directory / name).write_bytes(data)
        print(f"{name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
