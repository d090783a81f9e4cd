package providertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// BodyClient returns a client that answers every request with a 200
// event stream of body, without a network.
func BodyClient(body []byte) *http.Client {
	return ReaderClient(func(*http.Request) io.Reader { return bytes.NewReader(body) })
}

// FuzzStream streams arbitrary response bodies through target's stream
// function, seeded with the bodies of testdata/stream/*.sse and seeds, and
// checks the stream's contract: no panic, exactly one final event and it
// comes last, every content event names a block of its partial, a done
// message has a normal stop reason, an error message says why, and every
// message reads back as JSON with tool-call arguments that are JSON
// objects.
func (target Target) FuzzStream(f *testing.F, seeds ...[]byte) {
	files, err := filepath.Glob(filepath.Join("testdata", "stream", "*.sse"))
	require.NoError(f, err)
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(data)
	}
	for _, seed := range seeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fn := target.New("http://fuzz.invalid", BodyClient(body))
		var final *agentcore.AssistantMessage
		for ev := range fn(t.Context(), target.Model, HiRequest(), agentcore.StreamOptions{APIKey: target.APIKey}) {
			require.Nil(t, final, "event %s after the final one", ev.Type())
			switch ev := ev.(type) {
			case *agentcore.DoneEvent:
				final = ev.Message
				assert.Contains(t, []agentcore.StopReason{agentcore.StopStop, agentcore.StopLength, agentcore.StopToolUse}, final.StopReason)
			case *agentcore.ErrorEvent:
				final = ev.Message
				assert.Equal(t, agentcore.StopError, final.StopReason)
				assert.NotEmpty(t, final.ErrorMessage)
			default:
				checkIndex(t, ev)
			}
		}
		require.NotNil(t, final)
		data, err := json.Marshal(final)
		require.NoError(t, err)
		back, err := agentcore.UnmarshalMessage(data)
		require.NoError(t, err, "%s", data)
		for _, c := range back.(*agentcore.AssistantMessage).ToolCalls() {
			var args map[string]any
			assert.NoError(t, json.Unmarshal(c.Arguments, &args), "arguments %s", c.Arguments)
			assert.NotNil(t, args, "arguments %s", c.Arguments)
		}
	})
}

// checkIndex checks that a content event's index names a block of its
// partial, reading both from the event's JSON.
func checkIndex(t *testing.T, ev agentcore.AssistantEvent) {
	var probe struct {
		ContentIndex *int `json:"contentIndex"`
		Partial      *struct {
			Content []json.RawMessage `json:"content"`
		} `json:"partial"`
	}
	data, err := json.Marshal(ev)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &probe))
	require.NotNil(t, probe.Partial, "%s without a partial", ev.Type())
	if probe.ContentIndex != nil {
		assert.Less(t, *probe.ContentIndex, len(probe.Partial.Content))
	}
}

// BenchmarkDecode streams body through target's stream function over an
// in-memory transport, reporting allocations: request building, event
// decoding and the end of the stream, without a network. An error event
// fails the benchmark.
func (target Target) BenchmarkDecode(b *testing.B, body []byte) {
	fn := target.New("http://bench.invalid", BodyClient(body))
	so := agentcore.StreamOptions{APIKey: target.APIKey}
	b.ReportAllocs()
	for b.Loop() {
		for ev := range fn(b.Context(), target.Model, HiRequest(), so) {
			if e, ok := ev.(*agentcore.ErrorEvent); ok {
				b.Fatal(e.Message.ErrorMessage)
			}
		}
	}
}
