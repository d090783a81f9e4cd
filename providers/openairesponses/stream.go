package openairesponses

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

// StreamFn returns a stream function that calls OpenAI's Responses API
// (or a server that speaks it). opts are copied; the zero Options talk to
// api.openai.com.
//
// Each call makes one streaming POST to BaseURL + "/responses" when its
// stream is ranged over, on the ranging goroutine; it starts no
// goroutine, and retries only as [agentcore.StreamOptions.MaxRetries]
// asks. The request is built from the transcript alone (see the package
// doc's "The request"); the response streams as start, the blocks of its
// output items (each started, streamed and ended in turn), then done.
// ctx aborts the request and the stream; a consumer that stops ranging
// closes the connection.
//
// As every [agentcore.StreamFn], it never panics and reports every failure
// as the stream's final error event: the message has stopReason "error"
// (or "aborted" when ctx was cancelled) and an ErrorMessage worded as
// pi-ai words it, its Err an [*agentcore.ProviderError].
func StreamFn(opts Options) agentcore.StreamFn { return StreamFnVariant(opts, nil) }

// StreamFnVariant is [StreamFn] for a server that speaks the Responses
// API as v describes: Azure OpenAI, which package providers/azure serves
// with it. Only this module can make a v; a nil v is [StreamFn].
func StreamFnVariant(opts Options, v *variant.Responses) agentcore.StreamFn {
	opts.Headers = maps.Clone(opts.Headers)
	return provider.StreamFn(func(pc provider.Call) provider.Exchange { return &call{Call: pc, opts: opts, v: v} })
}

// call is one model request and its response: a [provider.Exchange].
type call struct {
	provider.Call
	opts Options
	v    *variant.Responses // nil for OpenAI's API
	d    *decoder           // set by Read
}

// Send builds and posts the request. The request hooks of
// [agentcore.StreamOptions] run where pi-ai's adapter runs them:
// OnPayload on the built body, OnResponse as each response arrives.
func (c *call) Send(ctx context.Context) (*http.Response, *provider.Failure) {
	base := c.opts.baseURL(c.Model)
	s, err := resolveSettings(c.Model, base, c.v)
	if err != nil {
		return nil, provider.ErrFailure(err)
	}
	key := cmp.Or(c.Options.APIKey, c.opts.APIKey)
	ep := variant.Endpoint{URL: endpoint(base)}
	modelName := ""
	if c.v != nil {
		if ep, err = c.v.Endpoint(ctx, c.Model, key); err != nil {
			return nil, provider.ErrFailure(err)
		}
		base, modelName = ep.URL, c.v.Model(c.Model)
	}
	header := c.headers(base, key, ep.Auth, s)
	if c.v == nil && key == "" && header.Get("Authorization") == "" && header.Get("Cf-Aig-Authorization") == "" {
		return nil, provider.TextFailure("No API key for provider: " + c.Model.Provider)
	}
	req, err := buildRequest(requestInput{model: c.Model, messages: c.Request.Messages, so: c.Options, opts: c.opts, s: s, base: base, key: key, modelName: modelName})
	if err != nil {
		return nil, provider.ErrFailure(err)
	}
	body, err := encodeRequest(req, c.Options.SamplingParams)
	if err != nil {
		return nil, &provider.Failure{Text: "Could not encode the request: " + err.Error(), Err: err}
	}
	resp, f := provider.Send(ctx, provider.Request{
		Client: c.opts.HTTPClient, URL: ep.URL, Header: header, Body: body, Model: c.Model, Options: c.Options,
		IdleTimeout: c.opts.IdleTimeout, MaxResponseBytes: c.opts.MaxResponseBytes,
	}, refusal(c.Model, c.v), provider.Connection, AbortedBeforeResponseText)
	if f != nil {
		f.Text = c.hint(f.Text)
	}
	return resp, f
}

// headers are the request's headers: the identity's, content type, the
// bearer key (or a variant's auth), then the model's, the session's, the
// Options' and the request's headers, later ones winning (an empty value
// removes one), as pi-ai's client sets them.
func (c *call) headers(base, key string, auth http.Header, s settings) http.Header {
	h := provider.IdentityHeaders(c.Options.Identity, c.Model.Provider, base)
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	switch {
	case c.v != nil:
		for k, v := range auth {
			h[k] = slices.Clone(v)
		}
	case key != "":
		h.Set("Authorization", "Bearer "+key)
	}
	provider.Layer(h, c.Model.Headers, c.sessionHeaders(s), c.opts.Headers, c.Options.Headers)
	return h
}

