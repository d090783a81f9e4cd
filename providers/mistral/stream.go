package mistral

import (
	"cmp"
	"context"
	"io"
	"maps"
	"net/http"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
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
func (c *call) Send(ctx context.Context) (*http.Response, *provider.Failure) {
	key := cmp.Or(c.Options.APIKey, c.opts.APIKey)
	if key == "" {
		return nil, provider.TextFailure("No API key for provider: " + c.Model.Provider)
	}
	s, err := resolveSettings(c.Model)
	if err != nil {
		return nil, provider.ErrFailure(err)
	}
	req, err := buildRequest(c.Model, c.Request.Messages, c.Options, s)
	if err != nil {
		return nil, provider.ErrFailure(err)
	}
	body, err := encodeRequest(req)
	if err != nil {
		return nil, &provider.Failure{Text: "Could not encode the request: " + err.Error(), Err: err}
	}
	url := c.opts.endpoint(c.Model)
	return provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: url, Header: c.headers(url, key), Body: body, Model: c.Model, Options: c.Options,
		IdleTimeout: c.opts.IdleTimeout, MaxResponseBytes: c.opts.MaxResponseBytes,
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
// failure, or the consumer stopping; then, when nothing failed, it ends
// the open block and the tool calls, as pi-ai does.
func (c *call) Read(ctx context.Context, body io.Reader) *provider.Failure {
	c.d = &decoder{b: provider.NewBuilder(c.Call, c.opts.MaxResponseBytes), model: c.Model, observe: c.Observer(ctx), calls: map[string]*provider.Block{}}
	f := provider.Read(ctx, body, c.d, c.d.b, provider.ReadRules{
		MaxLine: maxLine, AbortedText: AbortedText,
		LineTooLong: func(err error) string { return MalformedChunkPrefix + ": " + err.Error() },
	})
	if f == nil {
		c.d.finish()
	}
	return f
}

// End judges the response once its body is read, in pi-ai's order: an
// abort, a stream without a finish reason, a finish reason that is an
// error.
func (c *call) End(ctx context.Context) *provider.Failure {
	switch {
	case ctx.Err() != nil:
		return provider.TextFailure(AbortedAfterBodyText)
	case c.Out.StopReason == agentcore.StopPending:
		return provider.TextFailure(NoFinishReasonText)
	case c.Out.StopReason == agentcore.StopError || c.Out.StopReason == agentcore.StopAborted:
		return provider.TextFailure(cmp.Or(c.Out.ErrorMessage, UnknownErrorText))
	}
	return nil
}
