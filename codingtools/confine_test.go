package codingtools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

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

// swapper renames a link named name in dir back and forth between a
// target inside and one outside until stopped.
func swapper(t *testing.T, dir, name, in, out string) (stop func()) {
	t.Helper()
	var wg sync.WaitGroup
	var done atomic.Bool
	wg.Go(func() {
		tmp := filepath.Join(dir, ".swap-"+name)
		for i := 0; !done.Load(); i++ {
			target := in
			if i%2 == 1 {
				target = out
			}
			_ = os.Remove(tmp)
			if err := os.Symlink(target, tmp); err != nil {
				continue
			}
			_ = os.Rename(tmp, filepath.Join(dir, name))
		}
	})
	return func() { done.Store(true); wg.Wait() }
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
	tools := AllTools(dir, &Options{Confine: true})
	ctx := context.Background()
	const rounds = 1000
	var reached []string
	for i := range rounds {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"read", map[string]any{"path": "swap"}},
			{"read", map[string]any{"path": "swapdir/secret.txt"}},
			{"write", map[string]any{"path": "swap", "content": "inside\n"}},
			{"write", map[string]any{"path": "swapdir/new.txt", "content": "x"}},
			{"edit", map[string]any{"path": "swap", "edits": []Edit{{OldText: "secret", NewText: "pwned"}}}},
			{"ls", map[string]any{"path": "swapdir"}},
			{"grep", map[string]any{"pattern": "secret", "path": "swapdir"}},
			{"grep", map[string]any{"pattern": "secret", "path": "swap"}},
			{"find", map[string]any{"pattern": "*", "path": "swapdir"}},
		} {
			if i%10 != 0 && (c.tool == "find" || c.tool == "grep") {
				continue // the walks are slower; a tenth of the rounds
			}
			res, err := call(t, ctx, tools, c.tool, c.args)
			if err == nil && strings.Contains(res.Text(), "secret") {
				reached = append(reached, c.tool+" "+res.Text())
			}
		}
	}
	stopFile()
	stopDir()
	assert.Empty(t, reached, "no call saw the outside file")
	data, err := os.ReadFile(filepath.Join(outside, "secret.txt"))
	require.NoError(t, err)
	assert.Equal(t, "secret\n", string(data), "the outside file is unchanged")
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing was created outside")
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
