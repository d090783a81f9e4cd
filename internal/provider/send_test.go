package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/pi-go/agentcore"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestPayload(t *testing.T) {
	body := []byte(`{"model":"m","stream":true}`)
	for _, tc := range []struct {
		name   string
		hook   func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error)
		stream bool
		want   string
		err    string
	}{
		{name: "no hook keeps the body", want: string(body)},
		{name: "nil keeps the body", hook: func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) { return nil, nil }, want: string(body)},
		{name: "a replacement is sent", hook: replace(`{"a":1, "stream":false}`), want: `{"a":1,"stream":false}`},
		{name: "stream forced in place", hook: replace(`{"a":1,"stream":false,"b":2}`), stream: true, want: `{"a":1,"stream":true,"b":2}`},
		{name: "stream forced last", hook: replace(`{"a":1}`), stream: true, want: `{"a":1,"stream":true}`},
		{name: "not an object", hook: replace(`"x"`), err: "OnPayload returned a payload that is not a JSON object"},
		{name: "not JSON", hook: replace(`{`), err: "OnPayload returned a payload that is not a JSON object"},
		{name: "the hook's error", hook: func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("no")
		}, err: "no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Payload(t.Context(), agentcore.StreamOptions{OnPayload: tc.hook}, agentcore.Model{}, body, tc.stream)
			if tc.err != "" {
				var hook *HookError
				require.ErrorAs(t, err, &hook)
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

func replace(s string) func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
	return func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(s), nil
	}
}

func TestLayer(t *testing.T) {
	h := IdentityHeaders(agentcore.Identity{}, "anthropic", "")
	h.Set("Accept", "application/json")
	Layer(h, map[string]string{"X-A": "1", "accept": ""}, map[string]string{"x-a": "2", "User-Agent": ""})
	assert.Equal(t, http.Header{"X-A": {"2"}, "User-Agent": {""}}, h)
}

// answer is one scripted reply of a [script]: a status with headers, a
// transport error, or a wait for the request's cancellation.
type answer struct {
	status int
	header http.Header
	err    error
	hang   bool
}

// script is a RoundTripper answering requests in order.
type script struct {
	answers []answer
	sent    int
}

func (s *script) RoundTrip(req *http.Request) (*http.Response, error) {
	a := s.answers[s.sent]
	s.sent++
	switch {
	case a.hang:
		<-req.Context().Done()
		return nil, req.Context().Err()
	case a.err != nil:
		return nil, a.err
	}
	h := a.header
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{StatusCode: a.status, Header: h, Body: io.NopCloser(strings.NewReader("body"))}, nil
}

