package compaction

import (
	"fmt"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// minResultTokens is the least of a tool result that [Preparation.FitKept]
// keeps, so that the model still sees how the result began.
const minResultTokens = 64

// FitKept cuts the text of the largest tool results among the kept
// messages until the kept part, estimated at 4 characters a token scaled
// by TokenScale, is within maxTokens, and returns how many it cut. It
// goes past pi, which keeps the recent part whole: on a small window one
// tool call and its results can by themselves be above the threshold,
// and nothing a summary replaces would bring the context under it.
//
// Each result cut keeps its first characters, at least about 64 tokens,
// and ends with a notice the model reads, saying how much was left out;
// its images are left out too. Results are cut evenly, the largest
// first. The cut messages are new; the transcript's are not modified.
// Other messages are never cut, so the kept part can stay above
// maxTokens.
func (p *Preparation) FitKept(maxTokens int) int {
	var n int
	p.Kept, n = fitResults(p.Kept, maxTokens, p.TokenScale)
	return n
}

// fitResults returns messages with their largest tool results cut so that
// the messages are estimated within maxTokens at scale, and how many were
// cut; messages itself when none is.
func fitResults(messages []agentcore.Message, maxTokens int, scale float64) ([]agentcore.Message, int) {
	scale = max(scale, 1)
	size := func(m agentcore.Message) int { return int(float64(estimateMessage(m)) * scale) }
	var results []int
	total, resultsTotal := 0, 0
	for i, m := range messages {
		n := size(m)
		total += n
		if _, ok := m.(*agentcore.ToolResultMessage); ok {
			results = append(results, i)
			resultsTotal += n
		}
	}
	if total <= maxTokens || len(results) == 0 {
		return messages, 0
	}
	allowed := maxTokens - (total - resultsTotal)
	// The largest level every result may keep within allowed.
	level := func(l int) int {
		sum := 0
		for _, i := range results {
			sum += min(size(messages[i]), l)
		}
		return sum
	}
	lo, hi := minResultTokens, 0
	for _, i := range results {
		hi = max(hi, size(messages[i]))
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if level(mid) <= allowed {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	out, cut := slices.Clone(messages), 0
	for _, i := range results {
		if size(messages[i]) > lo {
			out[i] = cutResult(messages[i].(*agentcore.ToolResultMessage), int(float64(lo*charsPerToken)/scale))
			cut++
		}
	}
	return slices.Clip(out), cut
}

// noticeDigits is room for the count written into a cut result's notice,
// and for the rounding up of the estimate.
const noticeDigits = 12

// cutResult is a copy of m whose content is the first of its text, within
// about chars characters, followed by a notice of what was left out.
func cutResult(m *agentcore.ToolResultMessage, chars int) *agentcore.ToolResultMessage {
	text, images := joinText(m.Content), 0
	for _, b := range m.Content {
		if _, ok := b.(agentcore.TextBlock); !ok {
			images++
		}
	}
	notice := "\n\n[This tool result was cut to fit the context window: %d of its characters"
	if images > 0 {
		notice += fmt.Sprintf(" and %d images", images)
	}
	notice += " were left out. Call the tool again with a narrower request if you need them.]"
	head := truncateQuiet(text, max(0, chars-len(notice)-noticeDigits))
	c := *m
	c.Content = []agentcore.ContentBlock{agentcore.TextBlock{Text: head + fmt.Sprintf(notice, jsLen(text)-jsLen(head))}}
	return &c
}

// fixedTokens is the estimated size of the fixed part of llm, the current
// system prompt and tool declarations, scaled by the last usage's token
// scale.
func fixedTokens(llm []agentcore.Message) int {
	chars := jsLen(agentcore.SystemPromptText(agentcore.CurrentSystemMessage(llm)))
	if tools := agentcore.CurrentTools(llm); len(tools) > 0 {
		chars += tokens.JSONLen(tools)
	}
	return int(float64(ofChars(chars)) * tokenScale(llm))
}
