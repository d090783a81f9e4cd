package providertest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/sse"
)

// RequestOptions checks that target honors the request options of
// [agentcore.StreamOptions] (OnPayload, OnResponse, OnProviderStreamEvent,
// Identity, Timeout, MaxRetries), each in a subtest.
func RequestOptions(t *testing.T, target Target) {
	t.Run("OnPayload", target.onPayload)
	t.Run("OnResponse", target.onResponse)
	t.Run("OnProviderStreamEvent", target.onProviderStreamEvent)
	t.Run("Identity", target.identity)
	t.Run("Retries", target.retries)
	t.Run("Timeout", target.timeout)
}

func (target Target) onPayload(t *testing.T) {
	t.Run("a rewrite reaches the wire", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 200, nil, target.Success)
		var seen json.RawMessage
		final := target.Final(t, fn, agentcore.StreamOptions{
			OnPayload: func(_ context.Context, model agentcore.Model, payload json.RawMessage) (json.RawMessage, error) {
				assert.Equal(t, target.Model.ID, model.ID)
				seen = payload
				return json.RawMessage(`{"model":"other","top_k":5,"stream":true,"messages":[]}`), nil
			},
		})
		require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
		_, bodies := rec.Requests()
		require.Len(t, bodies, 1)
		assert.Equal(t, `{"model":"other","top_k":5,"stream":true,"messages":[]}`, string(bodies[0]))
		assert.Contains(t, string(seen), cmp.Or(target.BodyMark, `"model":"`+target.Model.ID+`"`), "the hook sees the built body")
	})
	t.Run("nil keeps the body", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 200, nil, target.Success)
		var seen []byte
		target.Final(t, fn, agentcore.StreamOptions{
			OnPayload: func(_ context.Context, _ agentcore.Model, p json.RawMessage) (json.RawMessage, error) {
				seen = p
				return nil, nil
			},
		})
		_, bodies := rec.Requests()
		require.Len(t, bodies, 1)
		assert.Equal(t, string(seen), string(bodies[0]))
	})
	refused := errors.New("payload refused")
	for _, tc := range []struct {
		name string
		hook func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error)
		want string
	}{
		{"an error ends the response unsent", func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			return nil, refused
		}, "payload refused"},
		{"a replacement that is not an object", func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`[1]`), nil
		}, "OnPayload returned a payload that is not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec Recorder
			fn := rec.Serve(t, target, 200, nil, target.Success)
			final := target.Final(t, fn, agentcore.StreamOptions{OnPayload: tc.hook})
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.Equal(t, tc.want, final.ErrorMessage)
			_, bodies := rec.Requests()
			assert.Empty(t, bodies)
		})
	}
	t.Run("the hook's error is the cause", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 200, nil, target.Success)
		final := target.Final(t, fn, agentcore.StreamOptions{OnPayload: func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			return nil, refused
		}})
		assert.ErrorIs(t, final.Err, refused)
	})
}

// SentPayload streams one request whose OnPayload hook returns
// replacement, checks that the response ends well, and returns the body
// the provider sent: how it sends a replaced body is its adapter's.
func (target Target) SentPayload(t *testing.T, replacement string) string {
	t.Helper()
	var rec Recorder
	fn := rec.Serve(t, target, 200, nil, target.Success)
	final := target.Final(t, fn, agentcore.StreamOptions{
		OnPayload: func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(replacement), nil
		},
	})
	require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
	_, bodies := rec.Requests()
	require.Len(t, bodies, 1)
	return string(bodies[0])
}

