package openairesponses

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestStreamOutcomes states, per recorded response, what a caller sees in
// the final message (TestMatchesReference checks every
// event against pi-ai; this test says what matters in words).
func TestStreamOutcomes(t *testing.T) {
	tests := []struct {
		name       string
		stop       agentcore.StopReason
		text       string
		thinking   string
		errorText  string // a substring of ErrorMessage; "" for none
		calls      []string
		usageInput int64
	}{
		{name: "text", stop: agentcore.StopStop, text: "Hello, world! ✓", usageInput: 200},
		{name: "reasoning", stop: agentcore.StopStop, text: "It is 42.", thinking: "The user asks for the answer.\n\nIt is 42.", usageInput: 200},
		{name: "tool-calls-parallel", stop: agentcore.StopToolUse, text: "Checking both.",
			calls: []string{`call_now|fc_now now {"zone":"Europe/Paris"}`, `call_calc|fc_calc calc {"expr":"6*7","precise":true,"digits":12}`}, usageInput: 200},
		{name: "bad-arguments", stop: agentcore.StopToolUse, calls: []string{`call_x|fc_x calc {} !`}, usageInput: 10},
		{name: "refusal", stop: agentcore.StopStop, text: "I can't help with that.", usageInput: 10},
		{name: "length", stop: agentcore.StopLength, text: "A very long ans", usageInput: 10},
		{name: "content-filter", stop: agentcore.StopError, text: "I can", errorText: "Response incomplete: content_filter", usageInput: 10},
		{name: "failed", stop: agentcore.StopError, text: "Partial", errorText: "server_error: The server had an error"},
		{name: "stream-error-named", stop: agentcore.StopError, text: "Partial", errorText: "The server is overloaded, please retry"},
		{name: "cut-off", stop: agentcore.StopError, text: "Half an ans", errorText: NoTerminalEventText},
		{name: "unfinished-tool-call", stop: agentcore.StopError, errorText: "unfinished tool call: calc (call_u|fc_u)",
			calls: []string{`call_u|fc_u calc {"expr":"1"}`}, usageInput: 10},
		{name: "malformed", stop: agentcore.StopError, text: "Fine so far", errorText: MalformedEventText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.ServeBody(t, 200, "text/event-stream", nil, providertest.ReadTestdata(t, "stream", tt.name+".sse"))
			_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
			assert.Equal(t, tt.stop, final.StopReason, final.ErrorMessage)
			assert.Equal(t, tt.text, final.Text())
			var thinking string
			for _, b := range final.Content {
				if th, ok := b.(agentcore.ThinkingBlock); ok {
					thinking = th.Thinking
				}
			}
			assert.Equal(t, tt.thinking, thinking)
			if tt.errorText == "" {
				assert.Empty(t, final.ErrorMessage)
			} else {
				assert.Contains(t, final.ErrorMessage, tt.errorText)
			}
			var calls []string
			for _, c := range final.ToolCalls() {
				s := c.ID + " " + c.Name + " " + string(c.Arguments)
				if c.ArgumentsError != "" {
					s += " !"
				}
				calls = append(calls, s)
			}
			assert.Equal(t, tt.calls, calls)
			assert.Equal(t, tt.usageInput, final.Usage.Input)
			assert.NotNil(t, final.DurationMs)
		})
	}
}

