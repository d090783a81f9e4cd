package agentcore

import (
	"context"
	"reflect"
)

// chainHooks composes hs, the layers' hooks in layer order followed by the
// program's, by the rules of [Setup.AddHooks]. A hook that only one of hs
// sets is that one itself.
func chainHooks(hs []Hooks) Hooks {
	if len(hs) == 1 {
		return hs[0]
	}
	return Hooks{
		ConvertToLLM:     chainConvert(hs),
		TransformContext: pipeline(collect(hs, func(h Hooks) func(context.Context, []Message) ([]Message, error) { return h.TransformContext })),
		GetAPIKey:        chainAPIKey(collect(hs, func(h Hooks) func(context.Context, string) (string, error) { return h.GetAPIKey })),
		PrepareRequest:   chainPrepareRequest(collect(hs, func(h Hooks) func(context.Context, RequestContext) (*RequestUpdate, error) { return h.PrepareRequest })),
		PrepareNextTurn:  chainPrepareNextTurn(collect(hs, func(h Hooks) func(context.Context, TurnContext) (*TurnUpdate, error) { return h.PrepareNextTurn })),
		FinishTurn:       chainFinishTurn(collect(hs, func(h Hooks) func(context.Context, TurnContext) (TurnDecision, error) { return h.FinishTurn })),
		BeforeToolCall: chainBeforeToolCall(collect(hs, func(h Hooks) func(context.Context, BeforeToolCallContext) (*BeforeToolCallResult, error) {
			return h.BeforeToolCall
		})),
		AfterToolCall: chainAfterToolCall(collect(hs, func(h Hooks) func(context.Context, AfterToolCallContext) (*AfterToolCallResult, error) {
			return h.AfterToolCall
		})),
	}
}

// collect returns the non-nil hooks field picks from hs, in order.
func collect[F any](hs []Hooks, field func(Hooks) F) []F {
	var out []F
	for _, h := range hs {
		// F is always a func type, which only reflect compares to nil.
		if f := field(h); !reflect.ValueOf(&f).Elem().IsNil() {
			out = append(out, f)
		}
	}
	return out
}

// chainConvert is the ConvertToLLM pipeline: the layers' converters, then
// the program's or the default. Without a layer's converter it is the
// program's hook unchanged (nil keeps the loop's default).
func chainConvert(hs []Hooks) func(context.Context, []Message) ([]Message, error) {
	layers := collect(hs[:len(hs)-1], func(h Hooks) func(context.Context, []Message) ([]Message, error) { return h.ConvertToLLM })
	last := hs[len(hs)-1].ConvertToLLM
	if len(layers) == 0 {
		return last
	}
	if last == nil {
		last = DefaultConvertToLLM
	}
	return pipeline(append(layers, last))
}

// pipeline feeds each function the previous one's output.
func pipeline(fns []func(context.Context, []Message) ([]Message, error)) func(context.Context, []Message) ([]Message, error) {
	switch len(fns) {
	case 0:
		return nil
	case 1:
		return fns[0]
	}
	return func(ctx context.Context, messages []Message) ([]Message, error) {
		var err error
		for _, f := range fns {
			if messages, err = f(ctx, messages); err != nil {
				return nil, err
			}
		}
		return messages, nil
	}
}

func chainAPIKey(fns []func(context.Context, string) (string, error)) func(context.Context, string) (string, error) {
	if len(fns) <= 1 {
		return first(fns)
	}
	return func(ctx context.Context, provider string) (string, error) {
		for _, f := range fns {
			if key, err := f(ctx, provider); err != nil || key != "" {
				return key, err
			}
		}
		return "", nil
	}
}

func chainPrepareRequest(fns []func(context.Context, RequestContext) (*RequestUpdate, error)) func(context.Context, RequestContext) (*RequestUpdate, error) {
	if len(fns) <= 1 {
		return first(fns)
	}
	return func(ctx context.Context, req RequestContext) (*RequestUpdate, error) {
		var merged *RequestUpdate
		for _, f := range fns {
			u, err := f(ctx, req)
			if err != nil {
				return nil, err
			}
			if u == nil {
				continue
			}
			if merged == nil {
				merged = &RequestUpdate{}
			}
			if u.Context != nil {
				merged.Context, req.Context = u.Context, *u.Context
			}
			if u.Model != nil {
				merged.Model, req.Model = u.Model, *u.Model
			}
			if u.ThinkingLevel != "" {
				merged.ThinkingLevel, req.ThinkingLevel = u.ThinkingLevel, u.ThinkingLevel
			}
		}
		return merged, nil
	}
}

