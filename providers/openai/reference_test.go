package openai

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
)

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.5.2
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

// record returns ev in the recording's form, as record.mjs takes it: the
// fields of recordedEvent that the event's JSON has (its partial and a final
// event's message are left out), and at a tool-call delta the arguments
// parsed so far.
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
func reencode(t *testing.T, v, out any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatal(err)
	}
}

// recording is a NAME.pi.json file.
type recording struct {
	Events  []json.RawMessage `json:"events"`
	Message json.RawMessage   `json:"message"`
}

// normalized returns v as plain JSON values, with the parser's words in
// argumentsError and the reason of a connection error left out.
func normalized(t *testing.T, v any) any {
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
					v[k] = normalizeArgumentsError(s)
				case ok && k == "errorMessage" && strings.HasPrefix(s, "Connection error.: "):
					v[k] = "Connection error.: <reason>"
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

// comparableMessage is m without the fields that differ between runs.
func comparableMessage(m *agentcore.AssistantMessage) *agentcore.AssistantMessage {
	c := *m
	c.Timestamp, c.DurationMs = 0, nil
	return &c
}

// compareWithReference checks events and final against NAME.pi.json.
func compareWithReference(t *testing.T, name string, events []agentcore.AssistantEvent, final *agentcore.AssistantMessage) {
	t.Helper()
	var ref recording
	if err := json.Unmarshal(readTestdata(t, "stream", name+".pi.json"), &ref); err != nil {
		t.Fatal(err)
	}
	got := make([]recordedEvent, len(events))
	for i, ev := range events {
		got[i] = record(t, ev)
	}
	if g, w := normalized(t, got), normalized(t, ref.Events); !reflect.DeepEqual(g, w) {
		t.Errorf("events differ from pi's\n got: %s\nwant: %s", jsonLines(t, g), jsonLines(t, w))
	}
	refMsg, err := agentcore.UnmarshalMessage(ref.Message)
	if err != nil {
		t.Fatal(err)
	}
	want := normalized(t, comparableMessage(refMsg.(*agentcore.AssistantMessage)))
	if g := normalized(t, comparableMessage(final)); !reflect.DeepEqual(g, want) {
		t.Errorf("final message differs from pi's\n got: %s\nwant: %s", jsonText(t, g), jsonText(t, want))
	}
}

func jsonText(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func jsonLines(t *testing.T, v any) string {
	var b strings.Builder
	for _, x := range v.([]any) {
		b.WriteString("\n  " + jsonText(t, x))
	}
	return b.String()
}

func TestRecordedResponsesMatchReference(t *testing.T) {
	_, cases := streamCases(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			srv := serveBody(t, c.Status, cmpOrEventStream(c.ContentType), readTestdata(t, "stream", c.Body))
			events, final := run(t, t.Context(), streamFrom(srv), nil)
			compareWithReference(t, c.Name, events, final)
		})
	}
}

func cmpOrEventStream(contentType string) string {
	if contentType == "" {
		return "text/event-stream"
	}
	return contentType
}

// firstChunks is the start of text.sse: its first two events.
func firstChunks(t *testing.T) []byte {
	parts := strings.SplitAfterN(string(readTestdata(t, "stream", "text.sse")), "\n\n", 3)
	return []byte(parts[0] + parts[1])
}

// hangingServer answers with head (if any) and then holds the response
// open until the client goes away, which it reports on gone. arrived, if
// not nil, is called when the request arrives.
func hangingServer(t *testing.T, head []byte, arrived func()) (fn agentcore.StreamFn, gone <-chan struct{}) {
	done := make(chan struct{})
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		if arrived != nil {
			arrived()
		}
		io.Copy(io.Discard, r.Body) // then the server notices the client leaving
		if head != nil {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(head)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	})
	return streamFrom(s), done
}

func TestAbortMatchesReference(t *testing.T) {
	t.Run("abort-before-response", func(t *testing.T) {
		// The abort comes once the server has the request, however long
		// the request takes to get there.
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		fn, gone := hangingServer(t, nil, cancel)
		events, final := run(t, ctx, fn, nil)
		compareWithReference(t, "abort-before-response", events, final)
		waitGone(t, gone)
	})
	t.Run("abort-mid-stream", func(t *testing.T) {
		fn, gone := hangingServer(t, firstChunks(t), nil)
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
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		events, final := run(t, t.Context(), StreamFn(Options{BaseURL: "http://" + addr + "/v1"}), nil)
		compareWithReference(t, "connection-refused", events, final)
		if !strings.Contains(final.ErrorMessage, "connection refused") {
			t.Errorf("errorMessage %q does not say why", final.ErrorMessage)
		}
	})
}

// TestConnectionDropped cuts the connection in the middle of the body.
// pi-ai reports the platform's network error without ending the blocks;
// so does this package, with Go's words.
func TestConnectionDropped(t *testing.T) {
	head := firstChunks(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		writeChunk(buf, head)
		buf.WriteString("ff\r\ndata: {\"choi") // a chunk cut short, no terminator
		buf.Flush()
	})
	events, final := run(t, t.Context(), streamFrom(srv), nil)
	if final.StopReason != agentcore.StopError || final.ErrorMessage != "Connection error.: unexpected EOF" {
		t.Errorf("final = %s %q, want error %q", final.StopReason, final.ErrorMessage, "Connection error.: unexpected EOF")
	}
	if got := final.Text(); got != "Hello" {
		t.Errorf("content %q, want the text streamed before the cut", got)
	}
	var types []string
	for _, ev := range events {
		types = append(types, ev.Type())
	}
	if want := "start text_start text_delta error"; strings.Join(types, " ") != want {
		t.Errorf("events %v, want %s", types, want)
	}
}

func writeChunk(w *bufio.ReadWriter, data []byte) {
	w.WriteString(strconv.FormatInt(int64(len(data)), 16) + "\r\n")
	w.Write(data)
	w.WriteString("\r\n")
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
