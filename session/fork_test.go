package session

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var parentSession = regexp.MustCompile(`"parentSession":"[^"]*"`)

// TestPiForksByteExact: Session.Fork (pi's createBranchedSession) and
// ForkFrom (pi's forkFrom) of odd files (JS numbers, missing members,
// escapes, unknown header members) write the files pi wrote, byte for
// byte, with pi's new IDs and time; only the parent's path differs.
func TestPiForksByteExact(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "pi", "1??-fork-*"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(dirs), 8)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var f struct{ Source, Kind, Leaf string }
			data, err := os.ReadFile(filepath.Join(dir, "fork.json"))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &f))
			input, err := os.ReadFile(filepath.Join("testdata", "pi", f.Source, "input.jsonl"))
			require.NoError(t, err)
			source := filepath.Join(t.TempDir(), "source.jsonl")
			require.NoError(t, os.WriteFile(source, input, 0o644))
			want, err := os.ReadFile(filepath.Join(dir, "session.jsonl"))
			require.NoError(t, err)

			// pi's draws: the new header, and the IDs of the labels written
			// again (entries not in the source).
			lines := bytes.Split(bytes.TrimSpace(want), []byte("\n"))
			header, err := decodeHeader(lines[0])
			require.NoError(t, err)
			var labelIDs []string
			for _, l := range lines[1:] {
				if _, b, err := decodeEntry(l, nil); err == nil && !bytes.Contains(input, []byte(`"`+b.ID+`"`)) {
					labelIDs = append(labelIDs, b.ID)
				}
			}
			ts, err := time.Parse(time.RFC3339Nano, header.Timestamp)
			require.NoError(t, err)
			opts := &Options{ID: header.ID, Now: func() time.Time { return ts }, NewEntryID: func() string {
				require.NotEmpty(t, labelIDs, "more labels than pi wrote")
				id := labelIDs[0]
				labelIDs = labelIDs[1:]
				return id
			}}
			var fork *Session
			if f.Kind == "branched" {
				src, err := Open(source, &Options{ReadOnly: true})
				require.NoError(t, err)
				defer src.Close()
				fork, err = src.Fork(f.Leaf, opts)
				require.NoError(t, err)
			} else {
				fork, err = ForkFrom(source, t.TempDir(), "/work/other", opts)
				require.NoError(t, err)
			}
			require.NoError(t, fork.Close())
			got, err := os.ReadFile(fork.File())
			require.NoError(t, err)
			mask := func(b []byte) string { return string(parentSession.ReplaceAll(b, []byte(`"parentSession":"P"`))) }
			assert.Equal(t, mask(want), mask(got), "expected pi's fork, actual Go's")
		})
	}
}
