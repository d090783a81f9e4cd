//go:build unix

package session

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockHolderEnv names the session file a helper process opens and holds.
const lockHolderEnv = "SESSION_TEST_LOCK_HOLDER"

// TestHelperLockHolder is not a test: run by TestKilledWriterLeavesNoLock
// in a child process, it opens the session, says so, and waits to be
// killed.
func TestHelperLockHolder(t *testing.T) {
	path := os.Getenv(lockHolderEnv)
	if path == "" {
		t.Skip("a helper process of TestKilledWriterLeavesNoLock")
	}
	s, err := Open(path, nil)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("locked")
	time.Sleep(time.Minute) // killed long before
	_ = s.Close()
	os.Exit(0)
}

// TestKilledWriterLeavesNoLock: a writer killed with SIGKILL holds nothing
// once dead; while it lives, a second writer's error names it.
func TestKilledWriterLeavesNoLock(t *testing.T) {
	path := writeFile(t, header+line1)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLockHolder$", "-test.count=1")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+path)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)

	_, err = Open(path, nil)
	require.ErrorIs(t, err, ErrLocked)
	var locked *LockedError
	require.ErrorAs(t, err, &locked)
	assert.Equal(t, cmd.Process.Pid, locked.PID, "the error names the holder")
	host, _ := os.Hostname()
	assert.Equal(t, host, locked.Host)
	assert.Contains(t, err.Error(), "process "+strconv.Itoa(cmd.Process.Pid))
	assert.WithinDuration(t, time.Now(), locked.Since, time.Minute)

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	_, err = os.Stat(path + ".lock")
	require.NoError(t, err, "the dead writer's lock file is still there")
	s, err := Open(path, nil)
	require.NoError(t, err, "and taken over without a person")
	_, err = s.AppendMessage(user("after the crash"))
	require.NoError(t, err)
	require.NoError(t, s.Close())
	_, err = os.Stat(path + ".lock")
	assert.ErrorIs(t, err, os.ErrNotExist, "Close removes its lock file")
}

// TestStaleLockRace: twenty openers race for a lock a dead writer left;
// exactly one wins, every round.
func TestStaleLockRace(t *testing.T) {
	path := writeFile(t, header+line1)
	for round := range 50 {
		require.NoError(t, os.WriteFile(path+".lock", []byte(`{"pid":999999999,"host":"gone"}`), 0o644))
		var won atomic.Int32
		var winner atomic.Pointer[Session]
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 20 {
			wg.Go(func() {
				<-start
				s, err := Open(path, nil)
				if err != nil {
					assert.ErrorIs(t, err, ErrLocked)
					return
				}
				won.Add(1)
				winner.Store(s)
			})
		}
		close(start)
		wg.Wait()
		require.EqualValues(t, 1, won.Load(), "round %d", round)
		require.NoError(t, winner.Load().Close())
	}
}

// TestLockHoldersNeverOverlap: openers that take, hold and give up the
// lock in a loop, racing each other's Close (which removes the file),
// are never two at once.
func TestLockHoldersNeverOverlap(t *testing.T) {
	path := writeFile(t, header+line1)
	var holders, maxHolders, opened atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			for range 40 {
				s, err := Open(path, &Options{ReadOnly: false})
				if err != nil {
					if !errors.Is(err, ErrLocked) {
						t.Error(err)
						return
					}
					continue
				}
				opened.Add(1)
				n := holders.Add(1)
				for {
					m := maxHolders.Load()
					if n <= m || maxHolders.CompareAndSwap(m, n) {
						break
					}
				}
				time.Sleep(time.Microsecond)
				holders.Add(-1)
				assert.NoError(t, s.Close())
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, maxHolders.Load(), "one holder at a time")
	assert.Positive(t, opened.Load())
	_, err := os.Stat(path + ".lock")
	assert.ErrorIs(t, err, os.ErrNotExist, "the last Close removed the lock file")
}

