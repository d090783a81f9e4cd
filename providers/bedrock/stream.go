package bedrock

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/sse"
)

// StreamFn returns a stream function that calls Amazon Bedrock's
// ConverseStream API. opts are copied; the zero Options sign with the
// default AWS credential chain (or send AWS_BEARER_TOKEN_BEDROCK) to the
// region's endpoint.
//
// Each call makes one streaming POST to ENDPOINT + "/model/ID/converse-
// stream" when its stream is ranged over, on the ranging goroutine; it
// starts no goroutine and retries only as
// [agentcore.StreamOptions.MaxRetries] asks. The request is built from the
// transcript alone: the system prompt and the tools come from its system
// messages, the model ID and limits from the [agentcore.Model], the token
// cap, temperature, thinking level and cache retention from
// [agentcore.StreamOptions]. The response, an AWS event stream, streams
// as start, text, thinking and tool-call events, then done. ctx aborts
// the request and the stream; a consumer that stops ranging closes the
// connection.
//
// As every [agentcore.StreamFn], it never panics and reports every failure
// as the stream's final error event: the message has stopReason "error"
// (or "aborted" when ctx was cancelled) and an ErrorMessage holding the
// server's exception as pi-ai words it ("Throttling error: ..."), the
// network's error, or the texts documented with [NoStopReasonText] and
// its siblings.
func StreamFn(opts Options) agentcore.StreamFn {
	opts.Headers = maps.Clone(opts.Headers)
	ch := &chains{}
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			out := provider.Message(model)
			msgs, err := agentcore.ValueMessages(req.Messages)
			if err != nil {
				provider.Fail(ctx, w, out, provider.ErrFailure(err))
				return
			}
			c := &call{opts: opts, chains: ch, model: model, messages: msgs, so: so, w: w, out: out}
			c.run(ctx)
		})
	}
}

// call is one model request and its response.
type call struct {
	opts     Options
	chains   *chains
	model    agentcore.Model
	messages []agentcore.Message
	so       agentcore.StreamOptions
	w        *agentcore.StreamWriter
	out      *agentcore.AssistantMessage
}

// run sends the request and streams its response. Unlike the providers
// on [provider.Run], the start event comes with the stream's messageStart,
// as pi-ai emits it: a refused request or a stream that fails before it
// has none.
func (c *call) run(ctx context.Context) {
	resp, f := c.send(ctx)
	if resp == nil {
		provider.Fail(ctx, c.w, c.out, f)
		return
	}
	defer resp.Body.Close()
	b := provider.NewBuilder(provider.Call{Model: c.model, Options: c.so, W: c.w, Out: c.out}, c.opts.MaxResponseBytes)
	d := newDecoder(b, c.model)
	d.observe = c.observer(ctx)
	f = provider.ReadEvents(ctx, &frameEvents{frames: newFrameReader(resp.Body)}, d, b, provider.ReadRules{AbortedText: AbortedText})
	if f == nil && !b.Stopped() {
		f = c.end(ctx)
	}
	d.flushOpen()
	switch {
	case f != nil:
		provider.Fail(ctx, c.w, c.out, f)
	case !b.Stopped():
		c.w.Done(c.out)
	}
}

// frameEvents is the event messages of an event stream as the read loop
// takes them ([provider.Events]): each event's type as its name and its
// payload as its data. An exception or error message, a body that does
// not frame and a connection that broke off end it with their
// [*provider.Failure]; the end of the body and a limit of the response
// are returned as they are.
type frameEvents struct {
	frames *frameReader
}

func (e *frameEvents) Next() (sse.Event, error) {
	for {
		fr, err := e.frames.next()
		switch {
		case errors.Is(err, io.EOF), limit.Is(err):
			return sse.Event{}, err
		case err != nil:
			return sse.Event{}, bodyFailure(err)
		}
		switch string(fr.messageType) {
		case "event":
			return sse.Event{Name: string(fr.eventType), Data: fr.payload}, nil
		case "exception", "error":
			return sse.Event{}, frameFailure(fr)
		}
	}
}

