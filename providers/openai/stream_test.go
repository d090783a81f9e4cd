package openai

import (
	"context"
	"encoding/json"
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
		name, body  string
		status      int
		stop        agentcore.StopReason
		text        string
		errorText   string // a substring of ErrorMessage; "" for none
		calls       []string
		usageInput  int64
		usageCached int64
	}{
		{name: "text answer", body: "text.sse", status: 200, stop: agentcore.StopStop, text: "Hello, world! ✓", usageInput: 20, usageCached: 100},
		{name: "reasoning then answer", body: "reasoning.sse", status: 200, stop: agentcore.StopStop, text: "It is 42.", usageInput: 30},
		{name: "parallel tool calls", body: "tool-calls-parallel.sse", status: 200, stop: agentcore.StopToolUse, text: "Checking both.",
			calls: []string{`call_now now {"zone":"Europe/Paris"}`, `call_calc calc {"expr":"6*7","precise":true,"digits":12}`}, usageInput: 200},
		{name: "malformed arguments", body: "bad-arguments.sse", status: 200, stop: agentcore.StopToolUse, calls: []string{`call_x calc {} !`}},
		{name: "length", body: "length.sse", status: 200, stop: agentcore.StopLength, text: "A very long ans"},
		{name: "content filter", body: "content-filter.sse", status: 200, stop: agentcore.StopError, text: "I can", errorText: "Provider finish_reason: content_filter"},
		{name: "cut off", body: "cut-off.sse", status: 200, stop: agentcore.StopError, text: "Half an ans", errorText: NoFinishReasonText, calls: []string{`call_cut calc {} !`}},
		{name: "malformed chunk", body: "malformed.sse", status: 200, stop: agentcore.StopError, text: "Fine so far", errorText: MalformedChunkText},
		{name: "error in the stream", body: "stream-error.sse", status: 200, stop: agentcore.StopError, text: "Partial", errorText: "The server is overloaded, please retry"},
		{name: "400 with error JSON", body: "http-400.json", status: 400, stop: agentcore.StopError, errorText: `400: {"message":"Invalid 'messages[2].tool_calls[0].id': string too long.`},
		{name: "429", body: "http-429.json", status: 429, stop: agentcore.StopError, errorText: `429: {"message":"Rate limit reached for gpt-test`},
		{name: "502 text", body: "http-502.txt", status: 502, stop: agentcore.StopError, errorText: "502 upstream connect error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.ServeBody(t, tt.status, "text/event-stream", nil, providertest.ReadTestdata(t, "stream", tt.body))
			_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
			if final.StopReason != tt.stop {
				t.Errorf("stopReason %s, want %s (%s)", final.StopReason, tt.stop, final.ErrorMessage)
			}
			if got := final.Text(); got != tt.text {
				t.Errorf("text %q, want %q", got, tt.text)
			}
			if tt.errorText == "" && final.ErrorMessage != "" || !strings.Contains(final.ErrorMessage, tt.errorText) {
				t.Errorf("errorMessage %q, want it to contain %q", final.ErrorMessage, tt.errorText)
			}
			var calls []string
			for _, c := range final.ToolCalls() {
				s := c.ID + " " + c.Name + " " + string(c.Arguments)
				if c.ArgumentsError != "" {
					s += " !"
				}
				calls = append(calls, s)
			}
			if strings.Join(calls, "\n") != strings.Join(tt.calls, "\n") {
				t.Errorf("tool calls %q, want %q", calls, tt.calls)
			}
			if final.Usage.Input != tt.usageInput || final.Usage.CacheRead != tt.usageCached {
				t.Errorf("usage input %d cached %d, want %d %d", final.Usage.Input, final.Usage.CacheRead, tt.usageInput, tt.usageCached)
			}
			if final.DurationMs == nil {
				t.Error("no durationMs on the final message")
			}
		})
	}
}

