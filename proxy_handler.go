package agentcore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/pi-go/agentcore/internal/sse"
)

// DefaultMaxProxyRequestBytes is the request body limit of a [ProxyHandler]
// whose MaxRequestBytes is zero.
const DefaultMaxProxyRequestBytes = 8 << 20

// DefaultProxyWriteIdleTimeout is the per-write deadline of a
// [ProxyHandler] whose WriteIdleTimeout is zero.
const DefaultProxyWriteIdleTimeout = 30 * time.Second

// ProxyInternalErrorText is all a client is told of a panic in a
// [ProxyHandler]'s hooks or stream function: the error field of a 500
// answer, or the ErrorMessage of the final error event once streaming.
// The detail goes to [ProxyHandlerOptions.OnError].
const ProxyInternalErrorText = "proxy: internal error"

// ErrProxyPanic marks the errors [ProxyHandlerOptions.OnError] receives
// for a recovered panic.
var ErrProxyPanic = errors.New("agentcore: proxy: panic")

// ProxyHandlerOptions configure [NewProxyHandler].
type ProxyHandlerOptions struct {
	// StreamFn answers the proxied requests; nil uses the default stream
	// function ([SetDefaultStreamFn]), and a request then fails with 500
	// when none is installed. It runs on the request's goroutine with a ctx
	// that is cancelled when the client goes away or the answer cannot be
	// written.
	StreamFn StreamFn

	// Authorize decides whether a request may use the proxy. token is the
	// bearer token of its Authorization header ("" when there is none); r
	// is the request, whose body it must not read. It runs first, on the
	// request's goroutine, for every request. A nil error admits the
	// request; an error refuses it with 401 (or the status of a
	// [*ProxyHTTPError]) and the error's text. A nil Authorize refuses every
	// request: a proxy that holds keys is closed until told otherwise.
	Authorize func(r *http.Request, token string) error

	// Prepare, when not nil, applies the server's policy to a decoded
	// request before it is streamed: it may check or change the model, the
	// messages and the options (set Options.APIKey, cap MaxTokens, replace
	// the model by an allowed one). It runs on the request's goroutine and
	// may keep call. An error refuses the request with 403 (or the status
	// of a [*ProxyHTTPError]) and the error's text.
	//
	// Everything in call comes from the client. A server that adds its own
	// key should not trust the client's Model (its BaseURL and Headers
	// would send the key wherever the client says) or Options.Headers:
	// look the model up by ID in the server's own list and replace it.
	Prepare func(r *http.Request, call *ProxyCall) error

	// MaxRequestBytes caps the request body; zero means
	// [DefaultMaxProxyRequestBytes]. A larger body is refused with 413.
	MaxRequestBytes int64

	// Messages decodes the request's messages; nil knows only the standard
	// roles, and any other role arrives as a [*CustomMessage].
	Messages *MessageRegistry

	// WriteIdleTimeout bounds each write of the answer: before it writes
	// an event, the handler sets the connection's write deadline
	// ([http.ResponseController.SetWriteDeadline]) that far ahead. A client
	// that stops reading makes a write fail once the deadline passes; the
	// stream function's ctx is then cancelled and ServeHTTP returns. Unlike
	// [http.Server.WriteTimeout], it does not cut a long stream that a
	// client keeps reading. Zero means [DefaultProxyWriteIdleTimeout];
	// negative means no deadline. A ResponseWriter without deadlines (a
	// test recorder) is written without.
	WriteIdleTimeout time.Duration

	// OnError, when not nil, is told what the handler keeps from its
	// clients or has no client to tell: a panic of Authorize, Prepare or
	// the stream function (the client gets [ProxyInternalErrorText]; err
	// wraps [ErrProxyPanic] and its text holds the panic value and the
	// stack), and a failed write of the answer (a client that went away, or
	// stopped reading past WriteIdleTimeout). It is called on the request's
	// goroutine, synchronously, once per failure, before ServeHTTP
	// returns; r is the request (read-only; its body is not to be read) and err
	// is OnError's to keep. It must not write to the response. A nil
	// OnError drops the detail.
	OnError func(r *http.Request, err error)
}

// ProxyCall is one decoded proxy request, as [ProxyHandlerOptions.Prepare]
// sees it and the stream function gets it.
type ProxyCall struct {
	Model   Model
	Request Request
	// Options are the request's stream options; APIKey is always empty on
	// arrival (clients never send keys).
	Options StreamOptions
	// RawOptions is the request's options object as sent, for fields a
	// newer client may send that StreamOptions does not know. Read-only.
	RawOptions json.RawMessage
}

