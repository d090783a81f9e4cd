package compaction

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// ErrSummaryFailed is wrapped by the error of a summary call whose answer
// cannot become a checkpoint: it failed, stopped at its token cap (the
// summary would be incomplete), called a tool, or said nothing.
var ErrSummaryFailed = errors.New("compaction: summary failed")

// SummaryRequest configures the summary calls of a compaction.
type SummaryRequest struct {
	// Model is the model that writes the summary.
	Model agentcore.Model
	// StreamFn calls it; nil fails with [agentcore.ErrNoStreamFn].
	StreamFn agentcore.StreamFn
	// StreamOptions are passed to each call, with CacheRetention "none"
	// (a one-off request), reasoning off and MaxTokens set.
	StreamOptions agentcore.StreamOptions
	// MaxTokens caps each summary's output; 0 means [SummaryMaxTokens]
	// of Model and Settings.
	MaxTokens int
	// Settings are the budgets MaxTokens defaults from.
	Settings Settings
	// Instructions, optional, tell the summary what to focus on (pi's
	// "/compact focus on X").
	Instructions string
	// ConvertToLLM maps the messages summarized to the standard roles
	// before they are written out; nil applies [ConvertMessages] and keeps
	// the standard roles. It runs on the calling goroutine.
	ConvertToLLM func(ctx context.Context, messages []agentcore.Message) ([]agentcore.Message, error)
	// Now is the clock that stamps the summary and the requests'
	// messages; nil means [time.Now]. A durable session passes its
	// workflow's clock, so that a replay gives the same summary.
	Now func() time.Time
}

// Summarize writes the summary of a prepared compaction with one model
// call, or two for a split span (the history, then the span's first part,
// joined), as pi's compact does. Each call sees the messages as a
// plain-text record (thinking left out, tool results cut at 2,000
// characters) and, when there is one, the previous summary to update. On
// a model with a known context window, the record is shortened (oldest
// entries left out, with a note) until the request leaves the summary its
// full output cap. The summary's Usage adds up the calls'; its text ends
// with the file lists in <read-files> and <modified-files> tags.
//
// A call whose answer cannot be a checkpoint is made once more, its usage
// counted too; a second such answer fails with an error wrapping
// [ErrSummaryFailed], except in two cases where this package goes past
// pi so that a small window still gets compacted: a second empty answer
// falls back to the record's latest entries, cut to the summary's cap
// and marked as such, and a second answer stopped at its token cap is
// kept, marked as cut. A summary longer than its cap (a provider that
// ignores max tokens) is cut to it, with a notice: by the estimate of 4
// characters a token scaled by the preparation's TokenScale, each call's
// text takes at most MaxTokens. A call the provider refuses as too large for the
// window (its tokenizer counts more than the estimate) is made again with
// half the record, up to three times. A cancelled ctx fails with ctx's
// error.
func Summarize(ctx context.Context, p *Preparation, req SummaryRequest) (*Summary, error) {
	if req.StreamFn == nil {
		return nil, agentcore.ErrNoStreamFn
	}
	if req.MaxTokens <= 0 {
		req.MaxTokens = SummaryMaxTokens(req.Model.ContextWindow, req.Model.MaxTokens, req.Settings)
	}
	previous := ""
	if p.Previous != nil {
		previous = p.Previous.Summary
	}
	var usage agentcore.Usage
	text := previous
	if len(p.History) > 0 || !p.Split() {
		task := firstPrompt
		if previous != "" {
			task = updatePrompt
		}
		var err error
		if text, err = req.call(ctx, p.History, previous, task, p.TokenScale, &usage); err != nil {
			return nil, err
		}
	}
	if p.Split() {
		prefix, err := req.call(ctx, p.TurnPrefix, "", turnPrefixPrompt, p.TokenScale, &usage)
		if err != nil {
			return nil, err
		}
		if text == "" {
			text = noHistory
		}
		text += splitHeading + prefix
	}
	s := &Summary{
		Summary: text + fileTags(p.ReadFiles, p.ModifiedFiles, req.fileChars()), TokensBefore: p.TokensBefore, Timestamp: p.stamp(req.now()),
		ReadFiles: p.ReadFiles, ModifiedFiles: p.ModifiedFiles, Usage: &usage,
	}
	return s, nil
}

// now reads the request's clock.
func (r *SummaryRequest) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// fileChars is the room of the file lists in a summary: unbounded on a
// large window (or an unknown one), a quarter of the summary's cap on a
// small one.
func (r *SummaryRequest) fileChars() int {
	if r.Model.ContextWindow <= 0 || r.MaxTokens <= 0 || r.MaxTokens >= DefaultKeepRecentTokens/4 {
		return 0
	}
	return r.MaxTokens * 7 / 8
}

