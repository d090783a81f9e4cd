package compaction

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/tokens"
)

// above reports whether messages are above model's threshold and worth
// compacting. The context is estimated as [EstimateContextTokens] does,
// with the messages after the last usage scaled by its token scale (see
// [Prepare]; pi does not scale), so that a prompt on a model whose
// tokenizer counts more than the estimate is checked by what it will
// count. A fixed part above the threshold by itself is reported with a
// [FixedPartEvent] instead.
func (ss *session) above(ctx context.Context, messages []agentcore.Message, model agentcore.Model) bool {
	model = ss.window(model)
	llm := ss.llmView(ctx, messages)
	if !ShouldCompact(scaledContextTokens(llm), model.ContextWindow, ss.c.opts.Settings) {
		return false
	}
	fixed := fixedTokens(llm)
	threshold := model.ContextWindow - ss.c.opts.Settings.ForWindow(model.ContextWindow).ReserveTokens
	if fixed < threshold {
		return true
	}
	ss.mu.Lock()
	warned := ss.fixedWas == fixed
	ss.fixedWas = fixed
	ss.mu.Unlock()
	if !warned {
		ss.emit(ctx, &FixedPartEvent{FixedTokens: fixed, Threshold: threshold})
	}
	return false
}

// scaledContextTokens is the last usage of llm plus the estimate of the
// messages after it scaled by the usage's token scale.
func scaledContextTokens(llm []agentcore.Message) int {
	last, used := tokens.LastUsage(llm)
	trailing := 0
	for _, m := range llm[last+1:] {
		trailing += estimateMessage(m)
	}
	scaled := math.Ceil(float64(trailing) * tokenScale(llm))
	return int(min(tokens.Sum(int64(used), int64(min(scaled, math.MaxInt64/2))), math.MaxInt))
}

// window is model with the window of Options.ContextWindow, when set.
func (ss *session) window(model agentcore.Model) agentcore.Model {
	if w := ss.c.opts.ContextWindow; w > 0 {
		model.ContextWindow = w
	}
	return model
}

// compact compacts messages for reason, announcing it to OnEvent, and
// returns the compacted transcript. A transcript with nothing to
// summarize fails with ErrNothingToCompact and no events.
func (ss *session) compact(ctx context.Context, reason Reason, messages []agentcore.Message, model agentcore.Model, instructions string, willRetry bool) ([]agentcore.Message, *Result, error) {
	model = ss.window(model)
	s := ss.c.opts.Settings.ForWindow(model.ContextWindow)
	prep := PrepareOptions{KeepRecentTokens: s.KeepRecentTokens, Files: ss.c.opts.Files, ConvertToLLM: ss.c.opts.ConvertToLLM}
	p, err := PrepareWith(ctx, messages, prep)
	if errors.Is(err, ErrNothingToCompact) && reason != ReasonManual {
		// Above the threshold with the whole recent part within the kept
		// budget (a summary and fixed prompt that take most of a small
		// window): keep only the last message and its tool results.
		prep.KeepRecentTokens = 0
		p, err = PrepareWith(ctx, messages, prep)
	}
	threshold := model.ContextWindow - s.ReserveTokens
	if errors.Is(err, ErrNothingToCompact) && reason != ReasonManual && model.ContextWindow > 0 {
		// Nothing to summarize (one call and its results since the last
		// summary): cut the large results instead.
		return ss.fitOnly(ctx, reason, messages, threshold, willRetry)
	}
	if err != nil {
		return nil, nil, err
	}
	ss.emit(ctx, &StartEvent{Reason: reason, TokensBefore: p.TokensBefore, WillRetry: willRetry})
	req, err := ss.summaryRequest(model, s, instructions)
	var summary *Summary
	if err == nil {
		summary, err = Summarize(ctx, p, req)
	}
	if err != nil {
		ss.emit(ctx, &EndEvent{Reason: reason, Err: err})
		return nil, nil, err
	}
	cut := 0
	if model.ContextWindow > 0 {
		room := threshold - EstimateContextTokens([]agentcore.Message{summary.UserMessage()})
		if p.Head != nil {
			room -= estimateMessage(p.Head)
		}
		cut = p.FitKept(max(room, 0))
	}
	out := p.Messages(summary)
	res := &Result{
		Summary: summary, TokensBefore: p.TokensBefore, TokensAfter: EstimateContextTokens(ss.llmView(ctx, out)),
		Summarized: len(p.History) + len(p.TurnPrefix), Kept: len(p.Kept), Split: p.Split(), ToolResultsCut: cut,
	}
	ss.emit(ctx, &EndEvent{Reason: reason, Result: res, WillRetry: willRetry})
	return out, res, nil
}

// fitOnly cuts the large tool results of messages so that they fit
// threshold, when no summary can help.
func (ss *session) fitOnly(ctx context.Context, reason Reason, messages []agentcore.Message, threshold int, willRetry bool) ([]agentcore.Message, *Result, error) {
	llm := ss.llmView(ctx, messages)
	before := EstimateContextTokens(llm)
	out, cut := fitResults(messages, threshold, tokenScale(llm))
	if cut == 0 {
		return nil, nil, ErrNothingToCompact
	}
	ss.emit(ctx, &StartEvent{Reason: reason, TokensBefore: before, WillRetry: willRetry})
	res := &Result{TokensBefore: before, TokensAfter: EstimateContextTokens(ss.llmView(ctx, out)), Kept: len(out), ToolResultsCut: cut}
	ss.emit(ctx, &EndEvent{Reason: reason, Result: res, WillRetry: willRetry})
	return out, res, nil
}

// summaryRequest configures the summary calls of a compaction with model.
func (ss *session) summaryRequest(model agentcore.Model, s Settings, instructions string) (SummaryRequest, error) {
	o := ss.c.opts
	req := SummaryRequest{
		Model: model, StreamFn: o.StreamFn, Settings: s, Instructions: instructions,
		ConvertToLLM: func(ctx context.Context, m []agentcore.Message) ([]agentcore.Message, error) {
			return agentcore.DefaultConvertToLLM(ctx, ss.llmView(ctx, m))
		},
	}
	if o.Model != nil {
		req.Model = *o.Model
		if req.Model.ContextWindow <= 0 {
			req.Model.ContextWindow = model.ContextWindow
		}
	}
	ss.mu.Lock()
	if req.StreamFn == nil {
		req.StreamFn = ss.next
	}
	if ss.opts != nil {
		req.StreamOptions = *ss.opts
	} else if ss.agent != nil {
		req.StreamOptions = ss.agent.StreamOptions()
	}
	ss.mu.Unlock()
	if req.StreamFn == nil {
		return req, fmt.Errorf("%w: the compaction before the first run needs compaction.Options.StreamFn", agentcore.ErrNoStreamFn)
	}
	return req, nil
}

// llmView is messages as the model would see them, for the estimate:
// summaries mapped, then Options.ConvertToLLM.
func (ss *session) llmView(ctx context.Context, messages []agentcore.Message) []agentcore.Message {
	llm := ConvertMessages(messages)
	if ss.c.opts.ConvertToLLM != nil {
		if out, err := ss.c.opts.ConvertToLLM(ctx, llm); err == nil {
			return out
		}
	}
	return slices.Clip(llm)
}

func (ss *session) emit(ctx context.Context, ev Event) {
	if ss.c.opts.OnEvent != nil {
		ss.c.opts.OnEvent(ctx, ev)
	}
}
