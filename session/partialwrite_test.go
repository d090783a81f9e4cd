//go:build linux

package session

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// partialWriterEnv names the directory a helper process writes its
// sessions in.
const partialWriterEnv = "SESSION_TEST_PARTIAL_WRITER"

// limitFileSize makes writes beyond size bytes of any file fail part way
// (EFBIG after a short write; Go ignores SIGXFSZ); the returned func lifts
// the limit again.
func limitFileSize(size int64) (lift func() error, err error) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		return nil, err
	}
	lim := old
	lim.Cur = uint64(size)
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		return nil, err
	}
	return func() error { return syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old) }, nil
}

// TestHelperPartialWriter is not a test: run by TestPartialWriteUndone in
// a child process (the file size limit binds the whole process), it
// makes appends fail part way, then appends again, and prints what
// happened.
func TestHelperPartialWriter(t *testing.T) {
	dir := os.Getenv(partialWriterEnv)
	if dir == "" {
		t.Skip("a helper process of TestPartialWriteUndone")
	}
	fail := func(what string, err error) {
		fmt.Println("error:", what, err)
		os.Exit(1)
	}
	// An open file: the limit cuts the second append short.
	path := filepath.Join(dir, "open.jsonl")
	s, err := Open(path, nil)
	if err != nil {
		fail("open", err)
	}
	if _, err := s.AppendMessage(user("first")); err != nil {
		fail("first", err)
	}
	info, err := os.Stat(path)
	if err != nil {
		fail("stat", err)
	}
	lift, err := limitFileSize(info.Size() + 10)
	if err != nil {
		fail("limit", err)
	}
	_, cut := s.AppendMessage(user(strings.Repeat("x", 100)))
	if err := lift(); err != nil {
		fail("lift", err)
	}
	if _, err := s.AppendMessage(user("after")); err != nil {
		fail("after", err)
	}
	_ = s.Close()

	// A new file: the limit cuts its first write short.
	c, err := Create(filepath.Join(dir, "new"), "/w", nil)
	if err != nil {
		fail("create", err)
	}
	if lift, err = limitFileSize(20); err != nil {
		fail("limit", err)
	}
	_, cutNew := c.AppendMessage(user("first"))
	if err := lift(); err != nil {
		fail("lift", err)
	}
	if _, err := c.AppendMessage(user("again")); err != nil {
		fail("again", err)
	}
	_ = c.Close()
	// A torn tail that cannot be ended fails the open, which keeps no
	// descriptor of the file.
	torn := filepath.Join(dir, "torn.jsonl")
	if err := os.WriteFile(torn, []byte(header+line1+line2[:30]), 0o644); err != nil {
		fail("torn", err)
	}
	before := openFiles()
	if lift, err = limitFileSize(int64(len(header + line1 + line2[:30]))); err != nil {
		fail("limit", err)
	}
	_, tornErr := Open(torn, nil)
	if err := lift(); err != nil {
		fail("lift", err)
	}
	fmt.Println("cut:", cut != nil, cutNew != nil, tornErr != nil)
	fmt.Println("leaked:", openFiles()-before)
	os.Exit(0)
}

// TestPartialWriteUndone: an append whose write fails part way (a full
// disk, a file size limit) leaves no fragment behind, so the next append
// is a line of its own and reads back; a new file whose first write
// failed is written whole by the next append; an open that cannot end a
// torn tail fails without keeping the file open.
func TestPartialWriteUndone(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperPartialWriter$", "-test.count=1")
	cmd.Env = append(os.Environ(), partialWriterEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "cut: true true true", "both appends and the open failed")
	assert.Contains(t, string(out), "leaked: 0", "the failed open closed the file")

	var bad []*LineError
	onBad := func(e *LineError) error { bad = append(bad, e); return nil }
	s, err := Open(filepath.Join(dir, "open.jsonl"), &Options{ReadOnly: true, OnBadLine: onBad})
	require.NoError(t, err)
	assert.Empty(t, bad)
	texts := pathTexts(t, s)
	assert.Equal(t, []string{"first", "after"}, texts)

	files, err := filepath.Glob(filepath.Join(dir, "new", "*.jsonl"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	s, err = Open(files[0], &Options{ReadOnly: true, OnBadLine: onBad})
	require.NoError(t, err)
	assert.Empty(t, bad)
	assert.Equal(t, []string{"again"}, pathTexts(t, s))
}

// pathTexts is the text of each user message on s's current branch.
func pathTexts(t *testing.T, s *Session) []string {
	t.Helper()
	var texts []string
	for _, e := range s.Path("") {
		if m, ok := e.(*MessageEntry); ok {
			if u, ok := m.Message.(*agentcore.UserMessage); ok {
				texts = append(texts, u.Text())
			}
		}
	}
	return texts
}

// openFiles counts the process's open descriptors.
func openFiles() int {
	fds, _ := os.ReadDir("/proc/self/fd")
	return len(fds)
}
