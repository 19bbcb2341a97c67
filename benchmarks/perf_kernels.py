"""Name gagebpe's compiled kernels for ``perf``: trains dictionaries on a
kind of the record set (benchmarks/records.py) after writing the perf map
(``/tmp/perf-<pid>.map``, where ``perf report`` looks for the names of
code it did not load from a file) of every kernel compiled so far.

    perf record -F 2000 -o kernels.perf python benchmarks/perf_kernels.py --only "HTML" --size 256
    perf report -i kernels.perf --sort sym

Numba's cached kernels carry no object code to read names from, so this
compiles them afresh, into a temporary cache (a minute or two; those
samples fall outside the kernels). ``nm`` (binutils) reads the names.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="gagebpe-perf-")

import importlib  # noqa: E402
import pkgutil  # noqa: E402

import gagebpe  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from records import kinds, records  # noqa: E402


def kernel_symbols():
    """``(address, size, name)`` of every function in every compiled
    overload of the kernels (``gagebpe.kernels``, the codings), helpers
    Numba or LLVM inlined into them excepted."""
    import gagebpe.format.codings
    import gagebpe.kernels
    found, seen = [], set()
    for package in (gagebpe.kernels, gagebpe.format.codings):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for attr, dispatcher in vars(module).items():
                if not hasattr(dispatcher, "overloads") or id(dispatcher) in seen:
                    continue
                seen.add(id(dispatcher))
                for compiled in dispatcher.overloads.values():
                    found += _functions(compiled, f"{info.name}.{attr}")
    return found


def _functions(compiled, label):
    library, entry_name = compiled.library, compiled.fndesc.llvm_func_name
    try:
        entry = library.get_pointer_to_function(entry_name)
        code = library._get_compiled_object()  # Numba's internals: none when loaded from cache
    except Exception:
        return []
    with tempfile.NamedTemporaryFile(suffix=".o") as obj:
        obj.write(code)
        obj.flush()
        listing = subprocess.run(["nm", "-S", "--defined-only", obj.name],
                                 capture_output=True, text=True).stdout
    table = {}
    for line in listing.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tT" and "cpython" not in parts[3]:
            table[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    if entry_name not in table:
        return []
    base = entry - table[entry_name][0]
    return [(base + offset, size, label if name == entry_name else f"{label}:{name[:40]}")
            for name, (offset, size) in table.items()]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default="HTML", help="the kind whose name holds this")
    p.add_argument("--size", type=int, default=256, help="record size")
    p.add_argument("--dict-size", type=int, default=64 << 10)
    p.add_argument("--rounds", type=int, default=20)
    args = p.parse_args()
    units = next(u for kind, u in kinds().items() if args.only in kind)
    found = records(units, args.size)
    samples = found[:len(found) // 2]
    gagebpe.train_dictionary(samples, args.dict_size)  # compiles what training runs
    symbols = kernel_symbols()
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        out.writelines(f"{address:x} {size:x} {name}\n" for address, size, name in symbols)
    print(f"{len(symbols)} kernel functions named", flush=True)
    start = time.perf_counter()
    for _ in range(args.rounds):
        gagebpe.train_dictionary(samples, args.dict_size)
    print(f"training: {(time.perf_counter() - start) / args.rounds * 1e3:.1f} ms a round")


if __name__ == "__main__":
    main()
