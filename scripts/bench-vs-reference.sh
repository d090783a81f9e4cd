#!/usr/bin/env bash
# Plays the benchmark scenarios of ../shared/bench on both runners, this
# port's and the TypeScript reference's, and prints the medians and ratios.
# This port plays each scenario twice: on an Agent whose listeners get
# copies of the streaming partials (the default) and with
# Options.LivePartials (the reference's own semantics).
#
#   scripts/bench-vs-reference.sh [RUNS]      (default 7)
#
# Needs python3, node and npm (the reference is installed in a temp folder).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
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
declare -A copies live ts
for s in bench-turns bench-short-transcript bench-long-transcript; do
  copies[$s]=$("$work/scenario" -bench "$runs" "$work/$s.json" | median)
  live[$s]=$("$work/scenario" -bench "$runs" -live-partials "$work/$s.json" | median)
  ts[$s]=$(node "$oracle/runner.mjs" --bench "$runs" "$work/$s.json" | median)
  python3 -c "print(f'$s: reference {${ts[$s]}/1e6:.2f} ms; go {${copies[$s]}/1e6:.2f} ms ({${ts[$s]}/${copies[$s]}:.1f}x), live partials {${live[$s]}/1e6:.2f} ms ({${ts[$s]}/${live[$s]}:.1f}x)')"
done
python3 -c "print(f'per-turn growth short -> long: go {${copies[bench-long-transcript]}/${copies[bench-short-transcript]}:.1f}x, live partials {${live[bench-long-transcript]}/${live[bench-short-transcript]}:.1f}x, reference {${ts[bench-long-transcript]}/${ts[bench-short-transcript]}:.1f}x')"
