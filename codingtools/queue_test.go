package codingtools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParallelEditsOfOneFileAreSerialized(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	const n = 40
	for i := range n {
		fmt.Fprintf(&b, "line %02d\n", i)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte(b.String()), 0o644))
	require.NoError(t, os.Symlink("f.txt", filepath.Join(dir, "alias.txt")))
	tools := AllTools(dir, nil)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			path := "f.txt"
			if i%2 == 1 {
				path = "alias.txt" // another name of the same file shares its queue
			}
			_, err := call(t, context.Background(), tools, "edit", map[string]any{
				"path": path, "edits": []Edit{{OldText: fmt.Sprintf("line %02d\n", i), NewText: fmt.Sprintf("LINE %02d\n", i)}},
			})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(dir, "f.txt"))
	require.NoError(t, err)
	assert.Equal(t, strings.ToUpper(b.String()), string(data), "no edit was lost")
	mutations.mu.Lock()
	defer mutations.mu.Unlock()
	assert.Empty(t, mutations.locks, "the queue forgets files nobody edits")
}

func TestQueueWaitEndsWithContext(t *testing.T) {
	q := &mutationQueue{locks: map[string]*fileLock{}}
	hold, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		done <- q.do(context.Background(), "k", func() error { close(hold); <-release; return nil })
	}()
	<-hold
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, q.do(ctx, "k", func() error { t.Error("ran"); return nil }), errAborted)
	close(release)
	require.NoError(t, <-done)
	assert.Empty(t, q.locks)
}
