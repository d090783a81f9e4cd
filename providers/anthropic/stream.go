package anthropic

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
)

// StreamFn returns a stream function that calls the Anthropic Messages
// API. opts are copied; the zero Options talk to api.anthropic.com.
//
// Each call makes one streaming POST to BaseURL + "/v1/messages?beta=true"
// (where pi-ai's client posts) when its stream is ranged over, on the
// ranging goroutine; it starts no goroutine and retries only as
// [agentcore.StreamOptions.MaxRetries] asks. Its request hooks run as the
// package doc's "Request options" says. The request is built from the
// transcript alone: the system prompt and the tools come from its system
// messages, the model ID
// and limits from the [agentcore.Model], the key, token cap, temperature,
// thinking level, cache retention and metadata from
// [agentcore.StreamOptions]. The response streams as start, text, thinking
// and tool-call events, then done. ctx aborts the request and the stream;
// a consumer that stops ranging closes the connection.
//
// As every [agentcore.StreamFn], it never panics and reports every failure
// as the stream's final error event: the message has stopReason "error"
// (or "aborted" when ctx was cancelled) and an ErrorMessage holding the
// HTTP status and the server's error, the error event the server sent, the
// network error, or the texts documented with [AbortedText] and its
// siblings.
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

// Read decodes the body's events until the body ends, a failure, or the
// consumer stopping.
func (c *call) Read(ctx context.Context, body io.Reader) *provider.Failure {
	c.d = &decoder{
		b: provider.NewBuilder(c.Call, c.opts.MaxResponseBytes), model: c.Model, observe: c.Observer(ctx),
		openRouter: provider.IsOpenRouter(c.Model, c.opts.baseURL(c.Model)), open: map[int]*provider.Block{},
	}
	return provider.Read(ctx, body, c.d, c.d.b, provider.ReadRules{
		AbortedText: AbortedText,
		LineTooLong: func(err error) string { return MalformedEventPrefix + ": " + err.Error() },
	})
}

// End judges the response once its body is read.
func (c *call) End(ctx context.Context) *provider.Failure {
	switch d := c.d; {
	case d.started && !d.ended:
		return provider.TextFailure(NoMessageStopText)
	case ctx.Err() != nil:
		return provider.TextFailure(AbortedAfterBodyText)
	case c.Out.StopReason == agentcore.StopPending:
		return provider.TextFailure(NoStopReasonText)
	case c.Out.StopReason.Failed():
		return provider.TextFailure(cmp.Or(c.Out.ErrorMessage, unknownErrorText))
	}
	return nil
}

// Send posts the request. It returns the response when the server
// accepted it (2xx), else the failure. The request hooks of
// [agentcore.StreamOptions] run where pi-ai's adapter runs them:
// OnPayload on the built body, OnResponse as each response arrives.
func (c *call) Send(ctx context.Context) (*http.Response, *provider.Failure) {
	base := c.opts.baseURL(c.Model)
	s, err := resolveSettings(c.Model, base)
	if err != nil {
		return nil, provider.TextFailure(err.Error())
	}
	header := c.headers(base, s)
	if !hasAuth(header) {
		return nil, provider.TextFailure("No API key for provider: " + c.Model.Provider)
	}
	b := buildRequest(c.Model, c.Request.Messages, c.Options, s)
	header.Del("Anthropic-Beta")
	if beta := betaHeader(b.betas, c.Model.Headers, c.opts.Headers, c.Options.Headers); beta != "" {
		header.Set("Anthropic-Beta", beta)
	}
	body, err := json.Marshal(b.body)
	if err != nil {
		return nil, provider.TextFailure("Could not encode the request: " + err.Error())
	}
	return provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: endpoint(base), Header: header, Body: body, Model: c.Model, Options: c.Options,
		ForceStream: true, IdleTimeout: c.opts.IdleTimeout, MaxResponseBytes: c.opts.MaxResponseBytes,
	}, refusal, provider.Connection, AbortedBeforeResponseText)
}

// headers are the request's headers as pi-ai's client sets them: the
// identity's, content type, accept, the SDK's browser access consent
// (pi-ai's client allows browsers), the API version and key, the session
// affinity header when the model wants one, then the model's, the
// Options' and the request's headers (later ones winning; an empty value
// removes one). The beta features are set by the caller.
func (c *call) headers(base string, s settings) http.Header {
	h := provider.IdentityHeaders(c.Options.Identity, c.Model.Provider, base)
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("Anthropic-Dangerous-Direct-Browser-Access", "true")
	h.Set("Anthropic-Version", cmp.Or(c.opts.Version, DefaultVersion))
	if key := cmp.Or(c.Options.APIKey, c.opts.APIKey); key != "" {
		h.Set("X-Api-Key", key)
	}
	switch id, openRouter := s.affinity.Session(c.Options); {
	case id == "":
	case openRouter:
		h.Set("X-Session-Id", id)
	default:
		h.Set("X-Session-Affinity", id)
	}
	provider.Layer(h, c.Model.Headers, c.opts.Headers, c.Options.Headers)
	return h
}

// hasAuth reports whether h carries credentials pi-ai accepts: a key or an
// authorization header.
func hasAuth(h http.Header) bool {
	for _, k := range []string{"X-Api-Key", "Authorization", "Cf-Aig-Authorization"} {
		if strings.TrimSpace(h.Get(k)) != "" {
			return true
		}
	}
	return false
}
