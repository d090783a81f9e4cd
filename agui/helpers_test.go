package agui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/internal/sse"
)

// event is an AG-UI event as a test reads it: every field it looks at.
type event struct {
	Type            string          `json:"type"`
	ThreadID        string          `json:"threadId"`
	RunID           string          `json:"runId"`
	MessageID       string          `json:"messageId"`
	Role            string          `json:"role"`
	Delta           json.RawMessage `json:"delta"`
	ToolCallID      string          `json:"toolCallId"`
	ToolCallName    string          `json:"toolCallName"`
	ParentMessageID string          `json:"parentMessageId"`
	Content         json.RawMessage `json:"content"`
	Message         string          `json:"message"`
	StepName        string          `json:"stepName"`
	Subtype         string          `json:"subtype"`
	EntityID        string          `json:"entityId"`
	EncryptedValue  string          `json:"encryptedValue"`
	Snapshot        json.RawMessage `json:"snapshot"`
	Messages        []message       `json:"messages"`
	Outcome         *struct {
		Type               string   `json:"type"`
		PendingToolCallIDs []string `json:"pendingToolCallIds"`
	} `json:"outcome"`
}

// message is an AG-UI message as a test reads it.
type message struct {
	ID             string          `json:"id"`
	Role           string          `json:"role"`
	Content        json.RawMessage `json:"content"`
	ToolCallID     string          `json:"toolCallId"`
	Error          string          `json:"error"`
	EncryptedValue string          `json:"encryptedValue"`
	ToolCalls      []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"toolCalls"`
}

// text is the text delta of a content event.
func (e event) text() string {
	var s string
	_ = json.Unmarshal(e.Delta, &s)
	return s
}

// types lists the events' types.
func types(evs []event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// find returns the events of type typ.
func find(evs []event, typ string) []event {
	var out []event
	for _, e := range evs {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// server serves a handler whose threads run on fake with tools.
func server(t *testing.T, fake *agentcoretest.Fake, opts agui.Options, tools ...agentcore.Tool) (*httptest.Server, *agui.Handler) {
	t.Helper()
	if opts.NewAgent == nil {
		opts.NewAgent = func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			return agentcore.Options{SystemPrompt: "You help.", Model: agentcoretest.Model(), StreamFn: fake.Stream, Tools: tools}, nil
		}
	}
	h := agui.New(opts)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h
}

// input is a RunAgentInput body.
func input(thread, run string, messages string, tools string) string {
	if tools == "" {
		tools = "[]"
	}
	return fmt.Sprintf(`{"threadId":%q,"runId":%q,"state":{},"messages":%s,"tools":%s,"context":[],"forwardedProps":{}}`, thread, run, messages, tools)
}

// userMsg is a user message's JSON.
func userMsg(id, text string) string {
	return fmt.Sprintf(`{"id":%q,"role":"user","content":%q}`, id, text)
}

// post sends body and returns the status and, for an event stream, its
// events (else the error text in one event's Message).
func post(t *testing.T, ctx context.Context, url, body string) (int, []event) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
		return resp.StatusCode, []event{{Type: "HTTP_ERROR", Message: e.Error}}
	}
	var evs []event
	r := sse.NewReader(resp.Body, 0)
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		var e event
		require.NoError(t, json.Unmarshal(ev.Data, &e), string(ev.Data))
		evs = append(evs, e)
	}
	return resp.StatusCode, evs
}
