package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/providers/anthropic"
)

// OnPayload adds a request parameter the port does not model (top_k) to
// every request body; the fake server prints what reached the wire.
func ExampleStreamFn_onPayload() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var got struct {
			Model  string `json:"model"`
			TopK   int    `json:"top_k"`
			Stream bool   `json:"stream"`
		}
		json.Unmarshal(body, &got)
		fmt.Printf("server got model=%s top_k=%d stream=%t\n", got.Model, got.TopK, got.Stream)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range [][2]string{
			{"message_start", `{"type":"message_start","message":{"id":"msg_1","model":"claude-test","usage":{"input_tokens":3,"output_tokens":1}}}`},
			{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"Hi."}}`},
			{"content_block_stop", `{"type":"content_block_stop","index":0}`},
			{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`},
			{"message_stop", `{"type":"message_stop"}`},
		} {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev[0], ev[1])
		}
	}))
	defer srv.Close()

	addTopK := func(_ context.Context, _ agentcore.Model, payload json.RawMessage) (json.RawMessage, error) {
		var body map[string]any
		if err := json.Unmarshal(payload, &body); err != nil {
			return nil, err // ends the response as an error message
		}
		body["top_k"] = 40
		return json.Marshal(body)
	}
	agent := agentcore.New(agentcore.Options{
		Model:         agentcore.Model{ID: "claude-test", Provider: "anthropic", API: "anthropic-messages", MaxTokens: 1024},
		StreamFn:      anthropic.StreamFn(anthropic.Options{BaseURL: srv.URL}),
		StreamOptions: agentcore.StreamOptions{APIKey: "sk-ant-...", OnPayload: addTopK},
	})
	if err := agent.Prompt(context.Background(), "Say hi."); err != nil {
		fmt.Println(err)
	}
	msgs := agent.State().Messages
	fmt.Println("answer:", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())
	// Output:
	// server got model=claude-test top_k=40 stream=true
	// answer: Hi.
}
