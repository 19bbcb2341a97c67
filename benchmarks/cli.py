"""The command line's start-up time and its memory on a large input.

    python benchmarks/cli.py                 # start-up only (about two minutes)
    python benchmarks/cli.py --large 1024    # also a 1024 MB generated file

Start-up: wall time of ``gagebpe -c`` on a 1 KB file with an empty kernel
cache (cold: Numba compiles) and with a warm one, next to ``gzip -c`` in the
same run; best of ``--repeat`` for the warm and gzip runs.

Large: a file of the built-in sample text, compressed and then tested
(``-t``) through the command line; reports the peak resident memory of each
process (from ``wait4``) against the block-size bound.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gagebpe.levels import settings
from gagebpe.sample import sample

CLI = [sys.executable, "-m", "gagebpe"]


def run(command, env=None, stdout=subprocess.DEVNULL):
    """``(seconds, peak RSS bytes)`` of one run of ``command``."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{command} failed: {proc.stderr.read().decode()}")
    return seconds, usage.ru_maxrss * 1024


def startup(workdir, repeat):
    small = workdir / "small.txt"
    small.write_bytes(sample(1000))
    cache = workdir / "numba-cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    rows = []
    cold, _ = run(CLI + ["-c", str(small)], env)
    warm = min(run(CLI + ["-c", str(small)], env)[0] for _ in range(repeat))
    packed = workdir / "small.txt.gbpe"
    packed.write_bytes(subprocess.run(CLI + ["-c", str(small)], env=env,
                                      capture_output=True, check=True).stdout)
    warm_d = min(run(CLI + ["-dc", str(packed)], env)[0] for _ in range(repeat))
    rows.append(("gagebpe -c, cold kernel cache", cold))
    rows.append(("gagebpe -c, warm", warm))
    rows.append(("gagebpe -dc, warm", warm_d))
    if shutil.which("gzip"):
        rows.append(("gzip -c", min(run(["gzip", "-c", str(small)])[0] for _ in range(repeat))))
    lines = ["| command (1 KB file) | wall s |", "|---|---:|"]
    lines += [f"| {name} | {seconds:.2f} |" for name, seconds in rows]
    return "\n".join(lines)


def large(workdir, megabytes, level, threads):
    path = workdir / "large.txt"
    chunk = sample(64 << 20)
    with open(path, "wb") as f:
        for _ in range(megabytes // 64):
            f.write(chunk)
        f.write(chunk[:(megabytes % 64) << 20])
    size = path.stat().st_size
    block_size = settings(level).block_size
    t_comp, m_comp = run(CLI + [f"-{level}", "-T", str(threads), str(path)])
    packed = workdir / "large.txt.gbpe"
    t_test, m_test = run(CLI + ["-t", "-T", str(threads), str(packed)])
    ratio = size / packed.stat().st_size
    lines = [f"{size:,} bytes at level {level}, {threads} thread(s), "
             f"{block_size >> 20} MiB blocks; ratio {ratio:.3f}", "",
             "| operation | wall s | MB/s | peak RSS MB | per block MB |",
             "|---|---:|---:|---:|---:|"]
    for name, t, m in (("compress", t_comp, m_comp), ("test (-t)", t_test, m_test)):
        lines.append(f"| {name} | {t:.1f} | {size / t / 1e6:.2f} | {m / 1e6:.0f} | "
                     f"{m / 1e6 / (threads * block_size / 2**20):.1f} per MiB |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--large", type=int, metavar="MB",
                        help="also compress a generated file of this many MB")
    parser.add_argument("--level", type=int, default=6)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        print(startup(workdir, args.repeat), flush=True)
        if args.large:
            print()
            print(large(workdir, args.large, args.level, args.threads))


if __name__ == "__main__":
    main()
