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

	"github.com/pi-go/agentcore/internal/jsvalue"
	"github.com/pi-go/agentcore/internal/limit"
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
	// MaxResponseBytes caps the content one response may build: the bytes
	// of its text, thinking, signatures and tool calls (IDs, names and
	// argument text), each block also counting for 64 bytes, so that a
	// stream of empty blocks is capped too. A response past it ends as an
	// error with the content that fit, its Err wrapping
	// [ErrResponseTooLarge] and its text "Response too large: more than N
	// bytes of content". Zero means [DefaultMaxResponseBytes] (16 MiB);
	// negative, no cap. The same cap bounds the bytes a compressed answer
	// (gzip, which Go's transport asks for and inflates) may inflate to:
	// past them the response ends with the same error, its text
	// "Response too large: more than N bytes inflated from a compressed
	// body".
	MaxResponseBytes int64
	// IdleTimeout bounds how long the response waits for the server: for
	// its headers, then at each read of its body (counted only while the
	// stream waits for the server, not while the consumer handles an
	// event). A server that sends nothing for that long ends the response
	// as an error, its Err wrapping [ErrStreamIdleTimeout] and its text
	// "Stream idle timeout: no data from the server for D". Zero means
	// [DefaultStreamIdleTimeout] (10 minutes); negative, none (ctx alone
	// bounds the stream).
	IdleTimeout time.Duration
}

// proxyBlockBytes is what each block of a proxied response counts for
// against [ProxyOptions.MaxResponseBytes], besides its content.
const proxyBlockBytes = 64

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
// and the answer's JSON "error" field when it has one, cut to 4000
// characters), a response past its caps (MaxEventBytes, MaxResponseBytes)
// or its IdleTimeout, a stream that ends without done or error
// ([ProxyClosedText]), an event that is not valid JSON or does not fit
// the message ("Received text_delta for non-text content", as the
// reference words it; "Invalid proxy event: ..." otherwise), and
// transport errors (their Go text). The text of an error event is cut to
// 16000 characters, and the counts of its usage, or a done event's, are
// clamped to 0…math.MaxInt64 and its costs to 0 and above, as the
// providers of this module do. Cancelling ctx aborts
// the request at once, closing the connection; the message then has
// stopReason "aborted" and [ProxyAbortedText] (or [ProxyAbortedEarlyText]
// before the server answered). A consumer that stops ranging early closes
// the response body before the range returns.
func StreamProxy(opts ProxyOptions) StreamFn {
	return func(ctx context.Context, model Model, req Request, so StreamOptions) AssistantStream {
		return NewAssistantStream(func(w *StreamWriter) {
			p := proxyCall{ctx: ctx, opts: opts, w: w, rb: newProxyRebuilder(model, opts.MaxResponseBytes)}
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

// failErr ends the response with err, its text and its cause.
func (p *proxyCall) failErr(err error) { p.failWith(ProviderError{Message: err.Error(), Err: err}) }

// failWith ends the response as failure describes, its Err the failure
// unless ctx is done (the response is then aborted). Its text is cut to
// [limit.MaxFailureText] characters, whatever the server sent.
func (p *proxyCall) failWith(failure ProviderError) {
	failure.Message = limit.Truncate(failure.Message, limit.MaxFailureText)
	p.w.Fail(p.ctx, p.rb.msg, &failure)
}

func (p *proxyCall) run(model Model, req Request, so StreamOptions) {
	// The request runs under its own context, which the idle timeout
	// cancels with its error as the cause.
	ctx, cancel := context.WithCancelCause(p.ctx)
	defer cancel(nil)
	idle := limit.Duration(p.opts.IdleTimeout, DefaultStreamIdleTimeout)
	resp, err := p.post(ctx, cancel, idle, model, req, so)
	if err != nil {
		p.failErr(err)
		return
	}
	body := limit.WatchIdle(ctx, cancel, limit.Inflated(resp, p.opts.MaxResponseBytes), idle)
	defer body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		p.failWith(ProviderError{Message: proxyStatusText(resp, body), StatusCode: resp.StatusCode, RetryAfter: retryafter.Parse(resp.Header, time.Now())})
		return
	}
	events := sse.NewReader(body, p.opts.MaxEventBytes)
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
			p.failErr(err)
			return
		}
		ev, err := p.rb.apply(data)
		switch {
		case limit.Is(err):
			p.failErr(err)
			return
		case err != nil:
			p.fail(err.Error())
			return
		}
		if ev != nil && !p.w.Push(ev) {
			return // the final event, or the consumer stopped
		}
	}
}

// post sends the request under ctx and returns the answer, or the error
// to fail with. Past idle (when above 0) without the answer's headers,
// cancel ends the request with the idle timeout's error.
func (p *proxyCall) post(ctx context.Context, cancel context.CancelCauseFunc, idle time.Duration, model Model, req Request, so StreamOptions) (*http.Response, error) {
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
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(p.opts.URL, "/")+"/api/stream", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	hreq.Header.Set("Authorization", "Bearer "+token)
	hreq.Header.Set("Content-Type", "application/json")
	stopIdle := limit.WatchHeaders(cancel, idle)
	resp, err := redirect.Do(p.opts.Client, hreq)
	stopIdle()
	switch cause := context.Cause(ctx); {
	case err == nil:
		return resp, nil
	case p.ctx.Err() != nil:
		return nil, errors.New(ProxyAbortedEarlyText)
	case limit.Is(cause):
		return nil, cause
	}
	return nil, err
}

// proxyStatusText is the error text of a non-2xx answer, whose body is
// body: "Proxy error: " and the JSON body's "error" field when it is
// truthy (cut to [limit.MaxErrorData] characters), else the status.
func proxyStatusText(resp *http.Response, body io.Reader) string {
	data, _ := io.ReadAll(io.LimitReader(body, maxErrorBody))
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) == nil && jsvalue.Truthy(fields["error"]) {
		return "Proxy error: " + limit.Truncate(errorFieldText(fields["error"]), limit.MaxErrorData)
	}
	code := strconv.Itoa(resp.StatusCode)
	reason := strings.TrimSpace(strings.TrimPrefix(resp.Status, code))
	if resp.Status == "" {
		reason = http.StatusText(resp.StatusCode)
	}
	return "Proxy error: " + code + " " + reason
}

// errorFieldText is the text of a JSON value: a string as is, any other
// value as its JSON.
func errorFieldText(raw json.RawMessage) string {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return text
	}
	return string(bytes.TrimSpace(raw))
}
