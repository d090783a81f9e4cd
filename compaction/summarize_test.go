package compaction_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/internal/tokens"
)

func summaryResponse(text string, output int64) agentcoretest.Response {
	r := agentcoretest.TextResponse(text)
	r.Usage = agentcore.Usage{Input: 100, Output: output, TotalTokens: 100 + output}
	return r
}

func TestSummarizeRequest(t *testing.T) {
	transcript := []agentcore.Message{
		sys("p"),
		user(words("u0", 100)),
		&agentcore.AssistantMessage{Content: []agentcore.ContentBlock{
			agentcore.ThinkingBlock{Thinking: "secret musing"}, agentcore.TextBlock{Text: "Reading it."},
			agentcoretest.ToolCall("c1", "read", map[string]any{"path": "a.go", "limit": 10}),
		}, StopReason: agentcore.StopToolUse, Timestamp: 20},
		result("c1", strings.Repeat("y", 2500)),
		answer(words("a0", 600)), user(words("u1", 900)), answer(words("a1", 600)),
	}
	p, err := compaction.Prepare(transcript, 1000, nil)
	require.NoError(t, err)
	fake := agentcoretest.New(summaryResponse("## Goal\nread a.go", 40))
	s, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{
		Model: agentcoretest.Model(), StreamFn: fake.Stream, Instructions: "the file names",
		StreamOptions: agentcore.StreamOptions{APIKey: "k", Reasoning: agentcore.ThinkingHigh},
	})
	require.NoError(t, err)

	got := fake.Calls()
	require.Len(t, got, 1)
	c := got[0]
	assert.True(t, isSummaryCall(c))
	assert.Equal(t, "none", c.Options.CacheRetention)
	assert.Equal(t, "k", c.Options.APIKey)
	assert.Equal(t, agentcore.ThinkingOff, c.Options.Reasoning)
	prompt := promptText(c)
	assert.True(t, strings.HasPrefix(prompt, "<conversation>\n[User]: u0 "), prompt)
	assert.Contains(t, prompt, "[Assistant]: Reading it.\n\n[Assistant tool calls]: read(limit=10, path=\"a.go\")\n\n[Tool result]: yyy")
	assert.Contains(t, prompt, "\n\n[... 500 more characters cut]")
	assert.NotContains(t, prompt, "secret musing", "thinking is left out")
	assert.NotContains(t, prompt, "u1 ", "kept messages are not summarized")
	assert.NotContains(t, prompt, "<previous-summary>")
	assert.Contains(t, prompt, "## Goal\n")
	assert.Contains(t, prompt, "## Critical Context\n")
	assert.True(t, strings.HasSuffix(prompt, "Focus especially on: the file names"), prompt)

	assert.Equal(t, "## Goal\nread a.go\n\n<read-files>\na.go\n</read-files>", s.Summary)
	assert.Equal(t, []string{"a.go"}, s.ReadFiles)
	assert.Equal(t, p.TokensBefore, s.TokensBefore)
	assert.Equal(t, &agentcore.Usage{Input: 100, Output: 40, TotalTokens: 140}, s.Usage)
	assert.Greater(t, s.Timestamp, int64(20), "after the kept messages")
}

func TestSummarizeUpdatesThePreviousSummary(t *testing.T) {
	previous := &compaction.Summary{Summary: "## Goal\nfirst part", ModifiedFiles: []string{"m.go"}}
	transcript := []agentcore.Message{
		sys("p"), previous, user(words("u1", 600)), answer(words("a1", 600)), user(words("u2", 600)), answer(words("a2", 600)),
	}
	p, err := compaction.Prepare(transcript, 1000, nil)
	require.NoError(t, err)
	fake := agentcoretest.New(summaryResponse("## Goal\nboth parts", 10))
	s, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	require.NoError(t, err)
	prompt := promptText(fake.Calls()[0])
	assert.Contains(t, prompt, "</conversation>\n\n<previous-summary>\n## Goal\nfirst part\n</previous-summary>\n\n")
	assert.Contains(t, prompt, "continues the one summarized in <previous-summary>")
	assert.Equal(t, "## Goal\nboth parts\n\n<modified-files>\nm.go\n</modified-files>", s.Summary)
	assert.Equal(t, []string{"m.go"}, s.ModifiedFiles, "carried across compactions")
}

