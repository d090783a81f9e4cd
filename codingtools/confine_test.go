package codingtools

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// confineFixture is a working directory and a directory outside it
// holding secret.txt.
func confineFixture(t *testing.T) (dir, outside string) {
	t.Helper()
	outside = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644))
	dir = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "inside.txt"), []byte("inside\n"), 0o644))
	return dir, outside
}

func TestConfineDanglingLink(t *testing.T) {
	dir, outside := confineFixture(t)
	rel, err := filepath.Rel(dir, filepath.Join(outside, "rel.txt"))
	require.NoError(t, err)
	require.NoError(t, os.Symlink(filepath.Join(outside, "new.txt"), filepath.Join(dir, "dl")))
	require.NoError(t, os.Symlink(rel, filepath.Join(dir, "dl-rel")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "newdir"), filepath.Join(dir, "dl-dir")))
	tools := AllTools(dir, &Options{Confine: true})
	for _, args := range []map[string]any{
		{"path": "dl", "content": "x"},
		{"path": "dl-rel", "content": "x"},
		{"path": "dl-dir/a/b.txt", "content": "x"},
	} {
		_, err := call(t, context.Background(), tools, "write", args)
		require.ErrorIs(t, err, ErrOutsideDir, args["path"])
	}
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was created outside")

	require.NoError(t, os.Symlink("inside.txt", filepath.Join(dir, "dl-in")))
	require.NoError(t, os.Remove(filepath.Join(dir, "inside.txt")))
	_, err = call(t, context.Background(), tools, "write", map[string]any{"path": "dl-in", "content": "again\n"})
	require.NoError(t, err, "a dangling link inside creates its target inside")
	data, err := os.ReadFile(filepath.Join(dir, "inside.txt"))
	require.NoError(t, err)
	assert.Equal(t, "again\n", string(data))
}

func TestConfineHardLink(t *testing.T) {
	dir, outside := confineFixture(t)
	if err := os.Link(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "hl")); err != nil {
		t.Skipf("hard link: %v", err)
	}
	tools := AllTools(dir, &Options{Confine: true})
	ctx := context.Background()
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"read", map[string]any{"path": "hl"}},
		{"write", map[string]any{"path": "hl", "content": "x"}},
		{"edit", map[string]any{"path": "hl", "edits": []Edit{{OldText: "secret", NewText: "x"}}}},
	} {
		_, err := call(t, ctx, tools, c.tool, c.args)
		require.ErrorIs(t, err, ErrHardLink, c.tool)
		require.ErrorIs(t, err, ErrOutsideDir, c.tool)
	}
	for _, p := range []string{".", "hl"} {
		res, err := call(t, ctx, tools, "grep", map[string]any{"pattern": "secret", "path": p})
		require.NoError(t, err)
		assert.Equal(t, "No matches found", res.Text())
	}
	data, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	require.NoError(t, err)
	assert.Equal(t, "secret\n", string(data))

	res, err := call(t, ctx, AllTools(dir, nil), "read", map[string]any{"path": "hl"})
	require.NoError(t, err, "unconfined, a hard link is a file like another")
	assert.Equal(t, "secret\n", res.Text())
}

func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, confine := range []bool{false, true} {
		tools := AllTools(dir, &Options{Confine: confine})
		done := make(chan error, 1)
		go func() {
			_, err := call(t, ctx, tools, "read", map[string]any{"path": "fifo"})
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(5 * time.Second):
			// Blocked in open(2): a writer releases it, and the test fails.
			w, werr := os.OpenFile(fifo, os.O_WRONLY, 0)
			require.NoError(t, werr)
			w.Close()
			err = <-done
			t.Error("read of a FIFO with no writer blocked")
		}
		require.ErrorIs(t, err, ErrSpecialFile, "a FIFO with no writer does not block")
		_, err = call(t, ctx, tools, "edit", map[string]any{"path": "fifo", "edits": []Edit{{OldText: "a", NewText: "b"}}})
		require.ErrorIs(t, err, ErrSpecialFile)
		_, err = call(t, ctx, tools, "write", map[string]any{"path": "fifo", "content": "x"})
		require.Error(t, err)
		res, err := call(t, ctx, tools, "grep", map[string]any{"pattern": "x", "path": "fifo"})
		require.NoError(t, err)
		assert.Equal(t, "No matches found", res.Text())
	}
	_, err := call(t, ctx, AllTools(dir, nil), "read", map[string]any{"path": "/dev/zero"})
	require.ErrorIs(t, err, ErrSpecialFile, "/dev/zero would feed the read forever")
	require.NoError(t, ctx.Err())
}

