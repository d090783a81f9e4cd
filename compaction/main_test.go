package compaction_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestMain fails the package's tests if any goroutine outlives them.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The builders below make transcripts with fixed timestamps.

func sys(text string) *agentcore.SystemMessage {
	return &agentcore.SystemMessage{Content: agentcore.Text(text), Timestamp: 1}
}

func user(text string) *agentcore.UserMessage {
	return &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: text}), Timestamp: 10}
}

func answer(text string) *agentcore.AssistantMessage {
	return &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, StopReason: agentcore.StopStop, Timestamp: 20}
}

func calls(c ...agentcore.ToolCall) *agentcore.AssistantMessage {
	content := make([]agentcore.ContentBlock, len(c))
	for i := range c {
		content[i] = c[i]
	}
	return &agentcore.AssistantMessage{Content: content, StopReason: agentcore.StopToolUse, Timestamp: 20}
}

func call(id, name, path string) agentcore.ToolCall {
	return agentcoretest.ToolCall(id, name, map[string]any{"path": path})
}

func result(id, text string) *agentcore.ToolResultMessage {
	return &agentcore.ToolResultMessage{ToolCallID: id, ToolName: "read", Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, Timestamp: 30}
}

// words is a text of about n tokens by the estimate (4 characters a
// token), tagged so a test can tell the messages apart.
func words(tag string, n int) string {
	return tag + " " + strings.Repeat("x", n*4-len(tag)-1)
}

// summaryModel is the fake model's test for a summary request: the
// system prompt of the package's summary calls.
func isSummaryCall(c agentcoretest.Call) bool {
	if len(c.Request.Messages) == 0 {
		return false
	}
	s, ok := c.Request.Messages[0].(*agentcore.SystemMessage)
	return ok && strings.HasPrefix(s.Content.Text(), "You write context checkpoints")
}

// promptText is the text of the user message of a summary request.
func promptText(c agentcoretest.Call) string {
	return c.Request.Messages[len(c.Request.Messages)-1].(*agentcore.UserMessage).Text()
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