// TestReasoningReplay checks the round trip that is the point of the
// Responses API with store false: the reasoning item a response streamed
// (with its encrypted content) is sent back as it came in the next
// request to the same model, and dropped for another model.
func TestReasoningReplay(t *testing.T) {
	srv := providertest.ServeBody(t, 200, "text/event-stream", nil, providertest.ReadTestdata(t, "stream", "reasoning.sse"))
	target := testTarget(t)
	_, first := target.Run(t, t.Context(), streamFrom(srv), nil)
	require.Equal(t, agentcore.StopStop, first.StopReason, first.ErrorMessage)
	transcript := []agentcore.Message{agentcore.UserText("What is the answer?"), first, agentcore.UserText("Why?")}

	for _, tt := range []struct {
		name      string
		model     string
		reasoning bool
	}{{"same model", target.Model.ID, true}, {"other model", "gpt-other", false}} {
		t.Run(tt.name, func(t *testing.T) {
			var rec providertest.Recorder
			fn := rec.Serve(t, target, 200, nil, target.Success)
			model := target.Model
			model.ID = tt.model
			_, final := providertest.Collect(fn(t.Context(), model, agentcore.Request{Messages: transcript}, agentcore.StreamOptions{APIKey: "k", Reasoning: agentcore.ThinkingHigh}), nil)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			_, bodies := rec.Requests()
			var body struct {
				Input   []json.RawMessage `json:"input"`
				Include []string          `json:"include"`
				Store   *bool             `json:"store"`
			}
			require.NoError(t, json.Unmarshal(bodies[0], &body))
			require.NotNil(t, body.Store)
			assert.False(t, *body.Store)
			assert.Equal(t, []string{"reasoning.encrypted_content"}, body.Include)
			var items []string
			for _, it := range body.Input {
				items = append(items, string(it))
			}
			all := strings.Join(items, "\n")
			assert.Equal(t, tt.reasoning, strings.Contains(all, `{"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"The user asks for the answer."},{"type":"summary_text","text":"It is 42."}],"encrypted_content":"gAAAA-encrypted=="}`), all)
			assert.Contains(t, all, `"type":"message","role":"assistant","content":[{"type":"output_text","text":"It is 42.","annotations":[]}],"status":"completed"`)
		})
	}
}

// TestStreamEdges covers server behaviors the recordings do not.
func TestStreamEdges(t *testing.T) {
	const completed = `data: {"type":"response.completed","response":{"id":"r","status":"completed"}}` + "\n\n"
	tests := []struct {
		name, body string
		stop       agentcore.StopReason
		errorText  string
	}{
		{name: "events after [DONE] ignored", body: completed + "data: [DONE]\n\ndata: {broken\n\n", stop: agentcore.StopStop},
		{name: "empty, non-object and unknown events skipped", body: "event: ping\n\ndata: 42\n\ndata: \"x\"\n\ndata: {\"type\":\"response.queued\"}\n\n" + completed, stop: agentcore.StopStop},
		{name: "thread events skipped", body: "event: thread.message\ndata: {\"type\":\"error\"}\n\n" + completed, stop: agentcore.StopStop},
		{name: "fields of unexpected types ignored", stop: agentcore.StopStop,
			body: `data: {"type":"response.output_text.delta","output_index":0,"delta":7}` + "\n\n" + `data: {"type":"response.completed","response":{"id":5,"status":"completed","usage":"none"}}` + "\n\n"},
		{name: "null event", body: "data: null\n\n" + completed, stop: agentcore.StopError, errorText: "Cannot read properties of null (reading 'type')"},
		{name: "error event without an error", body: "event: error\ndata: {\"error\":false}\n\n", stop: agentcore.StopError, errorText: "(no status code or body)"},
		{name: "empty body", body: "", stop: agentcore.StopError, errorText: NoTerminalEventText},
		{name: "cancelled", body: `data: {"type":"response.completed","response":{"status":"cancelled"}}` + "\n\n", stop: agentcore.StopError, errorText: UnknownErrorText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(tt.body))
			_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
			assert.Equal(t, tt.stop, final.StopReason, final.ErrorMessage)
			if tt.errorText == "" {
				assert.Empty(t, final.ErrorMessage)
			} else {
				assert.Equal(t, tt.errorText, final.ErrorMessage)
			}
		})
	}
}

// TestConsumerStopsEarly checks that breaking out of the stream closes the
// connection and leaves nothing running.
func TestConsumerStopsEarly(t *testing.T) { testTarget(t).ConsumerStopsEarly(t) }

// TestKeptPartialsDoNotChange checks that the partials a consumer keeps
// with CloneEvent keep what they showed during their event.
func TestKeptPartialsDoNotChange(t *testing.T) {
	testTarget(t).KeptPartialsDoNotChange(t, providertest.ReadTestdata(t, "stream", "tool-calls-parallel.sse"))
}

