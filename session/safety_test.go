package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const header = `{"type":"session","version":3,"id":"s1","timestamp":"2025-01-01T10:00:00.000Z","cwd":"/w"}` + "\n"
const line1 = `{"type":"message","id":"a1","parentId":null,"timestamp":"2025-01-01T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}` + "\n"
const line2 = `{"type":"message","id":"a2","parentId":"a1","timestamp":"2025-01-01T10:00:02.000Z","message":{"role":"user","content":"again","timestamp":2}}` + "\n"

func writeFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func TestBadLines(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		wantLine int
		wantTorn bool
		entries  int
	}{
		{"torn last line", header + line1 + line2[:40], 3, true, 1},
		{"corrupt middle line", header + "not json\n" + line1 + line2, 2, false, 2},
		{"entry without a type is kept, as pi keeps it", header + line1 + `{"id":"x"}` + "\n", 0, false, 2},
		{"a scalar line is kept", header + line1 + "42\n" + line2, 0, false, 3},
		{"a false scalar is skipped", header + line1 + "0\nnull\nfalse\n\"\"\n" + line2, 3, false, 2},
		{"blank lines are no damage", header + "\n\n" + line1, 0, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tt.text)
			var bad []*LineError
			s, err := Open(path, &Options{OnBadLine: func(e *LineError) error { bad = append(bad, e); return nil }})
			require.NoError(t, err)
			defer s.Close()
			assert.Len(t, s.Entries(), tt.entries)
			if tt.wantLine == 0 {
				assert.Empty(t, bad)
				return
			}
			require.NotEmpty(t, bad)
			assert.Equal(t, tt.wantLine, bad[0].Line)
			assert.Equal(t, tt.wantTorn, bad[0].Torn)
			assert.ErrorIs(t, bad[0], ErrBadLine)
			assert.Contains(t, bad[0].Error(), "line "+string(rune('0'+tt.wantLine)))

			// The session goes on: an append lands on a line of its own.
			id, err := s.AppendMessage(user("after"))
			require.NoError(t, err)
			again, err := Open(path, &Options{ReadOnly: true})
			require.NoError(t, err)
			assert.Equal(t, id, again.Leaf(), "the appended entry reads back as the leaf")
		})
	}
}

func TestBadLineRefused(t *testing.T) {
	path := writeFile(t, header+"{oops\n"+line1)
	stop := errors.New("stop")
	_, err := Open(path, &Options{OnBadLine: func(*LineError) error { return stop }})
	assert.ErrorIs(t, err, stop)
	_, err = os.Stat(path + ".lock")
	assert.ErrorIs(t, err, os.ErrNotExist, "a failed open gives its lock up")
}

func TestNotASession(t *testing.T) {
	_, err := Open(writeFile(t, line1), nil)
	assert.ErrorIs(t, err, ErrNotSession)
	s, err := Open(writeFile(t, ""), nil)
	require.NoError(t, err, "an empty file gets a header, as pi repairs it")
	assert.Equal(t, CurrentVersion, s.Header().Version)
	require.NoError(t, s.Close())
}

// TestCrashLeavesReadableFile cuts a file at every byte of its last
// line: each prefix opens, with every whole entry before the cut.
func TestCrashLeavesReadableFile(t *testing.T) {
	full := header + line1 + line2
	for cut := len(header + line1); cut <= len(full); cut++ {
		s, err := Open(writeFile(t, full[:cut]), &Options{ReadOnly: true})
		require.NoError(t, err, "cut at %d", cut)
		want := 1
		if cut >= len(full)-1 {
			want = 2 // the whole line, its newline or not
		}
		assert.Len(t, s.Entries(), want, "cut at %d", cut)
	}
}

func TestSecondWriterRefused(t *testing.T) {
	path := writeFile(t, header+line1)
	first, err := Open(path, nil)
	require.NoError(t, err)
	_, err = Open(path, nil)
	assert.ErrorIs(t, err, ErrLocked, "a second writer")
	assert.ErrorIs(t, Delete(path), ErrLocked, "deleting an open session")
	reader, err := Open(path, &Options{ReadOnly: true})
	require.NoError(t, err, "a reader needs no lock")
	_, err = reader.AppendMessage(user("x"))
	assert.ErrorIs(t, err, ErrReadOnly)
	require.NoError(t, first.Close())
	second, err := Open(path, nil)
	require.NoError(t, err, "the lock is free once the first writer closed")
	_, err = first.AppendMessage(user("late"))
	assert.ErrorIs(t, err, ErrClosed)
	require.NoError(t, second.Close())
	require.NoError(t, Delete(path))
}

