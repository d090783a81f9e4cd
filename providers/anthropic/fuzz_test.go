package anthropic

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
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// bodyTransport answers every request with a 200 event stream of its
// bytes, without a network.
type bodyTransport []byte

func (b bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	io.Copy(io.Discard, r.Body)
	r.Body.Close()
	return &http.Response{
		StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(b)), Request: r,
	}, nil
}

// FuzzDecoder streams arbitrary bodies and checks the stream's contract:
// no panic, exactly one final event and it comes last, every content event
// names a block of its partial, a done message has a normal stop reason,
// an error message says why, and every message reads back as JSON with
// tool-call arguments that are JSON objects.
func FuzzDecoder(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "stream", "*.sse"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Add([]byte("event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\": [1, tr\"}}\n\n"))
	f.Add([]byte("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":\"x\"}}\n"))
	model, _ := providertest.StreamCases(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		fn := StreamFn(Options{APIKey: "k", BaseURL: "http://fuzz.invalid", HTTPClient: &http.Client{Transport: bodyTransport(body)}})
		var events []agentcore.AssistantEvent
		var final *agentcore.AssistantMessage
		for ev := range fn(t.Context(), model, providertest.HiRequest(), agentcore.StreamOptions{}) {
			require.Nil(t, final, "event %s after the final one", ev.Type())
			events = append(events, ev)
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
			assert.True(t, isObject(c.Arguments), "arguments %s", c.Arguments)
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
