package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/hold"
)

type deployArgs struct {
	Env string `json:"env"`
}

// heldAgent is an Agent recording into s, whose Gate holds every deploy.
func heldAgent(s *Session, gate *hold.Gate, fake *agentcoretest.Fake) *agentcore.Agent {
	deploy := agentcore.Tool{Name: "deploy", Parameters: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, string, json.RawMessage, func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return agentcore.TextResult("deployed"), nil
		}}
	return agentcore.New(s.Restore(agentcore.Options{Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Tools: []agentcore.Tool{deploy}, Layers: []agentcore.Layer{gate}}, nil))
}

func messagesJSON(t *testing.T, msgs []agentcore.Message) string {
	t.Helper()
	var kept []agentcore.Message
	for _, m := range msgs {
		if _, sys := m.(*agentcore.SystemMessage); !sys {
			kept = append(kept, m)
		}
	}
	data, err := json.Marshal(kept)
	require.NoError(t, err)
	return string(data)
}

// TestLayerRecordsHeldResults: a held call decided (before or after the
// process restarted) leaves the session's context, Go's and pi's, equal
// to the Agent's transcript: the real result, not the placeholder.
func TestLayerRecordsHeldResults(t *testing.T) {
	pi := newPiBatch(t)
	defer pi.run()
	root := t.TempDir() // outlives the subtests, for pi
	tests := []struct {
		name     string
		decision hold.Decision
		restart  bool
		edit     bool // recorded as a context edit (content only), not a branch
	}{
		{"approve", hold.Approve{ID: "c1"}, false, false},
		{"approve after a restart", hold.Approve{ID: "c1"}, true, false},
		// The placeholder's details ({}) are gone from a denial: a branch.
		{"deny", hold.Deny{ID: "c1", Reason: "Not today."}, false, false},
		{"deny after a restart", hold.Deny{ID: "c1", Reason: "Not today."}, true, false},
		{"answer", hold.Answer{ID: "c1", Result: agentcore.TextResult("by hand")}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Create(subdir(t, root), "/w", &Options{Now: clock()})
			require.NoError(t, err)
			opts := hold.Options{Policy: hold.When("deploy", func(deployArgs) *hold.Request { return &hold.Request{Title: "Deploy?"} })}
			gate := hold.New(opts)
			fake := agentcoretest.New(
				agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "deploy", map[string]string{"env": "prod"})),
				agentcoretest.TextResponse("done"))
			agent := heldAgent(s, gate, fake)
			require.ErrorIs(t, agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
			if tt.restart {
				state := gate.State()
				require.NoError(t, s.Close())
				s, err = Open(s.File(), &Options{Now: clock()})
				require.NoError(t, err)
				gate = hold.New(opts)
				agent = heldAgent(s, gate, agentcoretest.New(agentcoretest.TextResponse("done")))
				require.NoError(t, gate.Restore(state))
			}
			defer s.Close()
			require.NoError(t, gate.Decide(tt.decision))
			require.NoError(t, agent.Continue(t.Context()))

			assert.Equal(t, messagesJSON(t, agent.Messages()), messagesJSON(t, s.Context().Messages))
			edits := 0
			for _, e := range s.Entries() {
				if _, ok := e.(*ContextEdit); ok {
					edits++
				}
			}
			assert.Equal(t, map[bool]int{true: 1, false: 0}[tt.edit], edits)

			reopened, err := Open(s.File(), &Options{ReadOnly: true})
			require.NoError(t, err)
			assert.Equal(t, messagesJSON(t, agent.Messages()), messagesJSON(t, reopened.Context().Messages))
			pi.add(t, reopened)
		})
	}
}

// piBatch opens files in pi's SessionManager (record.mjs check) all at
// once, after the subtests that wrote them, and checks that pi builds the
// context Go builds: each node start is slow on a busy machine.
type piBatch struct {
	t     *testing.T
	check func(files ...string) map[string]map[string]any
	want  map[string]any // Go's context by file
	files []string
}

