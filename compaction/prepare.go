package compaction

import (
	"context"
	"errors"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// ErrNothingToCompact is reported when a transcript has nothing a
// compaction could summarize: it is smaller than the recent context a
// compaction keeps, or it ends with a summary.
var ErrNothingToCompact = errors.New("compaction: nothing to compact")

// Preparation is what a compaction of a transcript will do, before the
// summary is written: the transcript split at the cut point. Its slices
// share the transcript's messages, which must not be modified.
type Preparation struct {
	// Head is the replayed system message of the messages before the cut
	// ([agentcore.CurrentSystemMessage]), which stays first; nil when
	// there is none.
	Head *agentcore.SystemMessage
	// Previous is the summary of the last compaction, nil for the first.
	// The new summary updates it.
	Previous *Summary
	// History are the messages to summarize: from the previous
	// compaction's kept boundary (or the start) to the cut, or to the
	// start of the split span. System messages are left out.
	History []agentcore.Message
	// TurnPrefix, for a split span (one user message's turns longer than
	// the kept budget, cut at an assistant message), are the span's
	// messages before the cut, summarized on their own; nil otherwise.
	TurnPrefix []agentcore.Message
	// Kept are the messages from the cut on, kept verbatim.
	Kept []agentcore.Message
	// TokensBefore is the estimated context size of the transcript.
	TokensBefore int
	// TokenScale is how many tokens the provider counted for each token
	// estimated from characters, by the last usage the transcript reports
	// (see [Prepare]); at least 1, and 0 or 1 when unknown. [Summarize]
	// sizes its requests with it.
	TokenScale float64
	// ReadFiles and ModifiedFiles are the files of the previous summary
	// and of the tool calls of History and TurnPrefix, sorted; a file
	// modified is not listed as read.
	ReadFiles, ModifiedFiles []string
}

// Split reports whether the cut falls inside a user message's span.
func (p *Preparation) Split() bool { return len(p.TurnPrefix) > 0 }

// Messages returns the compacted transcript: the head, the summary, the
// kept messages. The slice is the caller's.
func (p *Preparation) Messages(s *Summary) []agentcore.Message {
	out := make([]agentcore.Message, 0, len(p.Kept)+2)
	if p.Head != nil {
		out = append(out, p.Head)
	}
	return append(append(out, s), p.Kept...)
}

// Prepare finds where to cut messages so that about keepRecentTokens of
// the most recent context stay verbatim, as pi's prepareCompaction does:
//
//   - it starts from the last summary (the previous compaction's kept
//     boundary), or from the start;
//   - walking back from the end, it adds up each message's estimated
//     tokens until they reach keepRecentTokens, and cuts at the nearest
//     user, assistant or app-defined message at or after that point,
//     never at a tool result (which stays with its call) or a system
//     message;
//   - a cut at an assistant message splits its user message's span: the
//     span's earlier part becomes TurnPrefix, summarized apart.
//
// The estimate counts 4 characters a token, as pi's coding agent does
// (and a summary by its text). Where this departs from pi: a tokenizer
// that spends more tokens on the same text would keep more than the
// budget, and a compaction might not bring the context under the
// threshold, so the walk scales each message's estimate by the ratio the
// provider's last usage shows between the tokens it counted and the
// estimate of the same messages (TokenScale, never below 1). With no
// usage, or a usage at or below the estimate, the scale is 1 and the cut
// is pi's.
//
// files says which tool calls touch which files; nil means
// [DefaultFiles]. It fails with [ErrNothingToCompact] when nothing would
// be summarized. Prepare counts app-defined messages as 0 tokens;
// [PrepareWith] counts them as its ConvertToLLM maps them.
func Prepare(messages []agentcore.Message, keepRecentTokens int, files FilesFunc) (*Preparation, error) {
	return PrepareWith(context.Background(), messages, PrepareOptions{KeepRecentTokens: keepRecentTokens, Files: files})
}

// PrepareOptions configure [PrepareWith].
type PrepareOptions struct {
	// KeepRecentTokens is about how much of the most recent context stays
	// verbatim.
	KeepRecentTokens int
	// Files says which tool calls touch which files; nil means
	// [DefaultFiles].
	Files FilesFunc
	// ConvertToLLM, when not nil, maps app-defined messages to what the
	// model sees (the agent's ConvertToLLM hook), so that they count
	// toward the estimate and the cut as the text they become, as pi
	// counts its custom messages. It is called on the calling goroutine
	// with the whole transcript (summaries already mapped) and with each
	// app-defined message alone. Nil counts them as 0 tokens.
	ConvertToLLM ConvertFunc
}

// PrepareWith is [Prepare] with options; ctx is passed to ConvertToLLM.
func PrepareWith(ctx context.Context, messages []agentcore.Message, opts PrepareOptions) (*Preparation, error) {
	files := opts.Files
	if files == nil {
		files = DefaultFiles
	}
	start := 0
	var previous *Summary
	for i := len(messages) - 1; i >= 0; i-- {
		if s, ok := AsSummary(messages[i]); ok {
			previous, start = s, i+1
			break
		}
	}
	llm := ConvertMessages(messages)
	if opts.ConvertToLLM != nil {
		if out, err := opts.ConvertToLLM(ctx, llm); err == nil {
			llm = out
		}
	}
	scale := tokenScale(llm)
	size := func(m agentcore.Message) float64 { return float64(messageTokens(ctx, m, opts.ConvertToLLM)) * scale }
	cut, turnStart := findCut(messages, start, opts.KeepRecentTokens, size)
	if cut < 0 {
		return nil, ErrNothingToCompact
	}
	historyEnd := cut
	if turnStart >= 0 {
		historyEnd = turnStart
	}
	p := &Preparation{
		Head:         agentcore.CurrentSystemMessage(messages[:cut]),
		Previous:     previous,
		History:      withoutSystem(messages[start:historyEnd]),
		Kept:         slices.Clip(messages[cut:]),
		TokensBefore: EstimateContextTokens(llm),
		TokenScale:   scale,
	}
	if turnStart >= 0 {
		p.TurnPrefix = withoutSystem(messages[turnStart:cut])
	}
	if len(p.History) == 0 && len(p.TurnPrefix) == 0 {
		return nil, ErrNothingToCompact
	}
	fs := newFileSet(previous)
	fs.add(p.History, files)
	fs.add(p.TurnPrefix, files)
	p.ReadFiles, p.ModifiedFiles = fs.lists()
	return p, nil
}

// findCut returns the index of the first kept message of messages[start:]
// and, when it splits a span, the index of the span's start (else -1). It
// returns -1 when messages[start:] has no place to cut.
func findCut(messages []agentcore.Message, start, keep int, size func(agentcore.Message) float64) (cut, turnStart int) {
	var cuts []int
	for i := start; i < len(messages); i++ {
		if isCutPoint(messages[i]) {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) == 0 {
		return -1, -1
	}
	cut = cuts[0]
	acc := 0.0
	for i := len(messages) - 1; i >= start; i-- {
		acc += size(messages[i])
		if acc >= float64(keep) {
			j, _ := slices.BinarySearch(cuts, i)
			cut = cuts[min(j, len(cuts)-1)]
			break
		}
	}
	if startsSpan(messages[cut]) {
		return cut, -1
	}
	for i := cut; i >= start; i-- {
		if startsSpan(messages[i]) {
			return cut, i
		}
	}
	return cut, -1
}

// tokenScale is the ratio of the tokens the last applicable usage of llm
// counted to the estimate of the messages it covers, at least 1.
func tokenScale(llm []agentcore.Message) float64 {
	last, used := tokens.LastUsage(llm)
	if last < 0 || used <= 0 {
		return 1
	}
	estimated := 0
	for _, m := range llm[:last+1] {
		estimated += estimateMessage(m)
	}
	if estimated == 0 {
		return 1
	}
	return max(1, float64(used)/float64(estimated))
}

// isCutPoint reports whether a compaction may keep the transcript from m
// on: any message but a tool result (it belongs to its call) or a system
// message (prompt state, replayed into the head).
func isCutPoint(m agentcore.Message) bool {
	switch m.(type) {
	case *agentcore.ToolResultMessage, *agentcore.SystemMessage:
		return false
	}
	return true
}

// startsSpan reports whether m starts a user message's span: a user
// message, or an app-defined message that stands for one.
func startsSpan(m agentcore.Message) bool {
	switch m.(type) {
	case *agentcore.ToolResultMessage, *agentcore.SystemMessage, *agentcore.AssistantMessage:
		return false
	}
	return true
}

// withoutSystem returns a copy of messages without system messages.
func withoutSystem(messages []agentcore.Message) []agentcore.Message {
	return slices.DeleteFunc(slices.Clone(messages), func(m agentcore.Message) bool {
		_, ok := m.(*agentcore.SystemMessage)
		return ok
	})
}
