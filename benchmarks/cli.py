"""The command line's start-up time and its memory on a large input.

    python benchmarks/cli.py                 # start-up only (about two minutes)
    python benchmarks/cli.py --large 1024    # also a 1024 MB generated file

Start-up: wall time of ``gagebpe -c`` and ``-dc`` on a 1 KB file (small
jobs run in plain Python, without loading Numba: small_jobs.py measures them
beside their peers) and on a 64 KB
file (compiled kernels), with an empty kernel cache (cold: Numba compiles)
and a warm one, next to ``gzip -c`` in the same run; best of ``--repeat``
for the warm runs.

Large: a file of the built-in sample text, compressed and then tested
(``-t``) through the command line; reports each process's peak resident
memory (through GNU time where installed, so that this process's own
memory does not count) against the block size.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import gagebpe
from gagebpe.sample import sample

CLI = [sys.executable, "-m", "gagebpe"]


GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def run(command, env=None):
    """``(seconds, peak RSS bytes)`` of one run of ``command``.  A child's
    peak counts its parent's memory at the fork, so the peak comes from GNU
    time's own child where time is installed."""
    with tempfile.NamedTemporaryFile("r") as report:
        wrapper = [GNU_TIME, "-f", "%M", "-o", report.name] if GNU_TIME else []
        start = time.perf_counter()
        proc = subprocess.Popen(wrapper + command, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{command} failed: {proc.stderr.read().decode()}")
        peak_kb = int(report.read().split()[-1]) if GNU_TIME else usage.ru_maxrss
    return seconds, peak_kb * 1024


def startup(workdir, repeat):
    cache = workdir / "numba-cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    rows = []
    for size in (1000, 64_000):
        text = workdir / f"sample-{size}.txt"
        text.write_bytes(sample(size))
        packed = workdir / f"sample-{size}.txt.gbpe"
        label = f"{size // 1000} KB"
        shutil.rmtree(cache, ignore_errors=True)
        rows.append((f"gagebpe -c, {label}, cold kernel cache",
                     run(CLI + ["-c", str(text)], env)[0]))
        warm = min(run(CLI + ["-c", str(text)], env)[0] for _ in range(repeat))
        rows.append((f"gagebpe -c, {label}, warm", warm))
        packed.write_bytes(subprocess.run(CLI + ["-c", str(text)], env=env,
                                          capture_output=True, check=True).stdout)
        rows.append((f"gagebpe -dc, {label}, warm",
                     min(run(CLI + ["-dc", str(packed)], env)[0] for _ in range(repeat))))
        if shutil.which("gzip"):
            rows.append((f"gzip -c, {label}",
                         min(run(["gzip", "-c", str(text)])[0] for _ in range(repeat))))
    lines = ["| command | wall s |", "|---|---:|"]
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
    block_size = gagebpe.Compressor(level).block_size
    t_comp, m_comp = run(CLI + [f"-{level}", "-T", str(threads), str(path)])
    packed = workdir / "large.txt.gbpe"
    t_test, m_test = run(CLI + ["-t", "-T", str(threads), str(packed)])
    ratio = size / packed.stat().st_size
    lines = [f"{size:,} bytes at level {level}, {threads} thread(s), "
             f"{block_size >> 20} MiB blocks; ratio {ratio:.3f}", "",
             "| operation | wall s | MB/s | peak RSS MB | peak / (threads x block size) |",
             "|---|---:|---:|---:|---:|"]
    for name, t, m in (("compress", t_comp, m_comp), ("test (-t)", t_test, m_test)):
        lines.append(f"| {name} | {t:.1f} | {size / t / 1e6:.2f} | {m / 1e6:.0f} | "
                     f"{m / (threads * block_size):.1f} |")
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
