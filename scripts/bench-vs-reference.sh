#!/usr/bin/env bash
# Plays the benchmark scenarios of ../shared/bench on both runners, this
# port's and the TypeScript reference's, and prints the medians and ratios.
#
#   scripts/bench-vs-reference.sh [RUNS [ROUNDS]]    (default 7 runs, 3 rounds)
#
# Each runner plays a scenario RUNS times in one process and reports the
# median run. The two take turns ROUNDS times, so that a slow spell of a
# shared machine weighs on both alike; a figure is the median of its rounds.
#
# Needs python3, node and npm (the reference is installed in a temp folder,
# or ORACLE names an installed copy of ../shared/conformance/oracle).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
rounds=${2:-3}
shared=$(cd ../shared && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$shared/bench/gen.py" "$work" >/dev/null
oracle=${ORACLE:-}
if [ -z "$oracle" ]; then
  oracle="$work/oracle"
  cp -r "$shared/conformance/oracle/." "$oracle"
  (cd "$oracle" && npm install --silent >/dev/null 2>&1)
fi
go build -o "$work/scenario" ./internal/conformance/cmd/scenario
median() { python3 -c 'import json,sys; ns=sorted(json.load(sys.stdin)["ns"]); print(ns[len(ns)//2])'; }
for s in bench-turns bench-short-transcript bench-long-transcript; do
  go="" ts=""
  for _ in $(seq "$rounds"); do
    go="$go $("$work/scenario" -bench "$runs" "$work/$s.json" | median)"
    ts="$ts $(node "$oracle/runner.mjs" --bench "$runs" "$work/$s.json" | median)"
  done
  echo "$s $go;$ts" >>"$work/results"
done
python3 - "$work/results" <<'PY'
import statistics, sys
ms = {}
for line in open(sys.argv[1]):
    name, cols = line.split(" ", 1)
    ms[name] = [statistics.median(map(int, c.split())) / 1e6 for c in cols.split(";")]
for name, (go, ref) in ms.items():
    print(f"{name}: reference {ref:.2f} ms; go {go:.2f} ms ({ref/go:.1f}x)")
short, long = ms["bench-short-transcript"], ms["bench-long-transcript"]
go, ref = (l / s for l, s in zip(long, short))
print(f"per-turn growth short -> long: go {go:.1f}x, reference {ref:.1f}x")
PY
