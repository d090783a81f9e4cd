package google

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
	"github.com/pi-go/agentcore/providers/internal/variant"
)

// StreamFn returns a stream function that calls the Gemini API
// (generateContent, streamed as server-sent events). opts are copied; the
// zero Options talk to generativelanguage.googleapis.com.
//
// Each call makes one streaming POST to BaseURL + "/models/ID:
// streamGenerateContent?alt=sse" when its stream is ranged over, on the
// ranging goroutine; it starts no goroutine and retries only as
// [agentcore.StreamOptions.MaxRetries] asks. The request is built from the
// transcript alone: the system instruction and the tools come from its
// system messages, the model ID and limits from the [agentcore.Model], the
// key, token cap, temperature and thinking level from
// [agentcore.StreamOptions]. The response streams as start, text, thinking
// and tool-call events, then done. ctx aborts the request and the stream;
// a consumer that stops ranging closes the connection.
//
// As every [agentcore.StreamFn], it never panics and reports every failure
// as the stream's final error event: the message has stopReason "error"
// (or "aborted" when ctx was cancelled) and an ErrorMessage holding the
// server's error, the network error, or the texts documented with
// [NoFinishReasonText] and its siblings.
func StreamFn(opts Options) agentcore.StreamFn { return StreamFnVariant(opts, nil) }

// StreamFnVariant is [StreamFn] for a server that speaks the Gemini API
// as v describes: Vertex AI, which package providers/vertex serves with
// it. Only this module can make a v; a nil v is [StreamFn].
func StreamFnVariant(opts Options, v *variant.Gemini) agentcore.StreamFn {
	opts.Headers = maps.Clone(opts.Headers)
	return provider.StreamFn(func(pc provider.Call) provider.Exchange { return &call{Call: pc, opts: opts, v: v} })
}

// call is one model request and its response: a [provider.Exchange].
type call struct {
	provider.Call
	opts Options
	v    *variant.Gemini // nil for the Gemini API
	d    *decoder        // set by Read
}

// Send posts the request. It returns the response when the server
// accepted it (2xx), else the failure.
func (c *call) Send(ctx context.Context) (*http.Response, failure) {
	base := c.opts.baseURL(c.Model)
	key := cmp.Or(c.Options.APIKey, c.opts.APIKey)
	ep, err := c.endpoint(ctx, base, key)
	if err != nil {
		return nil, textFailure(err.Error())
	}
	header := c.headers(ep.URL, key, ep.Auth)
	if c.v == nil && !hasAuth(header) {
		return nil, textFailure("No API key for provider: " + c.Model.Provider)
	}
	req, err := buildRequest(c.Model, c.Request.Messages, c.Options, c.v != nil && c.v.FlashBudgetsForLite)
	if err != nil {
		return nil, textFailure(err.Error())
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, textFailure("Could not encode the request: " + err.Error())
	}
	return provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: ep.URL, Header: header, Body: body, Model: c.Model, Options: c.Options,
		IdleTimeout: c.opts.IdleTimeout,
	}, statusFailure, connectionFailure, AbortedBeforeResponseText)
}

// endpoint is the request's URL and a variant's authentication.
func (c *call) endpoint(ctx context.Context, base, key string) (variant.Endpoint, error) {
	if c.v != nil {
		return c.v.Endpoint(ctx, c.Model, key)
	}
	url, err := endpoint(base, c.Model.ID)
	return variant.Endpoint{URL: url}, err
}

// headers are the request's headers: the identity's, content type, the
// key (or a variant's auth), then the model's, the Options' and the
// request's headers (later ones winning; an empty value removes one).
func (c *call) headers(base, key string, auth http.Header) http.Header {
	h := provider.IdentityHeaders(c.Options.Identity, c.Model.Provider, base)
	h.Set("Content-Type", "application/json")
	switch {
	case c.v != nil:
		for k, v := range auth {
			h[k] = slices.Clone(v)
		}
	case key != "":
		h.Set("X-Goog-Api-Key", key)
	}
	provider.Layer(h, c.Model.Headers, c.opts.Headers, c.Options.Headers)
	return h
}

// hasAuth reports whether h carries credentials: a key or an
// authorization header.
func hasAuth(h http.Header) bool {
	return strings.TrimSpace(h.Get("X-Goog-Api-Key")) != "" || strings.TrimSpace(h.Get("Authorization")) != ""
}

// Read decodes the body's events.
func (c *call) Read(ctx context.Context, body io.Reader) *failure {
	c.d = newDecoder(c.W, c.Model, c.Out)
	c.d.observe = c.Observer(ctx)
	c.d.budget = provider.NewBudget(c.opts.MaxResponseBytes)
	tail := &tailReader{r: body}
	events := sse.NewReader(tail, 0)
	for !c.d.stopped {
		ev, err := events.Next()
		switch {
		case errors.Is(err, io.EOF):
			return tail.failure()
		case err != nil && ctx.Err() != nil:
			f := textFailure(AbortedText)
			return &f
		case errors.Is(err, sse.ErrLineTooLong):
			f := textFailure(MalformedChunkPrefix + ": " + err.Error())
			return &f
		case provider.IsLimit(err):
			return provider.LimitFailure(err)
		case err != nil:
			f := bodyFailure(err)
			return &f
		}
		if tail.eof && tail.incomplete() {
			return c.readRest(events, ev, tail)
		}
		if f := c.event(ev.Data); f != nil {
			return f
		}
	}
	return nil
}

// event applies the data of one event: the failure that ends the
// response (the budget's error once content did not fit), nil to go on.
func (c *call) event(data []byte) *failure {
	if f := c.d.event(data); f != nil {
		return f
	}
	if err := c.d.budget.Err(); err != nil {
		return provider.LimitFailure(err)
	}
	return nil
}

// readRest applies the events left once the body ended incomplete (its
// last event not followed by a blank line): every event but one cut off
// at the end, then the failure of the incomplete end.
func (c *call) readRest(events *sse.Reader, ev sse.Event, tail *tailReader) *failure {
	var rest [][]byte
	for {
		rest = append(rest, append([]byte(nil), ev.Data...))
		var err error
		if ev, err = events.Next(); err != nil {
			break
		}
	}
	if tail.cutEvent() {
		rest = rest[:len(rest)-1]
	}
	for _, data := range rest {
		if c.d.stopped {
			return nil
		}
		if f := c.event(data); f != nil {
			return f
		}
	}
	return tail.failure()
}

// End judges the response once its body is read.
func (c *call) End(ctx context.Context) (bool, *failure) {
	c.d.closeBlock()
	fail := func(text string) (bool, *failure) { f := textFailure(text); return false, &f }
	switch {
	case c.d.stopped:
		return true, nil
	case ctx.Err() != nil:
		return fail(AbortedAfterBodyText)
	case c.Out.StopReason == agentcore.StopPending && c.v != nil:
		return fail(c.v.NoFinishReasonText)
	case c.Out.StopReason == agentcore.StopPending:
		return fail(NoFinishReasonText)
	case c.Out.StopReason.Failed():
		return fail(providerStoppedPrefix + c.Out.RawStopReason)
	}
	return false, nil
}
