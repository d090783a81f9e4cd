package google

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
	"github.com/pi-go/agentcore/internal/sse"
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

// Send posts the request. It returns the response when the server
// accepted it (2xx), else the failure.
func (c *call) Send(ctx context.Context) (*http.Response, *provider.Failure) {
	base := c.opts.baseURL(c.Model)
	url, err := endpoint(base, c.Model.ID)
	if err != nil {
		return nil, provider.TextFailure(err.Error())
	}
	header := c.headers(base)
	if !hasAuth(header) {
		return nil, provider.TextFailure("No API key for provider: " + c.Model.Provider)
	}
	req, err := buildRequest(c.Model, c.Request.Messages, c.Options)
	if err != nil {
		return nil, provider.TextFailure(err.Error())
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, provider.TextFailure("Could not encode the request: " + err.Error())
	}
	return provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: url, Header: header, Body: body, Model: c.Model, Options: c.Options,
		IdleTimeout: c.opts.IdleTimeout,
	}, refusal, connectionFailure, AbortedBeforeResponseText)
}

// headers are the request's headers: the identity's, content type, the
// key, then the model's, the Options' and the request's headers (later
// ones winning; an empty value removes one).
func (c *call) headers(base string) http.Header {
	h := provider.IdentityHeaders(c.Options.Identity, c.Model.Provider, base)
	h.Set("Content-Type", "application/json")
	if key := cmp.Or(c.Options.APIKey, c.opts.APIKey); key != "" {
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
	case c.Out.StopReason == agentcore.StopPending:
		return provider.TextFailure(NoFinishReasonText)
	case c.Out.StopReason.Failed():
		return provider.TextFailure(providerStoppedPrefix + c.Out.RawStopReason)
	}
	return nil
}
