"""Gather data unlike the Canterbury corpus from this machine into a
directory, to check that what gagebpe tunes on the corpus holds elsewhere:
text in other languages and scripts, source code, logs, and the kinds of
file users compress: an executable, databases (SQLite, GDBM), XML, JSON,
a tarball of source, and raster images (a CT slice and an elevation map,
16-bit samples; from matplotlib's sample data, where it is installed).

    python benchmarks/other_data.py benchmarks/out/other
    python benchmarks/bench.py benchmarks/out/other --levels 6,9 \\
        --peers "zlib -9,bz2 -9,xz -6,brotli -11"
    python benchmarks/other_data.py --large benchmarks/out/large

With ``--large``, two whole files of LARGE bytes instead, whose repeats lie
farther apart than a level 6 block (``benchmarks/long_range.py``): a
tarball of the Python standard library's sources and the shared libraries
of /usr/lib concatenated.

Each file is the concatenation, in sorted order, of what a standard place
of a Debian-like system holds, cut at a size cap; a source that is absent
is skipped (and said so).  The files are written, never read from the
repository: they depend on the machine.
"""
import argparse
import gzip
import io
import sqlite3
import sys
import sysconfig
import tarfile
import tempfile
from pathlib import Path

CAP = 4 << 20
LARGE = 24 << 20


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


def executable(path):
    """The bytes of ``path`` if it is an ELF executable, else none."""
    data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
    return data if data[:4] == b"\x7fELF" else b""


def packages_database(status=Path("/var/lib/dpkg/status")):
    """A SQLite database of the packages dpkg lists: a table of their
    fields and an index by name, as an application would keep them."""
    try:
        text = status.read_text(errors="replace")
    except OSError:
        return b""
    rows = []
    for stanza in text.split("\n\n"):
        fields = {}
        for line in stanza.splitlines():
            if line[:1] not in (" ", "\t") and ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value.strip()
        if "Package" in fields:
            rows.append(tuple(fields.get(k, "") for k in (
                "Package", "Version", "Architecture", "Maintainer", "Installed-Size",
                "Depends", "Description")))
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "packages.sqlite"
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE package (name TEXT, version TEXT, arch TEXT, maintainer "
                       "TEXT, installed_kb INTEGER, depends TEXT, description TEXT)")
            db.executemany("INSERT INTO package VALUES (?, ?, ?, ?, ?, ?, ?)", sorted(rows))
            db.execute("CREATE INDEX package_name ON package (name)")
        db.close()
        return path.read_bytes()


def source_tarball(root, cap=CAP):
    """An uncompressed tar of the Python sources under ``root``, in sorted
    order with fixed owners and times, closed once it passes ``cap``."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path in sorted(root.rglob("*.py")):
            info = tar.gettarinfo(str(path), arcname=str(path.relative_to(root.parent)))
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            with path.open("rb") as f:
                tar.addfile(info, f)
            if out.tell() >= cap:
                break
    return out.getvalue()


def sample_images():
    """``{name: bytes}``: matplotlib's raster samples as raw 16-bit
    samples (a CT slice, an elevation map), where it is installed."""
    try:
        import matplotlib
        import numpy as np
    except ImportError:
        return {"ct-slice.u16": b"", "elevation.i16": b""}
    data = Path(matplotlib.__file__).parent / "mpl-data" / "sample_data"
    try:
        ct = gzip.decompress((data / "s1045.ima.gz").read_bytes())
        elevation = np.load(data / "jacksboro_fault_dem.npz")["elevation"].astype("<i2").tobytes()
    except (OSError, KeyError, ValueError):
        return {"ct-slice.u16": b"", "elevation.i16": b""}
    return {"ct-slice.u16": ct, "elevation.i16": elevation}


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
        "usr-bin.elf": concatenation(Path("/usr/bin").iterdir(), opener=executable),
        "packages.sqlite": packages_database(),
        "man-index.gdbm": concatenation([Path("/var/cache/man/index.db")]),
        "mime.xml": concatenation([Path("/usr/share/mime/packages/freedesktop.org.xml")]),
        "iso-codes.json": concatenation(Path("/usr/share/iso-codes/json").glob("*.json")),
        "numpy-src.tar": source_tarball(numpy_dir),
        **sample_images(),
    }


def large_sources():
    """name -> bytes of each whole file of ``--large``."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    return {
        "stdlib-src.tar": source_tarball(stdlib, LARGE),
        "usr-lib.so": concatenation(Path("/usr/lib/x86_64-linux-gnu").glob("*.so*"), LARGE,
                                    opener=executable),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--large", action="store_true", help="write the large files instead")
    args = parser.parse_args()
    args.directory.mkdir(parents=True, exist_ok=True)
    for name, data in (large_sources() if args.large else sources()).items():
        if not data:
            print(f"{name}: not found on this machine, skipped", file=sys.stderr)
            continue
        (args.directory / name).write_bytes(data)
        print(f"{name}: {len(data):,} bytes")


if __name__ == "__main__":
    main()
