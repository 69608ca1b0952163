#!/usr/bin/env bash
# Soak check of the dashboard at the highest step rate (issue "room to grow"): moons, one
# hidden layer of 8, batch 1, SGD, in the real `trainscope` window under Xvfb. Prints resident
# memory every 15 s, the steps trained, and how long SIGTERM takes to close the window (the run
# must stop cleanly: exit code 0, summary.json complete), and the GUI thread's share of one core
# (its utime + stime from /proc, per 15 s and over the whole soak; issue 26: under 50 %).
# Usage: bench/gui_soak.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
bin=build/release/gui/trainscope
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/soak.json" <<'JSON'
{"name": "soak", "data": {"source": "moons", "n_samples": 1000, "seed": 7},
 "model": {"hidden": [8], "activation": "tanh"}, "optimizer": {"name": "sgd", "lr": 0.01},
 "training": {"epochs": 1000000, "batch_size": 1, "seed": 42, "num_threads": 1}}
JSON
# Full speed: the speed slider starts where it was left (QSettings "pace"); a settings folder
# of its own with pace 0 (full speed) keeps the user's from slowing the soak down.
mkdir -p "$tmp/config/TrainScope"
printf '[General]\npace=0\n' > "$tmp/config/TrainScope/TrainScope.conf"
XDG_CONFIG_HOME="$tmp/config" xvfb-run -a -s "-screen 0 1600x1000x24" "$bin" --config "$tmp/soak.json" --autostart \
  --runs-dir "$tmp/runs" > "$tmp/out.log" 2>&1 &
xvfb=$!
pid=""
for _ in $(seq 50); do
  pid=$(pgrep -n -f "^$bin --config $tmp/soak.json" || true)
  [ -n "$pid" ] && break
  sleep 0.2
done
[ -n "$pid" ] || { echo "trainscope did not start"; cat "$tmp/out.log"; exit 1; }
start=$(date +%s)
first=""
# The GUI thread is the process's main thread (tid = pid): fields 14 and 15 of its stat.
tick=$(getconf CLK_TCK)
gui_ticks() { awk '{print $14 + $15}' "/proc/$pid/task/$pid/stat"; }
first_ticks=$(gui_ticks)
prev_ticks=$first_ticks
echo "t_s rss_mib steps steps_per_s gui_thread_pct"
prev_steps=0
while [ $(( $(date +%s) - start )) -lt "$seconds" ]; do
  sleep 15
  rss=$(awk '/VmRSS/{print $2}' "/proc/$pid/status")
  steps=$(($(wc -l < "$(ls -d "$tmp"/runs/*/ | head -1)steps.csv") - 1))
  ticks=$(gui_ticks)
  echo "$(( $(date +%s) - start )) $((rss / 1024)) $steps $(( (steps - prev_steps) / 15 )) $(( (ticks - prev_ticks) * 100 / (tick * 15) ))"
  prev_steps=$steps
  prev_ticks=$ticks
  sampled=$(( $(date +%s) - start ))
  [ -n "$first" ] || first=$rss
done
last=$rss
elapsed=$sampled
gui_pct=$(( (prev_ticks - first_ticks) * 100 / (tick * elapsed) ))
t0=$(date +%s.%N)
kill -TERM "$pid"
code=0
while kill -0 "$pid" 2>/dev/null; do sleep 0.01; done
t1=$(date +%s.%N)
wait "$xvfb" || code=$?
run=$(ls -d "$tmp"/runs/*/ | head -1)
echo "close_seconds=$(echo "$t1 - $t0" | bc) exit_code=$code"
echo "rss_first_mib=$((first / 1024)) rss_last_mib=$((last / 1024)) growth_mib=$(((last - first) / 1024))"
echo "gui_thread_share_pct=$gui_pct (of one core, over ${elapsed} s at full speed; target < 50)"
python3 -c "import json,sys; s=json.load(open('${run}summary.json')); print('summary stop_reason=%s global_step=%s' % (s['stop_reason'], s['global_step']))"
