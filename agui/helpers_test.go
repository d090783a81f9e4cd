package agui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
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
	Code            string          `json:"code"`
	Outcome         *struct {
		Type               string           `json:"type"`
		PendingToolCallIDs []string         `json:"pendingToolCallIds"`
		Interrupts         []interruptEvent `json:"interrupts"`
	} `json:"outcome"`
}

// interruptEvent is an AG-UI Interrupt as a test reads it.
type interruptEvent struct {
	ID             string          `json:"id"`
	Reason         string          `json:"reason"`
	Message        string          `json:"message"`
	ToolCallID     string          `json:"toolCallId"`
	ExpiresAt      string          `json:"expiresAt"`
	ResponseSchema json.RawMessage `json:"responseSchema"`
	Metadata       struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		Title     string          `json:"title"`
	} `json:"metadata"`
}

// message is an AG-UI message as a test reads it.
type message struct {
	ID             string          `json:"id"`
	Role           string          `json:"role"`
	Content        json.RawMessage `json:"content,omitempty"`
	ToolCallID     string          `json:"toolCallId,omitempty"`
	Error          string          `json:"error,omitempty"`
	EncryptedValue string          `json:"encryptedValue,omitempty"`
	ToolCalls      []toolCall      `json:"toolCalls,omitempty"`
}

type toolCall struct {
	ID       string   `json:"id"`
	Type     string   `json:"type,omitempty"`
	Function function `json:"function"`
}

type function struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
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

// held applies an answer's events to the messages a client sent, as
// @ag-ui/client does, and returns the messages the client holds after.
func held(sent []message, evs []event) []message {
	msgs := slices.Clone(sent)
	find := func(id string) int { return slices.IndexFunc(msgs, func(m message) bool { return m.ID == id }) }
	open := func(id, role string) int {
		if i := find(id); i >= 0 {
			return i
		}
		msgs = append(msgs, message{ID: id, Role: role})
		return len(msgs) - 1
	}
	appendText := func(i int, delta string) {
		var s string
		_ = json.Unmarshal(msgs[i].Content, &s)
		msgs[i].Content, _ = json.Marshal(s + delta)
	}
	for _, e := range evs {
		switch e.Type {
		case "TEXT_MESSAGE_START", "REASONING_MESSAGE_START":
			if i := open(e.MessageID, e.Role); msgs[i].Content == nil {
				msgs[i].Content = json.RawMessage(`""`)
			}
		case "TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT":
			if i := find(e.MessageID); i >= 0 {
				appendText(i, e.text())
			}
		case "REASONING_ENCRYPTED_VALUE":
			if i := find(e.EntityID); i >= 0 && e.Subtype == "message" {
				msgs[i].EncryptedValue = e.EncryptedValue
			}
		case "TOOL_CALL_START":
			i := open(e.ParentMessageID, "assistant")
			msgs[i].ToolCalls = append(msgs[i].ToolCalls, toolCall{ID: e.ToolCallID, Type: "function", Function: function{Name: e.ToolCallName}})
		case "TOOL_CALL_ARGS":
			for i := range msgs {
				for j := range msgs[i].ToolCalls {
					if msgs[i].ToolCalls[j].ID == e.ToolCallID {
						msgs[i].ToolCalls[j].Function.Arguments += e.text()
					}
				}
			}
		case "TOOL_CALL_RESULT":
			r := message{ID: e.MessageID, Role: "tool", ToolCallID: e.ToolCallID, Content: e.Content}
			at := slices.IndexFunc(msgs, func(m message) bool {
				return slices.ContainsFunc(m.ToolCalls, func(c toolCall) bool { return c.ID == e.ToolCallID })
			})
			if at < 0 {
				msgs = append(msgs, r)
				continue
			}
			for at++; at < len(msgs) && msgs[at].Role == "tool"; at++ {
			}
			msgs = slices.Insert(msgs, at, r)
		case "MESSAGES_SNAPSHOT":
			named := map[string]message{}
			reasoning := false
			for _, m := range e.Messages {
				named[m.ID] = m
				reasoning = reasoning || m.Role == "reasoning"
			}
			var kept []message
			for _, m := range msgs {
				if s, ok := named[m.ID]; ok {
					kept = append(kept, s)
					delete(named, m.ID)
				} else if m.Role == "reasoning" && !reasoning {
					kept = append(kept, m)
				}
			}
			for _, m := range e.Messages {
				if _, ok := named[m.ID]; ok {
					kept = append(kept, m)
				}
			}
			msgs = kept
		}
	}
	return msgs
}

// sentMessages parses the messages JSON of a request.
func sentMessages(t *testing.T, messages string) []message {
	t.Helper()
	var out []message
	require.NoError(t, json.Unmarshal([]byte(messages), &out))
	return out
}
