#!/usr/bin/env bash
# Sweep orchestration overhead (issue 47 §4): a 20-trial grid sweep of a 1-epoch tiny preset,
# one trial at a time, against the same 20 `train` commands run by a shell loop, side by side in
# one run (each measured ROUNDS times, alternating; the medians compared). Prints both times,
# the overhead per trial in seconds (the issue's bound: <= 0.3 s) and the ratio.
# Usage: bench/sweep_overhead.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
cli=$PWD/build/release/cli/trainscope-cli
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lrs=(0.001 0.0015 0.002 0.0025 0.003 0.0035 0.004 0.0045 0.005 0.0055
     0.006 0.0065 0.007 0.0075 0.008 0.0085 0.009 0.0095 0.01 0.0105)
choices=$(IFS=,; echo "${lrs[*]}")
cat > "$tmp/sweep.json" <<JSON
{"name": "overhead", "base": {"preset": "moons", "set": {"training.epochs": 1}},
 "parameters": {"optimizer.lr": {"choices": [$choices]}}, "method": "grid", "concurrent": 1}
JSON
threads=$(nproc)
now() { date +%s.%N; }
sweep_times=() loop_times=()
for r in $(seq "$rounds"); do
  t0=$(now)
  "$cli" sweep "$tmp/sweep.json" --out "$tmp/s$r" > /dev/null 2>&1
  t1=$(now)
  mkdir -p "$tmp/l$r"
  for i in "${!lrs[@]}"; do
    "$cli" train --config "$tmp/s$r/base.json" --set "optimizer.lr=${lrs[$i]}" \
      --set "training.num_threads=$threads" --out "$tmp/l$r/$i" > /dev/null 2>&1
  done
  t2=$(now)
  sweep_times+=("$(echo "$t1 - $t0" | bc)")
  loop_times+=("$(echo "$t2 - $t1" | bc)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
s=$(median "${sweep_times[@]}")
l=$(median "${loop_times[@]}")
echo "sweep of 20 trials: ${sweep_times[*]} s (median $s)"
echo "shell loop of 20 train commands: ${loop_times[*]} s (median $l)"
awk -v s="$s" -v l="$l" 'BEGIN {printf "overhead per trial: %.3f s; sweep / loop: %.3f\n", (s - l) / 20, s / l}'