// stamp is the timestamp of a new summary: now, or just after the latest
// message it precedes when that is later, so that the usage the kept
// assistant messages report (the context before the compaction) no
// longer counts in the estimate.
func (p *Preparation) stamp(now time.Time) int64 {
	ts := now.UnixMilli()
	for _, m := range p.Kept {
		ts = max(ts, timestamp(m)+1)
	}
	return ts
}

// timestamp is m's timestamp, 0 for a message of unknown type.
func timestamp(m agentcore.Message) int64 {
	if s, ok := m.(*Summary); ok {
		return s.Timestamp
	}
	return tokens.Timestamp(m)
}

// fileTags is the file lists appended to a summary. With maxChars > 0 (a
// small window), the lists are cut to about that many characters, the
// files left out counted.
func fileTags(read, modified []string, maxChars int) string {
	var b strings.Builder
	for _, list := range []struct {
		tag   string
		files []string
	}{{"read-files", read}, {"modified-files", modified}} {
		if len(list.files) == 0 {
			continue
		}
		shown := list.files
		if maxChars > 0 {
			shown = fitList(list.files, maxChars/2)
		}
		b.WriteString("\n\n<" + list.tag + ">\n" + strings.Join(shown, "\n"))
		if n := len(list.files) - len(shown); n > 0 {
			fmt.Fprintf(&b, "\n(%d more)", n)
		}
		b.WriteString("\n</" + list.tag + ">")
	}
	return b.String()
}

// fitList returns the first files of list that fit in maxChars.
func fitList(list []string, maxChars int) []string {
	used := 0
	for i, f := range list {
		used += utf8.RuneCountInString(f) + 1
		if used > maxChars {
			return list[:i]
		}
	}
	return list
}

// call makes one summary call of messages with task, and adds its usage
// to usage.
func (r *SummaryRequest) call(ctx context.Context, messages []agentcore.Message, previous, task string, scale float64, usage *agentcore.Usage) (string, error) {
	convert := r.ConvertToLLM
	if convert == nil {
		convert = func(ctx context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
			return agentcore.DefaultConvertToLLM(ctx, ConvertMessages(m))
		}
	}
	llm, err := convert(ctx, messages)
	if err != nil {
		return "", fmt.Errorf("compaction: convert messages: %w", err)
	}
	parts := serialize(llm, toolResultChars)
	budget := r.fit(parts, previous, task, scale)
	opts := r.StreamOptions
	opts.CacheRetention, opts.Reasoning, opts.MaxTokens = "none", agentcore.ThinkingOff, r.MaxTokens
	failures, shrinks := 0, 0
	for {
		msg, err := complete(ctx, r.StreamFn, r.Model, r.build(fitParts(parts, budget), previous, task), opts)
		text := ""
		if err == nil {
			addUsage(usage, msg.Usage)
			text, err = checkpointText(ctx, msg)
		}
		overflow := msg != nil && isContextOverflow(msg, 0)
		switch {
		case err == nil:
			return r.capText(text, scale), nil
		case ctx.Err() != nil:
			return "", err
		case overflow && budget > 0 && shrinks < maxShrinks:
			// The provider counts more than the estimate: send half.
			shrinks++
			budget /= 2
		case !overflow && failures+1 < summaryAttempts:
			failures++
		case errors.Is(err, errCapped) && text != "":
			return r.capText(text, scale) + cappedNotice, nil
		case errors.Is(err, errEmpty):
			return fallbackNotice + r.capText(fitParts(parts, budget), scale), nil
		default:
			return "", err
		}
	}
}

// Why an answer is not a checkpoint, where a second such answer is kept
// or replaced rather than failing the compaction.
var (
	errEmpty  = fmt.Errorf("%w: the summary is empty", ErrSummaryFailed)
	errCapped = fmt.Errorf("%w: the summary reached its token cap and is incomplete", ErrSummaryFailed)
)

// The notices of a summary this package kept or made in place of the
// model's.
const (
	cappedNotice   = "\n\n[The summary stopped at its length limit here.]"
	fallbackNotice = "[The summary model returned nothing; the latest entries of the conversation follow instead.]\n\n"
)

// capText cuts text to the summary's cap: MaxTokens at 4 characters a
// token, scaled down by scale; 0 (unknown) keeps it whole.
func (r *SummaryRequest) capText(text string, scale float64) string {
	if r.MaxTokens <= 0 {
		return text
	}
	return truncate(text, int(float64(r.MaxTokens*charsPerToken)/max(scale, 1)))
}

// maxShrinks is how many times a summary request the provider refused as
// too large is sent again with half its record.
const maxShrinks = 3

// summaryAttempts is how many times a summary call is made before its
// failure fails the compaction.
const summaryAttempts = 2

