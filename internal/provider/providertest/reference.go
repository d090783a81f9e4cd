package providertest

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// recordedEvent is an event in the recordings' form.
type recordedEvent struct {
	Type             string              `json:"type"`
	ContentIndex     *int                `json:"contentIndex,omitempty"`
	Delta            *string             `json:"delta,omitempty"`
	Content          *string             `json:"content,omitempty"`
	ToolCall         *agentcore.ToolCall `json:"toolCall,omitempty"`
	PartialArguments json.RawMessage     `json:"partialArguments,omitempty"`
}

// record returns ev in the recordings' form, as record.mjs takes it: the
// fields of recordedEvent that the event's JSON has (its partial and a
// final event's message are left out), and at a tool-call delta the
// arguments parsed so far.
func record(t testing.TB, ev agentcore.AssistantEvent) recordedEvent {
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

// parseErrorText matches the parser's own words in an argumentsError,
// which differ between JavaScript and Go; the received text must match.
var parseErrorText = regexp.MustCompile(`(?s)^.*(\n\nReceived arguments:\n)`)

// connectionError starts the errorMessage of a request that got no
// response or lost it; the platform's reason follows.
const connectionError = "Connection error.: "

// terminated starts the errorMessage of a response whose body broke off
// on a connection kept alive; the platform's reason follows.
const terminated = "terminated: "

// Normalized returns v as plain JSON values with the texts that differ
// between JavaScript and Go replaced: the parser's words in an
// argumentsError, the platform's reason in a connection error, and what
// the target's ErrorText replaces in an errorMessage and its ToolCallID
// in a tool call's id.
func (target Target) Normalized(t testing.TB, v any) any {
	t.Helper()
	var out any
	reencode(t, v, &out)
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok {
					v[k] = target.normalizedString(k, s)
					continue
				}
				walk(x)
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

// normalizedString is the string s of member k with what differs between
// JavaScript and Go replaced (see [Target.Normalized]).
func (target Target) normalizedString(k, s string) string {
	switch {
	case k == "argumentsError":
		return parseErrorText.ReplaceAllString(s, "<parse error>$1")
	case k == "errorMessage" && strings.HasPrefix(s, connectionError):
		return connectionError + "<reason>"
	case k == "errorMessage" && strings.HasPrefix(s, terminated):
		return terminated + "<reason>"
	case k == "errorMessage" && target.ErrorText != nil:
		return target.ErrorText(s)
	case k == "id" && target.ToolCallID != nil:
		return target.ToolCallID(s)
	}
	return s
}

// ComparableMessage returns m as [Target.Normalized] JSON values, without
// the fields that differ between runs (timestamp, duration).
func (target Target) ComparableMessage(t testing.TB, m *agentcore.AssistantMessage) any {
	t.Helper()
	c := *m
	c.Timestamp, c.DurationMs = 0, nil
	return target.Normalized(t, &c)
}

// ReferenceMessage decodes a recorded final message.
func ReferenceMessage(t testing.TB, raw json.RawMessage) *agentcore.AssistantMessage {
	t.Helper()
	m, err := agentcore.UnmarshalMessage(raw)
	require.NoError(t, err)
	return m.(*agentcore.AssistantMessage)
}

// CompareWithReference checks events and final against the recording
// testdata/stream/NAME.pi.json.
func (target Target) CompareWithReference(t testing.TB, name string, events []agentcore.AssistantEvent, final *agentcore.AssistantMessage) {
	t.Helper()
	var ref recording
	require.NoError(t, json.Unmarshal(ReadTestdata(t, "stream", name+".pi.json"), &ref))
	got := make([]recordedEvent, len(events))
	for i, ev := range events {
		got[i] = record(t, ev)
	}
	assert.Equal(t, target.Normalized(t, ref.Events), target.Normalized(t, got), "events differ from pi's")
	assert.Equal(t, target.ComparableMessage(t, ReferenceMessage(t, ref.Message)), target.ComparableMessage(t, final), "final message differs from pi's")
}

// Reference runs the replays every provider shares, each in a subtest:
// the recorded responses ([Target.RecordedResponses]), the failures
// without a body ([Target.Aborts]) and the bodies cut off in a chunk
// ([Target.CutStreams]).
func (target Target) Reference(t *testing.T) {
	t.Run("responses", target.RecordedResponses)
	t.Run("aborts", target.Aborts)
	t.Run("cut streams", target.CutStreams)
}

// RecordedResponses serves each case of testdata/stream/cases.json, in a
// subtest named after it, and compares what the target makes of it with
// the recording.
func (target Target) RecordedResponses(t *testing.T) {
	_, cases := StreamCases(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			contentType := c.ContentType
			if contentType == "" {
				contentType = "text/event-stream"
			}
			srv := ServeBody(t, c.Status, contentType, c.Headers, ReadTestdata(t, "stream", c.Body))
			events, final := target.Run(t, t.Context(), target.New(srv.URL, srv.Client()), nil)
			target.CompareWithReference(t, c.Name, events, final)
		})
	}
}