// observer is the OnProviderStreamEvent hook bound to ctx and the model.
func (c *call) observer(ctx context.Context) func(json.RawMessage) error {
	h := c.so.OnProviderStreamEvent
	if h == nil {
		return nil
	}
	return func(data json.RawMessage) error { return h(ctx, c.model, data) }
}

// send builds, authenticates and posts the request. It returns the
// response when the server accepted it (2xx), else the failure.
func (c *call) send(ctx context.Context) (*http.Response, *provider.Failure) {
	req, err := buildRequest(c.model, c.messages, c.so, settings{
		cache:      c.opts.cacheRetention(c.so),
		forceCache: c.opts.getenv("AWS_BEDROCK_FORCE_CACHE") == "1",
		govCloud:   isGovCloud(c.model, c.opts),
	})
	if err != nil {
		return nil, provider.ErrFailure(err)
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, provider.TextFailure("Could not encode the request: " + err.Error())
	}
	t := c.opts.resolveTarget(c.model)
	a, err := c.chains.resolveAuth(ctx, c.opts, c.so.APIKey, &t)
	if err != nil {
		if ctx.Err() != nil {
			return nil, provider.TextFailure(AbortedBeforeResponseText)
		}
		return nil, provider.ErrFailure(err)
	}
	endpoint := t.endpoint
	if endpoint == "" {
		endpoint = endpointFor(t.region)
	}
	client := c.opts.HTTPClient
	header := c.headers(endpoint)
	if a.token != "" {
		header.Set("Authorization", "Bearer "+a.token)
	} else {
		client = signed(client, a)
	}
	return provider.Send(ctx, provider.Request{
		Client: client, URL: endpoint + modelPath(c.model.ID), Header: header, Body: body, Model: c.model,
		Options: c.so, IdleTimeout: c.opts.IdleTimeout, MaxResponseBytes: c.opts.MaxResponseBytes,
	}, statusFailure, connectionFailure, AbortedBeforeResponseText)
}

// headers are the request's headers: the identity's and the content
// type, then the Options' and the request's headers, except those the
// authentication owns.
func (c *call) headers(endpoint string) http.Header {
	h := provider.IdentityHeaders(c.so.Identity, c.model.Provider, endpoint)
	h.Set("Content-Type", "application/json")
	for _, set := range []map[string]string{c.opts.Headers, c.so.Headers} {
		allowed := map[string]string{}
		for k, v := range set {
			if !reservedHeader(k) {
				allowed[k] = v
			}
		}
		provider.Layer(h, allowed)
	}
	return h
}

// isGovCloud reports whether the request goes to AWS GovCloud: its
// configured region or its model ID says so.
func isGovCloud(model agentcore.Model, o Options) bool {
	region := firstNonEmpty(o.Region, o.getenv("AWS_REGION"), o.getenv("AWS_DEFAULT_REGION"))
	return hasPrefixFold(region, "us-gov-") || hasPrefixFold(model.ID, "us-gov.") || hasPrefixFold(model.ID, "arn:aws-us-gov:")
}

func hasPrefixFold(s, prefix string) bool {
	return strings.HasPrefix(strings.ToLower(s), prefix)
}

// end judges the response once its body is read.
func (c *call) end(ctx context.Context) *provider.Failure {
	switch {
	case ctx.Err() != nil:
		return provider.TextFailure(AbortedAfterBodyText)
	case c.out.StopReason == agentcore.StopPending:
		return provider.TextFailure(NoStopReasonText)
	case c.out.StopReason == agentcore.StopError || c.out.StopReason == agentcore.StopAborted:
		if c.out.ErrorMessage != "" {
			return provider.TextFailure(c.out.ErrorMessage)
		}
		return provider.TextFailure(UnknownErrorText)
	}
	return nil
}