// ProxyHTTPError is an error with the HTTP status a [ProxyHandler] answers
// with, for Authorize and Prepare to choose it.
type ProxyHTTPError struct {
	// Status is the HTTP status code, 4xx or 5xx.
	Status int
	// Message is the text of the answer's "error" field.
	Message string
}

// Error returns the message.
func (e *ProxyHTTPError) Error() string { return e.Message }

// ProxyHandler serves a [StreamFn] over HTTP in the wire format of pi's
// proxy, for [StreamProxy] and the TypeScript streamProxy: mount it at
// /api/stream. A request is a POST of {model, context: {messages},
// options} as JSON with "Authorization: Bearer TOKEN"; the answer is an
// event stream of the model's events without their partial message. Before
// streaming, failures answer with a JSON {"error": "..."} and a fitting
// status: 405 for a method other than POST, 401 when Authorize refuses, 415
// for a body that is not JSON, 413 over the size limit, 400 for a body that
// does not decode, 403 when Prepare refuses, 500 without a stream function
// or when a hook panics.
// Once streaming, failures are error events, like any model failure.
//
// Each request's stream runs on the request's goroutine: when the client
// goes away, or stops reading for longer than WriteIdleTimeout, the stream
// function's ctx is cancelled, and ServeHTTP returns once the stream has
// ended; it leaves no goroutine behind. A panic in a hook or the stream
// function reaches the client only as [ProxyInternalErrorText]. A
// ProxyHandler is safe for concurrent use.
//
// # Server timeouts
//
// The handler bounds its writes; the [http.Server] it runs in must bound
// the reading of requests, or a client that sends its headers or body
// slowly, or stops halfway, holds a handler forever. Set
// ReadHeaderTimeout (the headers) and ReadTimeout (headers and body; the
// server clears it once the body is read, so it does not cut a stream),
// and IdleTimeout for idle keep-alive connections. Leave WriteTimeout
// zero: it bounds the whole answer and cuts long streams; the handler's
// WriteIdleTimeout bounds each write instead. examples/proxy sets them.
type ProxyHandler struct {
	opts ProxyHandlerOptions
}

// NewProxyHandler returns a handler configured by opts.
func NewProxyHandler(opts ProxyHandlerOptions) *ProxyHandler {
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = DefaultMaxProxyRequestBytes
	}
	if opts.WriteIdleTimeout == 0 {
		opts.WriteIdleTimeout = DefaultProxyWriteIdleTimeout
	}
	return &ProxyHandler{opts: opts}
}

// ServeHTTP answers one proxy request.
func (h *ProxyHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeProxyError(w, http.StatusMethodNotAllowed, "method not allowed: use POST")
		return
	}
	if err := h.authorize(r); err != nil {
		if !h.internal(w, r, err) {
			w.Header().Set("WWW-Authenticate", "Bearer")
			writeProxyHookError(w, err, http.StatusUnauthorized)
		}
		return
	}
	call, status, err := h.decode(w, r)
	if err != nil {
		writeProxyError(w, status, err.Error())
		return
	}
	if h.opts.Prepare != nil {
		if err := h.guard("Prepare", func() error { return h.opts.Prepare(r, call) }); err != nil {
			if !h.internal(w, r, err) {
				writeProxyHookError(w, err, http.StatusForbidden)
			}
			return
		}
	}
	fn, err := resolveStreamFn(h.opts.StreamFn)
	if err != nil {
		writeProxyError(w, http.StatusInternalServerError, err.Error())
		return
	}
	h.serveStream(w, r, fn, call)
}

// guard runs f and returns its error, or a panic of f as an error that
// wraps [ErrProxyPanic] and names what panicked (where).
func (h *ProxyHandler) guard(where string, f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("%w in %s: %v\n%s", ErrProxyPanic, where, v, debug.Stack())
		}
	}()
	return f()
}

// internal answers 500 with [ProxyInternalErrorText] when err is a
// recovered panic, after telling OnError; it reports whether it did.
func (h *ProxyHandler) internal(w http.ResponseWriter, r *http.Request, err error) bool {
	if !errors.Is(err, ErrProxyPanic) {
		return false
	}
	h.report(r, err)
	writeProxyError(w, http.StatusInternalServerError, ProxyInternalErrorText)
	return true
}

// report tells OnError about err.
func (h *ProxyHandler) report(r *http.Request, err error) {
	if h.opts.OnError != nil {
		h.opts.OnError(r, err)
	}
}

