package providertest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/golden"
)

// Ticket is the answer of the response-format wire tests: the value the
// recorded streams under testdata/response_format carry as JSON text.
type Ticket struct {
	Title    string   `json:"title"`
	Priority string   `json:"priority"`
	Labels   []string `json:"labels"`
}

// TicketFormat is the response format the wire tests request: Ticket's
// schema, strict.
func TicketFormat() *agentcore.ResponseFormat {
	return &agentcore.ResponseFormat{
		Name:   "ticket",
		Schema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"},"priority":{"type":"string","enum":["low","high"]},"labels":{"type":"array","items":{"type":"string"}}},"required":["title","priority","labels"],"additionalProperties":false}`),
		Strict: true,
	}
}

// ResponseFormatWire checks a provider's native structured-output mode on
// recorded wire traffic: the stream function newFn returns for a server's
// URL sends "File a ticket" to model with [TicketFormat], and the body it
// sends must equal testdata/response_format/request.golden.json (go test
// -update rewrites it); the server answers with
// testdata/response_format/stream.sse (a text/event-stream unless
// contentType says otherwise), whose final text must decode into the
// Ticket the streams carry, the text deltas building it up.
func ResponseFormatWire(t *testing.T, model agentcore.Model, contentType string, newFn func(url string) agentcore.StreamFn) {
	t.Helper()
	if contentType == "" {
		contentType = "text/event-stream"
	}
	sse := ReadTestdata(t, "response_format", "stream.sse")
	var (
		mu   sync.Mutex
		body []byte
	)
	srv := Serve(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		body = b
		mu.Unlock()
		w.Header().Set("Content-Type", contentType)
		w.Write(sse)
	})
	req := agentcore.Request{Messages: []agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("File a ticket: the printer on floor 2 jams."), Timestamp: 1}}}
	var deltas strings.Builder
	_, final := Collect(newFn(srv.URL)(context.Background(), model, req, agentcore.StreamOptions{APIKey: "k", ResponseFormat: TicketFormat()}), func(ev agentcore.AssistantEvent) {
		if d, ok := ev.(*agentcore.TextDeltaEvent); ok {
			deltas.WriteString(d.Delta)
		}
	})
	require.NotNil(t, final)
	require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)

	mu.Lock()
	sent := body
	mu.Unlock()
	var indented bytes.Buffer
	require.NoError(t, json.Indent(&indented, sent, "", "  "))
	indented.WriteByte('\n')
	golden.Check(t, indented.Bytes(), filepath.Join("testdata", "response_format", "request.golden.json"))

	want := Ticket{Title: "Printer jams on floor 2", Priority: "high", Labels: []string{"hardware", "floor-2"}}
	assert.Equal(t, final.Text(), deltas.String(), "the deltas build the final text")
	ticket, err := agentcore.DecodeArgs[Ticket](json.RawMessage(final.Text()))
	require.NoError(t, err, final.Text())
	assert.Equal(t, want, ticket)
}
