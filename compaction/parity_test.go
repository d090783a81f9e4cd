package compaction_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
)

// TestEstimateIsFourCharactersAToken checks pi's coding agent's estimate
// where compaction decides: 4 characters a token, rounded up per message,
// a summary counted by its text.
func TestEstimateIsFourCharactersAToken(t *testing.T) {
	llm := []agentcore.Message{user(strings.Repeat("a", 401)), answer(strings.Repeat("b", 400))}
	assert.Equal(t, 101+100, compaction.EstimateContextTokens(llm))

	// The cut: with 3.5 characters a token the last message alone
	// (3,600 characters, 1,029 tokens) would reach a 1,000-token budget;
	// with pi's 4 (900 tokens) the walk goes on to the answer before it.
	transcript := []agentcore.Message{user(strings.Repeat("a", 2000)), answer(strings.Repeat("b", 2000)), user(strings.Repeat("c", 3600))}
	p, err := compaction.Prepare(transcript, 1000, nil)
	require.NoError(t, err)
	assert.Len(t, p.Kept, 2)
	assert.True(t, p.Split())
}

func summaryPrompt(t *testing.T, transcript []agentcore.Message, keep int) string {
	t.Helper()
	p, err := compaction.Prepare(transcript, keep, nil)
	require.NoError(t, err)
	fake := agentcoretest.New(summaryResponse("## Goal\nx", 10))
	model := agentcoretest.Model()
	model.ContextWindow = 0
	_, err = compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: model, StreamFn: fake.Stream})
	require.NoError(t, err)
	require.Len(t, fake.Calls(), 1)
	return promptText(fake.Calls()[0])
}

// TestRecordAsPiWritesIt checks the record of a summary request against
// what pi writes: tool results cut at 2,000 UTF-16 code units, arguments
// as JSON.stringify writes them in JavaScript's member order, the text
// blocks of a user message or tool result joined with nothing between.
func TestRecordAsPiWritesIt(t *testing.T) {
	emoji := strings.Repeat("😀", 1500) // 3,000 code units
	args := json.RawMessage(`{"b":"\u00e9\u2028","2":1.50,"1":[1e21,0.0000001],"b":"last"}`)
	twoBlocks := &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: "one"}, agentcore.TextBlock{Text: "two"}), Timestamp: 10}
	transcript := []agentcore.Message{
		twoBlocks,
		calls(agentcore.ToolCall{ID: "c1", Name: "grep", Arguments: args}),
		result("c1", emoji),
		answer("done"), user(words("u1", 500)),
	}
	prompt := summaryPrompt(t, transcript, 100)
	assert.Contains(t, prompt, "[User]: onetwo\n\n")
	assert.Contains(t, prompt, "[Assistant tool calls]: grep(1=[1e+21,1e-7], 2=1.5, b=\"last\")\n\n")
	assert.Contains(t, prompt, "[Tool result]: "+strings.Repeat("😀", 1000)+"\n\n[... 1000 more characters cut]")

	transcript[1] = calls(agentcore.ToolCall{ID: "c1", Name: "grep", Arguments: json.RawMessage(`{"q":"\u00e9\u2028\u0001"}`)})
	assert.Contains(t, summaryPrompt(t, transcript, 100), "grep(q=\"é\u2028\\u0001\")")

	// A cut that would split a surrogate pair keeps the character out.
	transcript[2] = result("c1", strings.Repeat("a", 1999)+emoji)
	assert.Contains(t, summaryPrompt(t, transcript, 100), "[Tool result]: "+strings.Repeat("a", 1999)+"\n\n[... 2999 more characters cut]")
}

// note is an app-defined message that a ConvertToLLM turns into text.
type note struct{ text string }

func (*note) Role() string { return "note" }

func convertNotes(_ context.Context, messages []agentcore.Message) ([]agentcore.Message, error) {
	out := make([]agentcore.Message, 0, len(messages))
	for _, m := range messages {
		if n, ok := m.(*note); ok {
			m = &agentcore.UserMessage{Content: agentcore.Text(n.text), Timestamp: 10}
		}
		out = append(out, m)
	}
	return out, nil
}

// TestCustomMessagesCount checks that an app-defined message counts
// toward the estimate and the cut as the text ConvertToLLM makes of it,
// as pi counts its custom messages.
func TestCustomMessagesCount(t *testing.T) {
	transcript := []agentcore.Message{user(words("u0", 500)), answer(words("a0", 500)), user(words("u1", 100)), &note{strings.Repeat("n", 4000)}}
	p, err := compaction.PrepareWith(context.Background(), transcript, compaction.PrepareOptions{KeepRecentTokens: 1000, ConvertToLLM: convertNotes})
	require.NoError(t, err)
	assert.Equal(t, 500+500+100+1000, p.TokensBefore)
	assert.Equal(t, []agentcore.Message{transcript[3]}, p.Kept, "the note alone fills the kept budget")

	_, err = compaction.Prepare(transcript, 1000, nil)
	assert.ErrorIs(t, err, compaction.ErrNothingToCompact, "without ConvertToLLM a note counts nothing")
}

// TestFilesOfNestedCallsAndTheirOrder checks that the file operations of
// calls nested in a tool result (pi's codemode) are collected, and that
// the lists are sorted by UTF-16 code units as JavaScript sorts.
func TestFilesOfNestedCallsAndTheirOrder(t *testing.T) {
	nested := result("c1", "ran")
	nested.NestedCalls = json.RawMessage(`{"calls":[{"name":"edit","arguments":{"path":"\uff5e.go"}},{"name":"write","arguments":{"path":"😀.go"}},{"name":"read","arguments":{"path":"r.go"}}]}`)
	transcript := []agentcore.Message{
		user("u0"), calls(agentcoretest.ToolCall("c1", "code", map[string]any{"script": "..."})), nested,
		answer(words("a0", 300)), user(words("u1", 300)),
	}
	p, err := compaction.Prepare(transcript, 200, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"r.go"}, p.ReadFiles)
	assert.Equal(t, []string{"😀.go", "\uff5e.go"}, p.ModifiedFiles)
}
