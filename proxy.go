package agentcore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pi-go/agentcore/internal/provider/redirect"
	"github.com/pi-go/agentcore/internal/retryafter"
	"github.com/pi-go/agentcore/internal/sse"
)

// ProxyOptions configure [StreamProxy]. The zero value is not useful: URL
// is required.
type ProxyOptions struct {
	// URL is the proxy server's base URL, such as "https://genai.example.com".
	// Requests go to URL + "/api/stream" (a trailing slash of URL is dropped).
	URL string
	// AuthToken is sent as "Authorization: Bearer AuthToken". It
	// authenticates the client to the proxy; it is not a provider key.
	AuthToken string
	// GetAuthToken, when not nil, is called for every request, on the
	// goroutine consuming the stream, and its token is sent instead of
	// AuthToken (for tokens that expire). An error ends the response as an
	// error message with the error's text.
	GetAuthToken func(ctx context.Context) (string, error)
	// Client sends the requests; nil means [http.DefaultClient]. A client
	// Timeout bounds the whole response, streaming included. Whatever its
	// CheckRedirect, a redirect to another origin than URL's is refused
	// with [ErrCrossOriginRedirect] (the token and the transcript go to
	// nobody else); Client itself is not changed.
	Client *http.Client
	// MaxEventBytes caps one event line of the answer; zero means 16 MiB.
	// A longer line ends the response with an error message.
	MaxEventBytes int
}

// The error texts of proxied responses that fail on the client side, as the
// reference client words them.
const (
	// ProxyClosedText ends a response whose stream closed before a done or
	// error event.
	ProxyClosedText = "Connection closed by proxy server before the response completed"
	// ProxyAbortedText ends a response aborted while it streamed.
	ProxyAbortedText = "Request aborted by user"
	// ProxyAbortedEarlyText ends a response aborted before the server
	// answered (the text fetch rejects with).
	ProxyAbortedEarlyText = "This operation was aborted"
)

// maxErrorBody caps how much of a non-2xx answer is read for its error.
const maxErrorBody = 1 << 20

// StreamProxy returns a [StreamFn] that calls a model through a pi proxy
// server instead of a provider: the port of pi-agent-core's streamProxy.
// Each request POSTs {model, context: {messages}, options} as JSON to
// opts.URL + "/api/stream" with "Authorization: Bearer TOKEN", reads the
// server-sent events (assistant events without their partial message) and
// rebuilds the assistant message from them: text and thinking grow with
// their deltas and get their signatures at their end; a tool call's
// arguments, streamed as JSON text, show as the best-effort value of the
// text so far while they stream and become the server's complete call at
// toolcall_end; done and error carry the stop reason and usage.
//
// One deviation from the reference client, for safety: when a tool call
// ends (its toolcall_end, or done for a call that got none) without the
// server sending its arguments, the reference keeps the best-effort value
// of the streamed text, so a call cut off inside {"path": "/etc/pas runs
// with path "/etc/pas". Here the streamed text is parsed strictly, as
// pi-ai parses a provider's finished call: text that is no complete JSON
// object leaves the arguments {} and sets [ToolCall.ArgumentsError], and
// the loop answers the call with an error result instead of running it.
//
// The request is sent when the stream is first ranged over, and everything
// runs on the goroutine ranging over it: no goroutine is started. The
// provider key is not sent (StreamOptions.APIKey stays with the client and
// is ignored); the proxy server holds the keys.
//
// Failures end the stream with an error message, never a panic or a hang:
// a non-2xx answer ("Proxy error: 401 Unauthorized", or "Proxy error: "
// and the answer's JSON "error" field when it has one), a stream that ends
// without done or error ([ProxyClosedText]), an event that is not valid
// JSON or does not fit the message ("Received text_delta for non-text
// content", as the reference words it; "Invalid proxy event: ..."
// otherwise), and transport errors (their Go text). Cancelling ctx aborts
// the request at once, closing the connection; the message then has
// stopReason "aborted" and [ProxyAbortedText] (or [ProxyAbortedEarlyText]
// before the server answered). A consumer that stops ranging early closes
// the response body before the range returns.
func StreamProxy(opts ProxyOptions) StreamFn {
	return func(ctx context.Context, model Model, req Request, so StreamOptions) AssistantStream {
		return NewAssistantStream(func(w *StreamWriter) {
			p := proxyCall{ctx: ctx, opts: opts, w: w, rb: newProxyRebuilder(model)}
			p.run(model, req, so)
		})
	}
}