func TestSummarizeSplitSpan(t *testing.T) {
	transcript := []agentcore.Message{
		sys("p"), user(words("u0", 600)), answer(words("a0", 100)), user(words("u1", 100)),
		calls(call("c1", "read", "a.go")), result("c1", words("r1", 600)),
		calls(call("c2", "read", "b.go")), result("c2", words("r2", 600)), answer(words("a3", 100)),
	}
	p, err := compaction.Prepare(transcript, 1000, nil)
	require.NoError(t, err)
	require.True(t, p.Split())
	fake := agentcoretest.New(summaryResponse("HISTORY", 10), summaryResponse("PREFIX", 20))
	s, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	require.NoError(t, err)

	got := fake.Calls()
	require.Len(t, got, 2, "the history, then the span's first part")
	assert.Contains(t, promptText(got[0]), "[User]: u0 ")
	assert.NotContains(t, promptText(got[0]), "u1 ")
	assert.Contains(t, promptText(got[1]), "[User]: u1 ")
	assert.Contains(t, promptText(got[1]), "## Original Request")
	assert.NotContains(t, promptText(got[1]), "u0 ")
	assert.Equal(t, "HISTORY\n\n---\n\n## Current request, first part (split span)\n\nPREFIX\n\n<read-files>\na.go\n</read-files>", s.Summary)
	assert.Equal(t, &agentcore.Usage{Input: 200, Output: 30, TotalTokens: 230}, s.Usage, "both calls")

	// With no history before the span, the previous summary (or a note)
	// stands for it, and only the prefix is summarized.
	transcript = []agentcore.Message{
		sys("p"), user(words("u1", 100)), calls(call("c1", "read", "a.go")), result("c1", words("r1", 900)),
		calls(call("c2", "read", "b.go")), result("c2", words("r2", 900)),
	}
	p, err = compaction.Prepare(transcript, 1000, nil)
	require.NoError(t, err)
	fake = agentcoretest.New(summaryResponse("PREFIX", 20))
	s, err = compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	require.NoError(t, err)
	assert.Equal(t, 1, fake.CallCount())
	assert.True(t, strings.HasPrefix(s.Summary, "No earlier history.\n\n---\n\n"), s.Summary)
}

func TestSummarizeFailures(t *testing.T) {
	transcript := []agentcore.Message{sys("p"), user(words("u0", 900)), answer(words("a0", 900)), user(words("u1", 900)), answer(words("a1", 900))}
	p, err := compaction.Prepare(transcript, 1000, nil)
	require.NoError(t, err)
	emptyLength := agentcoretest.TextResponse("")
	emptyLength.StopReason = agentcore.StopLength
	tests := []struct {
		name string
		resp agentcoretest.Response
		want string
	}{
		{"provider error", agentcoretest.ErrorResponse("overloaded"), "compaction: summary failed: overloaded"},
		{"tool call", agentcoretest.ToolCallResponse(call("c", "read", "x")), "the model called a tool instead of summarizing"},
		{"token cap with no text", emptyLength, "the summary reached its token cap and is incomplete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := agentcoretest.New(tt.resp, tt.resp)
			_, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
			require.ErrorIs(t, err, compaction.ErrSummaryFailed)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, 2, fake.CallCount(), "made once more")
		})
	}
	t.Run("a summary stopped at its cap twice is kept, marked", func(t *testing.T) {
		length := agentcoretest.TextResponse("## Goal\nhalf")
		length.StopReason = agentcore.StopLength
		fake := agentcoretest.New(length, length)
		s, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
		require.NoError(t, err)
		assert.Equal(t, "## Goal\nhalf\n\n[The summary stopped at its length limit here.]", s.Summary)
		assert.Equal(t, 2, fake.CallCount())
	})
	t.Run("an empty summary twice falls back to the record", func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.TextResponse("  "), agentcoretest.TextResponse(""))
		s, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream, MaxTokens: 100})
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(s.Summary, "[The summary model returned nothing; the latest entries of the conversation follow instead.]\n\n"), s.Summary)
		assert.Contains(t, s.Summary, "[User]: u0 ")
		assert.LessOrEqual(t, len(s.Summary), 100*4+200, "cut to the cap")
		assert.Equal(t, 2, fake.CallCount())
	})
	t.Run("a summary over its cap is cut", func(t *testing.T) {
		huge := summaryResponse(strings.Repeat("s", 1<<20), 10)
		fake := agentcoretest.New(huge)
		s, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream, MaxTokens: 768})
		require.NoError(t, err)
		assert.Equal(t, strings.Repeat("s", 768*4)+fmt.Sprintf("\n\n[... %d more characters cut]", 1<<20-768*4), s.Summary)
	})
	t.Run("a second attempt that succeeds", func(t *testing.T) {
		first := agentcoretest.TextResponse("")
		first.Usage = agentcore.Usage{Output: 1, TotalTokens: 1}
		fake := agentcoretest.New(first, summaryResponse("## Goal\nx", 10))
		s, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
		require.NoError(t, err)
		assert.Equal(t, int64(11), s.Usage.Output, "both attempts counted")
	})
	t.Run("an overflow is retried with half the record", func(t *testing.T) {
		fake := agentcoretest.New(agentcoretest.ErrorResponse("prompt is too long"), summaryResponse("## Goal\nx", 10))
		_, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
		require.NoError(t, err)
		got := fake.Calls()
		require.Len(t, got, 2)
		assert.NotContains(t, promptText(got[0]), "earlier entries left out")
		assert.Contains(t, promptText(got[1]), "[... 1 earlier entries left out to fit the context window]")
		assert.Less(t, len(promptText(got[1])), len(promptText(got[0]))*3/4)
	})
	t.Run("overflows give up", func(t *testing.T) {
		overflow := agentcoretest.ErrorResponse("prompt is too long")
		fake := agentcoretest.New(overflow, overflow, overflow, overflow, overflow)
		_, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
		require.ErrorIs(t, err, compaction.ErrSummaryFailed)
		assert.Equal(t, 4, fake.CallCount(), "the first request and three halvings")
	})
	t.Run("no stream function", func(t *testing.T) {
		_, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{})
		assert.ErrorIs(t, err, agentcore.ErrNoStreamFn)
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		fake := agentcoretest.New(agentcoretest.TextResponse("never"))
		_, err := compaction.Summarize(ctx, p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
		assert.ErrorIs(t, err, context.Canceled)
	})
	t.Run("panicking stream function", func(t *testing.T) {
		fn := func(context.Context, agentcore.Model, agentcore.Request, agentcore.StreamOptions) agentcore.AssistantStream {
			panic("boom")
		}
		_, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fn})
		assert.ErrorIs(t, err, agentcore.ErrStreamPanic)
	})
}

