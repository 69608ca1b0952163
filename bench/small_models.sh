#!/usr/bin/env bash
# Small models, where per-step overhead decides (issue 26): TrainScope's engine against the
# minimal Python torch loop of bench/small_models.py, for the classroom presets at their own
# batch size and at batch size 1, alternating for ROUNDS rounds. TrainScope runs
# `trainscope-cli train --preset P` with every default record on (steps.csv, layer statistics,
# snapshots, events, checkpoints); its steps/s are the run's steps over the sum of metrics.csv's
# epoch_seconds (training and validation of each epoch; start-up excluded, as the Python
# figure excludes it). `exploding` runs with clipping on (training.clip.enabled=true, in both):
# unclipped it stops on its first non-finite loss within a few steps. Batch size 1 runs
# ceil(24000 / training samples) epochs, at most the preset's. Prints each case's medians and
# the ratio TrainScope / Python (target >= 3.0).
# Usage: bench/small_models.sh [ROUNDS] [PRESET...]   (default: 3 rounds; moons circles spirals
# overfit-sine exploding)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(moons circles spirals overfit-sine exploding)
cli=${TRAINSCOPE_CLI:-build/release/cli/trainscope-cli}
python=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/small-models.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

engine_rate() {  # engine_rate RUN_DIR: steps / sum(epoch_seconds) of metrics.csv
  python3 - "$1/metrics.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(int(rows[-1]["step"]) / sum(float(r["epoch_seconds"]) for r in rows))
PY
}

printf '%-13s %5s %7s %12s %12s %7s\n' preset batch epochs trainscope python ratio
for preset in "${presets[@]}"; do
  extra=()
  [ "$preset" = exploding ] && extra=(--set training.clip.enabled=true)
  # The preset's settings, as the engine resolves them, for the Python loop.
  read -r inputs outputs task n_train n_val hidden act opt lr batch epochs clip < <(
    { "$cli" config --preset "$preset" "${extra[@]}"; echo; "$cli" data --preset "$preset" --json; } |
      python3 -c '
import json, sys
text = sys.stdin.read().strip().split("\n{", 1)
c, d = json.loads(text[0]), json.loads("{" + text[1])
t, m, o = c["training"], c["model"], c["optimizer"]
clip = t["clip"]["max_norm"] if t["clip"]["enabled"] else 0
print(d["input_shape"][0], d["outputs"], d["task"], d["n_train"], d["n_val"],
      ",".join(str(h) for h in m["hidden"]), m["activation"], o["name"], o["lr"],
      t["batch_size"], t["epochs"], clip)')
  for b in "$batch" 1; do
    e=$epochs
    if [ "$b" = 1 ]; then e=$(( (24000 + n_train - 1) / n_train )); [ "$e" -gt "$epochs" ] && e=$epochs; fi
    ours=() theirs=()
    for r in $(seq "$rounds"); do
      out="$tmp/$preset-$b-$r"
      rc=0
      "$cli" train --preset "$preset" "${extra[@]}" --set training.num_threads=1 \
        --set training.batch_size="$b" --epochs "$e" --out "$out" >/dev/null 2>&1 || rc=$?
      [ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || { echo "FAILED ($rc): $preset batch $b" >&2; exit 1; }
      ours+=("$(engine_rate "$out")")
      rm -rf "$out"
      theirs+=("$("$python" bench/small_models.py --inputs "$inputs" --outputs "$outputs" \
        --task "$task" --hidden "$hidden" --activation "$act" --optimizer "$opt" --lr "$lr" \
        --clip "$clip" --batch-size "$b" --train "$n_train" --val "$n_val" --epochs "$e" |
        sed -n 's/^steps_per_second: //p')")
    done
    python3 - "$preset" "$b" "$e" "${ours[*]}" "${theirs[*]}" <<'PY'
import statistics, sys
preset, b, e = sys.argv[1:4]
ours = [float(x) for x in sys.argv[4].split()]
theirs = [float(x) for x in sys.argv[5].split()]
o, t = statistics.median(ours), statistics.median(theirs)
verdict = "met" if o / t >= 3.0 else "not met"
print(f"{preset:<13} {b:>5} {e:>7} {o:>12.0f} {t:>12.0f} {o / t:>7.2f}  ({verdict}; "
      f"trainscope {min(ours):.0f}-{max(ours):.0f}, python {min(theirs):.0f}-{max(theirs):.0f})")
PY
  done
done
