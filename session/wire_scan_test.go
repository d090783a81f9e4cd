package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzScanMessageEntry checks the one-pass reading of message lines
// against decodeEntryJSON: whatever it takes, it decodes the same.
func FuzzScanMessageEntry(f *testing.F) {
	for _, s := range []string{
		`{"type":"message","id":"a1","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user","content":"hi","timestamp":1}}`,
		`{"type":"message","id":"a2","parentId":"a1","timestamp":"t","message":{"role":"assistant","content":[{"type":"text","text":"x \"}\" y"}],"api":"a","provider":"p","model":"m","usage":{"input":1.5,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":1,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2}}`,
		`{"type":"message","id":"a3","parentId":"a2","timestamp":"t","message":{"role":"toolResult","toolCallId":"c","toolName":"n","content":[],"isError":false,"timestamp":3}}`,
		`{"type":"message","id":"a4","parentId":"a3","timestamp":"t","message":{"role":"custom","x":"\\"}}`,
		`{"type":"message","id":"a5","parentId":"a3","timestamp":"t","message":{"role":"user","content":null}}`,
		`{"type":"message","id":"a5","parentId":"a3","timestamp":"t","message":{"role":"user","content":""}}`,
		`{"type":"message","id":"a6","parentId":"a3","timestamp":"t","message":{"role":"user","content":[{"type":"thinking"}]}}`,
		`{"type":"message","id":"a7","timestamp":"t","message":{"role":"user","content":"x"}}`,
		`{"type":"message","id":"a8","parentId":"a3","timestamp":"t","message":{"role":"user","content":"x"},"extra":1}`,
		`{"type":"message","id":"a9","parentId":"a3","timestamp":"t","message":{"role":"user","content":"x"}} x`,
		`{"type":"message","id":"b1","parentId":"a3","timestamp":"t","message":{"role":"user","content":"x}`,
		`{"type":"message","id":"b2","parentId":"a3","timestamp":"t","message":{"role":"user","content":["x"]]}}`,
		`{"type":"label","id":"b3","parentId":"a3","timestamp":"t","targetId":"a1","label":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		e, b, ok := scanMessageEntry(line, nil)
		if !ok {
			return
		}
		want, wantBase, err := decodeEntryJSON(line, nil)
		require.NoError(t, err, "%s", line)
		require.Equal(t, wantBase, b, "%s", line)
		require.Equal(t, want, e, "%s", line)
	})
}

func TestScanMessageEntryTakesPiLines(t *testing.T) {
	path, _ := writeLarge(t, 1)
	for _, e := range readEager(t, path) {
		if _, ok := e.(*MessageEntry); ok {
			line, err := marshalLine(e)
			require.NoError(t, err)
			_, _, ok := scanMessageEntry(line, nil)
			assert.True(t, ok, "%s", line)
		}
	}
}
