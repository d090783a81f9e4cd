package mistral

import (
	"cmp"
	"context"
	"errors"
	"io"
	"maps"
	"net/http"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

// StreamFn returns a stream function that calls Mistral's chat
// completions API, as pi-ai's mistral-conversations provider does. opts
// are copied; the zero Options talk to api.mistral.ai.
//
// Each call makes one streaming POST to BaseURL + "/v1/chat/completions"
// when its stream is ranged over, on the ranging goroutine; it starts no
// goroutine and retries only as [agentcore.StreamOptions.MaxRetries]
// asks. The response streams as start, text, thinking and tool-call
// events, then done; ctx aborts the request and the stream. As every
// [agentcore.StreamFn], it never panics and reports every failure as the
// stream's final error event, worded as pi-ai words it.
func StreamFn(opts Options) agentcore.StreamFn {
	opts.Headers = maps.Clone(opts.Headers)
	return provider.StreamFn(func(pc provider.Call) provider.Exchange { return &call{Call: pc, opts: opts} })
}

// call is one model request and its response: a [provider.Exchange].
type call struct {
	provider.Call
	opts Options
	d    *decoder // set by Read
}

// Send builds and posts the request.
func (c *call) Send(ctx context.Context) (*http.Response, provider.Failure) {
	key := cmp.Or(c.Options.APIKey, c.opts.APIKey)
	if key == "" {
		return nil, provider.Failure{Text: "No API key for provider: " + c.Model.Provider}
	}
	s, err := resolveSettings(c.Model)
	if err != nil {
		return nil, provider.Failure{Text: err.Error(), Err: err}
	}
	req, err := buildRequest(c.Model, c.Request.Messages, c.Options, s)
	if err != nil {
		return nil, provider.Failure{Text: err.Error(), Err: err}
	}
	body, err := encodeRequest(req)
	if err != nil {
		return nil, provider.Failure{Text: "Could not encode the request: " + err.Error(), Err: err}
	}
	url := c.opts.endpoint(c.Model)
	return provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: url, Header: c.headers(url, key), Body: body, Model: c.Model, Options: c.Options,
		IdleTimeout: c.opts.IdleTimeout,
	}, refusal, connectionFailure, AbortedText)
}

// headers are the request's headers: the identity's, accept, the bearer
// key and content type, then the model's, the Options' and the request's
// headers (later ones winning; an empty value removes one), then the
// session's x-affinity unless one of those named it.
func (c *call) headers(url, key string) http.Header {
	h := provider.IdentityHeaders(c.Options.Identity, c.Model.Provider, url)
	h.Set("Accept", "text/event-stream")
	h.Set("Authorization", "Bearer "+key)
	h.Set("Content-Type", "application/json")
	provider.Layer(h, c.Model.Headers, c.opts.Headers, c.Options.Headers)
	id := c.Options.SessionID
	if id != "" && c.Options.CacheRetention != "none" && !names(c.Model.Headers, c.opts.Headers, c.Options.Headers) {
		h.Set("X-Affinity", id)
	}
	return h
}

// names reports whether one of the header sets names x-affinity.
func names(sets ...map[string]string) bool {
	for _, set := range sets {
		for k := range set {
			if strings.EqualFold(k, "x-affinity") {
				return true
			}
		}
	}
	return false
}

// Read decodes the body's events until [DONE], the end of the body, a
// failure, or the consumer stopping.
func (c *call) Read(ctx context.Context, body io.Reader) *provider.Failure {
	c.d = newDecoder(c.W, c.Model, c.Out)
	c.d.observe = c.Observer(ctx)
	c.d.budget = provider.NewBudget(c.opts.MaxResponseBytes)
	events := sse.NewReader(body, maxLine)
	for !c.d.stopped {
		ev, err := events.Next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil && ctx.Err() != nil:
			return &provider.Failure{Text: AbortedText}
		case errors.Is(err, sse.ErrLineTooLong):
			return &provider.Failure{Text: MalformedChunkPrefix + ": " + err.Error(), Err: err}
		case provider.IsLimit(err):
			return provider.LimitFailure(err)
		case err != nil:
			return bodyFailure(err)
		}
		done, text := c.d.event(ev.Data)
		if text != "" {
			return &provider.Failure{Text: text}
		}
		if err := c.d.budget.Err(); err != nil {
			return provider.LimitFailure(err)
		}
		if done {
			return nil
		}
	}
	return nil
}

// End ends the open blocks and judges the response, in pi-ai's order: an
// abort, a stream without a finish reason, a finish reason that is an
// error.
func (c *call) End(ctx context.Context) (bool, *provider.Failure) {
	if c.d.stopped || !c.d.finish() {
		return true, nil
	}
	fail := func(text string) (bool, *provider.Failure) { return false, &provider.Failure{Text: text} }
	switch {
	case ctx.Err() != nil:
		return fail(AbortedAfterBodyText)
	case c.Out.StopReason == agentcore.StopPending:
		return fail(NoFinishReasonText)
	case c.Out.StopReason == agentcore.StopError || c.Out.StopReason == agentcore.StopAborted:
		return fail(cmp.Or(c.Out.ErrorMessage, UnknownErrorText))
	}
	return false, nil
}
