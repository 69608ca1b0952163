#!/usr/bin/env bash
# Runs the benchmarks (builds nothing): bench_engine (TrainScope engine vs a bare libtorch loop,
# ratio target >= 0.95), then bench_python.py on the same workload, and prints the ratio
# C++ engine / Python torch (target >= 1.15).
#
#   bench/run_bench.sh [PATH/TO/bench_engine] [bench_engine options...]
#   e.g. bench/run_bench.sh build/release/bench/bench_engine --rounds 5 --threads 2
#
# Run it on an otherwise idle machine: with two intra-op threads on two busy cores, OpenMP's
# barriers make every figure swing by a factor of several.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=${1:-build/release/bench/bench_engine}
[ $# -gt 0 ] && shift
python=${PYTHON:-/usr/bin/python3}

if [ ! -x "$bin" ]; then
  echo "run_bench.sh: $bin is not an executable; build it first (cmake --build --preset release --target bench_engine)" >&2
  exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== C++: $bin $*"
"$bin" "$@" | tee "$tmp/engine.txt"
engine=$(sed -n 's/^engine_samples_per_second: //p' "$tmp/engine.txt")
py_args=$(sed -n 's/^python-args: //p' "$tmp/engine.txt")
if [ -z "$engine" ] || [ -z "$py_args" ]; then
  echo "run_bench.sh: bench_engine did not print its figures" >&2
  exit 1
fi

echo "== Python: $python $here/bench_python.py $py_args"
# shellcheck disable=SC2086  # py_args is a list of simple options
"$python" "$here/bench_python.py" $py_args | tee "$tmp/python.txt"
py=$(sed -n 's/^python_samples_per_second: //p' "$tmp/python.txt")
if [ -z "$py" ]; then
  echo "run_bench.sh: bench_python.py did not print its figure" >&2
  exit 1
fi

echo "== Summary"
grep '^ratio engine/bare' "$tmp/engine.txt"
awk -v e="$engine" -v p="$py" 'BEGIN {
  r = e / p
  printf "C++ engine %.0f samples/s, Python torch %.0f samples/s\n", e, p
  printf "ratio engine/python: %.3f (target >= 1.15: %s)\n", r, (r >= 1.15 ? "met" : "NOT met")
}'
