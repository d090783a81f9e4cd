package provider

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/pi-go/agentcore"
)

// Exchange is what one provider's request does that another's does not:
// build and send it, decode its streamed body, and judge how it ended.
// [Run] calls its methods in that order, on the goroutine ranging over the
// stream.
type Exchange interface {
	// Send builds and posts the request. It returns the response when the
	// server accepted it, else the failure to end the stream with.
	Send(ctx context.Context) (*http.Response, *Failure)
	// Read decodes the body into the stream's events, usually with
	// [Read]. It returns the failure that ended it, nil when none. A body
	// sent with "Connection: close" that ends early ends as any body
	// does (Go's io.ErrUnexpectedEOF reads as io.EOF), as Node's fetch
	// reads it for pi-ai.
	Read(ctx context.Context, body io.Reader) *Failure
	// End judges the response once its body is read and the consumer is
	// still reading: the failure to end with, nil for done. It pushes no
	// event.
	End(ctx context.Context) *Failure
}

// Call is one stream-function call: what every [Exchange] is made of.
type Call struct {
	// Model, Request and Options are the stream function's arguments, as
	// it got them: read-only (see [agentcore.StreamFn]).
	Model   agentcore.Model
	Request agentcore.Request
	Options agentcore.StreamOptions
	// W is the stream's writer; Out is the message the exchange builds,
	// pending until [Run] ends the stream with it.
	W   *agentcore.StreamWriter
	Out *agentcore.AssistantMessage
}

// StreamFn returns a stream function that, each time its stream is ranged
// over, runs the exchange newExchange makes of the call (see [Run]), on
// the ranging goroutine. The call's messages hold content blocks as values
// ([agentcore.ValueMessages]); a nil block pointer fails the request.
func StreamFn(newExchange func(Call) Exchange) agentcore.StreamFn {
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			msgs, err := agentcore.ValueMessages(req.Messages)
			if err != nil {
				Fail(ctx, w, Message(model), ErrFailure(err))
				return
			}
			req.Messages = msgs
			c := Call{Model: model, Request: req, Options: so, W: w, Out: Message(model)}
			Run(ctx, w, c.Out, newExchange(c))
		})
	}
}

// Observer returns the call's OnProviderStreamEvent hook bound to ctx and
// its model, nil when it has none: what a decoder calls with each event's
// data.
func (c Call) Observer(ctx context.Context) func(json.RawMessage) error {
	h := c.Options.OnProviderStreamEvent
	if h == nil {
		return nil
	}
	return func(data json.RawMessage) error { return h(ctx, c.Model, data) }
}

// Message returns the pending message of a response from model, the
// message a provider's events build.
func Message(model agentcore.Model) *agentcore.AssistantMessage {
	return &agentcore.AssistantMessage{
		Content: []agentcore.ContentBlock{}, API: model.API, Provider: model.Provider, Model: model.ID,
		StopReason: agentcore.StopPending, Timestamp: time.Now().UnixMilli(),
	}
}

// Run streams one request's response onto w: out is the message the
// exchange builds. A failure at any step ends the stream with out as an
// error (see [Fail]); a response that ends well ends it with done.
func Run(ctx context.Context, w *agentcore.StreamWriter, out *agentcore.AssistantMessage, ex Exchange) {
	resp, f := ex.Send(ctx)
	if resp == nil {
		Fail(ctx, w, out, f)
		return
	}
	defer resp.Body.Close()
	if !w.Push(&agentcore.StartEvent{Partial: out}) {
		return
	}
	var body io.Reader = resp.Body
	if resp.Close {
		body = closeDelimited{body}
	}
	if f := ex.Read(ctx, body); f != nil {
		Fail(ctx, w, out, f)
		return
	}
	if w.Ended() {
		return // the consumer stopped
	}
	if f := ex.End(ctx); f != nil {
		Fail(ctx, w, out, f)
		return
	}
	w.Done(out)
}

// closeDelimited is the body of a response sent with "Connection: close":
// the connection's end is the body's, even before the length it
// announced, as Node's fetch reads it.
type closeDelimited struct{ r io.Reader }

func (b closeDelimited) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	return n, err
}