func TestConfineAbsoluteLinkInside(t *testing.T) {
	dir, _ := confineFixture(t)
	require.NoError(t, os.Symlink(filepath.Join(dir, "inside.txt"), filepath.Join(dir, "abs")))
	require.NoError(t, os.Symlink("inside.txt", filepath.Join(dir, "rel")))
	tools := AllTools(dir, &Options{Confine: true})
	_, err := call(t, context.Background(), tools, "read", map[string]any{"path": "abs"})
	require.ErrorIs(t, err, ErrOutsideDir, "absolute links are refused, even to inside")
	res, err := call(t, context.Background(), tools, "read", map[string]any{"path": "rel"})
	require.NoError(t, err)
	assert.Equal(t, "inside\n", res.Text())
	res, err = call(t, context.Background(), tools, "ls", map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, "abs\ninside.txt\nrel", res.Text())
}

// repeat calls f in a goroutine of its own until stop is called.
func repeat(f func()) (stop func()) {
	var wg sync.WaitGroup
	var done atomic.Bool
	wg.Go(func() {
		for !done.Load() {
			f()
		}
	})
	return func() { done.Store(true); wg.Wait() }
}

// swapper renames a link named name in dir back and forth between a
// target inside and one outside until stopped.
func swapper(t *testing.T, dir, name, in, out string) (stop func()) {
	t.Helper()
	tmp := filepath.Join(dir, ".swap-"+name)
	targets := [2]string{in, out}
	i := 0
	return repeat(func() {
		i++
		_ = os.Remove(tmp)
		if err := os.Symlink(targets[i%2], tmp); err == nil {
			_ = os.Rename(tmp, filepath.Join(dir, name))
		}
	})
}

// toolCall is one call of a race test.
type toolCall struct {
	tool string
	args map[string]any
}

// callsReaching makes the calls rounds times, the walks (grep, find) only
// every tenth round, and returns the results that hold "secret", the
// content and the name of the file outside.
func callsReaching(t *testing.T, tools []agentcore.Tool, rounds int, calls []toolCall) []string {
	t.Helper()
	var reached []string
	for i := range rounds {
		for _, c := range calls {
			if i%10 != 0 && (c.tool == "find" || c.tool == "grep") {
				continue // the walks are slower
			}
			res, err := call(t, context.Background(), tools, c.tool, c.args)
			if err == nil && strings.Contains(res.Text(), "secret") {
				reached = append(reached, c.tool+" "+res.Text())
			}
		}
	}
	return reached
}

// outsideUnchanged checks that the directory of confineFixture holds its
// file alone, unchanged.
func outsideUnchanged(t *testing.T, outside string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	require.NoError(t, err)
	assert.Equal(t, "secret\n", string(data), "the outside file is unchanged")
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was created outside")
}

func TestConfineSwappedLinkRace(t *testing.T) {
	dir, outside := confineFixture(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "inside.txt"), []byte("inside\n"), 0o644))
	relOut, err := filepath.Rel(dir, outside)
	require.NoError(t, err)
	stopFile := swapper(t, dir, "swap", "inside.txt", filepath.Join(relOut, "secret.txt"))
	stopDir := swapper(t, dir, "swapdir", "sub", relOut)
	defer stopDir()
	defer stopFile()
	reached := callsReaching(t, AllTools(dir, &Options{Confine: true}), 1000, []toolCall{
		{"read", map[string]any{"path": "swap"}},
		{"read", map[string]any{"path": "swapdir/secret.txt"}},
		{"write", map[string]any{"path": "swap", "content": "inside\n"}},
		{"write", map[string]any{"path": "swapdir/new.txt", "content": "x"}},
		{"edit", map[string]any{"path": "swap", "edits": []Edit{{OldText: "secret", NewText: "pwned"}}}},
		{"ls", map[string]any{"path": "swapdir"}},
		{"grep", map[string]any{"pattern": "secret", "path": "swapdir"}},
		{"grep", map[string]any{"pattern": "secret", "path": "swap"}},
		{"find", map[string]any{"pattern": "*", "path": "swapdir"}},
	})
	stopFile()
	stopDir()
	assert.Empty(t, reached, "no call saw the outside file")
	outsideUnchanged(t, outside)
}

