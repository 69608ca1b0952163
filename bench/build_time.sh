#!/usr/bin/env bash
# Build time on this machine (issue 45), measured, not asserted. Clones the checkout (its
# committed HEAD, or --rev REV) into a temporary folder and builds it there with a private, empty
# ccache, then prints, each on its own line:
#   configure seconds; seconds to what scripts/run builds (the dashboard and the CLI); seconds
#   to everything (tests and benchmarks); ctest seconds; the 10 slowest compile steps and the 10
#   slowest links from .ninja_log; step seconds by folder (core, gui, cli, tests, bench: the sum
#   of ninja's step durations, about the CPU seconds at -j2 on two cores); the same build again
#   with the warm cache after `git clean -xfd` (and ccache's hit rate); and the incremental cases:
#   one core .cpp, one gui .cpp, the widely included core/config/train_config.h (touched, rebuilt
#   with ccache off, as an edit the cache has never seen).
# Keeps nothing outside its temporary folder (removed at the end unless --keep).
#
#   bench/build_time.sh [--rev REV] [--no-ctest] [--no-warm] [--no-incremental] [--keep]
#
# Needs what scripts/setup-deps installs (run it first). Uses every core (ninja's default -j).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
rev=HEAD
run_ctest=1
run_warm=1
run_incremental=1
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rev) rev=$2; shift 2 ;;
    --no-ctest) run_ctest=0; shift ;;
    --no-warm) run_warm=0; shift ;;
    --no-incremental) run_incremental=0; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "build_time.sh: unknown argument: $1" >&2; exit 2 ;;
  esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/trainscope-build-time.XXXXXX")
cleanup() { if [ "$keep" = 1 ]; then echo "kept: $tmp" >&2; else rm -rf "$tmp"; fi; }
trap cleanup EXIT
export CCACHE_DIR="$tmp/ccache"
mkdir -p "$CCACHE_DIR"
git clone --quiet --no-hardlinks "$src" "$tmp/src"
git -C "$tmp/src" checkout --quiet "$rev"
cd "$tmp/src"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
say() { printf '%s\n' "$*"; }

say "build_time: $(git log -1 --format='%h %s' | cut -c1-80)"
say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"

# What scripts/run builds: scripts/build --for-run when the checkout has it; an older checkout
# (the before figures) builds the dashboard and the CLI targets by name.
run_targets() {
  if grep -q -- '--for-run' scripts/build 2>/dev/null; then
    scripts/build --for-run >"$tmp/build-run.log" 2>&1
  else
    [ -f build/release/build.ninja ] || cmake --preset release >/dev/null
    cmake --build --preset release --target trainscope trainscope-cli example_data \
      >"$tmp/build-run.log" 2>&1
  fi
}

# Prints the 10 slowest compile steps and links of .ninja_log, and step seconds by folder.
ninja_report() {
  python3 - "$1" <<'PY'
import sys, collections
steps = {}
for line in open(sys.argv[1]):
    if line.startswith('#'):
        continue
    start, end, _, out, _ = line.rstrip('\n').split('\t')
    if out.startswith('/'):
        continue  # the same step under its absolute name (custom commands' byproducts)
    steps[out] = (int(end) - int(start)) / 1000.0
def kind(out):
    if out.endswith('.o') or out.endswith('.gch'):
        return 'compile'
    base = out.rsplit('/', 1)[-1]
    if '_autogen' in out or base in ('timestamp',) or base.endswith('.stamp'):
        return 'other'
    if '.' not in base or out.endswith('.so'):
        return 'link'
    return 'other'
for k in ('compile', 'link'):
    top = sorted(((s, o) for o, s in steps.items() if kind(o) == k), reverse=True)[:10]
    print(f'slowest {k} steps:')
    for s, o in top:
        print(f'  {s:7.1f} s  {o}')
by = collections.Counter()
for o, s in steps.items():
    top = o.split('/', 1)[0] if '/' in o else '(top)'
    by[top] += s
print('step seconds by folder: ' + ', '.join(f'{k} {v:.0f}' for k, v in by.most_common()))
print(f'steps: {len(steps)}, step seconds in all: {sum(steps.values()):.0f}')
PY
}

ccache -z >/dev/null
t0=$(now)
cmake --preset release >"$tmp/configure.log" 2>&1
t1=$(now)
say "configure: $(secs "$t0" "$t1") s"
run_targets
t2=$(now)
say "empty cache, what scripts/run builds (dashboard + CLI): $(secs "$t1" "$t2") s ($(secs "$t0" "$t2") s with configure)"
cmake --build --preset release >"$tmp/build-all.log" 2>&1
t3=$(now)
say "empty cache, everything (tests, benchmarks): $(secs "$t0" "$t3") s from configure ($(secs "$t2" "$t3") s after the run targets)"
ninja_report build/release/.ninja_log
du -sh build/release/gui/trainscope build/release/cli/trainscope-cli-engine 2>/dev/null | sed 's/^/size: /'
if [ "$run_ctest" = 1 ]; then
  t4=$(now)
  if ctest --test-dir build/release --output-on-failure -j "$(nproc)" >"$tmp/ctest.log" 2>&1; then status=passed; else status=FAILED; fi
  t5=$(now)
  say "ctest: $(secs "$t4" "$t5") s, $status: $(grep -E 'tests passed|tests failed' "$tmp/ctest.log" | tail -1)"
  [ "$status" = passed ] || grep -E '^\s*[0-9]+ - |Failed|\*\*\*' "$tmp/ctest.log" | tail -20
fi

if [ "$run_warm" = 1 ]; then
  git clean -xfdq
  ccache -z >/dev/null
  t6=$(now)
  cmake --preset release >/dev/null 2>&1
  run_targets
  t7=$(now)
  cmake --build --preset release >"$tmp/build-warm.log" 2>&1
  t8=$(now)
  say "warm cache after git clean -xfd: scripts/run's targets $(secs "$t6" "$t7") s, everything $(secs "$t6" "$t8") s"
  ccache -s | grep -iE 'hits|misses|hit rate' | sed 's/^/ccache: /'
fi

if [ "$run_incremental" = 1 ]; then
  # An edit the cache has never seen: the file's time stamp moves, ccache is off.
  for f in core/train/loop/trainer.cpp core/config/config_keys.cpp gui/main_window.cpp \
           core/config/train_config.h; do
    [ -f "$f" ] || continue
    touch "$f"
    t9=$(now)
    CCACHE_DISABLE=1 cmake --build --preset release >"$tmp/build-incr.log" 2>&1
    t10=$(now)
    n=$(grep -cE '^\[[0-9]+/[0-9]+\]' "$tmp/build-incr.log" || true)
    say "incremental, $f touched: everything up to date again in $(secs "$t9" "$t10") s ($n steps)"
  done
fi
