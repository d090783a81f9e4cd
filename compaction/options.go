package compaction

import (
	"github.com/pi-go/agentcore"
)

// Options configure a [Compactor]. The zero value compacts automatically
// with the defaults of [Settings.ForWindow], summarizing with the Agent's
// model through the stream function its runs use.
type Options struct {
	// Settings are the token budgets; zero fields scale with the window.
	Settings
	// ContextWindow, when above 0, is the window compaction works with in
	// place of the model's ContextWindow. A model whose ContextWindow is 0
	// (unknown: a local server's that reports none) with no
	// ContextWindow here never compacts by itself; only
	// [Compactor.Compact] does.
	ContextWindow int
	// Manual turns automatic compaction and overflow recovery off (pi's
	// "enabled": false): only [Compactor.Compact] compacts.
	Manual bool
	// Model, when not nil, writes the summaries; nil means the Agent's
	// model at the time (the model of the run's requests under RunLoop).
	// The Agent's model's window decides when to compact either way.
	Model *agentcore.Model
	// StreamFn calls the summary model. Nil means the stream function the
	// runs use (the program's, as the layers installed after this one
	// wrap it), which the layer learns when a run starts: a compaction
	// before the Agent's first run, or a Compact before it, then needs
	// StreamFn and fails with [agentcore.ErrNoStreamFn] without it. The
	// stream options are those of the run's last request (the API key
	// the GetAPIKey hook gave included), else the Agent's (see
	// [SummaryRequest.StreamOptions]).
	StreamFn agentcore.StreamFn
	// ConvertToLLM, when not nil, maps the program's app-defined messages
	// to standard ones for the estimate, the cut and the summary's record
	// (the program's ConvertToLLM hook, which a layer cannot call).
	// Summaries are mapped before it. Nil keeps the standard messages and
	// counts the others as nothing.
	ConvertToLLM ConvertFunc
	// Files says which tool calls touch which files, for the file lists
	// carried from summary to summary; nil means [DefaultFiles].
	Files FilesFunc
	// OnEvent, when not nil, is called before and after each compaction
	// (see [Event]), on the goroutine that compacts: the Prompt's or
	// Continue's for a compaction before or after a run, the run's for
	// one between turns, Compact's caller's. ctx is that call's or run's.
	// It is awaited; the events are the listener's to keep. It must not
	// start a run or call Compact, which would answer
	// [agentcore.ErrBusy].
	OnEvent Listener
}
