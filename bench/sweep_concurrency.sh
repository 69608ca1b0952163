#!/usr/bin/env bash
# Concurrent trials (issue 47 §4): a 20-trial random sweep of fashion-mnist-mlp (data.limit
# 6000, 2 epochs), 2 trials at a time at 1 thread each (the sweep's threads rule on 2 cores),
# against the same 20 configurations trained one after another at 2 threads, in one run.
# Prints both wall times and their ratio (the issue's bound: sweep / sequential <= 1.15).
# Usage: bench/sweep_concurrency.sh [TRIALS]
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${1:-20}
cli=$PWD/build/release/cli/trainscope-cli
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/sweep.json" <<JSON
{"name": "fmnist", "base": {"preset": "fashion-mnist-mlp",
                             "set": {"data.limit": 6000, "training.epochs": 2}},
 "parameters": {"optimizer.lr": {"log_uniform": [1e-4, 1e-2]},
                "training.batch_size": {"choices": [64, 128, 256]}},
 "method": "random", "seed": 1, "max_trials": $trials, "concurrent": 2}
JSON
now() { date +%s.%N; }
t0=$(now)
"$cli" sweep "$tmp/sweep.json" --out "$tmp/sweep" > /dev/null 2>&1
t1=$(now)
/usr/bin/python3 - "$tmp/sweep/trials.jsonl" > "$tmp/values" <<'PY'
import json, sys
last = {}
for line in open(sys.argv[1]):
    t = json.loads(line)
    last[t["trial"]] = t["values"]
for n in sorted(last):
    print(" ".join("--set %s=%s" % (k, json.dumps(v)) for k, v in sorted(last[n].items())))
PY
i=0
while read -r sets; do
  # shellcheck disable=SC2086
  "$cli" train --config "$tmp/sweep/base.json" $sets --set training.num_threads=2 \
    --out "$tmp/seq/$i" > /dev/null 2>&1
  i=$((i + 1))
done < "$tmp/values"
t2=$(now)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$trials" 'BEGIN {
  s = b - a; q = c - b
  printf "sweep, 2 at a time x 1 thread: %.1f s; one after another x 2 threads: %.1f s (%d trials)\n", s, q, n
  printf "sweep / sequential: %.3f\n", s / q }'