// TestStreamEdges covers server behaviors the recordings do not.
func TestStreamEdges(t *testing.T) {
	const stop = `data: {"id":"c","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}` + "\n\n"
	tests := []struct {
		name, body string
		stop       agentcore.StopReason
		text       string
		errorText  string
	}{
		{name: "no [DONE] after the finish reason", body: stop, stop: agentcore.StopStop, text: "ok"},
		{name: "events after [DONE] ignored", body: stop + "data: [DONE]\n\ndata: {broken\n\n", stop: agentcore.StopStop, text: "ok"},
		{name: "error event", body: "event: error\ndata: {\"error\":{\"message\":\"quota\"}}\n\n", stop: agentcore.StopError, errorText: "quota"},
		{name: "empty and non-object events skipped", body: "event: ping\n\ndata: 42\n\ndata: null\n\n" + stop, stop: agentcore.StopStop, text: "ok"},
		{name: "fields of unexpected types ignored", stop: agentcore.StopStop, text: "ok",
			body: `data: {"id":7,"model":null,"choices":[{"delta":{"content":"ok","reasoning":{"x":1},"tool_calls":"no"},"finish_reason":"stop","usage":[]}],"usage":"none"}` + "\n\n"},
		{name: "usage in the choice", stop: agentcore.StopStop, text: "ok",
			body: `data: {"choices":[{"delta":{"content":"ok"},"finish_reason":"stop","usage":{"prompt_tokens":5,"cached_tokens":2}}]}` + "\n\n"},
		{name: "unknown finish reason", body: `data: {"choices":[{"delta":{},"finish_reason":"network_error"}]}` + "\n\n",
			stop: agentcore.StopError, errorText: "Provider finish_reason: network_error"},
		{name: "empty body", body: "", stop: agentcore.StopError, errorText: NoFinishReasonText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(tt.body))
			_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
			if final.StopReason != tt.stop || final.Text() != tt.text || !strings.Contains(final.ErrorMessage, tt.errorText) {
				t.Errorf("final = %s %q %q, want %s %q %q", final.StopReason, final.Text(), final.ErrorMessage, tt.stop, tt.text, tt.errorText)
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

func TestBadRequestBody(t *testing.T) {
	srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) { t.Error("no request expected") })
	req := agentcore.Request{Messages: []agentcore.Message{
		&agentcore.SystemMessage{ToolsAdded: []agentcore.ToolDeclaration{{Name: "t", Parameters: json.RawMessage(`{broken`)}}},
		agentcore.UserText("hi"),
	}}
	_, final := providertest.Collect(streamFrom(srv)(t.Context(), agentcore.Model{ID: "m"}, req, agentcore.StreamOptions{}), nil)
	if final.StopReason != agentcore.StopError || !strings.HasPrefix(final.ErrorMessage, "Could not encode the request") {
		t.Errorf("final = %s %q", final.StopReason, final.ErrorMessage)
	}
}

// TestStreamStopsAtTheFirstFinish checks that chunks after the first
// finish_reason change nothing but the usage (pi-ai applies them, and the
// last finish_reason wins).
func TestStreamStopsAtTheFirstFinish(t *testing.T) {
	const stop = `data: {"id":"c","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}` + "\n\n"
	tests := []struct {
		name      string
		body      string
		text      string
		stop      agentcore.StopReason
		usage     int64
		errorText string
	}{
		{name: "later content and finish ignored", text: "ok", stop: agentcore.StopStop,
			body: stop + `data: {"choices":[{"delta":{"content":" EXTRA","tool_calls":[{"index":0,"id":"x","function":{"name":"rm","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}` + "\n\n"},
		{name: "usage chunk applied", text: "ok", stop: agentcore.StopStop, usage: 7,
			body: stop + `data: {"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":1}}` + "\n\ndata: [DONE]\n\n"},
		{name: "usage in a later choice applied, its delta not", text: "ok", stop: agentcore.StopStop, usage: 9,
			body: stop + `data: {"choices":[{"delta":{"content":"!"},"usage":{"prompt_tokens":9}}]}` + "\n\n"},
		{name: "an error finish is kept", text: "I can", stop: agentcore.StopError, errorText: "Provider finish_reason: content_filter",
			body: `data: {"choices":[{"delta":{"content":"I can"},"finish_reason":"content_filter"}]}` + "\n\n" + stop},
		{name: "malformed chunk after the finish ignored", text: "ok", stop: agentcore.StopStop, body: stop + "data: {broken\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(tt.body))
			events, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
			assert.Equal(t, tt.stop, final.StopReason, final.ErrorMessage)
			assert.Equal(t, tt.text, final.Text())
			assert.Empty(t, final.ToolCalls())
			assert.Equal(t, tt.usage, final.Usage.Input)
			if tt.errorText == "" {
				assert.Empty(t, final.ErrorMessage)
			} else {
				assert.Contains(t, final.ErrorMessage, tt.errorText)
			}
			for _, ev := range events {
				if d, ok := ev.(*agentcore.TextDeltaEvent); ok {
					assert.NotContains(t, d.Delta, "EXTRA")
				}
			}
		})
	}
}

// TestStreamLineTooLong checks that a line over the limit is reported as
// such, not as malformed JSON, after reading about the limit.
func TestStreamLineTooLong(t *testing.T) {
	body := `data: {"choices":[{"delta":{"content":"so far"}}]}` + "\n\n" + `data: {"choices":[{"delta":{"content":"` + strings.Repeat("x", 17<<20)
	srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(body))
	_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
	require.Equal(t, agentcore.StopError, final.StopReason)
	assert.Equal(t, LineTooLongText, final.ErrorMessage)
	assert.Contains(t, final.ErrorMessage, "line too long")
	assert.Equal(t, "so far", final.Text())
}

// TestObserveNonObjectChunks: the SDK yields a chunk of any JSON kind,
// so pi-ai 1.6.0 calls onProviderStreamEvent with each; only objects are
// read as chunks.
func TestObserveNonObjectChunks(t *testing.T) {
	body := "data: [1,2]\n\ndata: \"x\"\n\ndata: 7\n\n" +
		`data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	srv := providertest.ServeBody(t, 200, "text/event-stream", nil, []byte(body))
	var seen []string
	so := agentcore.StreamOptions{OnProviderStreamEvent: func(_ context.Context, _ agentcore.Model, data json.RawMessage) error {
		seen = append(seen, string(data))
		return nil
	}}
	_, final := providertest.Collect(streamFrom(srv)(t.Context(), testTarget(t).Model, providertest.HiRequest(), so), nil)
	require.NotNil(t, final)
	assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
	assert.Equal(t, "Hi", final.Text())
	assert.Equal(t, []string{"[1,2]", `"x"`, "7", `{"id":"c1","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}`}, seen)
}

// TestOpenRouterBilledCost: for a model served through OpenRouter, the
// cost OpenRouter reports in the usage replaces the computed total, as
// pi-ai 1.6.0 does (total 0.0123, from the provider); elsewhere it is
// ignored.
func TestOpenRouterBilledCost(t *testing.T) {
	body := `data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}` + "\n\n" +
		`data: {"id":"c1","choices":[],"usage":{"prompt_tokens":10,"completion_tokens":5,"cost":0.0123,"is_byok":false}}` + "\n\ndata: [DONE]\n\n"
	testTarget(t).OpenRouterCost(t, []byte(body), 0.0123, 0.00006)
}