// TestRequestFailsUnsent covers requests that fail before they are sent.
func TestRequestFailsUnsent(t *testing.T) {
	srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) { t.Error("no request expected") })
	signed := &agentcore.AssistantMessage{API: "openai-responses", Provider: "test", Model: "gpt-test", StopReason: agentcore.StopStop,
		Content: []agentcore.ContentBlock{agentcore.ThinkingBlock{Thinking: "x", ThinkingSignature: "reasoning_content"}}}
	for _, tt := range []struct {
		name     string
		messages []agentcore.Message
		so       agentcore.StreamOptions
		compat   string
		want     string
	}{
		{"no key", []agentcore.Message{agentcore.UserText("hi")}, agentcore.StreamOptions{}, "", "No API key for provider: test"},
		{"bad compat", []agentcore.Message{agentcore.UserText("hi")}, agentcore.StreamOptions{APIKey: "k"}, "[1]", "invalid model compat settings: json: cannot unmarshal array into Go value of type openairesponses.compatJSON"},
		{"thinking signature that is no item", []agentcore.Message{agentcore.UserText("hi"), signed, agentcore.UserText("go on")}, agentcore.StreamOptions{APIKey: "k"}, "", errBadThinkingSignature.Error()},
		{"tool schema that is no JSON", []agentcore.Message{
			&agentcore.SystemMessage{ToolsAdded: []agentcore.ToolDeclaration{{Name: "t", Parameters: json.RawMessage(`{broken`)}}},
			agentcore.UserText("hi"),
		}, agentcore.StreamOptions{APIKey: "k"}, "", "Could not encode the request"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			model := testTarget(t).Model
			model.Compat = json.RawMessage(tt.compat)
			_, final := providertest.Collect(streamFrom(srv)(t.Context(), model, agentcore.Request{Messages: tt.messages}, tt.so), nil)
			require.NotNil(t, final)
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.True(t, strings.HasPrefix(final.ErrorMessage, tt.want), final.ErrorMessage)
		})
	}
}

// TestRequestOnTheWire checks what reaches the server: the body at
// BaseURL + /responses, the per-request key over the fallback, an
// Authorization header standing in for a key, the headers in order of
// precedence, and a transcript left as it was.
func TestRequestOnTheWire(t *testing.T) {
	var got struct {
		path   string
		header http.Header
	}
	srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		got.path, got.header = r.URL.Path, r.Header.Clone()
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(providertest.ReadTestdata(t, "stream", "text.sse"))
	})
	transcript := []agentcore.Message{agentcore.UserText("hi")}
	before, _ := json.Marshal(transcript)
	model := testTarget(t).Model
	model.Headers = map[string]string{"X-Model": "model", "X-Shared": "model"}
	fn := StreamFn(Options{BaseURL: srv.URL + "/v1/", APIKey: "sk-fallback", HTTPClient: srv.Client(),
		Headers: map[string]string{"X-Options": "options", "X-Shared": "options"}})
	so := agentcore.StreamOptions{APIKey: "sk-request", SessionID: "s", Headers: map[string]string{"X-Request": "request", "X-Shared": "request", "X-Client-Request-Id": ""}}
	_, final := providertest.Collect(fn(t.Context(), model, agentcore.Request{Messages: transcript}, so), nil)
	require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
	assert.Equal(t, "/v1/responses", got.path)
	assert.Equal(t, "Bearer sk-request", got.header.Get("Authorization"))
	assert.Equal(t, "s", got.header.Get("Session-Id"))
	assert.Empty(t, got.header.Values("X-Client-Request-Id"), "removed by the request")
	for k, v := range map[string]string{"X-Model": "model", "X-Options": "options", "X-Request": "request", "X-Shared": "request"} {
		assert.Equal(t, v, got.header.Get(k), k)
	}
	after, _ := json.Marshal(transcript)
	assert.JSONEq(t, string(before), string(after))

	_, final = providertest.Collect(StreamFn(Options{BaseURL: srv.URL, HTTPClient: srv.Client()})(t.Context(), model, agentcore.Request{Messages: transcript},
		agentcore.StreamOptions{Headers: map[string]string{"Authorization": "Bearer from-header"}}), nil)
	require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
	assert.Equal(t, "Bearer from-header", got.header.Get("Authorization"))
}

// TestStreamLineTooLong checks that a line over the limit is reported as
// such, not as malformed JSON, after the text so far.
func TestStreamLineTooLong(t *testing.T) {
	head := testTarget(t).Head()
	body := string(head) + `data: {"type":"response.output_text.delta","output_index":0,"delta":"` + strings.Repeat("x", 17<<20)
	srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(body))
	_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
	require.Equal(t, agentcore.StopError, final.StopReason)
	assert.Equal(t, LineTooLongText, final.ErrorMessage)
	assert.Equal(t, "Hello", final.Text())
}
