package agentcoretest

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/pi-go/agentcore"
)

// ErrNoResponse is the error of a request past the end of the script: the
// failed message's Err, and its text the message's ErrorMessage, so a
// run's error matches it with errors.Is.
var ErrNoResponse = errors.New("fake model: no scripted response") // the reference runner's text

// AbortedText is the errorMessage of an aborted response.
const AbortedText = "Request was aborted"

// Response is one scripted model response.
type Response struct {
	// Content is streamed block by block: text, thinking and tool calls.
	// Other blocks join the message without events. A pointer block
	// (&agentcore.TextBlock{...}) is streamed as its value; a nil one
	// makes the response an error wrapping [agentcore.ErrNilBlock].
	Content []agentcore.ContentBlock
	// StopReason defaults to "stop", or "toolUse" when Content holds a
	// tool call.
	StopReason agentcore.StopReason
	// ErrorMessage is the error text of an "error" or "aborted" response;
	// empty means Err's text, else "fake model error".
	ErrorMessage string
	// Err, optional, is the failed message's Err, what a real provider
	// puts there: an [*agentcore.ProviderError] with a status and a
	// Retry-After, say, to test a retry policy.
	Err error
	// Usage is reported on the final message.
	Usage agentcore.Usage
	// Chunks splits each text and thinking block into that many deltas
	// (at most one per character); zero means one.
	Chunks int
	// ChunkDelay is slept before every content event, honoring ctx.
	ChunkDelay time.Duration
	// Hang, after the content, waits for the request to be aborted.
	Hang bool
	// NoStart makes a failing response fail before its start event.
	NoStart bool
	// OnStart, optional, runs when the response starts streaming, before
	// any event, on the goroutine that consumes the stream; tests use it
	// to steer or abort at that moment. ctx is the request's.
	OnStart func(ctx context.Context)
}

// Call is one request the fake received.
type Call struct {
	// Index counts requests from 1.
	Index int
	// Model, Request and Options are what the stream function was given.
	// Request.Messages is the fake's record of the messages: equal to
	// those given, shared with the other calls' records, read-only.
	Model   agentcore.Model
	Request agentcore.Request
	Options agentcore.StreamOptions
}

// Fake is a scripted model. It is safe for concurrent use.
type Fake struct {
	mu         sync.Mutex
	responses  []Response
	respond    func(ctx context.Context, call Call) Response
	calls      []Call
	transcript []agentcore.Message // the messages of the requests, appended to
	last       []agentcore.Message // the caller's messages of the last request
}

// New returns a fake that answers requests with responses, in order. A
// request past the end fails with [ErrNoResponse] before its start event.
func New(responses ...Response) *Fake {
	return &Fake{responses: slices.Clone(responses)}
}

// NewFunc returns a fake that asks respond for each response. respond runs
// on the goroutine that consumes the stream; call is a copy it may keep.
func NewFunc(respond func(ctx context.Context, call Call) Response) *Fake {
	return &Fake{respond: respond}
}

// Append adds responses to the end of the script.
func (f *Fake) Append(responses ...Response) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.responses = append(f.responses, responses...)
}

// Calls returns the requests seen so far, in order.
func (f *Fake) Calls() []Call {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// CallCount returns how many requests the fake has seen.
func (f *Fake) CallCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

// Stream is the fake's [agentcore.StreamFn]: pass f.Stream. It records the
// request, then streams its response when the stream is ranged.
func (f *Fake) Stream(ctx context.Context, model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) agentcore.AssistantStream {
	call, resp, respond := f.record(model, req, opts)
	return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
		if respond != nil {
			resp = respond(ctx, call)
		}
		play(ctx, w, model, resp)
	})
}

// noResponse answers a request past the end of a script.
var noResponse = Response{StopReason: agentcore.StopError, Err: ErrNoResponse, NoStart: true}

// record appends the request to the calls and returns its record with its
// scripted response, or the function to ask for one.
func (f *Fake) record(model agentcore.Model, req agentcore.Request, opts agentcore.StreamOptions) (Call, Response, func(context.Context, Call) Response) {
	f.mu.Lock()
	defer f.mu.Unlock()
	req.Messages = f.share(req.Messages)
	call := Call{Index: len(f.calls) + 1, Model: model, Request: req, Options: opts}
	f.calls = append(f.calls, call)
	resp := noResponse
	if f.respond == nil && call.Index <= len(f.responses) {
		resp = f.responses[call.Index-1]
	}
	return call, resp, f.respond
}

// share returns a copy of msgs held in f.transcript, the backing array the
// records share, which is only ever appended to. Messages msgs has in
// common with the transcript are not copied again: a request that extends
// the previous one (a session's transcript growing) adds only its new
// messages. A request that departs from the transcript starts a new one.
// When msgs extends the last request's slice in the same backing array, as
// the requests of one run do, the messages that request had are not
// compared again: the caller does not change messages it has sent. It is
// called holding mu.
func (f *Fake) share(msgs []agentcore.Message) []agentcore.Message {
	if msgs == nil {
		return nil
	}
	common := 0
	if len(f.last) > 0 && len(msgs) >= len(f.last) && &msgs[0] == &f.last[0] {
		common = len(f.last)
	}
	f.last = msgs
	for common < min(len(msgs), len(f.transcript)) && same(msgs[common], f.transcript[common]) {
		common++
	}
	switch {
	case common == len(msgs):
	case common == len(f.transcript):
		f.transcript = append(f.transcript, msgs[common:]...)
	default:
		f.transcript = slices.Clone(msgs)
	}
	return f.transcript[:len(msgs):len(msgs)]
}

// same reports whether a and b are the same message. Only pointers are
// compared: comparing other values might panic.
func same(a, b agentcore.Message) bool {
	if a == nil || b == nil {
		return a == b
	}
	return reflect.TypeOf(a).Kind() == reflect.Pointer && a == b
}