// proxyCall is one proxied response in progress.
type proxyCall struct {
	ctx  context.Context
	opts ProxyOptions
	w    *StreamWriter
	rb   *proxyRebuilder
}

// fail ends the response with text, aborted when ctx is done.
func (p *proxyCall) fail(text string) { p.failWith(ProviderError{Message: text}) }

// failWith ends the response as failure describes, its Err the failure
// unless ctx is done (the response is then aborted).
func (p *proxyCall) failWith(failure ProviderError) {
	p.w.Fail(p.ctx, p.rb.msg, &failure)
}

func (p *proxyCall) run(model Model, req Request, so StreamOptions) {
	resp, err := p.post(model, req, so)
	if err != nil {
		p.failWith(ProviderError{Message: err.Error(), Err: err})
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		p.failWith(ProviderError{Message: proxyStatusText(resp), StatusCode: resp.StatusCode, RetryAfter: retryafter.Parse(resp.Header, time.Now())})
		return
	}
	events := sse.NewReader(resp.Body, p.opts.MaxEventBytes)
	for {
		if p.ctx.Err() != nil {
			p.fail(ProxyAbortedText)
			return
		}
		data, err := events.NextData()
		switch {
		case p.ctx.Err() != nil:
			p.fail(ProxyAbortedText)
			return
		case err == io.EOF:
			p.fail(ProxyClosedText)
			return
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET):
			// The server went away in the middle of the body.
			p.fail(ProxyClosedText)
			return
		case err != nil:
			p.failWith(ProviderError{Message: err.Error(), Err: err})
			return
		}
		ev, err := p.rb.apply(data)
		if err != nil {
			p.fail(err.Error())
			return
		}
		if ev != nil && !p.w.Push(ev) {
			return // the final event, or the consumer stopped
		}
	}
}

// post sends the request and returns the answer, or the error text to fail
// with.
func (p *proxyCall) post(model Model, req Request, so StreamOptions) (*http.Response, error) {
	messages := req.Messages
	if messages == nil {
		messages = []Message{}
	}
	body, err := json.Marshal(proxyRequestBody{Model: model, Context: proxyContext{Messages: messages}, Options: wireOptions(so)})
	if err != nil {
		return nil, fmt.Errorf("Proxy request: %w", err)
	}
	token := p.opts.AuthToken
	if p.opts.GetAuthToken != nil {
		if token, err = p.opts.GetAuthToken(p.ctx); err != nil {
			return nil, err
		}
	}
	hreq, err := http.NewRequestWithContext(p.ctx, http.MethodPost, strings.TrimSuffix(p.opts.URL, "/")+"/api/stream", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Authorization", "Bearer "+token)
	hreq.Header.Set("Content-Type", "application/json")
	resp, err := redirect.Do(p.opts.Client, hreq)
	if err != nil {
		if p.ctx.Err() != nil {
			return nil, errors.New(ProxyAbortedEarlyText)
		}
		return nil, err
	}
	return resp, nil
}

// proxyStatusText is the error text of a non-2xx answer: "Proxy error: "
// and the JSON body's "error" field when it is set, else the status.
func proxyStatusText(resp *http.Response) string {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) == nil {
		if text := truthyText(fields["error"]); text != "" {
			return "Proxy error: " + text
		}
	}
	code := strconv.Itoa(resp.StatusCode)
	reason := strings.TrimSpace(strings.TrimPrefix(resp.Status, code))
	if resp.Status == "" {
		reason = http.StatusText(resp.StatusCode)
	}
	return "Proxy error: " + code + " " + reason
}

// truthyText returns the text of a JSON value JavaScript finds truthy: a
// string as is, any other truthy value as its JSON; "" for falsy ones
// (absent, null, false, 0, "").
func truthyText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	case 'n', 'f':
		return ""
	case '{', '[', 't':
		return string(raw)
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil && f == 0 {
		return ""
	}
	return string(raw)
}
