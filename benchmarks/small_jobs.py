"""Small jobs: the command line run once per file, and the library called
once per 4 KB chunk, each beside its peers in the same rounds.

    python benchmarks/small_jobs.py                       # print the tables
    python benchmarks/small_jobs.py --results benchmarks/RESULTS.md

Command line: the wall time of `gagebpe -N -c FILE` and `gagebpe -dc
FILE.gbpe` at levels 1, 6 and 9 on files of 1 KB, 4 KB and 64 KB, each a
separate process, beside `gzip -c`, `python -c pass` and `python -c "import
numba"` (the least any job that loads the kernels takes); the commands take
turns within each round, and the table gives medians of rounds.  The
files are text gagebpe was not tuned on: the start of the Python standard
library's sources.  Kernels are cached, and the children may write
bytecode (PYTHONDONTWRITEBYTECODE is dropped from their environment), as
for an installed package; each command runs once before the rounds.

Library: `gagebpe.compress` and `gagebpe.decompress` at the default level
on 4 KB chunks of the Canterbury texts (or of the same sources), beside
python-zstandard's one-shot `ZstdCompressor(level=19).compress` and
`ZstdDecompressor().decompress`, median over rounds of the mean per call.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from _shared import CORPUS, command_line, write_marked

SIZES = {"1 KB": 1 << 10, "4 KB": 4 << 10, "64 KB": 64 << 10}
LEVELS = (1, 6, 9)
TEXTS = ("alice29.txt", "asyoulik.txt", "lcet10.txt", "plrabn12.txt", "bible.txt",
         "world192.txt")


def held_out_text(size):
    """``size`` bytes of the standard library's sources, in sorted order."""
    out = bytearray()
    for path in sorted(Path(sysconfig.get_paths()["stdlib"]).glob("*.py")):
        out += path.read_bytes()
        if len(out) >= size:
            return bytes(out[:size])
    raise SystemExit("not enough standard library sources")


def wall(command, env):
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def command_line_rows(rounds):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    gagebpe = [sys.executable, "-m", "gagebpe"]
    commands = {"python -c pass": [sys.executable, "-c", "pass"],
                "python -c 'import numba'": [sys.executable, "-c", "import numba"]}
    with tempfile.TemporaryDirectory() as tmp:
        for label, size in SIZES.items():
            path = Path(tmp) / f"{label.replace(' ', '')}.txt"
            path.write_bytes(held_out_text(size))
            if shutil.which("gzip"):
                commands[f"gzip -c, {label}"] = ["gzip", "-c", str(path)]
            for level in LEVELS:
                packed = path.with_suffix(f".{level}.gbpe")
                packed.write_bytes(subprocess.run(gagebpe + [f"-{level}", "-c", str(path)],
                                                  env=env, capture_output=True,
                                                  check=True).stdout)
                commands[f"gagebpe -{level} -c, {label}"] = gagebpe + [f"-{level}", "-c",
                                                                      str(path)]
                commands[f"gagebpe -dc, {label} (-{level})"] = gagebpe + ["-dc", str(packed)]
        for command in commands.values():
            wall(command, env)  # bytecode written, kernels loaded once
        times = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                times[name].append(wall(command, env))
    return {name: statistics.median(t) for name, t in times.items()}


def chunks(size=4 << 10):
    if CORPUS.is_dir():
        files = [(CORPUS / name).read_bytes() for name in TEXTS]
    else:
        files = [held_out_text(1 << 20)]
    out = [f[i:i + size] for f in files for i in range(0, len(f) - size + 1, size)]
    return out[::max(1, len(out) // 200)]


def per_call_rows(rounds):
    import gagebpe
    import zstandard
    data = chunks()
    zc, zd = zstandard.ZstdCompressor(level=19), zstandard.ZstdDecompressor()
    ours, theirs = [gagebpe.compress(c) for c in data], [zc.compress(c) for c in data]
    assert [gagebpe.decompress(b) for b in ours] == data
    work = {"gagebpe compress": (gagebpe.compress, data),
            "zstd -19 compress": (zc.compress, data),
            "gagebpe decompress": (gagebpe.decompress, ours),
            "zstd decompress": (zd.decompress, theirs)}
    times = {name: [] for name in work}
    for _ in range(rounds):
        for name, (fn, inputs) in work.items():
            start = time.perf_counter()
            for x in inputs:
                fn(x)
            times[name].append((time.perf_counter() - start) / len(inputs))
    med = {name: statistics.median(t) for name, t in times.items()}
    ratio = {"gagebpe": sum(map(len, data)) / sum(map(len, ours)),
             "zstd -19": sum(map(len, data)) / sum(map(len, theirs))}
    return med, ratio, len(data)


def render(cli, calls, rounds):
    floor = cli["python -c pass"]
    lines = [f"Command line, one process per file (medians of {rounds} rounds; the "
             f"last column is the time beyond `python -c pass`, for Python's commands):", "",
             "| command | wall ms | beyond python ms |", "|---|---:|---:|"]
    lines += [f"| `{name}` | {t * 1e3:.0f} | "
              f"{'' if name.startswith('gzip') else f'{(t - floor) * 1e3:.0f}'} |"
              for name, t in cli.items()]
    med, ratio, n = calls
    lines += ["", f"Library, per call on {n} chunks of 4 KB (medians of {rounds} rounds):", "",
              "| call | µs | × zstd | ratio |", "|---|---:|---:|---:|"]
    for what in ("compress", "decompress"):
        peer = med["zstd -19 compress"] if what == "compress" else med["zstd decompress"]
        lines.append(f"| gagebpe {what} (level 6) | {med[f'gagebpe {what}'] * 1e6:.1f} | "
                     f"{med[f'gagebpe {what}'] / peer:.2f} | {ratio['gagebpe']:.3f} |")
        lines.append(f"| zstd {'-19 ' if what == 'compress' else ''}{what} | "
                     f"{peer * 1e6:.1f} | 1.00 | {ratio['zstd -19']:.3f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--results", type=Path, help="put the tables in this file")
    args = parser.parse_args()
    table = render(command_line_rows(args.rounds), per_call_rows(3 * args.rounds), args.rounds)
    print(table)
    if args.results:
        write_marked(args.results, "small jobs", table,
                     command_line("small_jobs.py", sys.argv[1:]))


if __name__ == "__main__":
    main()
