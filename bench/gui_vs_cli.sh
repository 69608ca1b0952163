#!/usr/bin/env bash
# GUI throughput check: the same config (fashion-mnist-mlp, 1 intra-op thread, 2 epochs) trained
# by trainscope-cli and by the dashboard (under Xvfb, --quit-after-epochs 2), alternating for
# ROUNDS rounds. Prints each round's mean training samples/s (metrics.csv) and the ratio of the
# medians, GUI / CLI (target >= 0.95). Run on an otherwise idle machine.
# Usage: bench/gui_vs_cli.sh [ROUNDS] [EPOCHS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
epochs=${2:-2}
cli=build/release/cli/trainscope-cli
gui=build/release/gui/trainscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/bench.json" <<JSON
{"name": "gui-vs-cli", "data": {"source": "fashion-mnist", "seed": 7},
 "model": {"hidden": [256, 128], "activation": "relu"}, "optimizer": {"name": "adam", "lr": 0.001},
 "training": {"epochs": $epochs, "batch_size": 128, "seed": 42, "num_threads": 1}}
JSON
mean_rate() {  # mean of metrics.csv's samples_per_second column
  python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); print(sum(float(x['samples_per_second']) for x in r)/len(r))" "$1"
}
cli_rates=() gui_rates=()
for r in $(seq "$rounds"); do
  "$cli" train --config "$tmp/bench.json" --out "$tmp/cli-$r" > /dev/null 2>&1
  cli_rates+=("$(mean_rate "$tmp/cli-$r/metrics.csv")")
  xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --config "$tmp/bench.json" \
    --quit-after-epochs "$epochs" --runs-dir "$tmp/gui-$r" > /dev/null 2>&1
  gui_rates+=("$(mean_rate "$(ls -d "$tmp"/gui-$r/*/ | head -1)metrics.csv")")
  echo "round $r: cli ${cli_rates[-1]} samples/s, gui ${gui_rates[-1]} samples/s"
done
python3 - "${cli_rates[*]}" "${gui_rates[*]}" <<'PY'
import statistics, sys
cli = [float(x) for x in sys.argv[1].split()]
gui = [float(x) for x in sys.argv[2].split()]
c, g = statistics.median(cli), statistics.median(gui)
print(f"cli_median={c:.0f} gui_median={g:.0f} gui_over_cli={g / c:.3f}")
PY
