package providertest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// ConsumerStopsEarly breaks out of the stream of Success at its first
// text delta, while the server holds the response open after [Target.Head],
// and checks that the provider closed the connection and left nothing
// running, after the start, text start and text delta events.
func (target Target) ConsumerStopsEarly(t *testing.T) {
	srv, gone := HangingServer(t, target.Head(), nil)
	n := 0
	for ev := range target.New(srv.URL, srv.Client())(t.Context(), target.Model, HiRequest(), agentcore.StreamOptions{APIKey: target.APIKey}) {
		n++
		if _, ok := ev.(*agentcore.TextDeltaEvent); ok {
			break
		}
	}
	assert.Equal(t, 3, n, "events up to the first text delta")
	WaitGone(t, gone)
}

// KeptPartialsDoNotChange streams body and checks that the partials a
// consumer keeps at tool-call deltas with [agentcore.CloneEvent] keep
// what they showed during their event, while the provider goes on
// building its message.
func (target Target) KeptPartialsDoNotChange(t *testing.T, body []byte) {
	srv := ServeBody(t, 200, "text/event-stream", nil, body)
	type seen struct {
		p    *agentcore.AssistantMessage
		json string
	}
	var partials []seen
	target.Run(t, context.Background(), target.New(srv.URL, srv.Client()), func(ev agentcore.AssistantEvent) {
		if e, ok := agentcore.CloneEvent(ev).(*agentcore.ToolCallDeltaEvent); ok {
			data, _ := json.Marshal(e.Partial)
			partials = append(partials, seen{e.Partial, string(data)})
		}
	})
	require.NotEmpty(t, partials)
	for i, s := range partials {
		data, _ := json.Marshal(s.p)
		assert.JSONEq(t, s.json, string(data), "kept partial %d changed", i)
	}
}
