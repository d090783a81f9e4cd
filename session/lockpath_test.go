package session_test

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/session"
)

// TestLockPath: of callers racing for a path's lock exactly one gets it;
// the others get ErrLocked; unlock removes the lock file, and the path
// can be locked again.
func TestLockPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conversation")
	for range 20 {
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			unlocks []func() error
			locked  int
		)
		for range 4 {
			wg.Go(func() {
				unlock, err := session.LockPath(path)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					unlocks = append(unlocks, unlock)
				case errors.Is(err, session.ErrLocked):
					locked++
				default:
					t.Errorf("LockPath: %v", err)
				}
			})
		}
		wg.Wait()
		require.Len(t, unlocks, 1, "exactly one holder")
		assert.Equal(t, 3, locked)
		require.NoError(t, unlocks[0]())
		_, err := os.Stat(path + ".lock")
		assert.ErrorIs(t, err, os.ErrNotExist, "unlock removes the lock file")
	}
}
