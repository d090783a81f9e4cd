package temporal

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/pi-go/agentcore"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
)

// activities are the model and tool activities of a session type.
type activities struct {
	opts *Options
}

// model makes one model request and returns its final message, with the
// message's Err (see [response]). A failed request is a message
// (stopReason error), not an activity failure: the loop decides what
// follows. The activity fails only when it is cancelled
// or its worker is lost; it is then retried, since a model request has no
// effect to repeat.
func (a *activities) model(ctx context.Context, in modelInput) (response, error) {
	opts := a.opts.StreamOptions
	opts.Reasoning = in.Reasoning
	if in.MaxTokens > 0 {
		opts.MaxTokens = in.MaxTokens
	}
	if h := a.opts.GetAPIKey; h != nil {
		key, err := h(ctx, in.Model.Provider)
		if err != nil {
			return response{}, temporal.NewNonRetryableApplicationError("get API key: "+err.Error(), "GetAPIKey", err)
		}
		if key != "" {
			opts.APIKey = key
		}
	}
	if err := a.opts.layerErr; err != nil {
		return response{}, temporal.NewNonRetryableApplicationError(err.Error(), "InvalidLayer", err)
	}
	fn := a.opts.StreamFn
	if fn == nil {
		return response{}, temporal.NewNonRetryableApplicationError(agentcore.ErrNoStreamFn.Error(), "NoStreamFn", nil)
	}
	ctx, stop := heartbeat(ctx, nil)
	defer stop()
	info := activity.GetInfo(ctx)
	live := StreamEvent{SessionID: info.WorkflowExecution.ID, Run: in.Run, Request: in.Request, Attempt: int(info.Attempt)}
	var final *agentcore.AssistantMessage
	var failed error
	stream := guardStream(ctx, fn, in, opts, &failed)
	if stream != nil {
		failed = guardCall(func() {
			stream(func(ev agentcore.AssistantEvent) bool {
				if on := a.opts.OnStream; on != nil && ev != nil && !reflect.ValueOf(ev).IsNil() {
					live.Event = liveCopy(ev)
					publish(ctx, on, live)
				}
				switch ev := ev.(type) {
				case *agentcore.DoneEvent:
					final = ev.Message
					return false
				case *agentcore.ErrorEvent:
					final = ev.Message
					return false
				}
				return true
			})
		})
	}
	if ctx.Err() != nil {
		return response{}, cancelled(ctx)
	}
	if final == nil {
		if failed == nil {
			failed = agentcore.ErrStreamIncomplete
		}
		final = &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, API: in.Model.API, Provider: in.Model.Provider,
			Model: in.Model.ID, StopReason: agentcore.StopError, ErrorMessage: failed.Error(), Err: failed, Timestamp: time.Now().UnixMilli()}
	}
	if limit := a.opts.payloadLimit(); limit > 0 {
		if size := encodedSize(response{final}); size > limit {
			// The server would refuse the result, and retry the request
			// for ever.
			final = &agentcore.AssistantMessage{Content: []agentcore.ContentBlock{}, API: in.Model.API, Provider: in.Model.Provider,
				Model: in.Model.ID, StopReason: agentcore.StopError, ErrorMessage: tooLargeResponse(size, limit), Timestamp: final.Timestamp}
		}
	}
	return response{final}, nil
}

// guardStream calls fn, turning a panic into *failed.
func guardStream(ctx context.Context, fn agentcore.StreamFn, in modelInput, opts agentcore.StreamOptions, failed *error) (s agentcore.AssistantStream) {
	*failed = guardCall(func() { s = fn(ctx, in.Model, agentcore.Request{Messages: in.Messages}, opts) })
	return s
}

// guardCall runs f, turning a panic into an error.
func guardCall(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	f()
	return nil
}

// UnknownOutcomeText is the error result of a call that was interrupted
// with its worker and whose tool's Replay policy is not
// [agentcore.ReplaySafe]: the call may or may not have taken effect.
func UnknownOutcomeText(name string) string {
	return `Tool call "` + name + `" was interrupted and its outcome is unknown: it may or may not have taken effect, and it was not run again because the tool is not safe to replay. Check its effect before calling it again.`
}

// errNoTool is the error result of a call of a tool the worker lacks.
var errNoTool = errors.New("tool not registered on this worker")

// tool executes one validated call. A call whose earlier attempt was lost
// (the attempt number is above 1: this activity fails only when its worker
// is lost or it is cancelled) runs again only if its tool's Replay is
// [agentcore.ReplaySafe]; otherwise it answers [UnknownOutcomeText].
func (a *activities) tool(ctx context.Context, in toolInput) (toolOutput, error) {
	var tool *agentcore.Tool
	for i := range a.opts.Tools {
		if a.opts.Tools[i].Name == in.Name {
			tool = &a.opts.Tools[i]
		}
	}
	if tool == nil || tool.Execute == nil {
		return toolOutput{Err: fmt.Sprintf("Tool %s: %v", in.Name, errNoTool)}, nil
	}
	if activity.GetInfo(ctx).Attempt > 1 && tool.Replay != agentcore.ReplaySafe {
		return toolOutput{Result: agentcore.TextResult(UnknownOutcomeText(in.Name)), IsError: true, Unknown: true}, nil
	}
	ctx, p := withProgress(ctx)
	ctx, stop := heartbeat(ctx, p)
	defer stop()
	start := time.Now()
	var res agentcore.ToolResult
	var err error
	if perr := guardCall(func() {
		res, err = tool.Execute(ctx, in.CallID, in.Args, func(agentcore.ToolResult) {})
	}); perr != nil {
		err = perr
	}
	out := toolOutput{DurationMs: time.Since(start).Round(time.Millisecond).Milliseconds()}
	if err != nil && ctx.Err() != nil && !aborted(ctx) {
		// The worker is stopping: the next attempt records the unknown
		// outcome. A tool cancelled by an abort is recorded with what it
		// returned, as by the Agent: its error, or its result when it
		// finished its work despite the cancellation.
		return out, ctx.Err()
	}
	if err != nil {
		out.Err = err.Error()
		return out, nil
	}
	out.Result, out.IsError = res, res.IsError
	if limit := a.opts.payloadLimit(); limit > 0 {
		if size := encodedSize(out); size > limit {
			// The server would refuse the result, and run the call again.
			d := out.DurationMs
			out = tooLargeOutput(size, limit)
			out.DurationMs = d
		}
	}
	return out, nil
}
