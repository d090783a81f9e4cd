package provider

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/provider/redirect"
	"github.com/pi-go/agentcore/internal/retryafter"
)

// ErrTimedOut is the failure of an attempt whose response headers did not
// arrive within [agentcore.StreamOptions.Timeout]; its text is the SDKs'.
var ErrTimedOut = errors.New("Request timed out.")

// HookError is an error returned by a request hook; its text is the hook's
// error's.
type HookError struct {
	// Err is the hook's error.
	Err error
}

func (e *HookError) Error() string { return e.Err.Error() }
func (e *HookError) Unwrap() error { return e.Err }

// DelayTooLongError is a retryable refusal whose server asked for a longer
// wait than [agentcore.StreamOptions.MaxRetryDelay] allows: the request
// fails at once, its text before the provider's description of the
// refusal, as pi-ai words it.
type DelayTooLongError struct {
	// Requested is the delay the server asked for; Max is
	// [agentcore.StreamOptions.MaxRetryDelay].
	Requested, Max time.Duration
}

func (e *DelayTooLongError) Error() string {
	return fmt.Sprintf("Server requested %ds retry delay (max: %ds).", ceilSeconds(e.Requested), ceilSeconds(e.Max))
}

func ceilSeconds(d time.Duration) int64 { return int64(math.Ceil(d.Seconds())) }

// Payload passes body through so.OnPayload. A replacement must be a JSON
// object; with forceStream its "stream" member is set to true (in place,
// else last), as pi-ai's Anthropic adapter does. A hook error or a bad
// replacement is a [*HookError].
func Payload(ctx context.Context, so agentcore.StreamOptions, model agentcore.Model, body []byte, forceStream bool) ([]byte, error) {
	if so.OnPayload == nil {
		return body, nil
	}
	next, err := so.OnPayload(ctx, model, body)
	if err != nil {
		return nil, &HookError{err}
	}
	if next == nil {
		return body, nil
	}
	v, err := jsonv.Parse(next)
	if err != nil || v.Kind() != jsonv.Object {
		return nil, &HookError{errors.New("OnPayload returned a payload that is not a JSON object")}
	}
	if !forceStream {
		return v.AppendJSON(nil), nil
	}
	members := slices.Clone(v.Members())
	if i := v.IndexOf("stream"); i >= 0 {
		members[i].Value = jsonv.BoolValue(true)
	} else {
		members = append(members, jsonv.Member{Key: "stream", Value: jsonv.BoolValue(true)})
	}
	return jsonv.ObjectValue(members).AppendJSON(nil), nil
}

// Layer sets each of sets on h in order, later ones winning. An empty
// value removes the header, a default or the identity's included (pi's
// null); an emptied User-Agent is sent as none rather than Go's default.
func Layer(h http.Header, sets ...map[string]string) {
	for _, set := range sets {
		for k, v := range set {
			if v != "" {
				h.Set(k, v)
				continue
			}
			h.Del(k)
			if http.CanonicalHeaderKey(k) == "User-Agent" {
				h.Set(k, "")
			}
		}
	}
}

// Request is one provider request to send with [Do].
type Request struct {
	// Client sends each attempt (nil means http.DefaultClient), through
	// [redirect.Guard]: a redirect to another origin fails the request.
	Client *http.Client
	// URL, Header and Body make each attempt's POST; Do copies the header
	// and reads the body, changing neither.
	URL    string
	Header http.Header
	Body   []byte
	// Model is given to the OnResponse hook.
	Model agentcore.Model
	// Options supply Timeout, MaxRetries, MaxRetryDelay and OnResponse.
	Options agentcore.StreamOptions
	// ForceStream sets an OnPayload replacement's "stream" member to true
	// ([Payload]), as pi-ai's Anthropic adapter does.
	ForceStream bool
	// IdleTimeout bounds each wait for the server: for the response's
	// headers, then at each read of its body ([limit.WatchHeaders],
	// [limit.WatchIdle]). Past it the attempt, or the read, fails with an
	// error wrapping [agentcore.ErrStreamIdleTimeout]. Zero means
	// [agentcore.DefaultStreamIdleTimeout], negative none.
	IdleTimeout time.Duration
	// MaxResponseBytes is the provider's response cap; it bounds the
	// bytes a body the transport inflated may inflate to
	// ([limit.Inflated]). Zero means [agentcore.DefaultMaxResponseBytes],
	// negative none.
	MaxResponseBytes int64
}

