"""A built-in, deterministic sample: prose-like text and log lines.

Used by the demo and by the benchmark where no corpus is at hand.  The same
size always gives the same bytes, on every machine.
"""
import numpy as np

_WORDS = (
    "the of and to a in that is was he for it with as his on be at by had "
    "not are but from or have an they which one you were her all she there "
    "would their we him been has when who will more no if out so said what "
    "up its about into than them can only other new some could time these "
    "two may then do first any my now such like our over man me even most "
    "made after also did many before must through back years where much "
    "your way well down should because each just those people how too "
    "little state good very make world still own see men work long get "
    "here between both life being under never day same another know while "
    "last might us great old year off come since against go came right "
    "used take three compression block pair merge symbol table stream"
).split()


def sample(size=1 << 21):
    """``size`` bytes: Zipf-distributed prose with every 40th line a log
    record, seeded so that the output never changes."""
    rng = np.random.default_rng(1994)
    ranks = np.arange(1, len(_WORDS) + 1)
    p = 1.0 / ranks
    p /= p.sum()
    n_lines = size // 40 + 64  # lines average over 50 bytes: enough
    counts = rng.integers(6, 16, n_lines)
    words = rng.choice(len(_WORDS), int(counts.sum()), p=p)
    numbers = rng.integers(100, 100000, n_lines)
    lines = []
    start = 0
    for n in range(n_lines):
        if n % 40 == 39:
            line = (f"2026-11-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:{(7 * n) % 60:02d}Z "
                    f"level=INFO pid={1000 + n % 97} msg=\"block {n} merged\" "
                    f"bytes={numbers[n]}")
        else:
            line = " ".join([_WORDS[w] for w in words[start:start + counts[n]]])
            line = line[0].upper() + line[1:] + "."
        start += counts[n]
        lines.append(line)
    return ("\n".join(lines) + "\n").encode()[:size]
