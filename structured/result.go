package structured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/pi-go/agentcore"
)

// The reasons a run gave no answer, wrapped by [*Error]; test with
// [errors.Is].
var (
	// ErrInvalidAnswer: the model's last answer failed validation (or
	// decoding) once more than [Options].Repairs allowed.
	ErrInvalidAnswer = errors.New("structured: the answer failed validation")
	// ErrNoAnswer: the run ended without a call of the final-answer tool,
	// the model having answered in prose once more than [Options].Nudges
	// allowed, or the run having ended for another reason.
	ErrNoAnswer = errors.New("structured: the model gave no answer")
)

// Error is the error of a run that ended without an accepted answer.
// Get it with [errors.As]; it wraps [ErrInvalidAnswer] or [ErrNoAnswer].
type Error struct {
	// Reason is [ErrInvalidAnswer] or [ErrNoAnswer].
	Reason error
	// Invalid is how many answers of the run failed validation.
	Invalid int
	// Arguments are the arguments of the last failed answer, as the model
	// sent them (a native answer's text, when it is JSON); nil when no
	// answer failed or a native answer was no JSON.
	Arguments json.RawMessage
	// Problem is the last failed answer's error result: the validator's
	// words the model read. Empty when no answer failed.
	Problem string
	// Last is the run's last assistant message (the prose, for
	// ErrNoAnswer); nil when the run had none.
	Last *agentcore.AssistantMessage
	// Messages are the messages the run added, the transcript of the
	// attempts: the Error's own copy of the slice (the messages are
	// shared, read-only).
	Messages []agentcore.Message
}

// Error says why, with the validator's words when an answer failed.
func (e *Error) Error() string {
	if e.Problem != "" {
		return fmt.Sprintf("%v after %d invalid answers: %s", e.Reason, e.Invalid, e.Problem)
	}
	return e.Reason.Error()
}

// Unwrap returns Reason.
func (e *Error) Unwrap() error { return e.Reason }

// Result returns the answer of a run from the messages it added (those
// [agentcore.LoopRun.Wait] returns, or the agent_end event's): the value of
// the last accepted call of the final-answer tool, from a live run or a
// decoded transcript. Without one it returns an [*Error] that tells why
// from the same messages. messages are read, not kept (the Error holds a
// copy of the slice).
func (a *Answer[T]) Result(messages []agentcore.Message) (T, error) {
	t := a.tally(messages)
	switch {
	case t.native != nil:
		return agentcore.DecodeArgs[T](t.native)
	case t.accepted != nil:
		return a.decode(t.accepted)
	}
	var zero T
	e := &Error{Reason: ErrNoAnswer, Invalid: t.invalid, Last: t.last, Messages: slices.Clone(messages), Problem: t.problem}
	switch {
	case t.invalidText != nil:
		if text := unfence(t.invalidText.Text()); json.Valid([]byte(text)) {
			e.Arguments = json.RawMessage(text)
		}
		if t.last == t.invalidText {
			e.Reason = ErrInvalidAnswer
		}
	case t.invalidCall != "":
		e.Arguments = a.arguments(messages, t.invalidCall)
		if t.last != nil && a.calledBy(t.last) {
			e.Reason = ErrInvalidAnswer
		}
	}
	return zero, e
}

// arguments returns the arguments of the call with ID id in messages.
func (a *Answer[T]) arguments(messages []agentcore.Message, id string) json.RawMessage {
	for _, m := range slices.Backward(messages) {
		if am, ok := m.(*agentcore.AssistantMessage); ok {
			for _, c := range am.ToolCalls() {
				if c.ID == id {
					return c.Arguments
				}
			}
		}
	}
	return nil
}

// Prompt runs text (and images) as a prompt on agent, which must have a
// among its layers ([agentcore.Options].Layers), asking for the answer
// ([Answer.Ask]), and returns the answer:
// [Answer.Result] of the messages the run added. A run that fails returns
// [agentcore.Agent.Prompt]'s error (a [*agentcore.RunError], [agentcore.ErrBusy], ...)
// as it is; a T the layer cannot use, the tool's validation error.
func (a *Answer[T]) Prompt(ctx context.Context, agent *agentcore.Agent, text string, images ...agentcore.ImageBlock) (T, error) {
	return a.run(agent, func() error { return agent.Prompt(a.Ask(ctx), text, images...) })
}

// PromptMessages is [Answer.Prompt] with messages as the prompt, as
// [agentcore.Agent.PromptMessages] takes them.
func (a *Answer[T]) PromptMessages(ctx context.Context, agent *agentcore.Agent, messages ...agentcore.Message) (T, error) {
	return a.run(agent, func() error { return agent.PromptMessages(a.Ask(ctx), messages...) })
}

// run starts a run with start and returns its answer. The run's messages
// are its agent_end event's: the first agent_end after start began, since
// a run that started earlier makes start fail with ErrBusy.
func (a *Answer[T]) run(agent *agentcore.Agent, start func() error) (T, error) {
	var zero T
	if a.err != nil {
		return zero, a.err
	}
	var (
		mu   sync.Mutex
		msgs []agentcore.Message
		seen bool
	)
	unsubscribe := agent.Subscribe(func(_ context.Context, ev agentcore.AgentEvent) {
		if end, ok := ev.(*agentcore.AgentEndEvent); ok {
			mu.Lock()
			if !seen {
				msgs, seen = end.Messages, true
			}
			mu.Unlock()
		}
	})
	defer unsubscribe()
	if err := start(); err != nil {
		return zero, err
	}
	mu.Lock()
	defer mu.Unlock()
	return a.Result(msgs)
}
