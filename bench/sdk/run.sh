#!/usr/bin/env bash
# The streaming path of one model response, read three ways in one process, for the four APIs:
# agentcore's provider, the official Go SDK (openai-go v3 with its accumulator and its Responses
# stream, anthropic-sdk-go v2 with Accumulate, google.golang.org/genai), and the floor (split lines,
# one json.Unmarshal per chunk into a small struct, append the text).
#
#   bench/sdk/run.sh          # from anywhere; COUNT=5 rounds, BENCHTIME=40x by default
#
# The module uses the checkout's root module through its own go.work (bench/sdk/go.work). Prints
# medians and the ratios agentcore/floor and sdk/agentcore per API.
set -euo pipefail
cd "$(dirname "$0")"
go test -run TestSameResult . >/dev/null || go test -run TestSameResult .
go test -run XXX -bench . -benchtime "${BENCHTIME:-40x}" -count "${COUNT:-5}" . | tee /dev/stderr | python3 -c "$(cat <<'PY'
import re, statistics, sys
runs = {}
for line in sys.stdin:
    m = re.match(r'Benchmark(\w+)/(\w+)-\d+\s+\d+\s+([\d.]+) ns/op.*?([\d.]+) B/op\s+(\d+) allocs/op', line)
    if m:
        runs.setdefault((m[1], m[2]), []).append((float(m[3]), float(m[4]), int(m[5])))
for api in ("OpenAI", "Anthropic", "Responses", "Gemini"):
    med = {r: [statistics.median(x[i] for x in runs[(api, r)]) for i in range(3)] for r in ("agentcore", "sdk", "floor") if (api, r) in runs}
    if len(med) < 3:
        continue
    for r, (ns, b, a) in med.items():
        print(f"{api:9} {r:9} {ns/1e6:7.2f} ms  {b/1e6:6.2f} MB  {a:7.0f} allocs")
    ac, sdk, fl = med["agentcore"], med["sdk"], med["floor"]
    print(f"{api}: agentcore/floor time {ac[0]/fl[0]:.2f}x bytes {ac[1]/fl[1]:.2f}x; sdk/agentcore time {sdk[0]/ac[0]:.2f}x")
PY
)"
