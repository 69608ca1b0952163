#!/usr/bin/env bash
# Atomicity of automatic checkpoints under kill -9 (issue 8): a CLI run saving every epoch
# (checkpoint.interval_seconds=0)
# (overfit-sine: one step per epoch, so the run spends most of its time writing last.pt,
# epoch-NNNN.pt and best.pt) is killed with SIGKILL at a random moment, 8 times in a chain:
# each time last.pt must load (`inspect` exits 0; in the last round every checkpoint left), at
# most one temp file may be left behind (one save at a time), and the next run resumes from the
# killed run's last.pt (and is itself killed) with the stale temp file of the folder it came
# from still there. Usage: kill9_checkpoints.sh TRAINSCOPE_CLI [REPEATS]
set -u
cli=${1:?usage: kill9_checkpoints.sh TRAINSCOPE_CLI [REPEATS]}
repeats=${2:-8}
work=$(mktemp -d "${TMPDIR:-/tmp}/kill9.XXXXXX")
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

mid_write=0
prev=""
for i in $(seq 1 "$repeats"); do
  out="$work/run$i"
  if [ -z "$prev" ]; then
    args=(train --preset overfit-sine --set checkpoint.every_epochs=1 --set checkpoint.keep_last=2
      --set checkpoint.interval_seconds=0
      --epochs 1000000 --out "$out")
  else
    args=(train --resume "$prev" --epochs 1000000 --out "$out")
  fi
  "$cli" "${args[@]}" >"$work/log$i" 2>&1 &
  pid=$!
  # Wait for the first automatic save (at most 30 s), then a random 50-1000 ms more.
  for _ in $(seq 1 300); do
    [ -f "$out/checkpoints/last.pt" ] && break
    kill -0 "$pid" 2>/dev/null || fail "run $i ended early: $(cat "$work/log$i")"
    sleep 0.1
  done
  [ -f "$out/checkpoints/last.pt" ] || fail "run $i wrote no last.pt within 30 s"
  delay_ms=$((50 + RANDOM % 950))
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -9 "$pid"
  wait "$pid" 2>/dev/null
  pid=""

  temps=$(find "$out/checkpoints" -name '.*.pt.tmp-*' | wc -l)
  [ "$temps" -gt 0 ] && mid_write=$((mid_write + 1))
  # One save at a time: at most one partial temp file can be left.
  [ "$temps" -le 1 ] || fail "run $i left $temps temp files: $(ls -a "$out/checkpoints")"
  # last.pt after every kill (the resume of the next round loads it too); in the last round
  # every file left (best.pt, epoch-NNNN.pt). One `inspect` costs a libtorch start-up.
  files=("$out/checkpoints/last.pt")
  [ "$i" -eq "$repeats" ] && files=("$out"/checkpoints/*.pt)
  for f in "${files[@]}"; do
    "$cli" inspect "$f" >"$work/inspect.txt" 2>&1 ||
      fail "run $i: $f does not load after kill -9 at ${delay_ms} ms: $(cat "$work/inspect.txt")"
  done
  echo "run $i: killed ${delay_ms} ms after the first save; ${#files[@]} checkpoint(s) load" \
    "(temp files left: $temps)"
  prev="$out/checkpoints/last.pt"
done
echo "OK: $repeats kills, $mid_write of them during a write; every checkpoint loaded and every" \
  "resume started"