// newPiBatch returns a batch; it checks nothing where pi is missing
// outside CI (see piChecker).
func newPiBatch(t *testing.T) *piBatch {
	t.Helper()
	b := &piBatch{t: t, want: map[string]any{}}
	if os.Getenv("CI") == "true" {
		b.check = piChecker(t)
	} else if _, err := os.Stat(filepath.Join("testdata", "record", "node_modules", "@earendil-works", "pi-coding-agent")); err == nil {
		b.check = piChecker(t)
	}
	return b
}

// add notes the file of s, reopened read-only, for the check.
func (b *piBatch) add(t *testing.T, s *Session) {
	b.want[s.File()] = observe(t, s)["context"]
	b.files = append(b.files, s.File())
}

func (b *piBatch) run() {
	if b.check == nil || len(b.files) == 0 {
		return
	}
	got := b.check(b.files...)
	for _, f := range b.files {
		require.NotContains(b.t, got[f], "error")
		assert.Equal(b.t, b.want[f], got[f]["context"], "%s: expected Go's, actual pi's", filepath.Base(filepath.Dir(f)))
	}
}

// TestLayerRecordsEdits: each transcript change of the Agent's API lands
// in the session so that its context, Go's and pi's, is the Agent's.
func TestLayerRecordsEdits(t *testing.T) {
	pi := newPiBatch(t)
	defer pi.run()
	root := t.TempDir() // outlives the subtests, for pi
	first, answer := &agentcore.UserMessage{Content: agentcore.Text("first")}, agentcoretest.TextResponse("one")
	tests := []struct {
		name   string
		change func(a *agentcore.Agent) error
		edits  int
		leaves int // entries with no children
	}{
		{"append", func(a *agentcore.Agent) error {
			a.AppendMessage(&agentcore.UserMessage{Content: agentcore.Text("note")})
			return nil
		}, 0, 1},
		{"replace content", func(a *agentcore.Agent) error {
			return a.ReplaceMessage(first, &agentcore.UserMessage{Content: agentcore.Text("edited")})
		}, 1, 1},
		{"replace with another role", func(a *agentcore.Agent) error {
			return a.ReplaceMessage(first, &CustomMessage{CustomType: "note", Content: agentcore.Text("x"), Display: true})
		}, 0, 2},
		{"set an extension", func(a *agentcore.Agent) error {
			a.SetMessages(append(a.Messages(), &agentcore.UserMessage{Content: agentcore.Text("more")}))
			return nil
		}, 0, 1},
		{"set the same", func(a *agentcore.Agent) error { a.SetMessages(a.Messages()); return nil }, 0, 1},
		{"set a shorter one", func(a *agentcore.Agent) error {
			a.SetMessages(a.Messages()[:1])
			return nil
		}, 0, 2},
		{"set another", func(a *agentcore.Agent) error {
			a.SetMessages([]agentcore.Message{&agentcore.UserMessage{Content: agentcore.Text("other")}})
			return nil
		}, 0, 2},
		{"reset", func(a *agentcore.Agent) error { return a.Reset() }, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Create(subdir(t, root), "/w", &Options{Now: clock()})
			require.NoError(t, err)
			defer s.Close()
			agent := agentcore.New(s.Restore(agentcore.Options{Model: agentcoretest.Model(), StreamFn: agentcoretest.New(answer, answer).Stream}, nil))
			require.NoError(t, agent.PromptMessages(t.Context(), first))
			require.NoError(t, tt.change(agent))
			require.NoError(t, agent.Prompt(t.Context(), "next"), "a record that failed would fail the next request")

			assert.Equal(t, messagesJSON(t, agent.Messages()), messagesJSON(t, s.Context().Messages))
			edits, parents := 0, map[string]bool{}
			for _, e := range s.Entries() {
				if _, ok := e.(*ContextEdit); ok {
					edits++
				}
				parents[e.Base().ParentID] = true
			}
			leaves := 0
			for _, e := range s.Entries() {
				if !parents[e.Base().ID] {
					leaves++
				}
			}
			assert.Equal(t, tt.edits, edits)
			assert.Equal(t, tt.leaves, leaves)
			reopened, err := Open(s.File(), &Options{ReadOnly: true})
			require.NoError(t, err)
			pi.add(t, reopened)
		})
	}
}

