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
	"github.com/pi-go/agentcore/internal/tokens"
)

// assertRoomToAnswer checks that every request of the agent leaves at
// least 512 tokens to answer after the providers' clamp, and none is over
// the window by the estimate.
func assertRoomToAnswer(t *testing.T, r *router, model agentcore.Model) {
	t.Helper()
	for i, c := range r.agentCalls() {
		assert.GreaterOrEqual(t, tokens.ClampMaxTokens(model, c.Request.Messages, model.MaxTokens), 512, "request %d", i)
		assert.Less(t, compaction.EstimateContextTokens(c.Request.Messages), model.ContextWindow, "request %d", i)
	}
}

// TestOversizedToolResultsInTheKeptPart runs one call that reads three
// files of 14 KB each on an 8k model: the call and its results are the
// kept part and over the threshold by themselves, so the compaction
// between the turns cuts them, and the next request has room to answer.
func TestOversizedToolResultsInTheKeptPart(t *testing.T) {
	bigRead := agentcore.NewTool("read", "Read a file.", func(_ context.Context, _ string, args readArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult(strings.Repeat(args.Path+" line\n", 2000)), nil
	})
	r := newRouter(
		[]agentcoretest.Response{agentcoretest.ToolCallResponse(call("c1", "read", "a"), call("c2", "read", "b"), call("c3", "read", "c")), agentcoretest.TextResponse("done")},
		summaryResponse("## Original Request\nread three files", 20),
	)
	rec := &recorder{}
	a := layered(agentcore.Options{SystemPrompt: "You help.", Model: smallModel(), StreamFn: r.fake.Stream, Tools: []agentcore.Tool{bigRead}},
		compaction.Options{OnEvent: rec.onEvent})
	require.NoError(t, a.Prompt(context.Background(), "read a, b and c"))

	require.Len(t, r.agentCalls(), 2)
	assertRoomToAnswer(t, r, smallModel())
	ends := rec.ends()
	require.Len(t, ends, 1)
	require.NotNil(t, ends[0].Result)
	assert.Equal(t, 3, ends[0].Result.ToolResultsCut)
	last := r.agentCalls()[1].Request.Messages
	assert.Contains(t, last[len(last)-1].(*agentcore.ToolResultMessage).Text(), "[This tool result was cut to fit the context window: ")
}

// TestContextWindowOption checks that a model of unknown window never
// compacts by itself, and compacts with the window of the option.
func TestContextWindowOption(t *testing.T) {
	for _, tt := range []struct {
		name        string
		window      int
		compactions int
	}{{"unknown window", 0, 0}, {"window as an option", 8192, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRouter([]agentcoretest.Response{agentcoretest.TextResponse("ok")}, summaryResponse("## Goal\nearlier", 10), summaryResponse("prefix", 10))
			rec := &recorder{}
			model := smallModel()
			model.ContextWindow = 0
			a := layered(agentcore.Options{Model: model, StreamFn: r.fake.Stream, Messages: big()},
				compaction.Options{OnEvent: rec.onEvent, ContextWindow: tt.window, StreamFn: r.fake.Stream})
			require.NoError(t, a.Prompt(context.Background(), "next"))
			assert.Len(t, rec.ends(), tt.compactions)
		})
	}
}

// TestFixedPartOverTheThreshold checks that a system prompt and tool
// declarations above the threshold by themselves are reported once, and
// not compacted before every prompt.
func TestFixedPartOverTheThreshold(t *testing.T) {
	r := newRouter([]agentcoretest.Response{agentcoretest.TextResponse("one"), agentcoretest.TextResponse("two")})
	rec := &recorder{}
	a := layered(agentcore.Options{SystemPrompt: words("prompt", 3500), Model: smallModel(), StreamFn: r.fake.Stream},
		compaction.Options{OnEvent: rec.onEvent})
	require.NoError(t, a.Prompt(context.Background(), "first"))
	require.NoError(t, a.Prompt(context.Background(), "second"))
	assert.Empty(t, r.summaryCalls())
	require.Len(t, rec.events, 1)
	fixed, ok := rec.events[0].(*compaction.FixedPartEvent)
	require.True(t, ok)
	assert.Equal(t, compaction.FixedPartEvent{FixedTokens: 3500, Threshold: 3072}, *fixed)
}
