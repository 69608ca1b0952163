#!/usr/bin/env bash
# Thread-count benchmark (issue 12): trains the fashion-mnist-mlp preset for one epoch with
# training.num_threads = 1, = all cores and = "auto", first on an idle machine, then while a
# plain busy loop (started and stopped by this script) keeps one core busy; prints samples/s of
# each (the engine's own metrics.csv figure: training steps only), the ratio auto / best fixed
# choice (target >= 0.9 in both conditions), and Python torch at its default thread count on
# the same workload under the same conditions. Builds nothing.
#
#   bench/threads_bench.sh [PATH/TO/trainscope-cli] [--epochs N] [--no-python]
#
# "Idle" is only as idle as the machine is: the script prints the load average with each
# condition. On a shared machine run it a few times and read the figures side by side.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cli=build/release/cli/trainscope-cli
epochs=1
python=${PYTHON:-/usr/bin/python3}
with_python=1
while [ $# -gt 0 ]; do
  case "$1" in
    --epochs) epochs=$2; shift 2 ;;
    --no-python) with_python=0; shift ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) cli=$1; shift ;;
  esac
done
if [ ! -x "$cli" ]; then
  echo "threads_bench.sh: $cli is not an executable; build it first (cmake --build --preset release --target trainscope-cli)" >&2
  exit 2
fi
cores=$(nproc)

tmp=$(mktemp -d)
busy_pid=
stop_busy() {
  if [ -n "$busy_pid" ]; then
    kill "$busy_pid" 2>/dev/null || true
    wait "$busy_pid" 2>/dev/null || true
    busy_pid=
  fi
}
trap 'stop_busy; rm -rf "$tmp"' EXIT

# samples_per_second of the last epoch row of metrics.csv in run directory $1.
rate_of() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "samples_per_second") c = i; next }
           { r = $c } END { print r }' "$1/metrics.csv"
}

# run_cli NAME THREADS: one run; prints its samples/s.
run_cli() {
  local out="$tmp/$1"
  "$cli" train --preset fashion-mnist-mlp --epochs "$epochs" --set "training.num_threads=$2" \
    --out "$out" --overwrite 2>"$tmp/$1.log" >/dev/null
  rate_of "$out"
}

run_python() {
  "$python" "$here/bench_python.py" --threads 0 --epochs "$epochs" --rounds 1 --no-warmup \
    2>/dev/null | sed -n 's/^python_samples_per_second: //p'
}

condition() {
  local label=$1
  echo "== $label (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
  local r1 rall rauto chosen
  r1=$(run_cli "$label-1" 1)
  rall=$(run_cli "$label-all" "$cores")
  rauto=$(run_cli "$label-auto" auto)
  chosen=$(sed -n 's/.*"num_threads": *\([0-9]*\).*/\1/p' "$tmp/$label-auto/config.json" | head -1)
  detail=$(grep -o '[0-9]* threads\? (auto:[^)]*)' "$tmp/$label-auto.log" | head -1 || true)
  printf '  1 thread:          %8.0f samples/s\n' "$r1"
  printf '  %d threads (all):   %8.0f samples/s\n' "$cores" "$rall"
  printf '  auto (chose %s):   %8.0f samples/s   %s\n' "$chosen" "$rauto" "$detail"
  awk -v a="$rauto" -v x="$r1" -v y="$rall" -v l="$label" 'BEGIN {
    b = x > y ? x : y
    r = a / b
    printf "  ratio auto / best fixed (%s): %.3f (target >= 0.9: %s)\n", l, r, (r >= 0.9 ? "met" : "NOT met")
    printf "  ratio auto / all cores (today'"'"'s CLI default): %.2f\n", a / y
  }'
  if [ "$with_python" = 1 ]; then
    local py
    py=$(run_python)
    printf '  Python torch (default threads): %8.0f samples/s\n' "${py:-0}"
  fi
}

echo "workload: fashion-mnist-mlp, $epochs epoch(s) per run, $cores cores, $cli"
condition idle

bash -c 'while :; do :; done' &
busy_pid=$!
sleep 1  # let the scheduler see it
condition busy
stop_busy
