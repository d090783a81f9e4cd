package openai

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

// StreamFn returns a stream function that calls an OpenAI-compatible Chat
// Completions endpoint. opts are copied; the zero Options talk to
// api.openai.com.
//
// Each call makes one streaming POST to BaseURL + "/chat/completions" when
// its stream is ranged over, on the ranging goroutine; it starts no
// goroutine, and retries only as [agentcore.StreamOptions.MaxRetries]
// asks. Its request hooks run as the package doc's "Request options"
// says. The request is built from the transcript alone: the system
// prompt and the tools come from its system messages, the model ID from
// [agentcore.Model.ID], the key, token cap, temperature and reasoning
// level from [agentcore.StreamOptions]. The response streams as start,
// text/thinking/tool-call deltas and block ends, then done. ctx aborts
// the request and the stream; a consumer that stops ranging closes the
// connection.
//
// As every [agentcore.StreamFn], it never panics and reports every failure
// as the stream's final error event: the message has stopReason "error"
// (or "aborted" when ctx was cancelled) and an ErrorMessage holding the
// HTTP status and the server's error, the network error, or the texts
// documented with [AbortedText] and its siblings.
func StreamFn(opts Options) agentcore.StreamFn {
	opts.Headers = maps.Clone(opts.Headers)
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			c := &call{opts: opts, model: model, req: req, so: so, w: w, out: provider.Message(model)}
			provider.Run(ctx, w, c.out, c)
		})
	}
}

// call is one model request and its response: a [provider.Exchange].
type call struct {
	opts  Options
	model agentcore.Model
	req   agentcore.Request
	so    agentcore.StreamOptions
	w     *agentcore.StreamWriter
	out   *agentcore.AssistantMessage
	d     *responseDecoder // set by Read
}

// Send posts the request.
func (c *call) Send(ctx context.Context) (*http.Response, provider.Failure) { return c.send(ctx) }

// Read decodes the body's events.
func (c *call) Read(ctx context.Context, body io.Reader) *provider.Failure {
	c.d = newResponseDecoder(c.w, c.model, c.out)
	if h := c.so.OnProviderStreamEvent; h != nil {
		c.d.observe = func(data json.RawMessage) error { return h(ctx, c.model, data) }
	}
	return c.read(ctx, c.d, body)
}

// End judges the response once its body is read, after ending its open
// blocks.
func (c *call) End(ctx context.Context) (bool, *provider.Failure) {
	if c.d.stopped || !c.d.finishBlocks() {
		return true, nil
	}
	fail := func(text string) (bool, *provider.Failure) { return false, &provider.Failure{Text: text} }
	switch {
	case ctx.Err() != nil:
		return fail(AbortedText)
	case c.out.StopReason == agentcore.StopError:
		return fail(cmp.Or(c.out.ErrorMessage, errorStopText))
	case !c.d.finished || c.out.StopReason == agentcore.StopPending:
		return fail(NoFinishReasonText)
	}
	return false, nil
}

// send posts the request. It returns the response when the server
// accepted it (2xx), else the failure. The request hooks of
// [agentcore.StreamOptions] run where pi-ai's adapter runs them:
// OnPayload on the built body, OnResponse as each response arrives.
func (c *call) send(ctx context.Context) (*http.Response, provider.Failure) {
	base := c.opts.baseURL(c.model)
	s, err := resolveSettings(c.opts, c.model, base)
	if err != nil {
		return nil, provider.Failure{Text: err.Error(), Err: err}
	}
	header := c.headers(base)
	body, err := json.Marshal(buildRequest(c.model, c.req.Messages, c.so, s))
	if err == nil {
		body, err = withSamplingParams(body, c.so.SamplingParams)
	}
	if err != nil {
		return nil, provider.Failure{Text: "Could not encode the request: " + err.Error(), Err: err}
	}
	if body, err = provider.Payload(ctx, c.so, c.model, body, false); err != nil {
		return nil, provider.Failure{Text: err.Error(), Err: err}
	}
	return provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: endpoint(base), Header: header, Body: body, Model: c.model, Options: c.so,
	}, refusal, connectionFailure, AbortedBeforeResponseText)
}

// refusal describes a non-2xx response.
func refusal(status int, h http.Header, body []byte) provider.Failure {
	return provider.Status(status, h, statusErrorText(status, body))
}

// connectionFailure describes a request that got no response.
func connectionFailure(err error) provider.Failure {
	return provider.Failure{Text: connectionErrorText(err), Err: err}
}

// headers are the request's headers: the identity's, content type, the
// bearer key, then the model's, the Options' and the request's headers,
// later ones winning (an empty value removes one), as pi-ai's client
// sets them.
func (c *call) headers(base string) http.Header {
	h := c.so.Identity.Headers(c.model.Provider, base)
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	if key := cmp.Or(c.so.APIKey, c.opts.APIKey); key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	provider.Layer(h, c.model.Headers, c.opts.Headers, c.so.Headers)
	return h
}

// read feeds the body's events to d until [DONE], the end of the body, a
// failure, or the consumer stopping. It returns the failure, nil when
// none; an abort is no failure here (the caller checks ctx after ending
// the blocks).
func (c *call) read(ctx context.Context, d *responseDecoder, body io.Reader) *provider.Failure {
	events := sse.NewReader(body, maxLine)
	for !d.stopped {
		ev, err := events.Next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil && (ctx.Err() != nil || d.finished):
			return nil // an abort, or a failure after the response finished
		case errors.Is(err, sse.ErrLineTooLong):
			return &provider.Failure{Text: LineTooLongText, Err: err}
		case err != nil:
			return &provider.Failure{Text: connectionErrorText(err), Err: err}
		}
		done, failure := d.event(ev)
		if failure != "" {
			return &provider.Failure{Text: failure}
		}
		if done {
			return nil
		}
	}
	return nil
}
