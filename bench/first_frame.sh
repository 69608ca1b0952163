#!/usr/bin/env bash
# Start-up times (issue 26): `trainscope-cli --help` and `--version` (target < 0.1 s) and the
# dashboard's first frame on the default preset (target < 0.5 s), each the median of ROUNDS
# runs, measured from this script's clock before the process starts to the process's exit (CLI)
# or to the first paint the window reports (TRAINSCOPE_FIRST_FRAME=1, gui/app/main.cpp). The
# dashboard draws on an X server this script starts once (Xvfb), so its start-up is not counted;
# the disk cache is warm after the first round. Usage: bench/first_frame.sh [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
cli=${TRAINSCOPE_CLI:-build/release/cli/trainscope-cli}
gui=${TRAINSCOPE_GUI:-build/release/gui/trainscope}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/first-frame.XXXXXX")
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1600x1000x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 1

times() {  # times LABEL COMMAND...: one wall time per round, seconds
  local label=$1
  shift
  local all=()
  for _ in $(seq "$rounds"); do
    local start=$EPOCHREALTIME
    "$@" >/dev/null 2>&1
    all+=("$(python3 -c "print($EPOCHREALTIME - $start)")")
  done
  echo "$label ${all[*]}"
}
{
  times "cli --help" "$cli" --help
  times "cli --version" "$cli" --version
  times "cli-engine --version" "$(dirname "$cli")/trainscope-cli-engine" --version
  all=()
  for r in $(seq "$rounds"); do
    start=$EPOCHREALTIME
    out=$(DISPLAY=$display XDG_CONFIG_HOME="$tmp/config" TRAINSCOPE_FIRST_FRAME=1 \
      "$gui" --runs-dir "$tmp/runs" 2>/dev/null | grep first_frame_unix_s=)
    all+=("$(python3 -c "print(${out#first_frame_unix_s=} - $start)")")
  done
  echo "dashboard first frame ${all[*]}"
} | python3 -c '
import statistics, sys
targets = {"cli --help": 0.1, "cli --version": 0.1, "dashboard first frame": 0.5}
for line in sys.stdin:
    words = line.split()
    label, values = " ".join(words[:-'"$rounds"']), [float(v) for v in words[-'"$rounds"':]]
    med = statistics.median(values)
    goal = targets.get(label)
    verdict = "" if goal is None else (" (target < %g s: %s)" % (goal, "met" if med < goal else "NOT met"))
    print("%-22s median %.3f s  min %.3f  max %.3f%s" % (label, med, min(values), max(values), verdict))
'