func TestStaleLockTakenOver(t *testing.T) {
	path := writeFile(t, header+line1)
	require.NoError(t, os.Mkdir(path+".lock", 0o755)) // a crashed writer's
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(path+".lock", old, old))
	_, err := Open(path, nil)
	assert.ErrorIs(t, err, ErrLocked, "zero StaleLock never takes a lock over")
	s, err := Open(path, &Options{StaleLock: time.Minute})
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// TestConcurrentWriters: of writers racing for one file, one wins, and
// appends from many goroutines of that writer are whole lines.
func TestConcurrentWriters(t *testing.T) {
	path := writeFile(t, header+line1)
	var wg sync.WaitGroup
	results := make(chan error, 8)
	sessions := make(chan *Session, 8)
	for range 8 {
		wg.Go(func() {
			s, err := Open(path, nil)
			results <- err
			if err == nil {
				sessions <- s
			}
		})
	}
	wg.Wait()
	close(results)
	close(sessions)
	won := 0
	for err := range results {
		if err == nil {
			won++
		} else {
			assert.ErrorIs(t, err, ErrLocked)
		}
	}
	require.Equal(t, 1, won, "one writer")
	s := <-sessions
	for i := range 50 {
		wg.Go(func() {
			_, err := s.AppendMessage(user(strings.Repeat("x", i*100)))
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	require.NoError(t, s.Close())
	var bad []*LineError
	again, err := Open(path, &Options{ReadOnly: true, OnBadLine: func(e *LineError) error { bad = append(bad, e); return nil }})
	require.NoError(t, err)
	assert.Empty(t, bad)
	assert.Len(t, again.Entries(), 51)
	assert.Len(t, again.Path(""), 51, "each append followed the one before")
}

// TestFailedWriteChangesNothing: an append whose write fails leaves the
// session's tree as it was.
func TestFailedWriteChangesNothing(t *testing.T) {
	path := writeFile(t, header+line1)
	s, err := Open(path, nil)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, os.Chmod(path, 0o444))
	defer os.Chmod(path, 0o644)
	if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
		f.Close()
		t.Skip("running as a user who writes read-only files")
	}
	_, err = s.AppendMessage(user("lost"))
	require.Error(t, err)
	assert.Equal(t, "a1", s.Leaf())
	assert.Len(t, s.Entries(), 1)
}

func TestForkMatchesPi(t *testing.T) {
	src := openRecorded(t, filepath.Join("testdata", "pi", "42-source-for-forks"))
	var leaf string
	for _, e := range src.Entries() {
		if e.Type() == "compaction" {
			leaf = e.Base().ID
		}
	}
	fork, err := src.Fork(leaf, nil)
	require.NoError(t, err)
	defer fork.Close()
	want := loadExpect(t, filepath.Join("testdata", "pi", "43-branched-session"))
	got := observe(t, fork)
	assert.Equal(t, want["context"], got["context"])
	types := func(o map[string]any) []any {
		var out []any
		for _, e := range o["entries"].([]any) {
			out = append(out, e.(map[string]any)["type"])
		}
		return out
	}
	assert.Equal(t, types(want), types(got))
	assert.Equal(t, src.File(), fork.Header().ParentSession)

	copied, err := ForkFrom(src.File(), t.TempDir(), "/work/other", nil)
	require.NoError(t, err)
	defer copied.Close()
	want = loadExpect(t, filepath.Join("testdata", "pi", "44-fork-from"))
	got = observe(t, copied)
	assert.Equal(t, want["entries"], got["entries"])
	assert.Equal(t, want["context"], got["context"])
	assert.Equal(t, "/work/other", copied.Header().Cwd)
}

func TestCreateListDelete(t *testing.T) {
	agent := t.TempDir()
	dir := Dir(agent, "/work/my:project")
	assert.Equal(t, filepath.Join(agent, "sessions", "--work-my-project--"), dir)
	s, err := Create(dir, "/work/my:project", &Options{ID: "custom-1", Now: clock()})
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(s.File(), "2025-03-01T12-00-01-000Z_custom-1.jsonl"), s.File())
	_, err = s.Append(&ModelChange{Provider: "p", ModelID: "m"})
	require.NoError(t, err)
	_, err = os.Stat(s.File())
	assert.ErrorIs(t, err, os.ErrNotExist, "no file before the conversation starts, as in pi")
	_, err = s.AppendMessage(user("hello there"))
	require.NoError(t, err)
	_, err = s.Append(&SessionInfo{Name: " named "})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	list, err := List(dir)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, "custom-1", list[0].ID)
	assert.Equal(t, "named", list[0].Name)
	assert.Equal(t, "hello there", list[0].FirstMessage)
	assert.Equal(t, 1, list[0].MessageCount)
	require.NoError(t, Delete(list[0].Path))
	list, err = List(dir)
	require.NoError(t, err)
	assert.Empty(t, list)

	_, err = Create(dir, "/w", &Options{ID: "../escape"})
	assert.ErrorIs(t, err, ErrBadID)
}
