package agui_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/session"
)

// compacting is a fake model whose first answer is long (so that the
// next run compacts it away) and whose summary requests get a summary.
func compacting() *agentcoretest.Fake {
	answers := []agentcoretest.Response{
		agentcoretest.TextResponse(strings.Repeat("A long answer. ", 3000)),
		agentcoretest.TextResponse("Short."),
		agentcoretest.TextResponse("Shorter."),
	}
	return agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		if s, ok := c.Request.Messages[0].(*agentcore.SystemMessage); ok && strings.HasPrefix(s.Content.Text(), "You write context checkpoints") {
			return agentcoretest.TextResponse("## Goal\nchat")
		}
		if len(answers) == 0 {
			return agentcoretest.ErrorResponse("not expected")
		}
		r := answers[0]
		answers = answers[1:]
		return r
	})
}

// compactingHandler keeps its threads in dir (when not "") and compacts
// them, recording compactions in their files.
func compactingHandler(dir string, fake *agentcoretest.Fake) *agui.Handler {
	return agui.New(agui.Options{
		SessionDir: dir,
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			m := agentcoretest.Model()
			m.ContextWindow, m.MaxTokens = 8192, 2048
			c := compaction.New(compaction.Options{OnEvent: agui.RecordCompactions(nil)})
			return agentcore.Options{SystemPrompt: "You chat.", Model: m, StreamFn: fake.Stream, Layers: []agentcore.Layer{c}}, nil
		},
	})
}

// TestCompactedThread: a thread compacts between requests; the client
// keeps sending the messages the compaction summarized, which the
// handler knows; with SessionDir the compaction is pi's entry in the
// file, and a restarted server goes on from it.
func TestCompactedThread(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		fake := compacting()
		h := compactingHandler(dir, fake)
		srv := httptest.NewServer(h)
		sent := "[" + userMsg("u1", "tell me a lot") + "]"
		_, evs := post(t, t.Context(), srv.URL, input("t1", "r1", sent, ""))
		require.Equal(t, "success", evs[len(evs)-1].Outcome.Type, evs[len(evs)-1].Message)
		msgs := history(t, sent, evs, userMsg("u2", "and now?"))
		_, evs = post(t, t.Context(), srv.URL, input("t1", "r2", msgs, ""))
		require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type, evs[len(evs)-1].Message)
		require.Equal(t, "success", evs[len(evs)-1].Outcome.Type, evs[len(evs)-1].Message)
		if dir != "" {
			srv.Close()
			srv = httptest.NewServer(compactingHandler(dir, fake))
		}
		msgs = history(t, msgs, evs, userMsg("u3", "and then?"))
		_, evs = post(t, t.Context(), srv.URL, input("t1", "r3", msgs, ""))
		srv.Close()
		require.Equal(t, "RUN_FINISHED", evs[len(evs)-1].Type, evs[len(evs)-1].Message)
		require.Equal(t, "success", evs[len(evs)-1].Outcome.Type, evs[len(evs)-1].Message)
		calls := fake.Calls()
		summaries, last := 0, -1
		for i, c := range calls {
			if s, ok := c.Request.Messages[0].(*agentcore.SystemMessage); ok && strings.HasPrefix(s.Content.Text(), "You write context checkpoints") {
				summaries++
			} else {
				last = i
			}
		}
		require.NotZero(t, summaries, "dir %q: the thread compacted", dir)
		var users []string
		for _, m := range calls[last].Request.Messages {
			if u, ok := m.(*agentcore.UserMessage); ok {
				users = append(users, u.Content.Text())
			}
		}
		assert.NotContains(t, users, "tell me a lot", "dir %q: the summarized prompt is not taken again", dir)
		t.Logf("dir %q: %d summaries; the last request's user messages: %q", dir, summaries, users)
		if dir == "" {
			continue
		}
		files, err := session.List(dir)
		require.NoError(t, err)
		require.Len(t, files, 1)
		s, err := session.Open(files[0].Path, &session.Options{ReadOnly: true})
		require.NoError(t, err)
		var types []string
		for _, e := range s.Path(s.Leaf()) {
			types = append(types, e.Type())
		}
		require.NoError(t, s.Close())
		assert.Contains(t, types, "compaction", "the compaction is pi's entry")
	}
}