// TestIdleWriterKeepsItsLock: a lock does not age; a writer idle for any
// time keeps it.
func TestIdleWriterKeepsItsLock(t *testing.T) {
	path := writeFile(t, header+line1)
	s, err := Open(path, nil)
	require.NoError(t, err)
	old := time.Now().Add(-24 * 365 * time.Hour)
	require.NoError(t, os.Chtimes(path+".lock", old, old))
	_, err = Open(path, nil)
	assert.ErrorIs(t, err, ErrLocked)
	_, err = s.AppendMessage(user("still mine"))
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// TestCloseRemovesOnlyItsOwnLock: a lock file removed by hand and taken
// by a second writer is not removed by the first writer's Close.
func TestCloseRemovesOnlyItsOwnLock(t *testing.T) {
	path := writeFile(t, header+line1)
	first, err := Open(path, nil)
	require.NoError(t, err)
	require.NoError(t, os.Remove(path+".lock"))
	second, err := Open(path, nil)
	require.NoError(t, err)
	require.NoError(t, first.Close())
	_, err = os.Stat(path + ".lock")
	require.NoError(t, err, "the second writer's lock file stays")
	_, err = Open(path, nil)
	assert.ErrorIs(t, err, ErrLocked, "and still locks")
	require.NoError(t, second.Close())
}

// TestCreateLeavesNoLock: a session that never writes its file leaves
// neither file nor lock; one that does leaves no lock once closed.
func TestCreateLeavesNoLock(t *testing.T) {
	dir := t.TempDir()
	s, err := Create(dir, "/w", nil)
	require.NoError(t, err)
	_, err = s.Append(&ModelChange{Provider: "p", ModelID: "m"})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	names, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, names, "no file, no lock")

	s, err = Create(dir, "/w", nil)
	require.NoError(t, err)
	_, err = s.AppendMessage(user("hi"))
	require.NoError(t, err)
	_, err = os.Stat(s.File() + ".lock")
	require.NoError(t, err, "locked once written")
	_, err = Open(s.File(), nil)
	assert.ErrorIs(t, err, ErrLocked)
	require.NoError(t, s.Close())
	matches, err := filepath.Glob(filepath.Join(dir, "*.lock"))
	require.NoError(t, err)
	assert.Empty(t, matches)
}

// TestLockDirectoryOfAnotherProgram: a lock directory (proper-lockfile's,
// or an older version's) is reported, not removed.
func TestLockDirectoryOfAnotherProgram(t *testing.T) {
	path := writeFile(t, header+line1)
	require.NoError(t, os.Mkdir(path+".lock", 0o755))
	_, err := Open(path, nil)
	require.ErrorIs(t, err, ErrLocked)
	assert.Contains(t, err.Error(), "lock directory")
	assert.DirExists(t, path+".lock")
}

// TestAppendToChangedFile: a file another program appended to, cut or
// replaced under an open session refuses the append with ErrChanged, and
// the session's tree is unchanged.
func TestAppendToChangedFile(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, path string)
	}{
		{"appended to", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			require.NoError(t, err)
			_, err = f.WriteString(line2)
			require.NoError(t, err)
			require.NoError(t, f.Close())
		}},
		{"cut", func(t *testing.T, path string) { require.NoError(t, os.Truncate(path, int64(len(header)))) }},
		{"replaced", func(t *testing.T, path string) {
			tmp := path + ".new"
			require.NoError(t, os.WriteFile(tmp, []byte(header+line1), 0o644))
			require.NoError(t, os.Rename(tmp, path))
		}},
		{"removed", func(t *testing.T, path string) { require.NoError(t, os.Remove(path)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, header+line1)
			s, err := Open(path, nil)
			require.NoError(t, err)
			defer s.Close()
			_, err = s.AppendMessage(user("mine"))
			require.NoError(t, err, "appends before the change land")
			tt.change(t, path)
			leaf := s.Leaf()
			_, err = s.AppendMessage(user("lost?"))
			require.ErrorIs(t, err, ErrChanged)
			assert.Equal(t, leaf, s.Leaf(), "the refused entry is not in the tree")
		})
	}
}

// TestAppendsAfterOpenRepairAndCreate: the size the session remembers
// follows its own writes (a torn tail ended, a new file, a migration).
func TestAppendsAfterOpenRepairAndCreate(t *testing.T) {
	path := writeFile(t, header+line1+line2[:30])
	s, err := Open(path, nil)
	require.NoError(t, err)
	for range 3 {
		_, err = s.AppendMessage(user("x"))
		require.NoError(t, err)
	}
	require.NoError(t, s.Close())

	// A file of small entries only, all held in memory.
	path = writeFile(t, header+`{"type":"model_change","id":"m1","parentId":null,"timestamp":"2025-01-01T10:00:01.000Z","provider":"p","modelId":"m"}`+"\n")
	s, err = Open(path, nil)
	require.NoError(t, err)
	_, err = s.AppendMessage(user("x"))
	require.NoError(t, err)
	require.NoError(t, s.Close())

	c, err := Create(t.TempDir(), "/w", nil)
	require.NoError(t, err)
	for range 3 {
		_, err = c.AppendMessage(user("x"))
		require.NoError(t, err)
	}
	require.NoError(t, c.Close())
}
