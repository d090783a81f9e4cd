package openai

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// textStream is an event stream answering text in pieces.
func textStream(pieces ...string) []byte {
	var b strings.Builder
	for _, p := range pieces {
		chunk, _ := json.Marshal(map[string]any{"id": "chatcmpl-final", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": p}}}})
		fmt.Fprintf(&b, "data: %s\n\n", chunk)
	}
	b.WriteString(`data: {"id":"chatcmpl-final","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":300,"completion_tokens":12}}` + "\n\ndata: [DONE]\n\n")
	return []byte(b.String())
}

// TestAgentRun runs a whole agent against a server that first calls both
// tools, in parallel and interleaved, then answers.
func TestAgentRun(t *testing.T) {
	var script providertest.Recorder
	msgs, calls := providertest.AgentRun{
		Model: agentcore.Model{ID: "gpt-test", API: "openai-completions", Provider: "test", Input: []string{"text"}},
		Stream: script.Script(t, testTarget(t),
			providertest.ReadTestdata(t, "stream", "tool-calls-parallel.sse"),
			textStream("In Paris it is 14:00", "; 6*7 = 42.")),
		Key: "sk-hook",
	}.Run(t)
	if got := msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text(); got != "In Paris it is 14:00; 6*7 = 42." {
		t.Errorf("answer %q", got)
	}
	if now, _ := calls.Load("call_now"); now != (providertest.NowArgs{Zone: "Europe/Paris"}) {
		t.Errorf("now got %+v", now)
	}
	if calc, _ := calls.Load("call_calc"); calc != (providertest.CalcArgs{Expr: "6*7", Precise: true, Digits: 12}) {
		t.Errorf("calc got %+v", calc)
	}

	headers, bodies := script.Requests()
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(bodies))
	}
	requests := make([]map[string]any, len(bodies))
	for i, data := range bodies {
		json.Unmarshal(data, &requests[i])
		if auth := headers[i].Get("Authorization"); auth != "Bearer sk-hook" {
			t.Errorf("request %d: Authorization %q, want the hook's key", i, auth)
		}
		if got := toolNames(requests[i]); !slices.Equal(got, []string{"now", "calc"}) {
			t.Errorf("request %d declares tools %v", i, got)
		}
	}
	second := jsonText(t, requests[1]["messages"])
	for _, want := range []string{
		`{"content":"You are terse.","role":"system"}`,
		`{"content":"2026-12-02T14:00:00+01:00","role":"tool","tool_call_id":"call_now"}`,
		`{"content":"42","role":"tool","tool_call_id":"call_calc"}`,
		`"arguments":"{\"expr\":\"6*7\",\"precise\":true,\"digits\":12}"`,
	} {
		if !strings.Contains(second, want) {
			t.Errorf("second request lacks %s:\n%s", want, second)
		}
	}
}

func toolNames(body map[string]any) []string {
	var names []string
	tools, _ := body["tools"].([]any)
	for _, tool := range tools {
		fn, _ := tool.(map[string]any)["function"].(map[string]any)
		name, _ := fn["name"].(string)
		names = append(names, name)
	}
	return names
}
