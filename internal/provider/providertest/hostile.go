package providertest

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// Hostile checks the provider against servers that try to do it harm:
// see each subtest.
func Hostile(t *testing.T, target Target) {
	t.Run("redirects", target.redirects)
	t.Run("a huge tool call ends at the response cap", target.responseCap)
	t.Run("MaxResponseBytes", target.maxResponseBytes)
	t.Run("IdleTimeout", target.idleTimeout)
	t.Run("IdleTimeout before the headers", target.idleBeforeHeaders)
	t.Run("a gzip bomb ends at the response cap", target.gzipBomb)
}

// maxResponseBytes: a response of more content than MaxResponseBytes ends
// with the cap's error and what fit; one that fits, or any response with
// no cap, is whole. The response is one tool call, or one text block for
// a target of [Target.WholeToolCalls].
func (target Target) maxResponseBytes(t *testing.T) {
	body := func(*http.Request) io.Reader { return target.ToolCallBody(4, 10) } // 54 bytes of arguments
	tests := []struct {
		name string
		max  int64
		text string // the error; "" for none
	}{
		{name: "within the cap", max: 100},
		{name: "no cap", max: -1},
		{name: "past the cap", max: 40, text: "Response too large: more than 40 bytes of content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fn := target.WithLimits(ReaderClient(body), Limits{MaxResponseBytes: tt.max})
			final := target.stream(t.Context(), fn, agentcore.StreamOptions{}, nil)
			require.NotNil(t, final)
			if tt.text == "" {
				want := `{"content":"` + strings.Repeat("x", 40) + `"}`
				if target.WholeToolCalls {
					assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
					assert.Equal(t, want, final.Text())
					return
				}
				assert.Equal(t, agentcore.StopToolUse, final.StopReason, final.ErrorMessage)
				require.Len(t, final.ToolCalls(), 1)
				assert.JSONEq(t, want, string(final.ToolCalls()[0].Arguments))
				return
			}
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.ErrorIs(t, final.Err, agentcore.ErrResponseTooLarge)
			assert.Equal(t, tt.text, final.ErrorMessage)
			assert.False(t, agentcore.IsRetryable(final.Err))
			if target.WholeToolCalls {
				assert.True(t, strings.HasPrefix(final.Text(), `{"content":"xxx`), "the text so far is kept: %q", final.Text())
				return
			}
			require.Len(t, final.ToolCalls(), 1, "the call so far is kept")
		})
	}
}

// idleTimeout: a server that stalls after its first delta ends the
// response at the idle timeout (the default's or the option's), the
// content so far kept; a consumer slow between events does not count.
func (target Target) idleTimeout(t *testing.T) {
	tests := []struct {
		name    string
		timeout time.Duration
		want    time.Duration
		text    string
	}{
		{name: "default", want: agentcore.DefaultStreamIdleTimeout, text: "Stream idle timeout: no data from the server for 10m0s"},
		{name: "option", timeout: time.Minute, want: time.Minute, text: "Stream idle timeout: no data from the server for 1m0s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fn := target.WithLimits(StallClient(target.Head()), Limits{IdleTimeout: tt.timeout})
				start := time.Now()
				final := target.stream(context.Background(), fn, agentcore.StreamOptions{}, nil)
				require.NotNil(t, final)
				assert.Equal(t, tt.want, time.Since(start))
				assert.Equal(t, agentcore.StopError, final.StopReason)
				assert.ErrorIs(t, final.Err, agentcore.ErrStreamIdleTimeout)
				assert.Equal(t, tt.text, final.ErrorMessage)
				assert.True(t, agentcore.IsRetryable(final.Err))
				assert.Equal(t, "Hello", final.Text())
			})
		})
	}
	t.Run("no timeout", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
			defer cancel()
			fn := target.WithLimits(StallClient(target.Head()), Limits{IdleTimeout: -1})
			final := target.stream(ctx, fn, agentcore.StreamOptions{}, nil)
			require.NotNil(t, final)
			assert.Equal(t, agentcore.StopAborted, final.StopReason, "only ctx ends it")
		})
	})
	t.Run("a slow consumer", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			fn := target.WithLimits(BodyClient(target.Success), Limits{IdleTimeout: time.Minute})
			final := target.stream(context.Background(), fn, agentcore.StreamOptions{}, func(agentcore.AssistantEvent) { time.Sleep(time.Hour) })
			require.NotNil(t, final)
			assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
		})
	})
}

// responseCap: 50 MB of tool-call arguments (of text for a target of
// [Target.WholeToolCalls]) in 1 KiB pieces end with the default cap's
// error, the heap staying far below the input's size.
func (target Target) responseCap(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("streams 50 MB")
	}
	const pieces, piece = 50 << 10, 1 << 10
	fn := target.New("http://provider.test", ReaderClient(func(*http.Request) io.Reader { return target.ToolCallBody(pieces, piece) }))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	n := 0
	var final *agentcore.AssistantMessage
	for ev := range fn(t.Context(), target.Model, HiRequest(), agentcore.StreamOptions{APIKey: target.APIKey}) {
		if n++; n%64 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		if ev, ok := ev.(*agentcore.ErrorEvent); ok {
			final = ev.Message
		}
		if ev, ok := ev.(*agentcore.DoneEvent); ok {
			final = ev.Message
		}
	}
	runtime.ReadMemStats(&ms)
	peak = max(peak, ms.HeapAlloc)
	t.Logf("%d MB of arguments in %d events: peak heap %d MB (%d MB before)", pieces*piece>>20, n, peak>>20, base>>20)
	require.NotNil(t, final)
	assert.Equal(t, agentcore.StopError, final.StopReason)
	assert.ErrorIs(t, final.Err, agentcore.ErrResponseTooLarge)
	assert.Equal(t, "Response too large: more than 16777216 bytes of content", final.ErrorMessage)
	assert.Less(t, peak, uint64(200<<20), "peak heap")
}

