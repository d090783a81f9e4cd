// Package golden compares what a test produced with a golden file. Run the
// tests with -update to rewrite the files from the current output instead,
// then review the diff.
package golden

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files from the current output")

// Check fails t when got differs from the file at path, showing got. With
// -update it first writes got to path, so the check passes.
func Check(t testing.TB, got []byte, path string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run with -update to accept)\ngot:\n%s", path, got)
	}
}
