#!/usr/bin/env bash
# Every table of benchmarks/RESULTS.md (and the README's summary and
# chart) measured again on the code checked out, one benchmark after
# another on an otherwise idle machine: the tables of one release.
#   pip install -e '.[bench]' && bash benchmarks/release.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=benchmarks/out
python benchmarks/other_data.py "$out/other"
python benchmarks/bench.py --levels 1,6,9 --repeat 3 --decompress-repeat 9 \
    --results benchmarks/RESULTS.md --readme README.md --chart docs/benchmark.png
python benchmarks/bench.py "$out/other" --levels 6,9 --repeat 3 --decompress-repeat 9 \
    --peers 'zlib -6,zlib -9,bz2 -9,xz -6,zstd -19,brotli -11' \
    --results benchmarks/RESULTS.md --marker 'other data table'
python benchmarks/pareto.py ../shared/corpus/canterbury "$out/other" --rounds 3 \
    --results benchmarks/RESULTS.md --charts docs
python benchmarks/small_inputs.py "$out/other" --results benchmarks/RESULTS.md
python benchmarks/small_jobs.py --results benchmarks/RESULTS.md
python benchmarks/random_access.py --megabytes 256 --cache "$out" --results benchmarks/RESULTS.md
python benchmarks/dictionaries.py --results benchmarks/RESULTS.md
python benchmarks/chunks.py --levels 1,6,9 --rounds 3 --results benchmarks/RESULTS.md
python benchmarks/word_bpe.py --repeat 3 --results benchmarks/RESULTS.md
python benchmarks/byte_bpe.py --repeat 3 --results benchmarks/RESULTS.md
python benchmarks/tokenizer_calls.py --rounds 5 --results benchmarks/RESULTS.md