// redirects: see [Redirects]; the provider's key and a custom header
// reach the server after a same-origin redirect.
func (target Target) redirects(t *testing.T) {
	const custom = "custom-credential"
	so := agentcore.StreamOptions{APIKey: "secret-key", Headers: map[string]string{"Api-Key": custom}}
	var key atomic.Value
	Redirects(t, target.Model, so, target.New, func(w http.ResponseWriter, r *http.Request) {
		key.Store(r.Header.Get("Api-Key"))
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(target.Success)
	})
	assert.Equal(t, custom, key.Load())
}

// Redirects checks the redirect policy of a stream function that sends
// credentials: newStream returns it for a base URL and a client (nil for
// the default). Under base/here a server redirects to the same path under
// base/moved, which serve answers (its path without the first segment)
// with a response that ends well; under base/away it redirects to another
// origin. The first is followed, the second refused before anything is
// sent there, with [agentcore.ErrCrossOriginRedirect], not retryable;
// with the default client, and with a caller's client whose own policy
// follows every redirect, which is left unchanged.
func Redirects(t *testing.T, model agentcore.Model, so agentcore.StreamOptions, newStream func(base string, client *http.Client) agentcore.StreamFn, serve http.HandlerFunc) {
	var elsewhere atomic.Int32
	other := Serve(t, func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) })
	srv := Serve(t, func(w http.ResponseWriter, r *http.Request) {
		first, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		switch first {
		case "here":
			w.Header().Set("Location", "/moved/"+rest)
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "away":
			w.Header().Set("Location", other.URL+"/"+rest)
			w.WriteHeader(http.StatusTemporaryRedirect)
		default:
			r.URL.Path = "/" + rest
			serve(w, r)
		}
	})
	final := func(t *testing.T, fn agentcore.StreamFn) *agentcore.AssistantMessage {
		_, final := Collect(fn(t.Context(), model, HiRequest(), so), nil)
		require.NotNil(t, final)
		return final
	}
	clients := []struct {
		name   string
		client *http.Client
	}{
		{name: "default client"},
		{name: "client that follows every redirect", client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}},
	}
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			t.Run("same origin", func(t *testing.T) {
				final := final(t, newStream(srv.URL+"/here", c.client))
				assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			})
			t.Run("other origin", func(t *testing.T) {
				final := final(t, newStream(srv.URL+"/away", c.client))
				assert.Zero(t, elsewhere.Load(), "the other origin got the request")
				assert.Equal(t, agentcore.StopError, final.StopReason)
				assert.ErrorIs(t, final.Err, agentcore.ErrCrossOriginRedirect)
				assert.True(t, strings.HasPrefix(final.ErrorMessage, "redirect to another origin refused"), final.ErrorMessage)
				assert.False(t, agentcore.IsRetryable(final.Err), "retryable: %s", final.ErrorMessage)
			})
		})
	}
	assert.NotNil(t, clients[1].client.CheckRedirect, "the caller's client was changed")
}

// Usage streams body, a response that ends well, for Model priced at
// every rate, and checks its usage: the counts of want, and no negative
// cost.
func (target Target) Usage(t *testing.T, body []byte, want agentcore.Usage) {
	t.Helper()
	srv := ServeBody(t, 200, "text/event-stream", nil, body)
	target.Model.Cost = agentcore.ModelCost{Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4}
	_, final := target.Run(t, t.Context(), target.New(srv.URL, srv.Client()), nil)
	require.Contains(t, []agentcore.StopReason{agentcore.StopStop, agentcore.StopToolUse}, final.StopReason, final.ErrorMessage)
	u := final.Usage
	assert.Equal(t, want.Input, u.Input, "input")
	assert.Equal(t, want.Output, u.Output, "output")
	assert.Equal(t, want.CacheRead, u.CacheRead, "cache read")
	assert.Equal(t, want.CacheWrite, u.CacheWrite, "cache write")
	assert.Equal(t, want.CacheWrite1h, u.CacheWrite1h, "1h cache write")
	assert.Equal(t, want.Reasoning, u.Reasoning, "reasoning")
	assert.Equal(t, want.TotalTokens, u.TotalTokens, "total")
	for _, c := range []float64{u.Cost.Input, u.Cost.Output, u.Cost.CacheRead, u.Cost.CacheWrite, u.Cost.Total} {
		assert.GreaterOrEqual(t, c, 0.0, "cost %+v", u.Cost)
	}
}

// UsageCase is a case of [Target.UsageCases]: the usage a server reports
// and the counts it must give.
type UsageCase struct {
	Name string
	// Usage is the usage object as the server sends it (JSON).
	Usage string
	// Want holds the counts (its cost is not compared).
	Want agentcore.Usage
}

// UsageCases runs [Target.Usage] for each case in a subtest named after
// it, streaming the body that body makes of the case's Usage.
func (target Target) UsageCases(t *testing.T, body func(usage string) string, cases []UsageCase) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) { target.Usage(t, []byte(body(c.Usage)), c.Want) })
	}
}
