package anthropic

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.6.0
// made of the same bytes (testdata/stream/NAME.pi.json, recorded by
// testdata/oracle/record.mjs): every event, the partial arguments at every
// tool-call delta, and the final message.

// recordedEvent is an event in the recording's form.
type recordedEvent struct {
	Type             string              `json:"type"`
	ContentIndex     *int                `json:"contentIndex,omitempty"`
	Delta            *string             `json:"delta,omitempty"`
	Content          *string             `json:"content,omitempty"`
	ToolCall         *agentcore.ToolCall `json:"toolCall,omitempty"`
	PartialArguments json.RawMessage     `json:"partialArguments,omitempty"`
}

// record returns ev in the recording's form, as record.mjs takes it.
func record(t *testing.T, ev agentcore.AssistantEvent) recordedEvent {
	t.Helper()
	var r recordedEvent
	reencode(t, ev, &r)
	if e, ok := ev.(*agentcore.ToolCallDeltaEvent); ok {
		r.PartialArguments = e.Partial.Content[e.ContentIndex].(agentcore.ToolCall).Arguments
	}
	return r
}

// reencode marshals v and unmarshals the JSON into out.
func reencode(t testing.TB, v, out any) {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, out))
}

// recording is a stream/NAME.pi.json file.
type recording struct {
	Events  []json.RawMessage `json:"events"`
	Message json.RawMessage   `json:"message"`
}

// normalized returns v as plain JSON values, with the error texts that
// differ between the platforms normalized (see normalizeErrorMessage and
// parseErrorText).
func normalized(t testing.TB, v any) any {
	t.Helper()
	var out any
	reencode(t, v, &out)
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				s, ok := x.(string)
				switch {
				case ok && k == "argumentsError":
					v[k] = parseErrorText.ReplaceAllString(s, "<parse error>$1")
				case ok && k == "errorMessage":
					v[k] = normalizeErrorMessage(s)
				default:
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(out)
	return out
}

// comparableMessage is m as JSON values through agentcore's message type,
// without the fields that differ between runs.
func comparableMessage(t testing.TB, m *agentcore.AssistantMessage) any {
	c := *m
	c.Timestamp, c.DurationMs = 0, nil
	return normalized(t, &c)
}

// referenceMessage reads a recorded final message.
func referenceMessage(t testing.TB, raw json.RawMessage) *agentcore.AssistantMessage {
	t.Helper()
	m, err := agentcore.UnmarshalMessage(raw)
	require.NoError(t, err)
	return m.(*agentcore.AssistantMessage)
}

// compareWithReference checks events and final against NAME.pi.json.
func compareWithReference(t *testing.T, name string, events []agentcore.AssistantEvent, final *agentcore.AssistantMessage) {
	t.Helper()
	var ref recording
	require.NoError(t, json.Unmarshal(readTestdata(t, "stream", name+".pi.json"), &ref))
	got := make([]recordedEvent, len(events))
	for i, ev := range events {
		got[i] = record(t, ev)
	}
	assert.Equal(t, normalized(t, ref.Events), normalized(t, got), "events differ from pi's")
	assert.Equal(t, comparableMessage(t, referenceMessage(t, ref.Message)), comparableMessage(t, final), "final message differs from pi's")
}

func TestRecordedResponsesMatchReference(t *testing.T) {
	_, cases := streamCases(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			contentType := c.ContentType
			if contentType == "" {
				contentType = "text/event-stream"
			}
			srv := serveBody(t, c.Status, contentType, c.Headers, readTestdata(t, "stream", c.Body))
			events, final := run(t, t.Context(), streamFrom(srv), nil)
			compareWithReference(t, c.Name, events, final)
		})
	}
}

// firstEvents is the start of text.sse: message_start, the text block's
// start, a ping and the first text delta.
func firstEvents(t *testing.T) []byte {
	parts := strings.SplitAfterN(string(readTestdata(t, "stream", "text.sse")), "\n\n", 5)
	return []byte(strings.Join(parts[:4], ""))
}

// hangingServer answers with head (if any) and then holds the response
// open until the client goes away, which it reports on gone. onRequest,
// when not nil, is called when a request has arrived.
func hangingServer(t *testing.T, head []byte, onRequest func()) (fn agentcore.StreamFn, gone <-chan struct{}) {
	done := make(chan struct{})
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		io.Copy(io.Discard, r.Body)
		if onRequest != nil {
			onRequest()
		}
		if head != nil {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(head)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	})
	return streamFrom(s), done
}

// waitGone waits for a hanging server to see its client go away.
func waitGone(t *testing.T, gone <-chan struct{}) {
	t.Helper()
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the client close the connection")
	}
}

func TestAbortMatchesReference(t *testing.T) {
	t.Run("abort-before-response", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		fn, gone := hangingServer(t, nil, cancel)
		events, final := run(t, ctx, fn, nil)
		compareWithReference(t, "abort-before-response", events, final)
		waitGone(t, gone)
	})
	t.Run("abort-mid-stream", func(t *testing.T) {
		fn, gone := hangingServer(t, firstEvents(t), nil)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		events, final := run(t, ctx, fn, func(ev agentcore.AssistantEvent) {
			if _, ok := ev.(*agentcore.TextDeltaEvent); ok {
				cancel()
			}
		})
		compareWithReference(t, "abort-mid-stream", events, final)
		waitGone(t, gone)
	})
	t.Run("connection-refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := ln.Addr().String()
		ln.Close()
		events, final := run(t, t.Context(), StreamFn(Options{BaseURL: "http://" + addr}), nil)
		compareWithReference(t, "connection-refused", events, final)
		assert.Contains(t, final.ErrorMessage, "connection refused")
	})
}

// TestConnectionDropped cuts the connection in the middle of the body:
// the text so far is kept and the error names the network failure.
func TestConnectionDropped(t *testing.T) {
	head := firstEvents(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if !assert.NoError(t, err) {
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		buf.WriteString(strconv.FormatInt(int64(len(head)), 16) + "\r\n")
		buf.Write(head)
		buf.WriteString("\r\nff\r\ndata: {\"ty") // a chunk cut short, no terminator
		buf.Flush()
	})
	events, final := run(t, t.Context(), streamFrom(srv), nil)
	assert.Equal(t, agentcore.StopError, final.StopReason)
	assert.Equal(t, "Connection error.: unexpected EOF", final.ErrorMessage)
	assert.Equal(t, "Hello", final.Text())
	var types []string
	for _, ev := range events {
		types = append(types, ev.Type())
	}
	assert.Equal(t, "start text_start text_delta error", strings.Join(types, " "))
}
