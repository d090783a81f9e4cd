package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/pi-go/agentcore/internal/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestPermissions answers yes, then no, then nothing: the third question
// times out. The input stays open, like a terminal nobody types in. In a
// bubble the timeout is virtual: it passes only once the answers typed
// were read, however slow the machine.
func TestPermissions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, typing := io.Pipe()
		go func() { _, _ = io.WriteString(typing, "y\nn\n") }()
		defer typing.Close() // ends the reader goroutine

		var out bytes.Buffer
		require.NoError(t, run(t.Context(), in, &out, 30*time.Millisecond))
		golden.Check(t, out.Bytes(), filepath.Join("testdata", "output.golden"))
	})
}

// TestClosedInput denies every question when there is no input at all.
func TestClosedInput(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), strings.NewReader(""), &out, time.Minute))
	assert.Equal(t, 3, strings.Count(out.String(), "[y/N] (no input)"), "questions denied for lack of input:\n%s", out.String())
	assert.Contains(t, out.String(), "calls c2 and c3 and c4 were refused", "the model did not see the denials")
}
