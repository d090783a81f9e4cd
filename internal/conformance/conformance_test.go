package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestScenarios plays every scenario of testdata/conformance and compares
// its trace with the reference's, canonicalized like compare.py.
func TestScenarios(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "conformance")
	files, err := filepath.Glob(filepath.Join(dir, "scenarios", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in %s: %v", dir, err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			if why := deviations[name]; why != "" {
				t.Skip("deliberate deviation: " + why)
			}
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			want, err := os.ReadFile(filepath.Join(dir, "expected", name+".trace.jsonl"))
			require.NoError(t, err)
			s, err := Parse(data)
			require.NoError(t, err)
			// In a bubble the scenario's sleeps take virtual time, which
			// passes only when every goroutine of the play is blocked: the
			// steps land at the same point of the run however slow the
			// machine is, so the scenarios may run in parallel.
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				res, err := Play(t.Context(), s, Options{Record: true})
				require.NoError(t, err)
				compareTraces(t, string(want), strings.Join(res.Trace, "\n"))
			})
		})
	}
}

// deviations are the scenarios where this port differs from the reference
// on purpose, with the reason.
var deviations = map[string]string{
	"x-update-listener-delay": "the reference runs the listeners of concurrent tool events " +
		"interleaved, so a slow listener of one update does not delay the next; an Agent " +
		"delivers events one at a time, so listeners never run concurrently, and a slow " +
		"update listener delays that call's end",
}

func compareTraces(t *testing.T, want, got string) {
	t.Helper()
	w, err := CanonicalTrace(want)
	if err != nil {
		t.Fatalf("expected trace: %v", err)
	}
	g, err := CanonicalTrace(got)
	if err != nil {
		t.Fatalf("actual trace: %v", err)
	}
	for i := range max(len(w), len(g)) {
		we, ge := "<end of trace>", "<end of trace>"
		if i < len(w) {
			we = w[i]
		}
		if i < len(g) {
			ge = g[i]
		}
		if we != ge {
			t.Fatalf("record %d differs\nexpected: %s\nactual:   %s", i+1, we, ge)
		}
	}
}
