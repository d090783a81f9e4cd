package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of reporting them.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatal(...any)          { r.failed = true }

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.golden")
	if err := os.WriteFile(path, []byte("same\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		got      string
		wantFail bool
	}{
		{"same\n", false},
		{"other\n", true},
		{"same", true},
	} {
		r := &recorder{TB: t}
		Check(r, []byte(tt.got), path)
		if r.failed != tt.wantFail {
			t.Errorf("Check(%q) failed = %v, want %v", tt.got, r.failed, tt.wantFail)
		}
	}
}

func TestCheckMissingFile(t *testing.T) {
	r := &recorder{TB: t}
	Check(r, []byte("x"), filepath.Join(t.TempDir(), "missing.golden"))
	if !r.failed {
		t.Error("a missing golden file passed")
	}
}