// authorize runs the Authorize hook on the request's bearer token.
func (h *ProxyHandler) authorize(r *http.Request) error {
	if h.opts.Authorize == nil {
		return errors.New("unauthorized")
	}
	token := ""
	if scheme, rest, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
		token = strings.TrimSpace(rest)
	}
	return h.guard("Authorize", func() error { return h.opts.Authorize(r, token) })
}

// decode reads and decodes the request body; on failure it returns the
// status to answer with.
func (h *ProxyHandler) decode(w http.ResponseWriter, r *http.Request) (*ProxyCall, int, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return nil, http.StatusUnsupportedMediaType, fmt.Errorf("unsupported content type %q: send application/json", ct)
		}
	}
	body, err := readProxyBody(http.MaxBytesReader(w, r.Body, h.opts.MaxRequestBytes), min(r.ContentLength, h.opts.MaxRequestBytes))
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("request body too large: the limit is %d bytes", h.opts.MaxRequestBytes)
	}
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("invalid request: %v", err)
	}
	call, err := decodeProxyRequest(body, h.opts.Messages)
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("invalid request: %v", err)
	}
	return call, 0, nil
}

// serveStream streams fn's answer to call as server-sent events until
// the final event, the end of the stream, or a failed write.
func (h *ProxyHandler) serveStream(w http.ResponseWriter, r *http.Request, fn StreamFn, call *ProxyCall) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	out, err := h.startAnswer(w)
	if err != nil {
		h.report(r, fmt.Errorf("proxy: writing the answer: %w", err))
		return
	}
	rl := &proxyRelay{h: h, r: r, out: out, cancel: cancel}
	err = h.guard("the stream function", func() error {
		return rl.relay(fn(ctx, call.Model, call.Request, call.Options))
	})
	rl.finish(err, call.Model)
}

// startAnswer writes the headers of an event stream and flushes them.
func (h *ProxyHandler) startAnswer(w http.ResponseWriter) (*proxyEventWriter, error) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Accel-Buffering", "no")
	out := &proxyEventWriter{sse: sse.NewWriter(w), rc: http.NewResponseController(w), idle: h.opts.WriteIdleTimeout}
	out.deadline()
	w.WriteHeader(http.StatusOK)
	return out, out.flush()
}

// proxyEventWriter writes events to one answer and flushes each.
type proxyEventWriter struct {
	sse    *sse.Writer
	rc     *http.ResponseController
	idle   time.Duration // the per-write deadline; negative for none
	ended  bool          // the final event was written
	broken bool          // a write failed
}

// write sends ev; it reports whether ev was the final event, and a write
// error (after which nothing more is written).
func (o *proxyEventWriter) write(ev AssistantEvent) (final bool, err error) {
	if o.broken || o.ended {
		return true, nil
	}
	data, ok, err := encodeProxyEvent(ev)
	if err != nil {
		// An event that cannot be encoded (a custom message value that
		// fails to marshal) ends the answer as an error.
		msg := &AssistantMessage{Content: []ContentBlock{}, StopReason: StopError, ErrorMessage: "proxy: " + err.Error()}
		if p := ev.partial(); p != nil {
			msg = p.Clone()
			msg.StopReason, msg.ErrorMessage = StopError, "proxy: "+err.Error()
		}
		data, ok, err = encodeProxyEvent(&ErrorEvent{Reason: StopError, Message: msg})
		if err != nil {
			o.broken = true
			return true, err
		}
		ev = &ErrorEvent{}
	}
	if !ok {
		return false, nil
	}
	o.deadline()
	if err := o.sse.WriteData(data); err != nil {
		o.broken = true
		return true, err
	}
	if err := o.flush(); err != nil {
		o.broken = true
		return true, err
	}
	switch ev.(type) {
	case *DoneEvent, *ErrorEvent:
		o.ended = true
		return true, nil
	}
	return false, nil
}

// deadline sets the write deadline for the next write, when the writer
// supports one.
func (o *proxyEventWriter) deadline() {
	if o.idle > 0 {
		_ = o.rc.SetWriteDeadline(time.Now().Add(o.idle))
	}
}

func (o *proxyEventWriter) flush() error {
	if err := o.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// writeProxyError answers with status and {"error": text}.
func writeProxyError(w http.ResponseWriter, status int, text string) {
	body, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{text})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}

// writeProxyHookError answers for a hook's error: its status when it is a
// [*ProxyHTTPError], else fallback.
func writeProxyHookError(w http.ResponseWriter, err error, fallback int) {
	status := fallback
	if he, ok := errors.AsType[*ProxyHTTPError](err); ok && he.Status >= 400 && he.Status <= 599 {
		status = he.Status
	}
	writeProxyError(w, status, err.Error())
}
