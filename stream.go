package agentcore

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"
)

// StreamFn calls a model. It is the one connection between the loop and a
// provider; pi-ai's streamSimple has this shape.
//
// Contract: a StreamFn never panics and never reports a request failure
// other than in the stream: a failure is a final [ErrorEvent] whose message
// has stopReason "error" (or "aborted" when ctx was cancelled) and an
// ErrorMessage. ctx is the run's abort signal. req and opts are the call's
// to read: req.Messages, and the maps and JSON of opts, are shared with the
// loop and its later requests, so the stream function must not modify
// them; it may keep them.
type StreamFn func(ctx context.Context, model Model, req Request, opts StreamOptions) AssistantStream

// Request is what one model call is given: the normalized transcript. The
// system prompt and the tool declarations travel in its system messages
// (see [CurrentSystemMessage] and [CollapseSystemMessages]), never beside it.
type Request struct {
	// Messages are the messages the model sees, after [Hooks.TransformContext]
	// and [Hooks.ConvertToLLM]. Shared with the loop: read-only.
	Messages []Message
}

// DefaultMaxRetryDelay is the cap on provider-requested retry delays when
// [StreamOptions].MaxRetryDelay is zero, as in pi-ai.
const DefaultMaxRetryDelay = time.Minute

// StreamOptions are the per-request options passed to a [StreamFn].
type StreamOptions struct {
	// APIKey is the key for this request: [Hooks.GetAPIKey]'s answer, else
	// the configured key.
	APIKey string
	// Reasoning is the requested thinking level; empty means off.
	Reasoning ThinkingLevel
	// SessionID identifies the conversation to cache-aware providers.
	SessionID string
	// Temperature, when not nil, is the sampling temperature.
	Temperature *float64
	// MaxTokens, when positive, caps the response's output tokens.
	MaxTokens int
	// Headers are extra HTTP headers for the provider request, over the
	// provider's own; an empty value removes the header of that name, the
	// provider's and the identity's included (pi-ai's null).
	Headers map[string]string
	// ThinkingBudgets maps levels to token budgets for providers that take
	// budgets instead of levels.
	ThinkingBudgets map[ThinkingLevel]int
	// Transport is a provider transport preference such as "sse"; empty
	// means the provider's default.
	Transport string
	// MaxRetryDelay caps provider-requested retry delays: a refusal whose
	// server asks for a longer wait (Retry-After) fails at once instead of
	// being retried. Zero means [DefaultMaxRetryDelay], pi-ai's default;
	// a negative value means no cap.
	MaxRetryDelay time.Duration
	// SamplingParams are provider sampling parameters (top_p and the like)
	// as a JSON object; nil means none.
	SamplingParams json.RawMessage
	// CacheRetention is pi's prompt-cache preference ("none", "short",
	// "long"); empty means the provider's default.
	CacheRetention string
	// DisableContinuation asks providers with server-side conversation state
	// not to continue from it.
	DisableContinuation bool
	// Metadata is request metadata for the provider, a JSON object; nil
	// means none.
	Metadata json.RawMessage
	// ResponseFormat, when not nil, asks for the answer as JSON text that
	// matches a schema, by the provider's native structured-output mode:
	// response_format json_schema (openai-completions), text.format
	// (openai-responses, azure-openai-responses), responseMimeType and
	// responseJsonSchema (google-generative-ai, google-vertex),
	// output_config.format (anthropic-messages). The other providers
	// (bedrock, mistral, the echo provider) and [StreamProxy] ignore it.
	// The model may still call tools; its final text is the JSON. The
	// schema is read, not kept.
	ResponseFormat *ResponseFormat

	// Identity is how the request identifies the program: the User-Agent
	// and provider attribution headers, below every other header. The zero
	// value sends this library's User-Agent and no attribution; see
	// [Identity].
	Identity Identity
	// Timeout bounds the wait for each HTTP response's status and headers
	// (not the streaming of its body, which ctx bounds), as pi-ai's
	// timeoutMs does for its SDK clients. A request that times out fails
	// with "Request timed out." and is retryable. Zero means no bound but
	// ctx (pi-ai's SDKs default to 10 minutes).
	Timeout time.Duration
	// MaxRetries is how many times a provider that retries sends a request
	// again after a retryable refusal (408, 409, 429, 5xx, or the header
	// x-should-retry: true) or a request that got no response, before any
	// of the body is streamed. It waits retry-after-ms or Retry-After when
	// the server says (failing at once when that exceeds a non-zero
	// MaxRetryDelay), else 0.5s doubling up to 8s, less up to a quarter of
	// jitter; ctx interrupts the wait. Zero, the default, sends once: the
	// caller of the loop owns retries (see [IsRetryable]). (A request that
	// met a keep-alive connection the server had dropped, before any
	// answer, is sent again on a fresh one whatever MaxRetries says; the
	// providers' docs say so.)
	MaxRetries int

	// OnPayload, when not nil, sees the provider request body just before
	// it is sent, and may replace it. It is called once per request body a
	// provider builds (retries resend the same body), on the goroutine
	// ranging over the stream (the run's goroutine under an [Agent]), with
	// the stream's ctx and the request's model. payload is the JSON body;
	// the hook may keep it but must not modify it. A nil return sends
	// payload; a non-nil one is sent instead (providers that must stream
	// set their "stream" field back to true) and belongs to the provider.
	// An error, or a replacement that is not a JSON object, ends the
	// response unsent: an error message whose ErrorMessage is the error's
	// text (aborted when ctx is done).
	OnPayload func(ctx context.Context, model Model, payload json.RawMessage) (json.RawMessage, error)
	// OnResponse, when not nil, is called as each HTTP response's status
	// and headers arrive, before its body is read: for a refusal (a 429
	// with its rate-limit headers) before the error message is built, and
	// for each attempt when the provider retries. It runs on the goroutine
	// ranging over the stream, with its ctx; resp is the hook's to keep.
	// An error ends the response, its body unread, as an error message with
	// the error's text. pi-ai calls onResponse only for the response it
	// streams; seeing refusals too is this port's addition.
	OnResponse func(ctx context.Context, model Model, resp ProviderResponse) error
	// OnProviderStreamEvent, when not nil, observes each event of the
	// provider's stream once it is parsed and before it becomes assistant
	// events: data is the event's JSON as the provider sent it. It runs on
	// the goroutine ranging over the stream, with its ctx; data is valid
	// only during the call and must not be modified (copy it to keep it).
	// An error ends the response as an error message with the error's text.
	// Providers that call it say so; [StreamProxy] does not, as pi's
	// streamProxy does not forward it.
	OnProviderStreamEvent func(ctx context.Context, model Model, data json.RawMessage) error
}