// Aborts compares with the recordings the failures that have no recorded
// body: an abort before the response, an abort after the first text delta
// (the server then holds the stream open), and a refused connection.
func (target Target) Aborts(t *testing.T) {
	t.Run("abort-before-response", func(t *testing.T) {
		// The abort comes once the server has the request, however long
		// the request takes to get there.
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		srv, gone := HangingServer(t, nil, cancel)
		events, final := target.Run(t, ctx, target.New(srv.URL, srv.Client()), nil)
		target.CompareWithReference(t, "abort-before-response", events, final)
		WaitGone(t, gone)
	})
	t.Run("abort-mid-stream", func(t *testing.T) {
		srv, gone := HangingServer(t, target.Head(), nil)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		events, final := target.Run(t, ctx, target.New(srv.URL, srv.Client()), func(ev agentcore.AssistantEvent) {
			if _, ok := ev.(*agentcore.TextDeltaEvent); ok {
				cancel()
			}
		})
		target.CompareWithReference(t, "abort-mid-stream", events, final)
		WaitGone(t, gone)
	})
	t.Run("connection-refused", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		addr := ln.Addr().String()
		ln.Close()
		events, final := target.Run(t, t.Context(), target.New("http://"+addr, nil), nil)
		target.CompareWithReference(t, "connection-refused", events, final)
		assert.Contains(t, final.ErrorMessage, "connection refused", "the error says why")
	})
}

// CutStreams compares with the recordings bodies cut off in the middle of
// a chunk, after the [Target.Head] of Success and the start of one more
// event (or none): on a response sent with "Connection: close", whose
// end Node's fetch reads as the end of the body (cut-close,
// cut-close-between-events), and on a connection kept alive, which it
// reads as "terminated" (cut-keepalive).
func (target Target) CutStreams(t *testing.T) {
	for _, c := range []struct {
		name  string
		close bool
		tail  string
	}{
		{"cut-close", true, `data: {"`},
		{"cut-close-between-events", true, ""},
		{"cut-keepalive", false, `data: {"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			head := target.Head()
			srv := Serve(t, func(w http.ResponseWriter, r *http.Request) {
				conn, buf, err := w.(http.Hijacker).Hijack()
				if !assert.NoError(t, err) {
					return
				}
				defer conn.Close()
				buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n")
				if c.close {
					buf.WriteString("Connection: close\r\n")
				}
				buf.WriteString("Transfer-Encoding: chunked\r\n\r\n")
				buf.WriteString(strconv.FormatInt(int64(len(head)), 16) + "\r\n")
				buf.Write(head)
				buf.WriteString("\r\nff\r\n" + c.tail)
				buf.Flush()
			})
			events, final := target.Run(t, t.Context(), target.New(srv.URL, srv.Client()), nil)
			target.CompareWithReference(t, c.name, events, final)
			if !c.close && strings.HasPrefix(final.ErrorMessage, terminated) {
				assert.Equal(t, terminated+"unexpected EOF", final.ErrorMessage, "Go's reason")
			}
		})
	}
}
