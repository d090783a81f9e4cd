package compaction

// pi's defaults, for models with a context window of 64k tokens or more.
const (
	// DefaultReserveTokens is the free context below which compaction
	// starts, for a window of 65,536 tokens or more.
	DefaultReserveTokens = 16384
	// DefaultKeepRecentTokens is the recent context a compaction keeps
	// verbatim, for a large window.
	DefaultKeepRecentTokens = 20000
)

// minReserveTokens is the smallest default reserve: the 4,096-token margin
// the providers keep when they fit a response's max tokens into the
// window, plus 1,024 tokens of answer.
const minReserveTokens = 4096 + 1024

// Settings are the two token budgets of a compaction. A zero field means
// its default for the model's window ([Settings.ForWindow]).
type Settings struct {
	// ReserveTokens is the free context below which compaction starts:
	// it starts when the context takes more than ContextWindow -
	// ReserveTokens tokens.
	ReserveTokens int
	// KeepRecentTokens is about how much of the most recent context a
	// compaction keeps verbatim; what comes before is summarized.
	KeepRecentTokens int
}

// ForWindow returns s with its zero fields set for a model whose context
// window is contextWindow tokens (0 when unknown).
//
// pi's defaults (reserve 16,384, keep 20,000) assume a large window; on an
// 8k model they would compact before every request and keep everything.
// The defaults scale down instead:
//
//   - the reserve is a quarter of the window, at least 5,120 tokens (the
//     providers' 4,096-token clamp margin plus 1,024 tokens of answer) and
//     at most 16,384, so that a request checked below the threshold still
//     gets room to answer: 5,120 of 8,192 (compaction above 3,072 tokens
//     of context), 8,192 of 32,768, pi's 16,384 from 64k up;
//   - the kept context is a quarter of what lies below the threshold, at
//     most 20,000: 768 tokens on an 8k model, 6,144 on a 32k one, pi's
//     20,000 from about 100k up; another quarter is left for the summary
//     (see [SummaryMaxTokens]), so that a compacted context sits near
//     half the threshold.
//
// With an unknown window, pi's defaults apply (and [ShouldCompact] is
// never true).
func (s Settings) ForWindow(contextWindow int) Settings {
	if s.ReserveTokens <= 0 {
		s.ReserveTokens = DefaultReserveTokens
		if contextWindow > 0 {
			s.ReserveTokens = min(DefaultReserveTokens, max(contextWindow/4, minReserveTokens))
		}
	}
	if s.KeepRecentTokens <= 0 {
		s.KeepRecentTokens = DefaultKeepRecentTokens
		if below := contextWindow - s.ReserveTokens; contextWindow > 0 && below > 0 {
			s.KeepRecentTokens = min(DefaultKeepRecentTokens, max(below/4, 1))
		}
	}
	return s
}

// ShouldCompact reports whether a context of contextTokens exceeds the
// threshold of a model with contextWindow tokens: contextTokens >
// contextWindow - ReserveTokens, with s's zero fields defaulted for the
// window. An unknown window (0 or less) never compacts.
func ShouldCompact(contextTokens, contextWindow int, s Settings) bool {
	if contextWindow <= 0 {
		return false
	}
	return contextTokens > contextWindow-s.ForWindow(contextWindow).ReserveTokens
}

// SummaryMaxTokens is the output cap of a summary call for a model with
// contextWindow and maxTokens (either 0 when unknown). On a large window
// it is the model's output limit, as in pi; on a small one (where the
// kept context is below pi's 20,000) it is capped at a quarter of what
// lies below the threshold, at least 512 tokens, so that the summary
// leaves room for the kept messages and the next turns: 768 tokens on an
// 8k model.
func SummaryMaxTokens(contextWindow, maxTokens int, s Settings) int {
	if contextWindow <= 0 {
		return maxTokens
	}
	s = s.ForWindow(contextWindow)
	quarter := (contextWindow - s.ReserveTokens) / 4
	if maxTokens > 0 && quarter >= DefaultKeepRecentTokens {
		return maxTokens
	}
	limit := max(quarter, 512)
	if maxTokens > 0 {
		return min(maxTokens, limit)
	}
	return limit
}
