package compaction

import (
	"context"
	"errors"

	"github.com/pi-go/agentcore"
)

// ErrRecoveryFailed is the error of a Prompt, PromptMessages or Continue
// whose run overflowed the window and could not be recovered: the
// compaction of the recovery failed (the error wraps its cause too), or
// the run retried after it overflowed again. The recovery compacts and
// retries once per call.
var ErrRecoveryFailed = errors.New("compaction: context overflow recovery failed after one compact-and-retry attempt; reduce the context or use a model with a larger window")

// Reason is why a compaction ran.
type Reason string

// The reasons of a compaction, pi's.
const (
	// ReasonManual is a compaction asked for with [Compactor.Compact].
	ReasonManual Reason = "manual"
	// ReasonThreshold is an automatic compaction of a context above the
	// threshold.
	ReasonThreshold Reason = "threshold"
	// ReasonOverflow is the compaction of a recovery from a context
	// overflow or an early length stop.
	ReasonOverflow Reason = "overflow"
)

// Event is what [Options.OnEvent] is told: a [*StartEvent] before each
// compaction and an [*EndEvent] after it, or a [*FixedPartEvent] when
// compaction cannot help.
type Event interface {
	compactionEvent()
}

// StartEvent is sent when a compaction starts, once its cut is known and
// before the summary call.
type StartEvent struct {
	Reason Reason
	// TokensBefore is the estimated context size being compacted.
	TokensBefore int
	// WillRetry is true for an overflow recovery that retries the failed
	// request once the compaction succeeds.
	WillRetry bool
}

// EndEvent is sent when a compaction is over: Result on success, Err on
// failure (the transcript is then unchanged), the context's error when it
// was cancelled.
type EndEvent struct {
	Reason Reason
	// Result is the compaction's outcome; nil when it failed.
	Result *Result
	// Err says why the compaction failed; nil on success.
	Err error
	// WillRetry is true when the failed request is retried next.
	WillRetry bool
}

// FixedPartEvent is sent instead of a compaction when the fixed part of
// the context, the system prompt and the tool declarations, is above the
// threshold by itself: no summary can bring the context under it, so the
// Agent does not compact automatically (overflow recovery and Compact
// still work). It is sent again only when the fixed part changes. Lower
// the tools or the prompt, or raise ReserveTokens' room with a larger
// window.
type FixedPartEvent struct {
	// FixedTokens is the estimated size of the fixed part, scaled by the
	// last usage's token scale.
	FixedTokens int
	// Threshold is the context size above which compaction starts.
	Threshold int
}

func (*StartEvent) compactionEvent()     {}
func (*EndEvent) compactionEvent()       {}
func (*FixedPartEvent) compactionEvent() {}

// Result is the outcome of a compaction.
type Result struct {
	// Summary is the summary message now at the head of the transcript;
	// its Usage is what the summary calls cost.
	Summary *Summary
	// TokensBefore and TokensAfter are the estimated context sizes before
	// and after.
	TokensBefore, TokensAfter int
	// Summarized is how many messages the summary replaced (system
	// messages, replayed into the head, not counted).
	Summarized int
	// Kept is how many messages follow the summary.
	Kept int
	// Split is true when the cut fell inside a user message's span.
	Split bool
	// ToolResultsCut is how many kept tool results were cut to fit the
	// threshold ([Preparation.FitKept]). When the compaction had nothing
	// to summarize and only cut tool results, Summary is nil.
	ToolResultsCut int
}

// Listener receives compaction events; see [Options.OnEvent].
type Listener func(ctx context.Context, ev Event)

// isRecoverableLength reports whether msg stopped at its length limit
// before maxTokens, the output limit asked for, as pi-ai's
// isRecoverableLength does.
func isRecoverableLength(msg *agentcore.AssistantMessage, maxTokens int) bool {
	return msg.StopReason == agentcore.StopLength && maxTokens > 0 && msg.Usage.Output < int64(maxTokens)
}