func TestDo(t *testing.T) {
	for _, tc := range []struct {
		name      string
		answers   []answer
		opts      agentcore.StreamOptions
		status    int    // of the response returned, 0 for none
		err       string // of the error returned
		sent      int
		statuses  []int                       // seen by OnResponse
		minWait   time.Duration               // time spent, at least
		maxWait   time.Duration               // and at most
		hookError func(status int) error      // OnResponse's answer
		check     func(t *testing.T, e error) // more checks of the error
	}{
		{name: "no retries by default", answers: []answer{{status: 429}}, status: 429, sent: 1, statuses: []int{429}},
		{name: "accepted at once", answers: []answer{{status: 200}}, opts: agentcore.StreamOptions{MaxRetries: 3}, status: 200, sent: 1, statuses: []int{200}},
		{
			name:    "retry-after-ms, then backoff, then accepted",
			answers: []answer{{status: 429, header: http.Header{"Retry-After-Ms": {"1500"}}}, {status: 503}, {status: 200}},
			opts:    agentcore.StreamOptions{MaxRetries: 2}, status: 200, sent: 3, statuses: []int{429, 503, 200},
			minWait: 1500*time.Millisecond + 750*time.Millisecond, maxWait: 2500 * time.Millisecond,
		},
		{
			name:    "the last refusal is returned",
			answers: []answer{{status: 500}, {status: 502}},
			opts:    agentcore.StreamOptions{MaxRetries: 1}, status: 502, sent: 2, statuses: []int{500, 502},
			minWait: 375 * time.Millisecond, maxWait: 500 * time.Millisecond,
		},
		{name: "400 is final", answers: []answer{{status: 400}}, opts: agentcore.StreamOptions{MaxRetries: 2}, status: 400, sent: 1, statuses: []int{400}},
		{name: "x-should-retry false is final", answers: []answer{{status: 503, header: http.Header{"X-Should-Retry": {"false"}}}}, opts: agentcore.StreamOptions{MaxRetries: 2}, status: 503, sent: 1, statuses: []int{503}},
		{name: "x-should-retry true retries a 400", answers: []answer{{status: 400, header: http.Header{"X-Should-Retry": {"true"}}}, {status: 200}}, opts: agentcore.StreamOptions{MaxRetries: 1}, status: 200, sent: 2, statuses: []int{400, 200}, maxWait: time.Second},
		{
			name:    "a delay over MaxRetryDelay fails at once",
			answers: []answer{{status: 429, header: http.Header{"Retry-After": {"120"}}}},
			opts:    agentcore.StreamOptions{MaxRetries: 2, MaxRetryDelay: time.Minute}, status: 429, sent: 1, statuses: []int{429},
			err: "Server requested 120s retry delay (max: 60s).",
		},
		{
			name:    "with MaxRetryDelay zero a delay over a minute fails at once",
			answers: []answer{{status: 429, header: http.Header{"Retry-After": {"120"}}}},
			opts:    agentcore.StreamOptions{MaxRetries: 2}, status: 429, sent: 1, statuses: []int{429},
			err: "Server requested 120s retry delay (max: 60s).",
		},
		{
			name:    "a negative MaxRetryDelay waits what the server asks",
			answers: []answer{{status: 429, header: http.Header{"Retry-After": {"120"}}}, {status: 200}},
			opts:    agentcore.StreamOptions{MaxRetries: 1, MaxRetryDelay: -1}, status: 200, sent: 2, statuses: []int{429, 200},
			minWait: 120 * time.Second, maxWait: 120 * time.Second,
		},
		{name: "a network error is retried", answers: []answer{{err: errors.New("connection refused")}, {status: 200}}, opts: agentcore.StreamOptions{MaxRetries: 1}, status: 200, sent: 2, statuses: []int{200}, maxWait: time.Second},
		{name: "a network error is returned", answers: []answer{{err: errors.New("connection refused")}}, err: "Post \"http://provider.test/v1\": connection refused", sent: 1},
		{
			name: "the timeout bounds the wait for headers", answers: []answer{{hang: true}},
			opts: agentcore.StreamOptions{Timeout: 10 * time.Second}, err: "Request timed out.", sent: 1, minWait: 10 * time.Second, maxWait: 10 * time.Second,
			check: func(t *testing.T, err error) { assert.ErrorIs(t, err, ErrTimedOut) },
		},
		{
			name: "a timed-out attempt is retried", answers: []answer{{hang: true}, {status: 200}},
			opts: agentcore.StreamOptions{Timeout: 10 * time.Second, MaxRetries: 1}, status: 200, sent: 2, statuses: []int{200}, minWait: 10 * time.Second, maxWait: 11 * time.Second,
		},
		{
			name: "an OnResponse error is final", answers: []answer{{status: 429}, {status: 200}},
			opts: agentcore.StreamOptions{MaxRetries: 1}, err: "stop at 429", sent: 1, statuses: []int{429},
			hookError: func(s int) error { return fmt.Errorf("stop at %d", s) },
			check: func(t *testing.T, err error) {
				var hook *HookError
				assert.ErrorAs(t, err, &hook)
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rt := &script{answers: tc.answers}
				var statuses []int
				opts := tc.opts
				opts.OnResponse = func(_ context.Context, m agentcore.Model, resp agentcore.ProviderResponse) error {
					assert.Equal(t, "m", m.ID)
					statuses = append(statuses, resp.StatusCode)
					if tc.hookError != nil {
						return tc.hookError(resp.StatusCode)
					}
					return nil
				}
				start := time.Now()
				resp, err := Do(context.Background(), Request{
					Client: &http.Client{Transport: rt}, URL: "http://provider.test/v1", Header: http.Header{},
					Body: []byte(`{}`), Model: agentcore.Model{ID: "m"}, Options: opts,
				})
				waited := time.Since(start)
				if resp != nil {
					defer resp.Body.Close()
				}
				if tc.status == 0 {
					assert.Nil(t, resp)
				} else if assert.NotNil(t, resp) {
					assert.Equal(t, tc.status, resp.StatusCode)
				}
				if tc.err == "" {
					assert.NoError(t, err)
				} else {
					assert.EqualError(t, err, tc.err)
				}
				if tc.check != nil {
					tc.check(t, err)
				}
				assert.Equal(t, tc.sent, rt.sent)
				assert.Equal(t, tc.statuses, statuses)
				assert.GreaterOrEqual(t, waited, tc.minWait)
				assert.LessOrEqual(t, waited, tc.maxWait)
			})
		})
	}
}

func TestDoAbortsTheWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rt := &script{answers: []answer{{status: 429, header: http.Header{"Retry-After": {"30"}}}, {status: 200}}}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(5*time.Second, cancel)
		start := time.Now()
		resp, err := Do(ctx, Request{Client: &http.Client{Transport: rt}, URL: "http://provider.test/v1", Header: http.Header{}, Options: agentcore.StreamOptions{MaxRetries: 1}})
		assert.Nil(t, resp)
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 5*time.Second, time.Since(start))
		assert.Equal(t, 1, rt.sent)
	})
}