// On a small window the record is shortened until the request leaves the
// summary its whole output cap.
func TestSummarizeFitsASmallWindow(t *testing.T) {
	var transcript []agentcore.Message
	transcript = append(transcript, sys("p"))
	for i := range 12 {
		transcript = append(transcript, user(words("u", 300)), answer(words("a"+string(rune('a'+i)), 300)))
	}
	p, err := compaction.Prepare(transcript, 768, nil)
	require.NoError(t, err)
	model := agentcoretest.Model()
	model.ContextWindow, model.MaxTokens = 8192, 4096
	fake := agentcoretest.New(summaryResponse("## Goal\nshort", 10), summaryResponse("## Original Request\nshort", 10))
	_, err = compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: model, StreamFn: fake.Stream})
	require.NoError(t, err)
	c := fake.Calls()[0]
	assert.Equal(t, 768, c.Options.MaxTokens)
	assert.Equal(t, 768, tokens.ClampMaxTokens(model, c.Request.Messages, c.Options.MaxTokens), "the whole cap fits")
	prompt := promptText(c)
	assert.Contains(t, prompt, "earlier entries left out to fit the context window]")
	assert.Contains(t, prompt, "Keep the whole reply under 384 words.")
	assert.Contains(t, prompt, "[Assistant]: aj ", "the newest entries are kept")
}

// On a small window the file lists are cut to a quarter of the summary's
// room; on a large one they are whole.
func TestSummarizeFileListsOnASmallWindow(t *testing.T) {
	var files []string
	for i := range 100 {
		files = append(files, fmt.Sprintf("src/package%02d/file.go", i))
	}
	p := &compaction.Preparation{History: []agentcore.Message{user("hi")}, ReadFiles: files, ModifiedFiles: files[:2]}
	model := agentcoretest.Model()
	model.ContextWindow = 8192
	fake := agentcoretest.New(summaryResponse("## Goal\nx", 10), summaryResponse("## Goal\nx", 10))
	s, err := compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: model, StreamFn: fake.Stream})
	require.NoError(t, err)
	assert.Contains(t, s.Summary, "src/package14/file.go\n(85 more)\n</read-files>\n\n<modified-files>\nsrc/package00/file.go\nsrc/package01/file.go\n</modified-files>")
	assert.Len(t, s.ReadFiles, 100, "the message keeps them all")

	s, err = compaction.Summarize(context.Background(), p, compaction.SummaryRequest{Model: agentcoretest.Model(), StreamFn: fake.Stream})
	require.NoError(t, err)
	assert.Contains(t, s.Summary, "src/package99/file.go\n</read-files>")
}
