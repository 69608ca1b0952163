#!/usr/bin/env bash
# Long-run soak (issue 44 item 2): resident memory and throughput of a run at full speed must
# stay flat (within 10%) however long it runs. Runs a small sine regression (a 32-unit MLP:
# many epochs a minute) for SECONDS in the CLI, then in the dashboard under Xvfb, and prints every
# INTERVAL seconds: elapsed seconds, RSS in MiB, epochs done, and epochs a minute over the
# interval, and the share of the interval spent inside epochs (metrics.csv's epoch_seconds summed:
# a slower machine lowers the rate but not the share, bookkeeping that grows with the run lowers
# both); then the ratios last/first interval of both (1.00 = flat).
# The data (2,000 samples, 7 steps an epoch) keeps a 30-minute CLI run under training.epochs'
# limit of 1,000,000 epochs (one step an epoch ran out of epochs in 5 minutes).
# Usage: bench/long_run_soak.sh [SECONDS] [INTERVAL] [cli|dashboard|both]
#        (the issue's check: 1800 60)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
interval=${2:-60}
which=${3:-both}
cli=build/release/cli/trainscope-cli
gui=build/release/gui/trainscope
tmp=$(mktemp -d)
trap 'pkill -INT -f "$tmp" 2>/dev/null || true; sleep 1; rm -rf "$tmp"' EXIT
cat > "$tmp/long.json" <<'JSON'
{"name": "long", "data": {"source": "sine", "n_samples": 2000, "seed": 1},
 "model": {"hidden": [32], "activation": "tanh"}, "optimizer": {"name": "adam", "lr": 0.003},
 "training": {"epochs": 1000000, "batch_size": 256, "seed": 42, "num_threads": 1}}
JSON

# $1: label, $2: pid, $3: the run folder's metrics.csv (epochs done = its lines - 1)
watch_run() {
  local label=$1 pid=$2 metrics=$3 t=0 prev=0 first_rate="" first_rss="" rate rss epochs
  echo "$label: t_s rss_mib epochs epochs_per_min in_epochs"
  while [ "$t" -lt "$seconds" ]; do
    sleep "$interval"
    t=$((t + interval))
    kill -0 "$pid" 2>/dev/null || { echo "$label: the run ended early (training.epochs)"; break; }
    rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
    epochs=$(( $(wc -l < "$metrics") - 1 ))
    rate=$(( (epochs - prev) * 60 / interval ))
    share=$(awk -F, -v a=$((prev + 2)) -v b=$((epochs + 1)) -v t="$interval" \
      'NR == 1 { for (i = 1; i <= NF; ++i) if ($i == "epoch_seconds") c = i }
       NR >= a && NR <= b { s += $c } END { printf "%.2f", s / t }' "$metrics")
    prev=$epochs
    [ -n "$first_rate" ] || { first_rate=$rate; first_rss=$rss; }
    echo "$label: $t $rss $epochs $rate $share"
  done
  awk -v l="$label" -v r0="$first_rate" -v r1="$rate" -v m0="$first_rss" -v m1="$rss" \
    'BEGIN {printf "%s: last/first interval: rss %.2f, epochs a minute %.2f\n", l, m1 / m0, r1 / r0}'
}

if [ "$which" != dashboard ]; then
"$cli" train --config "$tmp/long.json" --out "$tmp/cli-run" > "$tmp/cli.log" 2>&1 &
cli_pid=$!
for _ in $(seq 100); do [ -f "$tmp/cli-run/metrics.csv" ] && break; sleep 0.2; done
watch_run cli "$cli_pid" "$tmp/cli-run/metrics.csv"
kill -INT "$cli_pid" 2>/dev/null || true; wait "$cli_pid" || true
fi
[ "$which" != cli ] || exit 0

mkdir -p "$tmp/config/TrainScope"
printf '[General]\npace=0\n' > "$tmp/config/TrainScope/TrainScope.conf"  # full speed
XDG_CONFIG_HOME="$tmp/config" xvfb-run -a -s "-screen 0 1600x1000x24" "$gui" --config "$tmp/long.json" \
  --autostart --runs-dir "$tmp/runs" > "$tmp/gui.log" 2>&1 &
gui_pid=""
for _ in $(seq 100); do
  gui_pid=$(pgrep -n -f "^$gui --config $tmp/long.json" || true)
  [ -n "$gui_pid" ] && compgen -G "$tmp/runs/*/metrics.csv" > /dev/null && break
  sleep 0.2
done
[ -n "$gui_pid" ] || { echo "trainscope did not start"; cat "$tmp/gui.log"; exit 1; }
watch_run dashboard "$gui_pid" "$(compgen -G "$tmp/runs/*/metrics.csv" | head -1)"
kill -TERM "$gui_pid"
