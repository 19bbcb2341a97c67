"""What the tokenizer benchmarks share: the text they run on, timing,
peak memory in a child process, and writing a table into
benchmarks/RESULTS.md.

(The tokenizer benchmarks are not named ``tokenizers.py``: run as a
script, that name would hide Hugging Face's ``tokenizers`` package.)
"""
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CORPUS = HERE.parent / "shared" / "corpus" / "canterbury"
BIBLE = CORPUS / "bible.txt"


def load_text(scale=1):
    """bible.txt repeated ``scale`` times, or the built-in sample."""
    if BIBLE.exists():
        text = BIBLE.read_text(encoding="utf-8")
    else:
        from gagebpe.sample import sample
        print(f"(no corpus at {CORPUS}: using the built-in sample)")
        text = sample(4 << 20).decode()
    return text * scale


def timed(fn, *args, **kwargs):
    """``(result, seconds)`` of one call."""
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start


def median(times):
    return statistics.median(times) if times else float("nan")


# Run in a child: the rise of the resident set while ``work`` runs, in bytes,
# printed on the last line (VmHWM is reset through /proc/self/clear_refs).
PEAK_HARNESS = r"""
import re
from pathlib import Path
def _status(field):
    found = re.search(rf"^{field}:\s+(\d+) kB", Path("/proc/self/status").read_text(), re.M)
    return int(found.group(1)) * 1024
def measure(work):
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    result = work()
    print(result)
    print(_status("VmHWM") - before)
"""


def peak_in_child(code, *args):
    """``(printed lines, peak bytes)`` of ``code`` run in a child process
    that calls ``measure(work)`` and can import the benchmarks (glibc's
    mmap threshold pinned, so that large buffers are returned and each
    peak is seen)."""
    path = os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                         os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072", PYTHONPATH=path)
    out = subprocess.run([sys.executable, "-c", PEAK_HARNESS + code, *map(str, args)],
                         env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    lines = out.stdout.strip().splitlines()
    return lines[:-1], int(lines[-1])


def write_marked(path, marker, table, command):
    """Put ``table``, the ``command`` that made it and the gagebpe version
    measured between ``<!-- {marker}: start -->`` and ``<!-- {marker}:
    end -->`` in ``path`` (benchmarks/RESULTS.md, or the README's summary)."""
    import gagebpe
    text = path.read_text()
    start, end = f"<!-- {marker}: start -->", f"<!-- {marker}: end -->"
    block = f"{start}\n{table}\n\n`{command}` (gagebpe {gagebpe.__version__})\n{end}"
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{path} has no {marker} markers")
    path.write_text(pattern.sub(lambda m: block, text))


def command_line(script, argv):
    """The command that made a table, as the results quote it."""
    return f"python benchmarks/{script} {shlex.join(argv)}".strip()
