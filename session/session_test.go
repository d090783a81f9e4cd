package session

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func user(text string) *agentcore.UserMessage {
	return &agentcore.UserMessage{Content: agentcore.Text(text), Timestamp: 1733234400000}
}

func assistant(text string) *agentcore.AssistantMessage {
	return &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}},
		API: "anthropic-messages", Provider: "anthropic", Model: "claude-sonnet-4-5", StopReason: agentcore.StopStop,
		Timestamp: 1733234401000}
}

// clock returns a clock that moves a second per call.
func clock() func() time.Time {
	t := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

// goScripted writes histories through this package's API into dir and
// returns their files, for pi to read.
func goScripted(t *testing.T, dir string) []string {
	t.Helper()
	must := func(id string, err error) string {
		t.Helper()
		require.NoError(t, err)
		return id
	}
	scripts := map[string]func(s *Session){
		"go-chat-branch-label": func(s *Session) {
			u := must(s.AppendMessage(user("q0")))
			a := must(s.AppendMessage(assistant("a0")))
			must(s.AppendMessage(user("q1")))
			must(s.Append(&Label{TargetID: u, Label: "start"}))
			require.NoError(t, s.Branch(a))
			must(s.AppendMessage(user("q1 again")))
			must(s.Append(&SessionInfo{Name: "Go\nwrote this"}))
		},
		"go-compaction-edit": func(s *Session) {
			must(s.AppendMessage(agentcore.InitialSystemMessage("Prompt.", nil)))
			must(s.Append(&ModelChange{Provider: "openai", ModelID: "gpt-4o"}))
			must(s.Append(&ThinkingLevelChange{ThinkingLevel: agentcore.ThinkingHigh}))
			must(s.AppendMessage(user("q0")))
			a := must(s.AppendMessage(assistant("a0")))
			must(s.Append(&ContextEdit{TargetID: a, Replacement: &Replacement{Content: agentcore.Text("short")}}))
			q := must(s.AppendMessage(user("q1")))
			must(s.AppendMessage(assistant("a1")))
			must(s.Append(&Compaction{Summary: "Earlier.", FirstKeptEntryID: q, TokensBefore: 900,
				Details: json.RawMessage(`{"readFiles":["a.go"],"modifiedFiles":[]}`)}))
			must(s.Append(&CustomEntry{CustomType: "ext", Data: json.RawMessage(`{"n":1}`)}))
			must(s.Append(&CustomMessageEntry{CustomType: "ext", Content: agentcore.Text("injected"), Display: true}))
			must(s.Append(&UsageEntry{Kind: "cache_warm", Provider: "anthropic", Model: "claude-sonnet-4-5"}))
			must(s.AppendMessage(user("q2")))
		},
		"go-branch-summary": func(s *Session) {
			u := must(s.AppendMessage(user("q0")))
			must(s.AppendMessage(assistant("a0")))
			must(s.BranchWithSummary(u, &BranchSummary{Summary: "Left it."}))
			must(s.AppendMessage(user("q1")))
			must(s.BranchWithSummary("", &BranchSummary{Summary: "From the top."}))
			must(s.Append(&Compaction{Summary: "Nothing kept.", TokensBefore: 1}))
		},
	}
	var files []string
	for name, script := range scripts {
		s, err := Create(filepath.Join(dir, name), "/work/go", &Options{Now: clock()})
		require.NoError(t, err)
		script(s)
		require.NoError(t, s.Close())
		files = append(files, s.File())
	}
	return files
}

func TestGoScriptedReopen(t *testing.T) {
	for _, f := range goScripted(t, t.TempDir()) {
		s, err := Open(f, nil)
		require.NoError(t, err)
		assert.NotEmpty(t, s.Context().Messages, f)
		require.NoError(t, s.Close())
	}
}
