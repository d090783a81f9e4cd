package structured_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/openai"
	"github.com/pi-go/agentcore/structured"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestToolReachesTheWire checks that the declaration the layer adds to the
// working context reaches a provider's request, beside the Agent's tools,
// and that the working context's system message is not sent as one.
func TestToolReachesTheWire(t *testing.T) {
	bodies := make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		bodies <- body
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, `data: {"id":"x","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"final_answer","arguments":"{\"item\":\"tea\",\"quantity\":2,\"price\":3.5}"}}]},"finish_reason":"tool_calls"}]}`+"\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()

	answer := structured.New[Line](structured.Options[Line]{})
	agent := agentcore.New(agentcore.Options{
		SystemPrompt:  "Extract order lines.",
		Model:         agentcore.Model{ID: "m", API: "openai-completions", Provider: "openai", BaseURL: srv.URL},
		StreamFn:      openai.StreamFn(openai.Options{}),
		StreamOptions: agentcore.StreamOptions{APIKey: "k"},
		Layers:        []agentcore.Layer{answer},
	})
	got, err := answer.Prompt(t.Context(), agent, "two teas at 3.50")
	require.NoError(t, err)
	assert.Equal(t, Line{Item: "tea", Quantity: 2, Price: 3.5}, got)

	body := <-bodies
	assert.JSONEq(t, `[{"type":"function","function":{"name":"final_answer","description":`+quote(structured.DefaultDescription)+
		`,"parameters":`+string(answer.Tool().Parameters)+`}}]`, extract(t, body, "tools"))
	assert.JSONEq(t, `[{"role":"system","content":"Extract order lines."},{"role":"user","content":[{"type":"text","text":"two teas at 3.50"}]}]`, extract(t, body, "messages"))
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// extract returns the JSON of body's field.
func extract(t *testing.T, body []byte, field string) string {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &m))
	return string(m[field])
}
