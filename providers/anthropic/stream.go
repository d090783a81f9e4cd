package anthropic

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/sse"
)

// StreamFn returns a stream function that calls the Anthropic Messages
// API. opts are copied; the zero Options talk to api.anthropic.com.
//
// Each call makes one streaming POST to BaseURL + "/v1/messages" when its
// stream is ranged over, on the ranging goroutine; it starts no goroutine
// and never retries. The request is built from the transcript alone: the
// system prompt and the tools come from its system messages, the model ID
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
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			call{opts: opts, model: model, req: req, so: so, w: w}.run(ctx)
		})
	}
}

// call is one model request and its response.
type call struct {
	opts  Options
	model agentcore.Model
	req   agentcore.Request
	so    agentcore.StreamOptions
	w     *agentcore.StreamWriter
	out   *agentcore.AssistantMessage
}

func (c call) run(ctx context.Context) {
	c.out = &agentcore.AssistantMessage{
		Content: []agentcore.ContentBlock{}, API: c.model.API, Provider: c.model.Provider, Model: c.model.ID,
		StopReason: agentcore.StopPending, Timestamp: time.Now().UnixMilli(),
	}
	resp, f := c.send(ctx)
	if resp == nil {
		c.fail(ctx, f)
		return
	}
	defer resp.Body.Close()
	if !c.w.Push(&agentcore.StartEvent{Partial: c.out}) {
		return
	}
	d := newDecoder(c.w, c.model, c.out)
	if f := c.read(ctx, d, resp.Body); f != nil {
		c.fail(ctx, *f)
		return
	}
	switch {
	case d.stopped:
	case d.started && !d.ended:
		c.fail(ctx, textFailure(NoMessageStopText))
	case ctx.Err() != nil:
		c.fail(ctx, textFailure(AbortedAfterBodyText))
	case c.out.StopReason == agentcore.StopPending:
		c.fail(ctx, textFailure(NoStopReasonText))
	case c.out.StopReason.Failed():
		c.fail(ctx, textFailure(cmp.Or(c.out.ErrorMessage, unknownErrorText)))
	default:
		c.w.Done(c.out)
	}
}

// send posts the request. It returns the response when the server
// accepted it (2xx), else the failure.
func (c call) send(ctx context.Context) (*http.Response, failure) {
	base := c.opts.baseURL(c.model)
	s, err := resolveSettings(c.model, base)
	if err != nil {
		return nil, textFailure(err.Error())
	}
	b := buildRequest(c.model, c.req.Messages, c.so, s)
	body, err := json.Marshal(b.body)
	if err != nil {
		return nil, textFailure("Could not encode the request: " + err.Error())
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint(base), bytes.NewReader(body))
	if err != nil {
		return nil, textFailure(err.Error())
	}
	c.setHeaders(hreq.Header, s, b.betas)
	if !hasAuth(hreq.Header) {
		return nil, textFailure("No API key for provider: " + c.model.Provider)
	}
	client := cmp.Or(c.opts.HTTPClient, http.DefaultClient)
	resp, err := client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, textFailure(AbortedBeforeResponseText)
		}
		return nil, connectionFailure(err)
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, failure{}
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if err != nil && ctx.Err() != nil {
		return nil, textFailure(AbortedBeforeResponseText)
	}
	return nil, statusFailure(resp.StatusCode, resp.Header, text)
}

// setHeaders sets the request's headers as pi-ai's client does: content
// type, accept, the API version and key, the session affinity header when
// the model wants one, then the model's, the Options' and the request's
// headers (later ones winning), and last the beta features.
func (c call) setHeaders(h http.Header, s settings, betas []string) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json")
	h.Set("Anthropic-Version", cmp.Or(c.opts.Version, DefaultVersion))
	if key := cmp.Or(c.so.APIKey, c.opts.APIKey); key != "" {
		h.Set("X-Api-Key", key)
	}
	if c.so.SessionID != "" && c.so.CacheRetention != "none" && s.affinityHeaders {
		if s.openRouterAffinity {
			h.Set("X-Session-Id", c.so.SessionID)
		} else {
			h.Set("X-Session-Affinity", c.so.SessionID)
		}
	}
	for _, set := range []map[string]string{c.model.Headers, c.opts.Headers, c.so.Headers} {
		for k, v := range set {
			h.Set(k, v)
		}
	}
	h.Del("Anthropic-Beta")
	if beta := betaHeader(betas, c.model.Headers, c.opts.Headers, c.so.Headers); beta != "" {
		h.Set("Anthropic-Beta", beta)
	}
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

// read feeds the body's events to d until the body ends, a failure, or the
// consumer stopping.
func (c call) read(ctx context.Context, d *decoder, body io.Reader) *failure {
	events := sse.NewReader(body, 0)
	for !d.stopped {
		ev, err := events.Next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil && ctx.Err() != nil:
			f := textFailure(AbortedText)
			return &f
		case errors.Is(err, sse.ErrLineTooLong):
			f := textFailure(MalformedEventPrefix + ": " + err.Error())
			return &f
		case err != nil:
			f := connectionFailure(err)
			return &f
		}
		if f := d.event(ev.Data); f != nil {
			return f
		}
	}
	return nil
}

// fail ends the stream with the message so far as an error, its Err the
// [agentcore.ProviderError] for f, or as aborted when ctx was cancelled.
func (c call) fail(ctx context.Context, f failure) {
	c.out.StopReason = agentcore.StopError
	c.out.ErrorMessage = f.text
	if ctx.Err() != nil {
		c.out.StopReason = agentcore.StopAborted
	} else {
		c.out.Err = f.providerError()
	}
	c.w.Error(c.out)
}