func TestConfineObeysIgnoreFilesAbove(t *testing.T) {
	repo := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(repo, ".git"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("*.log\n"), 0o644))
	dir := filepath.Join(repo, "work")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("needle\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.log"), []byte("needle\n"), 0o644))
	tools := AllTools(dir, &Options{Confine: true})
	res, err := call(t, context.Background(), tools, "grep", map[string]any{"pattern": "needle"})
	require.NoError(t, err)
	assert.Equal(t, "a.txt:1: needle", res.Text(), "the repository's .gitignore above the directory still applies")
	res, err = call(t, context.Background(), tools, "find", map[string]any{"pattern": "*"})
	require.NoError(t, err)
	assert.Equal(t, "a.txt", res.Text())
}

// BenchmarkConfinedRead compares a read through os.Root with a plain one.
func BenchmarkConfinedRead(b *testing.B) {
	dir := b.TempDir()
	deep := filepath.Join(dir, "a", "b", "c")
	require.NoError(b, os.MkdirAll(deep, 0o755))
	require.NoError(b, os.WriteFile(filepath.Join(deep, "f.txt"), []byte(strings.Repeat("line\n", 200)), 0o644))
	for _, confine := range []bool{false, true} {
		name := "plain"
		if confine {
			name = "confined"
		}
		b.Run(name, func(b *testing.B) {
			tools := ReadOnlyTools(dir, &Options{Confine: confine})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := call(b, context.Background(), tools, "read", map[string]any{"path": "a/b/c/f.txt"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// exchanger swaps the names a and b in dir atomically (renameat2 with
// RENAME_EXCHANGE) until stopped; it skips the test where the kernel
// cannot.
func exchanger(t *testing.T, dir, a, b string) (stop func()) {
	t.Helper()
	exchange := func() error {
		pa, err := syscall.BytePtrFromString(filepath.Join(dir, a))
		if err != nil {
			return err
		}
		pb, err := syscall.BytePtrFromString(filepath.Join(dir, b))
		if err != nil {
			return err
		}
		const atFDCWD, renameExchange = -100, 2
		fd := atFDCWD
		_, _, errno := syscall.Syscall6(316 /* SYS_RENAMEAT2 on amd64 */, uintptr(fd), uintptr(unsafe.Pointer(pa)), uintptr(fd), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
		if errno != 0 {
			return errno
		}
		return nil
	}
	if runtime.GOARCH != "amd64" {
		t.Skip("renameat2's number is amd64's")
	}
	if err := exchange(); err != nil {
		t.Skipf("renameat2 RENAME_EXCHANGE: %v", err)
	}
	return repeat(func() { _ = exchange() })
}

// A directory swapped for a link to the outside between the steps of a
// walk, or between a tool's check and its open, is never followed out.
func TestConfineDirectorySwappedDuringWalk(t *testing.T) {
	dir, outside := confineFixture(t)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "d"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "d", "inside.txt"), []byte("inside\n"), 0o644))
	relOut, err := filepath.Rel(dir, outside)
	require.NoError(t, err)
	require.NoError(t, os.Symlink(relOut, filepath.Join(dir, "x")))
	stop := exchanger(t, dir, "d", "x")
	defer stop()
	reached := callsReaching(t, AllTools(dir, &Options{Confine: true}), 300, []toolCall{
		{"read", map[string]any{"path": "d/secret.txt"}},
		{"ls", map[string]any{"path": "d"}},
		{"write", map[string]any{"path": "d/new.txt", "content": "x"}},
		{"grep", map[string]any{"pattern": "secret", "path": "."}},
		{"grep", map[string]any{"pattern": "secret", "path": "d"}},
		{"find", map[string]any{"pattern": "**/*", "path": "."}},
	})
	stop()
	assert.Empty(t, reached, "no call saw the outside file")
	outsideUnchanged(t, outside)
}
