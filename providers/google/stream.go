package google

import (
	"cmp"
	"context"
	"encoding/json"
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
func (c *call) Send(ctx context.Context) (*http.Response, *provider.Failure) {
	base := c.opts.baseURL(c.Model)
	key := cmp.Or(c.Options.APIKey, c.opts.APIKey)
	ep, err := c.endpoint(ctx, base, key)
	if err != nil {
		return nil, provider.TextFailure(err.Error())
	}
	header := c.headers(ep.URL, key, ep.Auth)
	if c.v == nil && !hasAuth(header) {
		return nil, provider.TextFailure("No API key for provider: " + c.Model.Provider)
	}
	req, err := buildRequest(c.Model, c.Request.Messages, c.Options, c.v != nil && c.v.FlashBudgetsForLite)
	if err != nil {
		return nil, provider.TextFailure(err.Error())
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, provider.TextFailure("Could not encode the request: " + err.Error())
	}
	return provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: ep.URL, Header: header, Body: body, Model: c.Model, Options: c.Options,
		IdleTimeout: c.opts.IdleTimeout, MaxResponseBytes: c.opts.MaxResponseBytes,
	}, refusal, connectionFailure, AbortedBeforeResponseText)
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

// Read decodes the body's events until the body ends, a failure, or the
// consumer stopping, then ends the open block.
func (c *call) Read(ctx context.Context, body io.Reader) *provider.Failure {
	c.d = &decoder{b: provider.NewBuilder(c.Call, c.opts.MaxResponseBytes), model: c.Model, observe: c.Observer(ctx), ids: map[string]bool{}}
	tail := &tailReader{r: body}
	return provider.ReadEvents(ctx, &events{r: sse.NewReader(tail, 0), tail: tail}, c.d, c.d.b, provider.ReadRules{
		AbortedText: AbortedText,
		LineTooLong: func(err error) string { return MalformedChunkPrefix + ": " + err.Error() },
		EndBlocks:   true,
	})
}

// End judges the response once its body is read.
func (c *call) End(ctx context.Context) *provider.Failure {
	switch {
	case ctx.Err() != nil:
		return provider.TextFailure(AbortedAfterBodyText)
	case c.Out.StopReason == agentcore.StopPending && c.v != nil:
		return provider.TextFailure(c.v.NoFinishReasonText)
	case c.Out.StopReason == agentcore.StopPending:
		return provider.TextFailure(NoFinishReasonText)
	case c.Out.StopReason.Failed():
		return provider.TextFailure(providerStoppedPrefix + c.Out.RawStopReason)
	}
	return nil
}
