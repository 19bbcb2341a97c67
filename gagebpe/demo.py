"""``python -m gagebpe.demo``: compress, decompress and verify the built-in
sample; print the ratio and speeds beside zlib's.
"""
import sys
import time
import zlib

import gagebpe
from .sample import sample


def _timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def main():
    data = sample()
    print(f"sample: {len(data):,} bytes of generated text", flush=True)
    print("warming up (the first run compiles the kernels; later runs load "
          "them from the cache)...", flush=True)
    # The whole sample, once: a slice can take other codings than the timed
    # run (levels 1-6 take CONTEXT only from 1 MiB blocks) and leave a
    # kernel to load or compile inside the timing.
    _, warmup = _timed(lambda: gagebpe.decompress(gagebpe.compress(data)))
    print(f"  ready in {warmup:.1f} s")
    blob, t_comp = _timed(gagebpe.compress, data)
    restored, t_dec = _timed(gagebpe.decompress, blob)
    if restored != data:
        print("FAILED: decompressed data differs from the input")
        return 1
    zblob, z_comp = _timed(zlib.compress, data, 9)
    _, z_dec = _timed(zlib.decompress, zblob)
    mb = len(data) / 1e6
    print(f"gagebpe -{gagebpe.DEFAULT_LEVEL}: {len(blob):,} bytes, "
          f"ratio {len(data) / len(blob):.3f}, "
          f"compress {mb / t_comp:.1f} MB/s, decompress {mb / t_dec:.1f} MB/s, verified")
    print(f"zlib -9:    {len(zblob):,} bytes, ratio {len(data) / len(zblob):.3f}, "
          f"compress {mb / z_comp:.1f} MB/s, decompress {mb / z_dec:.1f} MB/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