// ProviderResponse is the status and headers of a provider's HTTP
// response, as [StreamOptions.OnResponse] sees them.
type ProviderResponse struct {
	// StatusCode is the HTTP status, such as 200 or 429.
	StatusCode int
	// Header is the response's header, the receiver's own copy.
	Header http.Header
}

var defaultStream struct {
	sync.RWMutex
	fn StreamFn
}

// SetDefaultStreamFn installs the process-wide stream function used when
// neither [Options.StreamFn] nor [LoopConfig.StreamFn] is set; nil removes
// it. It is the package's only global state.
func SetDefaultStreamFn(fn StreamFn) {
	defaultStream.Lock()
	defaultStream.fn = fn
	defaultStream.Unlock()
}

// ErrNoStreamFn is reported when a run starts with no stream function
// configured and no default installed.
var ErrNoStreamFn = errors.New("agentcore: no stream function configured: set StreamFn or call SetDefaultStreamFn")

// resolveStreamFn returns fn, else the default, else ErrNoStreamFn.
func resolveStreamFn(fn StreamFn) (StreamFn, error) {
	if fn != nil {
		return fn, nil
	}
	defaultStream.RLock()
	defer defaultStream.RUnlock()
	if defaultStream.fn == nil {
		return nil, ErrNoStreamFn
	}
	return defaultStream.fn, nil
}

// AssistantStream is the event stream of one model response: range over it.
// Producers run on the consumer's goroutine (a push iterator), so a consumer
// that stops early leaves nothing behind: the producer sees yield return
// false and returns. The last event is a [DoneEvent] or an [ErrorEvent]. A
// nil event, typed or not, carries nothing: the loop, [ProxyHandler] and
// [CloneEvent] pass over it. Build streams with [NewAssistantStream].
//
// The blocks of a stream's messages are values: [StreamWriter] makes a
// producer's pointer blocks values, and a stream built otherwise must
// yield values.
//
// The Partial of a content event is the producer's message as it is when
// the event is yielded: the producer goes on changing it after yield
// returns, as pi-ai's providers do. A consumer reads it during the yield
// and clones it ([AssistantMessage.Clone], [CloneEvent]) to keep it. The
// event itself, and the final message of a DoneEvent or ErrorEvent, are
// the consumer's: a producer yields a new event each time and never
// touches one it yielded.
type AssistantStream func(yield func(AssistantEvent) bool)