// Do posts r until a response is accepted or a refusal is final, calling
// OnResponse for each response. It returns:
//   - a response and nil: a 2xx response or a refusal not retried, its
//     body unread (the caller closes it);
//   - a refusal and a [*DelayTooLongError]: the caller describes the
//     refusal (and closes its body), the error's text first;
//   - nil and an error: ctx's when it is done, a [*HookError] from
//     OnResponse, [ErrTimedOut], the idle timeout's error (no headers
//     within IdleTimeout), a refused redirect (wrapping
//     [redirect.ErrCrossOrigin], never retried), or the transport's error.
func Do(ctx context.Context, r Request) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := r.once(ctx)
		if ctx.Err() != nil {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, ctx.Err()
		}
		var hook *HookError
		if errors.As(err, &hook) || errors.Is(err, redirect.ErrCrossOrigin) {
			return nil, err
		}
		last := attempt >= r.Options.MaxRetries
		switch {
		case err != nil && last:
			return nil, err
		case err == nil && (resp.StatusCode >= 200 && resp.StatusCode < 300 || last || !retryable(resp)):
			return resp, nil
		}
		wait, tooLong := r.retryWait(resp, attempt)
		if tooLong != nil {
			return resp, tooLong
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// retryWait is the wait before the retry of attempt, whose response (nil
// when none) it reads and closes: the delay the server asked for, else
// the SDKs' backoff. A delay longer than MaxRetryDelay allows is a
// [*DelayTooLongError], resp then left open.
func (r Request) retryWait(resp *http.Response, attempt int) (time.Duration, *DelayTooLongError) {
	wait := backoff(attempt)
	if resp == nil {
		return wait, nil
	}
	if d := retryafter.Parse(resp.Header, time.Now()); d > 0 {
		if limit := retryDelayCap(r.Options.MaxRetryDelay); limit > 0 && d > limit {
			return 0, &DelayTooLongError{Requested: d, Max: limit}
		}
		wait = d
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return wait, nil
}

// maxRefusalBody caps how much of a refusal's body is read.
const maxRefusalBody = 1 << 20

// Reason returns the reason phrase of resp's status line, as the server
// sent it ("Not Found" of "404 Not Found"; "" when it sent none).
func Reason(resp *http.Response) string {
	_, reason, _ := strings.Cut(resp.Status, " ")
	return reason
}

// Send passes r.Body through OnPayload ([Payload]), then is [Do] with its
// outcome as a provider reports it: the accepted (2xx) response with its
// body unread and a nil failure, else nil and the failure. describe makes
// the failure of a refusal from the response (its status line and
// header; its body is closed) and its body (read up to 1 MiB); connection makes that of a request that got no response;
// aborted is the text of a request aborted before its response. A hook's
// error, a timeout and a refused redirect are failures with their own
// text, their cause kept, as is the idle timeout's before the headers; a refusal whose server asks a longer wait than
// MaxRetryDelay is described with the [DelayTooLongError]'s text, then
// the SDK's text of the refusal ([Failure.SDKText]), as pi-ai words it.
func Send(ctx context.Context, r Request, describe func(resp *http.Response, body []byte) *Failure, connection func(error) *Failure, aborted string) (*http.Response, *Failure) {
	body, err := Payload(ctx, r.Options, r.Model, r.Body, r.ForceStream)
	if err != nil {
		return nil, ErrFailure(err)
	}
	r.Body = body
	resp, err := Do(ctx, r)
	var tooLong *DelayTooLongError
	var hook *HookError
	switch {
	case errors.As(err, &tooLong):
		f := refusal(ctx, resp, describe, aborted)
		if f.Text != aborted {
			f.Text = tooLong.Error() + " " + cmp.Or(f.SDKText, f.Text)
		}
		return nil, f
	case err != nil && ctx.Err() != nil:
		return nil, TextFailure(aborted)
	case errors.As(err, &hook), errors.Is(err, ErrTimedOut), limit.Is(err), errors.Is(err, redirect.ErrCrossOrigin):
		return nil, ErrFailure(err)
	case err != nil:
		return nil, connection(err)
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		return resp, nil
	}
	return nil, refusal(ctx, resp, describe, aborted)
}

// refusal reads and closes a non-2xx response and describes it.
func refusal(ctx context.Context, resp *http.Response, describe func(*http.Response, []byte) *Failure, aborted string) *Failure {
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRefusalBody))
	if err != nil && ctx.Err() != nil {
		return TextFailure(aborted)
	}
	return describe(resp, body)
}