func chainPrepareNextTurn(fns []func(context.Context, TurnContext) (*TurnUpdate, error)) func(context.Context, TurnContext) (*TurnUpdate, error) {
	if len(fns) <= 1 {
		return first(fns)
	}
	return func(ctx context.Context, turn TurnContext) (*TurnUpdate, error) {
		var merged *TurnUpdate
		for _, f := range fns {
			u, err := f(ctx, turn)
			if err != nil {
				return nil, err
			}
			if u == nil {
				continue
			}
			if merged == nil {
				merged = &TurnUpdate{}
			}
			if u.Context != nil {
				merged.Context, turn.Context = u.Context, *u.Context
			}
			merged.Messages = append(merged.Messages, u.Messages...)
			if u.Model != nil {
				merged.Model = u.Model
			}
			if u.ThinkingLevel != "" {
				merged.ThinkingLevel = u.ThinkingLevel
			}
		}
		return merged, nil
	}
}

func chainFinishTurn(fns []func(context.Context, TurnContext) (TurnDecision, error)) func(context.Context, TurnContext) (TurnDecision, error) {
	if len(fns) <= 1 {
		return first(fns)
	}
	return func(ctx context.Context, turn TurnContext) (TurnDecision, error) {
		decision := TurnDefault
		for _, f := range fns {
			d, err := f(ctx, turn)
			if err != nil {
				return d, err
			}
			if d == TurnEnd || (d == TurnContinue && decision == TurnDefault) {
				decision = d
			}
		}
		return decision, nil
	}
}

func chainBeforeToolCall(fns []func(context.Context, BeforeToolCallContext) (*BeforeToolCallResult, error)) func(context.Context, BeforeToolCallContext) (*BeforeToolCallResult, error) {
	if len(fns) <= 1 {
		return first(fns)
	}
	return func(ctx context.Context, call BeforeToolCallContext) (*BeforeToolCallResult, error) {
		for _, f := range fns {
			if res, err := f(ctx, call); err != nil || (res != nil && res.Block) {
				return res, err
			}
		}
		return nil, nil
	}
}

func chainAfterToolCall(fns []func(context.Context, AfterToolCallContext) (*AfterToolCallResult, error)) func(context.Context, AfterToolCallContext) (*AfterToolCallResult, error) {
	if len(fns) <= 1 {
		return first(fns)
	}
	return func(ctx context.Context, call AfterToolCallContext) (*AfterToolCallResult, error) {
		changed := false
		for _, f := range fns {
			res, err := f(ctx, call)
			if err != nil {
				return nil, err
			}
			if res != nil {
				changed = true
				call.IsError = res.apply(&call.Result, call.IsError)
			}
		}
		if !changed {
			return nil, nil
		}
		return overrideWith(call.Result, call.IsError), nil
	}
}

// first returns the only element of fns, or nil.
func first[F any](fns []F) F {
	if len(fns) == 0 {
		var zero F
		return zero
	}
	return fns[0]
}

// overrideWith is the override that turns a result into r, failed or not
// as isError: applied after the hooks' own, it gives what applying each of
// them in turn gave.
func overrideWith(r ToolResult, isError bool) *AfterToolCallResult {
	out := &AfterToolCallResult{Content: r.Content, Details: r.Details, StructuredContent: r.StructuredContent, Usage: r.Usage, IsError: &isError}
	if r.explicit&explicitTerminate != 0 {
		out.Terminate = &r.Terminate
	}
	return out
}

// apply overrides res field by field and returns whether the call counts
// as failed, given isError so far.
func (r *AfterToolCallResult) apply(res *ToolResult, isError bool) bool {
	if r.StructuredContent != nil || r.Content != nil {
		res.StructuredContent = r.StructuredContent
	}
	if r.Content != nil {
		res.Content = r.Content
	}
	if r.Details != nil {
		res.Details = r.Details
	}
	if r.Usage != nil {
		res.Usage = r.Usage
	}
	if r.Terminate != nil {
		res.Terminate = *r.Terminate
		res.explicit |= explicitTerminate
	}
	if r.IsError != nil {
		return *r.IsError
	}
	return isError
}
