#!/usr/bin/env bash
# Counts the instructions one run of a benchmark scenario executes, under
# valgrind's callgrind: a figure that does not drift with a shared machine's
# speed, for telling whether a change helps.
#
#   scripts/bench-instructions.sh [SCENARIO]     (default bench-turns)
#
# Each runner plays the scenario 3 times and 13 times in one process; the
# difference, divided by 10, is one warm run, without the process's start,
# the parsing of the scenario and the first runs (over ten runs, the cycles
# of the collector come out even to a few percent). This port is counted by
# default, with Options.LivePartials, and both again with GOGC=off (the
# collector's share is the difference). The reference is counted too when
# ORACLE names an installed copy of ../shared/conformance/oracle (a few
# minutes: Node runs about fifty times slower under valgrind; its count
# includes its JIT compiler's and collector's threads).
#
# RUNNER names a built scenario runner to count instead of this tree's, for
# comparing two versions. Needs valgrind and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
scenario=${1:-bench-turns}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
shared=$(cd ../shared && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$shared/bench/gen.py" "$work" >/dev/null
if [ -n "${RUNNER:-}" ]; then
  cp "$RUNNER" "$work/scenario"
else
  go build -o "$work/scenario" ./internal/conformance/cmd/scenario
fi

# count NAME ENV... -- COMMAND...: prints NAME and the instructions of one
# warm run, in millions. The two plays run at once, one per vCPU.
count() {
  local name=$1 env=()
  shift
  while [ "$1" != "--" ]; do env+=("$1"); shift; done
  shift
  for n in 3 13; do
    env "${env[@]}" valgrind --tool=callgrind --smc-check=all-non-file \
      --callgrind-out-file="$work/$name.$n" "$@" $n "$work/$scenario.json" >/dev/null 2>&1 &
  done
  wait
  python3 - "$name" "$work/$name.3" "$work/$name.13" <<'PY'
import sys
def total(path):
    for line in open(path):
        if line.startswith("summary:"):
            return int(line.split()[1])
name, three, thirteen = sys.argv[1:]
print(f"{name}: {(total(thirteen) - total(three)) / 10 / 1e6:.1f} M instructions per run")
PY
}

# Go's scheduler under valgrind: one thread, no asynchronous preemption.
goenv=(GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1)
count default "${goenv[@]}" -- "$work/scenario" -bench
count live "${goenv[@]}" -- "$work/scenario" -live-partials -bench
count default-gogc-off "${goenv[@]}" GOGC=off -- "$work/scenario" -bench
count live-gogc-off "${goenv[@]}" GOGC=off -- "$work/scenario" -live-partials -bench
if [ -n "${ORACLE:-}" ]; then
  count reference -- node "$ORACLE/runner.mjs" --bench
fi
