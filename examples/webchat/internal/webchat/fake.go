package webchat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// FakeModel is a scripted model that answers what the page's suggestions
// ask, so the page runs without a key and the browser test knows what it
// will see: "weather" thinks and calls the weather tool twice in
// parallel, "deploy" asks the user to confirm with the page's confirm tool,
// "ship" calls the deploy tool, which the user approves or denies,
// "story" streams slowly (to try Stop), anything else is echoed.
// delay is the pause between streamed chunks.
func FakeModel(delay time.Duration) *agentcoretest.Fake {
	return agentcoretest.NewFunc(func(_ context.Context, call agentcoretest.Call) agentcoretest.Response {
		msgs := call.Request.Messages
		if len(msgs) == 0 {
			return agentcoretest.TextResponse("Hello!")
		}
		switch last := msgs[len(msgs)-1].(type) {
		case *agentcore.ToolResultMessage:
			return afterTools(msgs, delay)
		case *agentcore.UserMessage:
			return answer(last.Content.Text(), len(msgs), delay)
		}
		return agentcoretest.TextResponse("…")
	})
}

// answer is the fake's answer to a user's text, the n-th message of the
// conversation (tool call IDs must be unique in it).
func answer(text string, n int, delay time.Duration) agentcoretest.Response {
	tc := agentcoretest.ToolCall
	lower := strings.ToLower(text)
	switch {
	case strings.Contains(lower, "weather"):
		return agentcoretest.Response{Content: []agentcore.ContentBlock{
			agentcore.ThinkingBlock{Thinking: "The user wants the weather in two cities. I can look both up at once."},
			agentcore.TextBlock{Text: "Let me check both cities."},
			tc("call-paris", "weather", map[string]string{"city": "Paris"}),
			tc("call-tokyo", "weather", map[string]string{"city": "Tokyo"}),
		}, Chunks: 6, ChunkDelay: delay}
	case strings.Contains(lower, "ship"):
		return agentcoretest.Response{Content: []agentcore.ContentBlock{
			agentcore.TextBlock{Text: "Shipping 1.5 to production."},
			tc(fmt.Sprintf("call-deploy-%d", n), "deploy", map[string]string{"version": "1.5", "env": "production"}),
		}, Chunks: 4, ChunkDelay: delay}
	case strings.Contains(lower, "deploy"):
		return agentcoretest.Response{Content: []agentcore.ContentBlock{
			agentcore.TextBlock{Text: "Deploying touches production, so I need your go-ahead first."},
			tc("call-confirm", "confirm", map[string]string{"question": "Deploy version 1.4 to production?"}),
		}, Chunks: 4, ChunkDelay: delay}
	case strings.Contains(lower, "story"):
		story := strings.Repeat("Once upon a time, an agent streamed a very long story, one word at a time. ", 40)
		return agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: story}}, Chunks: 400, ChunkDelay: max(delay, 30*time.Millisecond)}
	}
	return agentcoretest.Response{Content: []agentcore.ContentBlock{
		agentcore.ThinkingBlock{Thinking: "A plain message: I will repeat it back."},
		agentcore.TextBlock{Text: fmt.Sprintf("You said: %q. Try the suggestions for tools, a confirmation, or Stop.", text)},
	}, Chunks: 5, ChunkDelay: delay}
}

// afterTools is the fake's answer once its tool calls have results.
func afterTools(msgs []agentcore.Message, delay time.Duration) agentcoretest.Response {
	var results []string
	confirmed, declined := false, false
	shipped := ""
	for i := len(msgs) - 1; i >= 0; i-- {
		r, ok := msgs[i].(*agentcore.ToolResultMessage)
		if !ok {
			break
		}
		text := agentcore.Blocks(r.Content...).Text()
		if r.ToolName == "deploy" {
			shipped = text
			if r.IsError {
				shipped = "Not shipped: " + text
			}
			continue
		}
		if r.ToolName == "confirm" {
			confirmed = !r.IsError && strings.Contains(strings.ToLower(text), "confirmed")
			declined = !confirmed
			continue
		}
		results = append([]string{text}, results...)
	}
	text := "Done."
	switch {
	case shipped != "":
		text = shipped
	case confirmed:
		text = "Deployed version 1.4 to production."
	case declined:
		text = "Understood: nothing was deployed."
	case len(results) > 0:
		text = "Here is the weather: " + strings.Join(results, "; ") + "."
	}
	return agentcoretest.Response{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, Chunks: 4, ChunkDelay: delay}
}
