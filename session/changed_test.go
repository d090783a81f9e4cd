package session

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestForkOfLineChangedUnderSession: a line replaced under the session by
// a line of another kind (blank, a number) is reported as a changed file
// when a fork reads it back: never a panic, never another line forked in
// its place.
func TestForkOfLineChangedUnderSession(t *testing.T) {
	for name, repl := range map[string]string{"blank": " ", "number": "1"} {
		t.Run(name, func(t *testing.T) {
			path := writeFile(t, header+line1)
			s, err := Open(path, nil)
			require.NoError(t, err)
			defer s.Close()
			changed := header + repl + strings.Repeat(" ", len(line1)-1-len(repl)) + "\n"
			require.NoError(t, os.WriteFile(path, []byte(changed), 0o644))
			_, err = s.Fork("", nil)
			assert.ErrorIs(t, err, ErrChanged)
		})
	}
}
