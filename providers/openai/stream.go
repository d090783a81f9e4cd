package openai

import (
	"cmp"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
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
	return provider.StreamFn(func(pc provider.Call) provider.Exchange { return &call{Call: pc, opts: opts} })
}

// call is one model request and its response: a [provider.Exchange].
type call struct {
	provider.Call
	opts Options
	d    *decoder // set by Read
}

// Read decodes the body's events until [DONE], the end of the body, a
// failure, or the consumer stopping, then ends the open blocks. An abort
// is no failure here: End reports it.
func (c *call) Read(ctx context.Context, body io.Reader) *provider.Failure {
	c.d = &decoder{
		b: provider.NewBuilder(c.Call, c.opts.MaxResponseBytes), model: c.Model, observe: c.Observer(ctx),
		openRouter: provider.IsOpenRouter(c.Model, c.opts.baseURL(c.Model)),
		byIndex:    map[int]*callState{}, byID: map[string]*callState{},
	}
	return provider.Read(ctx, body, c.d, c.d.b, provider.ReadRules{
		MaxLine: maxLine, LineTooLong: func(error) string { return LineTooLongText },
		Finished: func() bool { return c.d.finished }, EndBlocks: true,
	})
}

// End judges the response once its body is read.
func (c *call) End(ctx context.Context) *provider.Failure {
	switch {
	case ctx.Err() != nil:
		return provider.TextFailure(AbortedText)
	case c.Out.StopReason == agentcore.StopError:
		return provider.TextFailure(cmp.Or(c.Out.ErrorMessage, errorStopText))
	case !c.d.finished || c.Out.StopReason == agentcore.StopPending:
		return provider.TextFailure(NoFinishReasonText)
	}
	return nil
}

// Send posts the request. It returns the response when the server
// accepted it (2xx), else the failure. The request hooks of
// [agentcore.StreamOptions] run where pi-ai's adapter runs them:
// OnPayload on the built body, OnResponse as each response arrives.
func (c *call) Send(ctx context.Context) (*http.Response, *provider.Failure) {
	base := c.opts.baseURL(c.Model)
	s, err := resolveSettings(c.opts, c.Model, base)
	if err != nil {
		return nil, provider.ErrFailure(err)
	}
	header := c.headers(base, s)
	body, err := json.Marshal(buildRequest(c.Model, c.Request.Messages, c.Options, s))
	if err == nil {
		body, err = withSamplingParams(body, c.Options.SamplingParams)
	}
	if err != nil {
		return nil, &provider.Failure{Text: "Could not encode the request: " + err.Error(), Err: err}
	}
	return provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: endpoint(base), Header: header, Body: body, Model: c.Model, Options: c.Options,
		IdleTimeout: c.opts.IdleTimeout, MaxResponseBytes: c.opts.MaxResponseBytes,
	}, refusal, provider.Connection, AbortedBeforeResponseText)
}

// refusal describes a non-2xx response.
func refusal(resp *http.Response, body []byte) *provider.Failure {
	text, sdk := refusalTexts(resp.StatusCode, body)
	f := provider.Status(resp.StatusCode, resp.Header, text)
	f.SDKText = sdk
	return f
}

// headers are the request's headers: the identity's, content type,
// accept (application/json, as the SDK pi-ai uses sends it for streams
// too), the bearer key, then the model's, the session affinity headers, the
// Options' and the request's headers, later ones winning (an empty value
// removes one), as pi-ai's client sets them.
func (c *call) headers(base string, s settings) http.Header {
	h := provider.IdentityHeaders(c.Options.Identity, c.Model.Provider, base)
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	if key := cmp.Or(c.Options.APIKey, c.opts.APIKey); key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
	provider.Layer(h, c.Model.Headers, c.affinityHeaders(s), c.opts.Headers, c.Options.Headers)
	return h
}

// affinityHeaders are the headers that name the session, for servers
// that route a session's requests alike (to their prompt cache): none
// without a SessionID, with CacheRetention "none", or when the model does
// not want them.
func (c *call) affinityHeaders(s settings) map[string]string {
	switch id, openRouter := s.affinity.Session(c.Options); {
	case id == "":
		return nil
	case openRouter:
		return map[string]string{"X-Session-Id": id}
	default:
		return map[string]string{"Session_id": id, "X-Client-Request-Id": id, "X-Session-Affinity": id}
	}
}