func (target Target) onResponse(t *testing.T) {
	t.Run("a 429's status and headers before the error message", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 429, map[string]string{"Retry-After": "7", "X-Request-Id": "req_1", "Content-Type": "application/json"}, target.Refusal)
		var order []string
		so := agentcore.StreamOptions{OnResponse: func(_ context.Context, m agentcore.Model, resp agentcore.ProviderResponse) error {
			assert.Equal(t, target.Model.ID, m.ID)
			assert.Equal(t, 429, resp.StatusCode)
			assert.Equal(t, "req_1", resp.Header.Get("X-Request-Id"))
			assert.Equal(t, "7", resp.Header.Get("Retry-After"))
			order = append(order, "response")
			return nil
		}}
		final := target.stream(t.Context(), fn, so, func(ev agentcore.AssistantEvent) { order = append(order, ev.Type()) })
		assert.Equal(t, []string{"response", "error"}, order)
		require.NotNil(t, final)
		assert.Equal(t, target.RefusalText, final.ErrorMessage)
	})
	t.Run("an accepted response before start", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 200, nil, target.Success)
		var order []string
		so := agentcore.StreamOptions{OnResponse: func(_ context.Context, _ agentcore.Model, resp agentcore.ProviderResponse) error {
			order = append(order, "response "+resp.Header.Get("Content-Type"))
			return nil
		}}
		target.stream(t.Context(), fn, so, func(ev agentcore.AssistantEvent) { order = append(order, ev.Type()) })
		require.GreaterOrEqual(t, len(order), 3)
		assert.Equal(t, []string{"response text/event-stream", "start"}, order[:2])
		assert.Equal(t, "done", order[len(order)-1])
	})
	t.Run("an error ends the response", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 200, nil, target.Success)
		final := target.Final(t, fn, agentcore.StreamOptions{OnResponse: func(context.Context, agentcore.Model, agentcore.ProviderResponse) error {
			return errors.New("no thanks")
		}})
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, "no thanks", final.ErrorMessage)
		assert.Empty(t, final.Content)
	})
}

// observedEvents returns the data of the events of body that
// OnProviderStreamEvent sees (see [Target.Observed]), in order.
func (target Target) observedEvents(t testing.TB, body []byte) []string {
	if target.ObservedEvents != nil {
		return target.ObservedEvents(body)
	}
	var out []string
	events := sse.NewReader(bytes.NewReader(body), 0)
	for {
		ev, err := events.Next()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		data := strings.TrimSpace(string(ev.Data))
		if strings.HasPrefix(data, "{") && json.Valid([]byte(data)) && (target.Observed == nil || target.Observed(ev.Name)) {
			out = append(out, data)
		}
	}
}

func (target Target) onProviderStreamEvent(t *testing.T) {
	t.Run("every event, in order, before the stream ends", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 200, nil, target.Success)
		var seen, order []string
		so := agentcore.StreamOptions{OnProviderStreamEvent: func(_ context.Context, m agentcore.Model, data json.RawMessage) error {
			assert.Equal(t, target.Model.ID, m.ID)
			seen = append(seen, string(data))
			order = append(order, "provider")
			return nil
		}}
		target.stream(t.Context(), fn, so, func(ev agentcore.AssistantEvent) { order = append(order, ev.Type()) })
		assert.Equal(t, target.observedEvents(t, target.Success), seen)
		require.NotEmpty(t, order)
		assert.Equal(t, "done", order[len(order)-1])
		assert.Less(t, indexOf(order, "provider"), indexOf(order, "text_delta"))
	})
	t.Run("an error ends the response", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 200, nil, target.Success)
		n := 0
		final := target.Final(t, fn, agentcore.StreamOptions{OnProviderStreamEvent: func(context.Context, agentcore.Model, json.RawMessage) error {
			if n++; n == 2 {
				return errors.New("seen enough")
			}
			return nil
		}})
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, "seen enough", final.ErrorMessage)
		assert.Equal(t, 2, n)
	})
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func (target Target) identity(t *testing.T) {
	openRouter := target
	openRouter.Model.Provider = "openrouter"
	app := agentcore.Attribution{Name: "myapp", URL: "https://myapp.example", Categories: []string{"cli-agent", "ide"}}
	for _, tc := range []struct {
		name   string
		target Target
		so     agentcore.StreamOptions
		want   map[string]string // a prefix of the value; "" means absent
	}{
		{"default: the library's User-Agent, no attribution", openRouter, agentcore.StreamOptions{},
			map[string]string{"User-Agent": "agentcore/", "X-Openrouter-Title": "", "Http-Referer": ""}},
		{"the program's attribution at OpenRouter", openRouter,
			agentcore.StreamOptions{Identity: agentcore.Identity{UserAgent: "myapp/1.0", Attribution: app}},
			map[string]string{"User-Agent": "myapp/1.0", "X-Openrouter-Title": "myapp", "Http-Referer": "https://myapp.example", "X-Openrouter-Categories": "cli-agent,ide"}},
		{"no attribution elsewhere", target,
			agentcore.StreamOptions{Identity: agentcore.Identity{Attribution: agentcore.PiAttribution()}},
			map[string]string{"User-Agent": "agentcore/", "X-Openrouter-Title": ""}},
		{"request headers override the identity", openRouter,
			agentcore.StreamOptions{Identity: agentcore.Identity{Attribution: agentcore.PiAttribution()}, Headers: map[string]string{"user-agent": "custom", "X-OpenRouter-Title": "other"}},
			map[string]string{"User-Agent": "custom", "X-Openrouter-Title": "other", "Http-Referer": "https://pi.dev"}},
		{"empty request headers remove them", openRouter,
			agentcore.StreamOptions{Identity: agentcore.Identity{Attribution: agentcore.PiAttribution()}, Headers: map[string]string{"User-Agent": "", "HTTP-Referer": "", "X-OpenRouter-Title": "", "X-OpenRouter-Categories": ""}},
			map[string]string{"User-Agent": "", "X-Openrouter-Title": "", "Http-Referer": "", "X-Openrouter-Categories": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec Recorder
			fn := rec.Serve(t, tc.target, 200, nil, target.Success)
			final := tc.target.Final(t, fn, tc.so)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			headers, _ := rec.Requests()
			require.Len(t, headers, 1)
			h := headers[0]
			for k, want := range tc.want {
				if want == "" {
					assert.NotContains(t, h, k)
					continue
				}
				assert.True(t, strings.HasPrefix(h.Get(k), want), "%s: %q, want %q", k, h.Get(k), want)
			}
		})
	}
}

