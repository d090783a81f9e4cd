package session

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
)

// manyLines is a version 3 file of n message entries, every seventh line
// not JSON.
func manyLines(n int) (text string, bad []int, ids []string) {
	var sb strings.Builder
	sb.WriteString(header)
	parent := "null"
	for i := 1; i <= n; i++ {
		if i%7 == 0 {
			sb.WriteString("{not json\n")
			bad = append(bad, i+1)
			continue
		}
		fmt.Fprintf(&sb, `{"type":"message","id":"e%d","parentId":%s,"timestamp":"2025-01-01T10:00:00.000Z","message":{"role":"user","content":%q,"timestamp":%d}}`+"\n",
			i, parent, strings.Repeat("x", i%300), i)
		parent = fmt.Sprintf(`"e%d"`, i)
		ids = append(ids, fmt.Sprintf("e%d", i))
	}
	return sb.String(), bad, ids
}

// TestOpenInParallel: the lines decoded on other goroutines make the tree
// and the bad-line reports a sequential read makes, in file order, and no
// goroutine outlives Open, Context or an Open stopped by OnBadLine.
func TestOpenInParallel(t *testing.T) {
	defer goleak.VerifyNone(t)
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	text, bad, ids := manyLines(2000)
	path := writeFile(t, text)

	var got []int
	s, err := Open(path, &Options{ReadOnly: true, OnBadLine: func(e *LineError) error {
		got = append(got, e.Line)
		return nil
	}})
	require.NoError(t, err)
	assert.Equal(t, bad, got, "every bad line, in order")
	entries := s.Entries()
	var gotIDs []string
	for _, e := range entries {
		gotIDs = append(gotIDs, e.Base().ID)
	}
	assert.Equal(t, ids, gotIDs, "every entry, in file order")
	assert.Equal(t, len(ids), len(s.Context().Messages), "one branch of every message")
	require.NoError(t, s.Close())

	stop := errors.New("stop")
	_, err = Open(path, &Options{ReadOnly: true, OnBadLine: func(e *LineError) error {
		if e.Line > 1000 {
			return stop
		}
		return nil
	}})
	assert.ErrorIs(t, err, stop)
}

// TestOpenRegistryPanics: a registry's decoder that panics on a decoding
// goroutine panics on the opening one, after the others are joined.
func TestOpenRegistryPanics(t *testing.T) {
	defer goleak.VerifyNone(t)
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	var sb strings.Builder
	sb.WriteString(header)
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(&sb, `{"type":"message","id":"e%d","parentId":null,"timestamp":"t","message":{"role":"odd","n":%d}}`+"\n", i, i)
	}
	path := writeFile(t, sb.String())
	var reg agentcore.MessageRegistry
	reg.Register("odd", func([]byte) (agentcore.Message, error) { panic("odd decoder") })
	assert.PanicsWithValue(t, "odd decoder", func() { _, _ = Open(path, &Options{ReadOnly: true, Registry: &reg}) })
}
