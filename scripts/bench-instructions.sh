#!/usr/bin/env bash
# Counts the instructions one run of a benchmark scenario executes, under
# valgrind's callgrind: a figure that does not drift with a shared machine's
# speed, for telling whether a change helps.
#
#   scripts/bench-instructions.sh [SCENARIO]     (default bench-turns)
#
# Each runner plays the scenario 3 times and 3+N times in one process; the
# difference, divided by N, is one warm run, without the process's start,
# the parsing of the scenario and the first runs. N is 30 for this port:
# its collector runs about once per bench-turns run with live partials, and
# over ten runs one cycle more or less moved the count by 5%. N is 10 for
# the reference, which runs about fifty times slower under valgrind. This port is counted by
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

# count NAME N ENV... -- COMMAND...: prints NAME and the instructions of one
# warm run, in millions, over N runs. The two plays run at once, one per vCPU.
count() {
  local name=$1 runs=$2 env=()
  shift 2
  while [ "$1" != "--" ]; do env+=("$1"); shift; done
  shift
  for n in 3 $((3 + runs)); do
    env "${env[@]}" valgrind --tool=callgrind --smc-check=all-non-file \
      --callgrind-out-file="$work/$name.$n" "$@" $n "$work/$scenario.json" >/dev/null 2>&1 &
  done
  wait
  python3 - "$name" "$runs" "$work/$name.3" "$work/$name.$((3 + runs))" <<'PY'
import sys
def total(path):
    for line in open(path):
        if line.startswith("summary:"):
            return int(line.split()[1])
name, runs, short, long = sys.argv[1:]
print(f"{name}: {(total(long) - total(short)) / int(runs) / 1e6:.1f} M instructions per run")
PY
}

# Go's scheduler under valgrind: one thread, no asynchronous preemption.
goenv=(GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1)
count default 30 "${goenv[@]}" -- "$work/scenario" -bench
count live 30 "${goenv[@]}" -- "$work/scenario" -live-partials -bench
count default-gogc-off 30 "${goenv[@]}" GOGC=off -- "$work/scenario" -bench
count live-gogc-off 30 "${goenv[@]}" GOGC=off -- "$work/scenario" -live-partials -bench
if [ -n "${ORACLE:-}" ]; then
  count reference 10 -- node "$ORACLE/runner.mjs" --bench
fi
