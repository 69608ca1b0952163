#!/usr/bin/env bash
# The verdict corpus (issue 42): every run of tests/verdicts/verdict_corpus.cpp trained through
# the engine, each live reading of the loss doctor scored against how the run was made. Prints
# the confusion matrix (expected against the verdict at the end), false alarms on healthy and
# regularised runs after the third epoch, each injected fault's first correct naming, verdict
# changes and contradicting advice, with the date and the machine. Prints; asserts nothing (the
# ctest `verdicts.fast` asserts the targets on the fast subset).
# Usage: bench/verdict_corpus.sh [BUILD_DIR] [--verbose] [--only SUBSTRING]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build/release}
[[ $# -gt 0 ]] && shift
exe=$build/tests/verdicts/verdict_corpus
if [[ ! -x $exe ]]; then
  echo "verdict_corpus.sh: $exe is missing (cmake --build --preset release --target verdict_corpus)" >&2
  exit 2
fi
echo "date: $(date -u +%Y-%m-%dT%H:%MZ); machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "commit: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
OMP_NUM_THREADS=1 "$exe" "$@" || true