// NewAssistantStream returns a stream whose events produce pushes through a
// [StreamWriter]. produce runs on the goroutine that ranges over the stream,
// once per range. The writer enforces the stream's contract: events after the
// final one are dropped, the final message gets DurationMs (measured from the
// start of the range, on a monotonic clock) unless it has one, and a
// producer that returns without a final event yields an [ErrorEvent] with
// [ErrStreamIncomplete]'s text. A panic in produce becomes a final error
// event too; a panic of the consumer's loop body goes on to the consumer
// as it is.
func NewAssistantStream(produce func(w *StreamWriter)) AssistantStream {
	return func(yield func(AssistantEvent) bool) {
		w := &StreamWriter{yield: yield, started: time.Now()}
		func() {
			defer func() {
				if w.yielding {
					return // the consumer's panic: it goes on as it is
				}
				if r := recover(); r != nil && !w.ended {
					w.fail(streamPanic{panicError(r)})
				}
			}()
			produce(w)
		}()
		if !w.ended && !w.stopped {
			w.fail(ErrStreamIncomplete)
		}
	}
}

// ErrStreamPanic is matched (errors.Is) by the Err of a message whose
// stream ended because its producer panicked; its ErrorMessage is the
// panic's text.
var ErrStreamPanic = errors.New("agentcore: the stream's producer panicked")

// streamPanic is a producer's panic, as the failed message's Err.
type streamPanic struct{ err error }

func (p streamPanic) Error() string        { return p.err.Error() }
func (p streamPanic) Unwrap() error        { return p.err }
func (p streamPanic) Is(target error) bool { return target == ErrStreamPanic }

// ErrStreamIncomplete is the error text of a stream whose producer returned
// without a done or error event.
var ErrStreamIncomplete = errors.New("agentcore: stream ended without a done or error event")

// StreamWriter is the producer side of an [AssistantStream]. It is used by
// one goroutine, the one [NewAssistantStream]'s produce runs on.
type StreamWriter struct {
	yield   func(AssistantEvent) bool
	started time.Time
	last    *AssistantMessage
	ended   bool
	stopped bool
	// yielding is set while the consumer has an event: a panic then is
	// the consumer's, not the producer's.
	yielding bool
	// pointers is set once the producer used a pointer block.
	pointers bool
}

// Push sends ev to the consumer. It returns false when the consumer has
// stopped or the stream has ended: the producer should then return. A nil
// event, or a nil pointer to an event type, is ignored. Pointer blocks in
// the event's message (&TextBlock{...}) are sent as their values
// ([ValueBlocks]), the producer's message left as it is; a nil block
// pointer ends the stream with an error wrapping [ErrNilBlock].
func (w *StreamWriter) Push(ev AssistantEvent) bool {
	if w.ended || w.stopped {
		return false
	}
	if isNilEvent(ev) {
		return true
	}
	ev, ok := w.values(ev)
	if !ok {
		return false
	}
	switch e := ev.(type) {
	case *DoneEvent:
		e.Message = w.finish(e.Message)
		ev = e
	case *ErrorEvent:
		e.Message = w.finish(e.Message)
		ev = e
	default:
		w.track(ev.partial())
	}
	return w.send(ev)
}

// TextDelta pushes a [TextDeltaEvent] of block index, the hot path of
// providers; it is Push of the event.
func (w *StreamWriter) TextDelta(index int, delta string, partial *AssistantMessage) bool {
	if w.ended || w.stopped {
		return false
	}
	ev, ok := w.values(&TextDeltaEvent{ContentIndex: index, Delta: delta, Partial: partial})
	if !ok {
		return false
	}
	w.track(ev.partial())
	return w.send(ev)
}

// ThinkingDelta pushes a [ThinkingDeltaEvent], like [StreamWriter.TextDelta].
func (w *StreamWriter) ThinkingDelta(index int, delta string, partial *AssistantMessage) bool {
	if w.ended || w.stopped {
		return false
	}
	ev, ok := w.values(&ThinkingDeltaEvent{ContentIndex: index, Delta: delta, Partial: partial})
	if !ok {
		return false
	}
	w.track(ev.partial())
	return w.send(ev)
}

// ToolCallDelta pushes a [ToolCallDeltaEvent], like [StreamWriter.TextDelta].
func (w *StreamWriter) ToolCallDelta(index int, delta string, partial *AssistantMessage) bool {
	if w.ended || w.stopped {
		return false
	}
	ev, ok := w.values(&ToolCallDeltaEvent{ContentIndex: index, Delta: delta, Partial: partial})
	if !ok {
		return false
	}
	w.track(ev.partial())
	return w.send(ev)
}

