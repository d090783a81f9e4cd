package conformance

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
			// Not parallel: scenarios leave tens of milliseconds between a
			// step and the run it aims at, which a loaded CPU must not eat.
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "expected", name+".trace.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Play(context.Background(), s, Options{Record: true})
			if err != nil {
				t.Fatal(err)
			}
			compareTraces(t, string(want), strings.Join(res.Trace, "\n"))
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