func (target Target) retries(t *testing.T) {
	t.Run("a 429 is retried when MaxRetries allows", func(t *testing.T) {
		var mu sync.Mutex
		n := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			n++
			first := n == 1
			mu.Unlock()
			if first {
				w.Header().Set("Retry-After-Ms", "1")
				w.WriteHeader(429)
				w.Write(target.Refusal)
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(target.Success)
		}))
		t.Cleanup(srv.Close)
		var statuses []int
		final := target.Final(t, target.New(srv.URL, srv.Client()), agentcore.StreamOptions{MaxRetries: 1, OnResponse: func(_ context.Context, _ agentcore.Model, r agentcore.ProviderResponse) error {
			statuses = append(statuses, r.StatusCode)
			return nil
		}})
		assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
		assert.Equal(t, []int{429, 200}, statuses)
	})
	t.Run("a longer delay than MaxRetryDelay fails at once", func(t *testing.T) {
		var rec Recorder
		fn := rec.Serve(t, target, 429, map[string]string{"Retry-After": "120", "Content-Type": "application/json"}, target.Refusal)
		final := target.Final(t, fn, agentcore.StreamOptions{MaxRetries: 2, MaxRetryDelay: time.Minute})
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, "Server requested 120s retry delay (max: 60s). "+cmp.Or(target.RefusalSDKText, target.RefusalText), final.ErrorMessage)
		var pe *agentcore.ProviderError
		require.ErrorAs(t, final.Err, &pe)
		assert.Equal(t, 429, pe.StatusCode)
		assert.Equal(t, 2*time.Minute, pe.RetryAfter)
		headers, _ := rec.Requests()
		assert.Len(t, headers, 1)
	})
}

// hangingTransport answers no request: it waits for the request's end.
type hangingTransport struct{}

func (hangingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	<-r.Context().Done()
	return nil, r.Context().Err()
}

func (target Target) timeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fn := target.New("http://provider.test", &http.Client{Transport: hangingTransport{}})
		start := time.Now()
		final := target.stream(context.Background(), fn, agentcore.StreamOptions{Timeout: 30 * time.Second}, nil)
		require.NotNil(t, final)
		assert.Equal(t, 30*time.Second, time.Since(start))
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, "Request timed out.", final.ErrorMessage)
		assert.True(t, agentcore.IsRetryable(final.Err))
	})
}
