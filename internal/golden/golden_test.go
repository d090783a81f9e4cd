package golden

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	require.NoError(t, os.WriteFile(path, []byte("same\n"), 0o644))
	tests := []struct {
		name     string
		got      string
		wantFail bool
	}{
		{"same", "same\n", false},
		{"other content", "other\n", true},
		{"missing final newline", "same", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{TB: t}
			Check(r, []byte(tt.got), path)
			assert.Equal(t, tt.wantFail, r.failed, "Check(%q) failed", tt.got)
		})
	}
}

func TestCheckMissingFile(t *testing.T) {
	r := &recorder{TB: t}
	Check(r, []byte("x"), filepath.Join(t.TempDir(), "missing.golden"))
	assert.True(t, r.failed, "a missing golden file passed")
}
