package session

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/compaction"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wrapped are the roles whose text the model sees in this package's own
// words (a departure from pi's, listed in the package doc): the same
// facts, other words around them.
var wrapped = map[string]bool{RoleBranchSummary: true, compaction.Role: true, RoleBashExecution: true}

// llmSources returns, for each message of pi's convertToLlm output, the
// context message it came from: pi leaves out bashExecution messages
// excluded from the context and roles it does not know.
func llmSources(ctx []any) []map[string]any {
	var out []map[string]any
	for _, m := range ctx {
		msg := m.(map[string]any)
		switch msg["role"] {
		case "system", "user", "assistant", "toolResult", "custom", RoleBranchSummary, compaction.Role:
		case RoleBashExecution:
			if msg["excludeFromContext"] == true {
				continue
			}
		default:
			continue
		}
		out = append(out, msg)
	}
	return out
}

// TestPiModelView: what the model sees of each recorded history's
// context, ConvertMessages then agentcore's default converter, is pi's
// convertToLlm output: the same messages in the same order, equal but for
// the words this package wraps summaries and commands in.
func TestPiModelView(t *testing.T) {
	for _, dir := range histories(t) {
		want := loadExpect(t, dir)
		llm, ok := want["llm"].([]any)
		if !ok || goViewFixtures.MatchString(dir) {
			continue // pi threw, or values Go's types hold differently (TestPiHistories)
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			s := openRecorded(t, dir)
			msgs, err := agentcore.DefaultConvertToLLM(t.Context(), ConvertMessages(s.Context().Messages))
			require.NoError(t, err)
			data, err := json.Marshal(msgs)
			require.NoError(t, err)
			var got []any
			require.NoError(t, json.Unmarshal(data, &got))
			sources := llmSources(want["context"].(map[string]any)["messages"].([]any))
			require.Len(t, got, len(llm))
			require.Len(t, sources, len(llm))
			for i := range llm {
				role, _ := sources[i]["role"].(string)
				if !wrapped[role] {
					assert.Equal(t, llm[i], got[i], "message %d: expected pi's, actual Go's", i)
					continue
				}
				w, g := llm[i].(map[string]any), got[i].(map[string]any)
				assert.Equal(t, "user", g["role"])
				assert.Equal(t, w["timestamp"], g["timestamp"])
				gc := g["content"].([]any)
				require.Len(t, gc, 1)
				text := gc[0].(map[string]any)["text"].(string)
				for _, k := range []string{"summary", "command", "output", "fullOutputPath"} {
					if v, ok := sources[i][k].(string); ok && v != "" {
						assert.Contains(t, text, v, "message %d keeps the %s", i, k)
					}
				}
			}
		})
	}
}

// TestConvertBashExecution: a bashExecution message is a user message of
// one text block with the command, its output, and how it ended; one
// excluded from the context is left out.
func TestConvertBashExecution(t *testing.T) {
	bash := func(fields string) agentcore.Message {
		m, err := agentcore.UnmarshalMessage([]byte(`{"role":"bashExecution",` + fields + `,"timestamp":7}`))
		require.NoError(t, err)
		return m
	}
	tests := []struct {
		name   string
		fields string
		want   string
	}{
		{"output", `"command":"ls","output":"a\nb","exitCode":0,"cancelled":false,"truncated":false`,
			"The user ran `ls`\n```\na\nb\n```"},
		{"no output, failed, cut", `"command":"make","output":"","exitCode":2,"cancelled":false,"truncated":true,"fullOutputPath":"/tmp/o"`,
			"The user ran `make`\n(it printed nothing)\n\nThe command failed with exit code 2\n\n[The output was cut; all of it is in /tmp/o]"},
		{"cancelled", `"command":"sleep 9","output":"z","exitCode":null,"cancelled":true,"truncated":false`,
			"The user ran `sleep 9`\n```\nz\n```\n\n(the command was cancelled)"},
		{"cut without a path", `"command":"x","output":"y","exitCode":0,"cancelled":false,"truncated":true`,
			"The user ran `x`\n```\ny\n```"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := ConvertMessages([]agentcore.Message{bash(tt.fields)})
			require.Len(t, out, 1)
			assert.Equal(t, &agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: tt.want}), Timestamp: 7}, out[0])
		})
	}
	out := ConvertMessages([]agentcore.Message{bash(`"command":"s","output":"x","excludeFromContext":true`), user("kept")})
	assert.Equal(t, []agentcore.Message{user("kept")}, out, "a message excluded from the context is left out")
}

// TestContextSummaryWithoutDetails: a compaction's summary message in a
// context is pi's message, no "details" member, while its file lists still
// feed the next compaction.
func TestContextSummaryWithoutDetails(t *testing.T) {
	entries := []Entry{
		&MessageEntry{EntryBase: EntryBase{ID: "a"}, Message: user("q")},
		&Compaction{EntryBase: EntryBase{ID: "c", ParentID: "a", Timestamp: "2025-01-01T00:00:00.000Z"}, Summary: "S.",
			FirstKeptEntryID: "a", Details: json.RawMessage(`{"readFiles":["r.go"],"modifiedFiles":["m.go"]}`)},
	}
	ctx := BuildContext(entries, "c")
	require.Len(t, ctx.Messages, 2)
	s := ctx.Messages[0].(*compaction.Summary)
	assert.Equal(t, []string{"r.go"}, s.ReadFiles)
	assert.Equal(t, []string{"m.go"}, s.ModifiedFiles)
	data, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"compactionSummary","summary":"S.","tokensBefore":0,"timestamp":1735689600000}`, string(data))
}
