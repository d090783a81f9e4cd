package anthropic

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestRequestSetup checks what a request carries besides the transcript:
// the key and its fallback, the version, header precedence, and the
// failures found before anything is sent.
func TestRequestSetup(t *testing.T) {
	model, _ := providertest.StreamCases(t)
	tests := []struct {
		name    string
		opts    Options
		model   func(m agentcore.Model) agentcore.Model
		so      agentcore.StreamOptions
		headers map[string]string // expected request headers
		err     string            // expected error instead of a request
	}{
		{name: "request key", so: agentcore.StreamOptions{APIKey: "k1"}, opts: Options{APIKey: "k0"},
			headers: map[string]string{"X-Api-Key": "k1", "Anthropic-Version": DefaultVersion}},
		{name: "fallback key and version", opts: Options{APIKey: "k0", Version: "2099-01-01"},
			headers: map[string]string{"X-Api-Key": "k0", "Anthropic-Version": "2099-01-01"}},
		{name: "later headers win", opts: Options{APIKey: "k0", Headers: map[string]string{"X-A": "opts", "X-B": "opts"}},
			model: func(m agentcore.Model) agentcore.Model {
				m.Headers = map[string]string{"X-A": "model", "X-C": "model"}
				return m
			},
			so:      agentcore.StreamOptions{Headers: map[string]string{"X-B": "request"}},
			headers: map[string]string{"X-A": "opts", "X-B": "request", "X-C": "model"}},
		{name: "authorization header instead of a key", so: agentcore.StreamOptions{Headers: map[string]string{"Authorization": "Bearer t"}},
			headers: map[string]string{"Authorization": "Bearer t", "X-Api-Key": ""}},
		{name: "no key", err: "No API key for provider: anthropic"},
		{name: "bad compat", opts: Options{APIKey: "k"},
			model: func(m agentcore.Model) agentcore.Model { m.Compat = []byte(`[1]`); return m },
			err:   "invalid model compat settings: json: cannot unmarshal array into Go value of type anthropic.compatJSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := make(chan http.Header, 1)
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				seen <- r.Header.Clone()
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(providertest.ReadTestdata(t, "stream", "text.sse"))
			})
			tt.opts.BaseURL, tt.opts.HTTPClient = srv.URL, srv.Client()
			m := model
			if tt.model != nil {
				m = tt.model(m)
			}
			_, final := providertest.Collect(StreamFn(tt.opts)(t.Context(), m, providertest.HiRequest(), tt.so), nil)
			require.NotNil(t, final)
			if tt.err != "" {
				assert.Equal(t, agentcore.StopError, final.StopReason)
				assert.Equal(t, tt.err, final.ErrorMessage)
				assert.Empty(t, seen, "nothing is sent")
				return
			}
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			h := <-seen
			for k, v := range tt.headers {
				assert.Equal(t, v, h.Get(k), k)
			}
		})
	}
}

// TestConsumerStops checks that a consumer that stops ranging ends the
// call: no further event, the connection closed (goleak checks the rest).
func TestConsumerStops(t *testing.T) {
	srv := providertest.ServeBody(t, 200, "text/event-stream", nil, providertest.ReadTestdata(t, "stream", "tool-calls-parallel.sse"))
	model, _ := providertest.StreamCases(t)
	n := 0
	for ev := range streamFrom(srv)(t.Context(), model, providertest.HiRequest(), agentcore.StreamOptions{APIKey: "k"}) {
		n++
		if _, ok := ev.(*agentcore.ToolCallDeltaEvent); ok {
			break
		}
	}
	assert.Equal(t, 6, n)
}

// TestOpenRouterBilledCost: for a model served through OpenRouter, the
// cost OpenRouter reports in message_delta's usage replaces the computed
// total, as pi-ai 1.6.0 does (total 0.02, from the provider); elsewhere it
// is ignored.
func TestOpenRouterBilledCost(t *testing.T) {
	body := "event: message_start\n" + `data: {"type":"message_start","message":{"id":"msg_1","model":"claude-test","usage":{"input_tokens":10,"output_tokens":1}}}` + "\n\n" +
		"event: message_delta\n" + `data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":5,"cost":0.02,"is_byok":false}}` + "\n\n" +
		"event: message_stop\n" + `data: {"type":"message_stop"}` + "\n\n"
	testTarget(t).OpenRouterCost(t, []byte(body), 0.02, 0.000105)
}