// sessionHeaders name the session so that a gateway routes its requests
// alike: x-session-id in OpenRouter's format; session-id and
// x-client-request-id in OpenAI's; x-client-request-id in any other. None
// without a SessionID or with CacheRetention "none".
func (c *call) sessionHeaders(s settings) map[string]string {
	id := c.Options.SessionID
	switch {
	case id == "" || c.Options.CacheRetention == "none" || s.noSessionHeaders:
		return nil
	case s.affinityFormat == "openrouter":
		return map[string]string{"X-Session-Id": id}
	case s.affinityFormat == "openai":
		return map[string]string{"Session-Id": id, "X-Client-Request-Id": id}
	}
	return map[string]string{"X-Client-Request-Id": id}
}

// Read decodes the body's events until [DONE], the end of the body, a
// failure, or the consumer stopping. An abort is no failure here: End
// reports it.
func (c *call) Read(ctx context.Context, body io.Reader) *provider.Failure {
	c.d = &decoder{
		b: provider.NewBuilder(c.Call, c.opts.MaxResponseBytes), model: c.Model, serviceTier: c.opts.ServiceTier,
		observe: c.Observer(ctx), slots: map[slotKey]*slot{}, unsigned: map[string]int{},
		flatPrice: c.v != nil, hint: c.hint,
	}
	return provider.Read(ctx, body, c.d, c.d.b, provider.ReadRules{
		MaxLine: maxLine, LineTooLong: func(error) string { return LineTooLongText },
	})
}

// End judges the response once its body is read, as pi-ai does, in its
// order: a stream without a terminal event (an abort while streaming is
// one), a tool call that never ended, an abort, and a status that maps to
// an error fail it.
func (c *call) End(ctx context.Context) *provider.Failure {
	fail := func(text string) *provider.Failure { return provider.TextFailure(c.hint(text)) }
	if !c.d.terminal {
		return fail(NoTerminalEventText)
	}
	if call := c.d.unfinishedCall(); call != nil && c.Out.StopReason == agentcore.StopToolUse {
		return fail(unfinishedCallText + call.Name + " (" + call.ID + ")")
	}
	switch {
	case ctx.Err() != nil:
		return fail(AbortedText)
	case c.Out.StopReason == agentcore.StopPending && c.v != nil:
		return fail(c.v.NoStopReasonText)
	case c.Out.StopReason == agentcore.StopPending:
		return fail(NoStopReasonText)
	case c.Out.StopReason == agentcore.StopError || c.Out.StopReason == agentcore.StopAborted:
		return fail(cmp.Or(c.Out.ErrorMessage, UnknownErrorText))
	}
	return nil
}

// Event handles one server-sent event as the OpenAI SDK and pi-ai do. It
// reports done at the [DONE] sentinel, and the failure of an event that
// fails the response.
func (d *decoder) Event(ev sse.Event) (bool, *provider.Failure) {
	done, text := d.event(ev)
	if text != "" {
		return done, provider.TextFailure(d.hint(text))
	}
	return done, nil
}

func (d *decoder) event(ev sse.Event) (done bool, failure string) {
	data := ev.Data
	switch {
	case strings.HasPrefix(ev.Name, "thread.") || len(data) == 0:
		return false, ""
	case string(data) == "[DONE]":
		return true, ""
	}
	e := &d.ev
	*e = event{}
	isObject := decodeEvent(&d.dec, data, e)
	if !isObject && !json.Valid(data) {
		return false, MalformedEventText
	}
	if text := provider.OpenAIStreamError(ev.Name, data, e.Error); text != "" {
		return false, text
	}
	if d.observe != nil {
		if err := d.observe(data); err != nil {
			return false, err.Error()
		}
	}
	if string(data) == "null" {
		return false, "Cannot read properties of null (reading 'type')"
	}
	if !isObject {
		return false, ""
	}
	return false, d.apply(e, data)
}

// hint adds to text the hint of a ChatGPT usage limit it names, on
// OpenAI's API (not a variant's).
func (c *call) hint(text string) string {
	if c.v != nil {
		return text
	}
	return withHint(text)
}