// fit returns the characters of the record a summary call can send: all
// of it, or on a model with a known window, less (the oldest parts left
// out) until the request leaves the full output cap, by the estimate the
// providers clamp with and by the estimate scaled by the preparation's
// TokenScale.
func (r *SummaryRequest) fit(parts []string, previous, task string, scale float64) int {
	budget := 0
	for _, p := range parts {
		budget += tokens.JSLen(p) + 2
	}
	if r.Model.ContextWindow <= 0 || r.MaxTokens <= 0 {
		return budget
	}
	scale = max(scale, 1)
	for range 8 {
		request := r.build(fitParts(parts, budget), previous, task)
		excess := float64(r.MaxTokens - clampMaxTokens(r.Model, request, r.MaxTokens))
		counted := math.Ceil(float64(EstimateContextTokens(request)) * scale)
		excess = max(excess, (counted+float64(r.MaxTokens+clampMargin-r.Model.ContextWindow))/scale)
		if excess <= 0 || budget == 0 {
			break
		}
		budget = max(0, budget-int(excess*3.5)-64)
	}
	return budget
}

// clampMargin is the margin the providers keep when they fit max tokens
// into a small window.
const clampMargin = 4096

// build is the request of a summary call: the system prompt, then one
// user message with the record, the previous summary and the task.
func (r *SummaryRequest) build(record, previous, task string) []agentcore.Message {
	var b strings.Builder
	b.WriteString("<conversation>\n" + record + "\n</conversation>\n\n")
	if previous != "" {
		b.WriteString("<previous-summary>\n" + previous + "\n</previous-summary>\n\n")
	}
	b.WriteString(task)
	if r.Instructions != "" {
		b.WriteString("\n\nFocus especially on: " + r.Instructions)
	}
	if r.MaxTokens > 0 && r.MaxTokens < 4096 {
		fmt.Fprintf(&b, "\n\nKeep the whole reply under %d words.", r.MaxTokens/2)
	}
	now := r.now().UnixMilli()
	return []agentcore.Message{
		&agentcore.SystemMessage{Content: agentcore.Text(systemPrompt), Timestamp: now},
		&agentcore.UserMessage{Content: agentcore.Blocks(agentcore.TextBlock{Text: b.String()}), Timestamp: now},
	}
}

// complete runs one request through fn and returns its final message. A
// stream that panics or ends without a final event is an error.
func complete(ctx context.Context, fn agentcore.StreamFn, model agentcore.Model, messages []agentcore.Message, opts agentcore.StreamOptions) (msg *agentcore.AssistantMessage, err error) {
	defer func() {
		if v := recover(); v != nil {
			msg, err = nil, fmt.Errorf("%w: %w: %v", ErrSummaryFailed, agentcore.ErrStreamPanic, v)
		}
	}()
	stream := fn(ctx, model, agentcore.Request{Messages: messages}, opts)
	if stream != nil {
		stream(func(ev agentcore.AssistantEvent) bool {
			switch ev := ev.(type) {
			case *agentcore.DoneEvent:
				msg = ev.Message
			case *agentcore.ErrorEvent:
				msg = ev.Message
			}
			return msg == nil
		})
	}
	if msg == nil {
		return nil, fmt.Errorf("%w: %w", ErrSummaryFailed, agentcore.ErrStreamIncomplete)
	}
	return msg, nil
}

// checkpointText is the summary text of msg, or why it cannot be one.
func checkpointText(ctx context.Context, msg *agentcore.AssistantMessage) (string, error) {
	switch {
	case msg.StopReason == agentcore.StopAborted && ctx.Err() != nil:
		return "", ctx.Err()
	case msg.StopReason.Failed():
		text := msg.ErrorMessage
		if text == "" {
			text = "unknown error"
		}
		return "", fmt.Errorf("%w: %s", ErrSummaryFailed, text)
	case msg.StopReason == agentcore.StopLength:
		return strings.TrimSpace(msg.Text()), errCapped
	case len(msg.ToolCalls()) > 0:
		return "", fmt.Errorf("%w: the model called a tool instead of summarizing", ErrSummaryFailed)
	}
	text := strings.TrimSpace(msg.Text())
	if text == "" {
		return "", errEmpty
	}
	return text, nil
}

// addUsage adds u's counts and cost to total.
func addUsage(total *agentcore.Usage, u agentcore.Usage) {
	total.Input += u.Input
	total.Output += u.Output
	total.CacheRead += u.CacheRead
	total.CacheWrite += u.CacheWrite
	total.TotalTokens += u.TotalTokens
	total.Cost.Input += u.Cost.Input
	total.Cost.Output += u.Cost.Output
	total.Cost.CacheRead += u.Cost.CacheRead
	total.Cost.CacheWrite += u.Cost.CacheWrite
	total.Cost.Total += u.Cost.Total
}
