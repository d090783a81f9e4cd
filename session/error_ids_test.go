package session

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorsCutIDs: an entry or session ID a caller or a file gives is
// cut in the errors that name it.
func TestErrorsCutIDs(t *testing.T) {
	huge := strings.Repeat("e", 10<<20)
	s, err := Create(t.TempDir(), "/w", &Options{Now: clock()})
	require.NoError(t, err)
	defer s.Close()
	_, bad := Create(t.TempDir(), "/w", &Options{ID: huge + "/"})
	_, summary := s.BranchWithSummary(huge, &BranchSummary{Summary: "x"})
	_, label := s.Append(&Label{TargetID: huge, Label: "x"})
	for _, err := range []error{s.Branch(huge), summary, label, bad} {
		require.Error(t, err)
		assert.Less(t, len(err.Error()), 1000)
		assert.Contains(t, err.Error(), "bytes)")
	}
}