// once sends one attempt under the timeout and the idle timeout, and
// calls OnResponse.
func (r Request) once(ctx context.Context) (*http.Response, error) {
	idle := limit.Duration(r.IdleTimeout, agentcore.DefaultStreamIdleTimeout)
	actx, cancel := context.WithCancelCause(ctx)
	req, err := http.NewRequestWithContext(actx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		cancel(nil)
		return nil, err
	}
	req.Header = r.Header.Clone()
	var timer *time.Timer
	if r.Options.Timeout > 0 {
		timer = time.AfterFunc(r.Options.Timeout, func() { cancel(ErrTimedOut) })
	}
	stopIdle := limit.WatchHeaders(cancel, idle)
	resp, err := sendFresh(r.Client, req)
	stopIdle()
	if timer != nil && !timer.Stop() && context.Cause(actx) == ErrTimedOut {
		if resp != nil {
			resp.Body.Close()
		}
		cancel(nil)
		return nil, ErrTimedOut
	}
	if err != nil {
		if cause := context.Cause(actx); limit.Is(cause) {
			err = cause
		}
		cancel(nil)
		return nil, err
	}
	resp.Body = limit.WatchIdle(actx, cancel, cancelOnClose{limit.Inflated(resp, r.MaxResponseBytes), cancel}, idle)
	if h := r.Options.OnResponse; h != nil {
		pr := agentcore.ProviderResponse{StatusCode: resp.StatusCode, Header: resp.Header.Clone()}
		if err := h(ctx, r.Model, pr); err != nil {
			resp.Body.Close()
			return nil, &HookError{err}
		}
	}
	return resp, nil
}

// maxStaleSends bounds how many times [sendFresh] sends a request again.
const maxStaleSends = 4

// sendFresh sends req with client under the redirect policy
// ([redirect.Do]; a nil client is http.DefaultClient). A request that fails on a reused
// keep-alive connection before any byte of a response arrived (the server
// closed the idle connection as the request went out, which Go's transport
// retries only for idempotent requests) is sent again, up to
// maxStaleSends times: each failure drops its connection from the pool,
// so the request soon goes out on a fresh one. A failure on a fresh
// connection, or once the response began, is returned as it is.
func sendFresh(client *http.Client, req *http.Request) (*http.Response, error) {
	for sent := 0; ; sent++ {
		var reused, answered atomic.Bool
		trace := &httptrace.ClientTrace{
			GotConn:              func(c httptrace.GotConnInfo) { reused.Store(c.Reused) },
			GotFirstResponseByte: func() { answered.Store(true) },
		}
		attempt := req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
		if sent > 0 {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			attempt.Body = body
		}
		resp, err := redirect.Do(client, attempt)
		if err == nil || !reused.Load() || answered.Load() || req.GetBody == nil || sent == maxStaleSends || req.Context().Err() != nil {
			return resp, err
		}
	}
}

// cancelOnClose releases an attempt's context with its body.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}

// retryable reports whether a refusal may be retried, as the OpenAI and
// Anthropic SDKs decide: x-should-retry first, then 408, 409, 429, 5xx.
func retryable(resp *http.Response) bool {
	switch strings.TrimSpace(resp.Header.Get("X-Should-Retry")) {
	case "true":
		return true
	case "false":
		return false
	}
	s := resp.StatusCode
	return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
}

// retryDelayCap is the longest provider-requested wait retried for the
// option max, 0 when there is none.
func retryDelayCap(max time.Duration) time.Duration {
	return limit.Duration(max, agentcore.DefaultMaxRetryDelay)
}

// backoff is the SDKs' wait before retry attempt+1 when the server names
// none: 0.5s doubling up to 8s, less up to a quarter of jitter.
func backoff(attempt int) time.Duration {
	d := min(0.5*math.Pow(2, float64(attempt)), 8) * float64(time.Second)
	return time.Duration(d * (1 - rand.Float64()*0.25))
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