// subdir makes a new folder in root for the running subtest.
func subdir(t *testing.T, root string) string {
	dir, err := os.MkdirTemp(root, "")
	require.NoError(t, err)
	return dir
}

// TestLayerRecordsCompaction: a compaction recorded with OnCompaction,
// then the Agent's transcript set to its result, leaves the session's
// context equal to the Agent's, with nothing more written (no branch, no
// message appended again).
func TestLayerRecordsCompaction(t *testing.T) {
	s, err := Create(t.TempDir(), "/w", &Options{Now: clock()})
	require.NoError(t, err)
	defer s.Close()
	fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
		return agentcoretest.TextResponse("text")
	})
	c := compaction.New(compaction.Options{Manual: true, Settings: compaction.Settings{KeepRecentTokens: 1},
		OnEvent: s.OnCompaction(nil, func(err error) { t.Error(err) })})
	agent := agentcore.New(s.Restore(agentcore.Options{SystemPrompt: "Be brief.", Model: agentcoretest.Model(), StreamFn: fake.Stream,
		Layers: []agentcore.Layer{c}}, nil))
	for _, p := range []string{"a", "b", "c"} {
		require.NoError(t, agent.Prompt(t.Context(), p))
	}
	_, err = c.Compact(t.Context(), "")
	require.NoError(t, err)
	entries := len(s.Entries())
	sameContext := func() {
		t.Helper()
		// The session keeps the summary's usage on its entry, and its time
		// is the entry's.
		want, got := agent.Messages(), s.Context().Messages
		require.Len(t, got, len(want)-1, "all but the system message")
		assert.IsType(t, &compaction.Summary{}, got[0])
		assert.Equal(t, want[1].(*compaction.Summary).Summary, got[0].(*compaction.Summary).Summary)
		assert.Equal(t, messagesJSON(t, want[2:]), messagesJSON(t, got[1:]))
	}
	sameContext()
	require.NoError(t, agent.Prompt(t.Context(), "d"))
	assert.Len(t, s.Entries(), entries+2, "the prompt and the answer, nothing else")
	sameContext()
}

// TestBranchKeepsEntriesAfterThePlaceholder: a held call decided after
// the program appended entries of its own (a custom entry, a model
// change) is recorded on a branch that carries them: the leaf's path
// still holds them, after the real result as before it the placeholder.
func TestBranchKeepsEntriesAfterThePlaceholder(t *testing.T) {
	s, err := Create(t.TempDir(), "/w", &Options{Now: clock()})
	require.NoError(t, err)
	defer s.Close()
	opts := hold.Options{Policy: hold.When("deploy", func(deployArgs) *hold.Request { return &hold.Request{Title: "Deploy?"} })}
	gate := hold.New(opts)
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(agentcoretest.ToolCall("c1", "deploy", map[string]string{"env": "prod"})),
		agentcoretest.TextResponse("done"))
	agent := heldAgent(s, gate, fake)
	require.ErrorIs(t, agent.Prompt(t.Context(), "ship it"), hold.ErrHeld)
	_, err = s.Append(&CustomEntry{CustomType: "app.state", Data: json.RawMessage(`{"always":["deploy"]}`)})
	require.NoError(t, err)
	_, err = s.Append(&ModelChange{Provider: "p", ModelID: "m2"})
	require.NoError(t, err)

	require.NoError(t, gate.Decide(hold.Deny{ID: "c1", Reason: "Not today."})) // a branch: isError/details change
	require.NoError(t, agent.Continue(t.Context()))

	assert.Equal(t, messagesJSON(t, agent.Messages()), messagesJSON(t, s.Context().Messages))
	var types []string
	for _, e := range s.Path("") {
		switch e := e.(type) {
		case *CustomEntry:
			types = append(types, "custom:"+e.CustomType+":"+string(e.Data))
		case *ModelChange:
			types = append(types, "model:"+e.ModelID)
		case *MessageEntry:
			types = append(types, e.Message.Role())
		}
	}
	assert.Equal(t, []string{"user", "assistant", "toolResult", `custom:app.state:{"always":["deploy"]}`, "model:m2", "assistant"}, types)
}

