#!/usr/bin/env bash
# Data-parallel benchmark (issue 13): samples/s of the fashion-mnist-mlp preset for one epoch at
# world size 1 and 2 (one intra-op thread per rank, batch 128 per rank), the time of one
# all-reduce of its 235,146-float gradient (bench_allreduce), and the per-step model of
# bench/README.md extrapolated to 8 and 64 ranks. Builds nothing.
#
#   bench/dist_bench.sh [BUILD_DIR] [--epochs N]     (BUILD_DIR default build/release)
set -euo pipefail

build=build/release
epochs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --epochs) epochs=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) build=$1; shift ;;
  esac
done
cli=$build/cli/trainscope-cli
ar=$build/bench/bench_allreduce
for f in "$cli" "$ar"; do
  [ -x "$f" ] || { echo "dist_bench.sh: $f is missing; build it first (targets trainscope-cli bench_allreduce)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
port=$(( 20000 + RANDOM % 20000 ))
common=(--preset fashion-mnist-mlp --epochs "$epochs" --set training.num_threads=1
        --set training.batch_size=128 --set checkpoint.save_last=false
        --set checkpoint.save_best=false --set training.layer_stats_every=0)

sps() {  # samples_per_second of the last epoch row of $1/metrics.csv
  awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i=="samples_per_second") c=i; next} {v=$c} END{print v}' "$1/metrics.csv"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$cli" train "${common[@]}" --out "$tmp/w1" 2>/dev/null
"$cli" launch --nproc-per-node 2 --master-port "$port" -- train "${common[@]}" --out "$tmp/w2" 2>/dev/null
s1=$(sps "$tmp/w1")
s2=$(sps "$tmp/w2")
line=$("$ar" --world 2 --port $((port + 1)))
echo "$line"
ms=$(echo "$line" | sed -E 's/.*median ([0-9.]+) ms.*/\1/')
gbs=$(echo "$line" | sed -E 's/.*bandwidth ([0-9.]+) GB.*/\1/')
awk -v s1="$s1" -v s2="$s2" -v ms="$ms" -v gbs="$gbs" 'BEGIN {
  P = 235146; b = 128
  printf "world 1: %.0f samples/s   world 2: %.0f samples/s (global)   speed-up %.2f\n", s1, s2, s2 / s1
  tc = b / s1 * 1000  # ms of compute per step at the per-rank batch
  printf "per step: compute %.2f ms at batch %d, all-reduce %.3f ms (%.1f%% of a step at world 2)\n",
         tc, b, ms, 100 * ms / (tc + ms)
  split("2 8 64", W, " ")
  n = split("loopback " gbs " 10GbE 1.25 1GbE 0.125", L, " ")
  for (k = 1; k <= n; k += 2) {
    bw = L[k + 1]
    printf "model on %s (%.3g GB/s):", L[k], bw
    for (i = 1; i <= 3; i++) {
      w = W[i]; t = 2 * (w - 1) / w * 4 * P / (bw * 1e9) * 1000 + 2 * (w - 1) * 0.05
      printf "  %d ranks: %.2f ms all-reduce, %.0f samples/s (x%.1f)", w, t, w * b / ((tc + t) / 1000), w * b / ((tc + t) / 1000) / s1
    }
    printf "\n"
  }
}'
