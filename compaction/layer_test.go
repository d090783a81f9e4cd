package compaction_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
)

// TestCompactNeedsOneAgent checks Compact's errors on a Compactor
// installed on no Agent or on two.
func TestCompactNeedsOneAgent(t *testing.T) {
	c := compaction.New(compaction.Options{})
	_, err := c.Compact(context.Background(), "")
	assert.ErrorIs(t, err, compaction.ErrNotInstalled)

	for range 2 {
		agentcore.New(agentcore.Options{Model: smallModel(), Layers: []agentcore.Layer{c}})
	}
	_, err = c.Compact(context.Background(), "")
	assert.ErrorIs(t, err, compaction.ErrSharedCompactor)
}

// TestRunLoopCompactsBetweenTurns checks that under RunLoop, which has no
// Agent, the layer still compacts the working context between turns and
// maps the summary for the model.
func TestRunLoopCompactsBetweenTurns(t *testing.T) {
	r := newRouter(
		[]agentcoretest.Response{readCall("c1", "a.go"), readCall("c2", "b.go"), readCall("c3", "c.go"), agentcoretest.TextResponse("done")},
		summaryResponse("## Goal\nread files", 30), summaryResponse("## Original Request\nread", 20),
	)
	rec := &recorder{}
	c := compaction.New(compaction.Options{OnEvent: rec.onEvent})
	run, err := agentcore.RunLoop(context.Background(), []agentcore.Message{user("read the files")},
		agentcore.AgentContext{Messages: []agentcore.Message{head()}, Tools: []agentcore.Tool{readTool()}},
		agentcore.LoopConfig{Model: smallModel(), StreamFn: r.fake.Stream, Layers: []agentcore.Layer{c}})
	require.NoError(t, err)
	for range run.Events() {
	}
	_, err = run.Wait()
	require.NoError(t, err)

	require.NotEmpty(t, rec.ends())
	require.NoError(t, rec.ends()[0].Err)
	calls := r.agentCalls()
	last := calls[len(calls)-1].Request.Messages
	summary := last[1].(*agentcore.UserMessage).Text()
	assert.Contains(t, summary, "<summary>\n")
	assert.Contains(t, summary, "## Goal\nread files")
}

// blockingSummaries is a fake model whose summary calls wait for their
// ctx to end, telling started when one begins.
func blockingSummaries(started chan<- struct{}, agent ...agentcoretest.Response) *agentcoretest.Fake {
	return agentcoretest.NewFunc(func(ctx context.Context, c agentcoretest.Call) agentcoretest.Response {
		if isSummaryCall(c) {
			started <- struct{}{}
			<-ctx.Done()
			return agentcoretest.ErrorResponse("cancelled")
		}
		if len(agent) == 0 || ctx.Err() != nil {
			return agentcoretest.ErrorResponse("not expected")
		}
		resp := agent[0]
		agent = agent[1:]
		return resp
	})
}

// TestAbortEndsTheCompactionBeforeAPrompt checks that Abort during the
// compaction before a prompt ends it, and the prompt's run, as it ends a
// run: Prompt returns, the transcript is not compacted, the model is not
// asked to answer.
func TestAbortEndsTheCompactionBeforeAPrompt(t *testing.T) {
	started := make(chan struct{}, 1)
	fake := blockingSummaries(started, agentcoretest.TextResponse("should not run"))
	rec := &recorder{}
	a := layered(agentcore.Options{Model: smallModel(), StreamFn: fake.Stream, Messages: big()}, compaction.Options{OnEvent: rec.onEvent, StreamFn: fake.Stream})
	done := make(chan error, 1)
	go func() { done <- a.Prompt(context.Background(), "next") }()
	<-started
	assert.ErrorIs(t, a.Reset(), agentcore.ErrBusy, "Reset is refused during the compaction, as during a run")
	a.Abort()
	<-done

	ends := rec.ends()
	require.Len(t, ends, 1)
	assert.ErrorIs(t, ends[0].Err, context.Canceled)
	for _, m := range a.Messages() {
		_, isSummary := m.(*compaction.Summary)
		assert.False(t, isSummary)
		if am, ok := m.(*agentcore.AssistantMessage); ok {
			assert.NotContains(t, am.Text(), "should not run")
		}
	}
	assert.False(t, a.IsStreaming())
}

// TestEditDuringACompactionWins checks that a transcript set while the
// summary is written is kept: the compaction does not write the old
// history back.
func TestEditDuringACompactionWins(t *testing.T) {
	edited := []agentcore.Message{head(), user("a fresh start")}
	var a compacting
	fake := agentcoretest.NewFunc(func(_ context.Context, c agentcoretest.Call) agentcoretest.Response {
		if isSummaryCall(c) {
			a.SetMessages(edited)
			return summaryResponse("## Goal\nold", 10)
		}
		return agentcoretest.TextResponse("ok")
	})
	a = layered(agentcore.Options{Model: smallModel(), StreamFn: fake.Stream, Messages: big()}, compaction.Options{StreamFn: fake.Stream})
	require.NoError(t, a.Prompt(context.Background(), "next"))
	msgs := a.Messages()
	require.Greater(t, len(msgs), 3)
	assert.Equal(t, edited, msgs[:2], "the edit is kept")
	assert.Equal(t, "next", msgs[len(msgs)-2].(*agentcore.UserMessage).Text())
	assert.Equal(t, "ok", msgs[len(msgs)-1].(*agentcore.AssistantMessage).Text())

	// Compact says so.
	a.SetMessages(big())
	_, err := a.Compact(context.Background(), "")
	assert.ErrorIs(t, err, compaction.ErrTranscriptChanged)
	assert.Equal(t, edited, a.Messages())
}

// TestCheckBeforePromptAppliesTheTokenScale checks that the prompt added
// to a transcript whose last usage counted three times the estimate is
// scaled the same way by the check before it: 1,500 reported + 600
// estimated is below the 3,072 threshold of an 8k model, 1,500 + 3 x 600
// above.
func TestCheckBeforePromptAppliesTheTokenScale(t *testing.T) {
	counted := answer(words("a0", 240))
	counted.Usage = agentcore.Usage{Input: 1400, Output: 100, TotalTokens: 1500}
	transcript := []agentcore.Message{head(), user(words("u0", 240)), counted}
	r := newRouter([]agentcoretest.Response{agentcoretest.TextResponse("ok")}, summaryResponse("## Goal\nx", 10), summaryResponse("prefix", 10))
	rec := &recorder{}
	a := newAgent(r, rec, transcript, compaction.Options{})
	require.NoError(t, a.Prompt(context.Background(), words("p", 600)))
	require.Len(t, rec.ends(), 1)
	assert.Equal(t, compaction.ReasonThreshold, rec.ends()[0].Reason)
	assert.True(t, strings.HasPrefix(promptText(r.summaryCalls()[0]), "<conversation>\n[User]: u0"))
}