// TestLayerReplacesTheReplacedOfTwinMessages: of two messages that read
// the same, the session edits the one the Agent replaced, not the first.
func TestLayerReplacesTheReplacedOfTwinMessages(t *testing.T) {
	s, err := Create(t.TempDir(), "/work", nil)
	require.NoError(t, err)
	defer s.Close()
	a := agentcore.New(s.Restore(agentcore.Options{Model: agentcoretest.Model()}, nil))
	first := &agentcore.UserMessage{Content: agentcore.Text("again"), Timestamp: 1}
	second := &agentcore.UserMessage{Content: agentcore.Text("again"), Timestamp: 2}
	a.AppendMessage(first)
	a.AppendMessage(second)
	require.NoError(t, a.ReplaceMessage(second, &agentcore.UserMessage{Content: agentcore.Text("edited"), Timestamp: 2}))
	assert.JSONEq(t, messagesJSON(t, a.Messages()), messagesJSON(t, s.Context().Messages))
}

// TestLayerRecordsChangeAmongCompacted: a message the latest compaction
// kept, replaced by one that differs in more than content (a held call's
// placeholder by its result), is recorded on a branch with a copy of the
// compaction, so that the session's context, Go's and pi's, is the
// Agent's, summary included.
func TestLayerRecordsChangeAmongCompacted(t *testing.T) {
	pi := newPiBatch(t)
	defer pi.run()
	root := t.TempDir() // outlives the subtests, for pi
	tests := []struct {
		name string
		at   func(msgs []agentcore.Message) int // the index of the kept message to change
	}{
		// The compaction keeps one message: its first kept entry moves
		// to the branch.
		{"the first kept", func([]agentcore.Message) int { return 2 }},
		{"the last kept", func(msgs []agentcore.Message) int { return len(msgs) - 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Create(subdir(t, root), "/w", &Options{Now: clock()})
			require.NoError(t, err)
			defer s.Close()
			fake := agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
				return agentcoretest.TextResponse("text")
			})
			c := compaction.New(compaction.Options{Manual: true, Settings: compaction.Settings{KeepRecentTokens: 1},
				OnEvent: s.OnCompaction(nil, func(err error) { t.Error(err) })})
			agent := agentcore.New(s.Restore(agentcore.Options{SystemPrompt: "Be brief.", Model: agentcoretest.Model(), StreamFn: fake.Stream,
				Layers: []agentcore.Layer{c}}, nil))
			for _, p := range []string{"a", "b", "c"} {
				require.NoError(t, agent.Prompt(t.Context(), p))
			}
			_, err = c.Compact(t.Context(), "")
			require.NoError(t, err)
			msgs := agent.Messages()
			require.IsType(t, &compaction.Summary{}, msgs[1])
			require.NoError(t, agent.ReplaceMessage(msgs[tt.at(msgs)], &CustomMessage{CustomType: "note", Content: agentcore.Text("x"), Display: true}))
			require.NoError(t, agent.Prompt(t.Context(), "d"), "a record that failed would fail the next request")

			want, got := agent.Messages(), s.Context().Messages
			require.Len(t, got, len(want)-1, "all but the system message")
			assert.Equal(t, want[1].(*compaction.Summary).Summary, got[0].(*compaction.Summary).Summary)
			assert.Equal(t, messagesJSON(t, want[2:]), messagesJSON(t, got[1:]))
			compactions := 0
			for _, e := range s.Entries() {
				if _, ok := e.(*Compaction); ok {
					compactions++
				}
			}
			assert.Equal(t, 2, compactions, "the compaction again after the changed message")
			reopened, err := Open(s.File(), &Options{ReadOnly: true})
			require.NoError(t, err)
			assert.Equal(t, messagesJSON(t, got), messagesJSON(t, reopened.Context().Messages))
			pi.add(t, reopened)
		})
	}
}
