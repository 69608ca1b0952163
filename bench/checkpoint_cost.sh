#!/usr/bin/env bash
# What automatic checkpoints cost a run (issue 26): `trainscope-cli train --preset P` whole
# process, with the default checkpoints (last.pt and best.pt by checkpoint.interval_seconds)
# and with them off (checkpoint.save_last=false, checkpoint.save_best=false), alternating for
# ROUNDS rounds per preset. Prints each preset's median wall times and the ratio on / off
# (target <= 1.05), and the same for checkpoint.interval_seconds=0 (every epoch end, the
# behaviour before the interval). Run on an otherwise idle machine.
# Usage: bench/checkpoint_cost.sh [ROUNDS] [PRESET...]   (default: 5 rounds; overfit-sine moons
# circles spirals exploding flowers-csv housing-csv)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
shift || true
presets=("$@")
[ ${#presets[@]} -gt 0 ] ||
  presets=(overfit-sine moons circles spirals exploding flowers-csv housing-csv)
cli=${TRAINSCOPE_CLI:-build/release/cli/trainscope-cli}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ckpt-cost.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export TRAINSCOPE_EXAMPLES_DIR=${TRAINSCOPE_EXAMPLES_DIR:-$PWD/build/release/examples}

run() {  # run PRESET LABEL ROUND [--set ...]: prints the wall time in seconds
  local preset=$1 label=$2 round=$3
  shift 3
  local out="$tmp/$preset-$label-$round" start end
  start=$EPOCHREALTIME
  local rc=0
  "$cli" train --preset "$preset" --set training.num_threads=1 "$@" --out "$out" >/dev/null 2>&1 ||
    rc=$?
  # 3: stopped on a non-finite loss or a divergence, as the exploding presets do by design
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then
    echo "FAILED ($rc): $preset $label" >&2
    exit 1
  fi
  end=$EPOCHREALTIME
  rm -rf "$out"
  python3 -c "print($end - $start)"
}

echo "preset on_s off_s every_epoch_s on/off every_epoch/off  (medians of $rounds rounds, 1 thread)"
for preset in "${presets[@]}"; do
  on=() off=() every=()
  for r in $(seq "$rounds"); do
    on+=("$(run "$preset" on "$r")")
    off+=("$(run "$preset" off "$r" --set checkpoint.save_last=false --set checkpoint.save_best=false)")
    every+=("$(run "$preset" every "$r" --set checkpoint.interval_seconds=0)")
  done
  python3 - "$preset" "${on[*]}" "${off[*]}" "${every[*]}" <<'PY'
import statistics, sys
name = sys.argv[1]
on, off, every = ([float(x) for x in a.split()] for a in sys.argv[2:5])
m_on, m_off, m_every = statistics.median(on), statistics.median(off), statistics.median(every)
print(f"{name} {m_on:.2f} {m_off:.2f} {m_every:.2f} {m_on / m_off:.3f} {m_every / m_off:.3f}"
      f"  (on {min(on):.2f}-{max(on):.2f}, off {min(off):.2f}-{max(off):.2f})")
PY
done