// values returns ev with the pointer blocks of its message made values
// ([ValueBlocks]): the boundary where a producer's blocks enter a stream.
// A nil block pointer fails the stream instead (false), with the last
// message pushed, its nil blocks left out. Until the producer
// has used a pointer block, a content event's message is checked at the
// event's block only, so that a stream of many blocks costs no scan of
// them all per event; start and final events are checked whole.
func (w *StreamWriter) values(ev AssistantEvent) (AssistantEvent, bool) {
	p := ev.partial()
	if i := contentIndex(ev); !w.pointers && p != nil && i >= 0 {
		if i >= len(p.Content) || !isPointerBlock(p.Content[i]) {
			return ev, true
		}
	}
	out, err := valueEvent(ev)
	if err != nil {
		msg := failedMessage(w.last, Model{}, err)
		msg.Content = withoutNilBlocks(msg.Content)
		w.Error(msg)
		return nil, false
	}
	w.pointers = w.pointers || out.partial() != p
	return out, true
}

// track remembers the producer's partial for a failure message.
func (w *StreamWriter) track(p *AssistantMessage) *AssistantMessage {
	if p != nil && p != w.last {
		w.last = p
	}
	return p
}

// send yields ev.
func (w *StreamWriter) send(ev AssistantEvent) bool {
	w.yielding = true
	more := w.yield(ev)
	w.yielding = false
	if !more {
		w.stopped = true
		return false
	}
	return !w.ended
}

// Done ends the stream with a [DoneEvent] for msg. msg then belongs to the
// consumer (DurationMs is set on it): the producer must not touch it again.
func (w *StreamWriter) Done(msg *AssistantMessage) bool {
	return w.Push(&DoneEvent{Reason: msg.StopReason, Message: msg})
}

// Error ends the stream with an [ErrorEvent] for msg, whose StopReason
// should be [StopError] or [StopAborted] and whose ErrorMessage says why.
// msg then belongs to the consumer, as with [StreamWriter.Done].
func (w *StreamWriter) Error(msg *AssistantMessage) bool {
	return w.Push(&ErrorEvent{Reason: msg.StopReason, Message: msg})
}

// Ended reports whether the final event was pushed or the consumer stopped.
func (w *StreamWriter) Ended() bool { return w.ended || w.stopped }

// finish marks the end and times msg.
func (w *StreamWriter) finish(msg *AssistantMessage) *AssistantMessage {
	w.ended = true
	if msg == nil {
		msg = &AssistantMessage{Content: []ContentBlock{}, StopReason: StopError, ErrorMessage: "stream ended with no message", Timestamp: nowMillis()}
	}
	if msg.DurationMs == nil {
		d := time.Since(w.started).Round(time.Millisecond).Milliseconds()
		msg.DurationMs = &d
	}
	return msg
}

// Fail ends the stream with msg, the message so far, failed by err: its
// ErrorMessage is err's text and its StopReason "error", with err as its
// Err; or "aborted", Err left alone, when ctx is done. It is how a
// producer reports a failed request. msg then belongs to the consumer, as
// with [StreamWriter.Done].
func (w *StreamWriter) Fail(ctx context.Context, msg *AssistantMessage, err error) bool {
	msg.StopReason, msg.ErrorMessage = StopError, err.Error()
	if ctx.Err() != nil {
		msg.StopReason = StopAborted
	} else {
		msg.Err = err
	}
	return w.Error(msg)
}

// fail ends the stream with an error built from the last partial.
func (w *StreamWriter) fail(err error) {
	w.Error(failedMessage(w.last, Model{}, err))
}

// failedMessage is the final message of a response that err ended before
// its producer did: a clone of partial, the message so far, or an empty
// message of model when there is none, with stopReason "error".
func failedMessage(partial *AssistantMessage, model Model, err error) *AssistantMessage {
	msg := emptyAssistant(model)
	if partial != nil {
		msg = partial.Clone()
	}
	msg.StopReason, msg.ErrorMessage, msg.Err = StopError, err.Error(), err
	return msg
}

// emptyAssistant is an assistant message of model with no content.
func emptyAssistant(model Model) *AssistantMessage {
	return &AssistantMessage{
		Content: []ContentBlock{}, API: model.API, Provider: model.Provider,
		Model: model.ID, StopReason: StopStop, Timestamp: nowMillis(),
	}
}
