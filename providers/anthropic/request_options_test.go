package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// recorder is a test server that records each request's headers and body
// and answers with status, headers and body.
type recorder struct {
	mu      sync.Mutex
	headers []http.Header
	bodies  [][]byte
}

func (rec *recorder) serve(t *testing.T, status int, header map[string]string, body []byte) agentcore.StreamFn {
	t.Helper()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.headers = append(rec.headers, r.Header.Clone())
		rec.bodies = append(rec.bodies, b)
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		w.Write(body)
	})
	return streamFrom(srv)
}

func (rec *recorder) requests() ([]http.Header, [][]byte) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.headers, rec.bodies
}

// textSSE is the body of a successful text response.
func textSSE(t *testing.T) []byte { return readTestdata(t, "stream", "text.sse") }

// sseData returns the data lines of an event stream, in order.
func sseData(body []byte) []string {
	var out []string
	for line := range strings.SplitSeq(string(body), "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok && strings.TrimSpace(data) != "" {
			out = append(out, strings.TrimSpace(data))
		}
	}
	return out
}

func streamWith(t *testing.T, fn agentcore.StreamFn, so agentcore.StreamOptions) *agentcore.AssistantMessage {
	t.Helper()
	model, _ := streamCases(t)
	so.APIKey = "sk-ant-test"
	_, final := collect(fn(t.Context(), model, hiRequest(), so), nil)
	require.NotNil(t, final)
	return final
}

func TestOnPayload(t *testing.T) {
	t.Run("a rewrite reaches the wire, stream kept on", func(t *testing.T) {
		var rec recorder
		fn := rec.serve(t, 200, nil, textSSE(t))
		var seen json.RawMessage
		final := streamWith(t, fn, agentcore.StreamOptions{
			OnPayload: func(ctx context.Context, model agentcore.Model, payload json.RawMessage) (json.RawMessage, error) {
				assert.Equal(t, "claude-test", model.ID)
				seen = payload
				return json.RawMessage(`{"model":"claude-other","top_k":5,"stream":false,"messages":[]}`), nil
			},
		})
		require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
		_, bodies := rec.requests()
		require.Len(t, bodies, 1)
		assert.JSONEq(t, `{"model":"claude-other","top_k":5,"stream":true,"messages":[]}`, string(bodies[0]))
		assert.Contains(t, string(seen), `"model":"claude-test"`, "the hook sees the built body")
	})
	t.Run("stream is added last when the rewrite drops it", func(t *testing.T) {
		var rec recorder
		fn := rec.serve(t, 200, nil, textSSE(t))
		streamWith(t, fn, agentcore.StreamOptions{
			OnPayload: func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`{"model":"m","max_tokens":10}`), nil
			},
		})
		_, bodies := rec.requests()
		require.Len(t, bodies, 1)
		assert.Equal(t, `{"model":"m","max_tokens":10,"stream":true}`, string(bodies[0]))
	})
	t.Run("nil keeps the body", func(t *testing.T) {
		var rec recorder
		fn := rec.serve(t, 200, nil, textSSE(t))
		var seen []byte
		streamWith(t, fn, agentcore.StreamOptions{
			OnPayload: func(_ context.Context, _ agentcore.Model, p json.RawMessage) (json.RawMessage, error) {
				seen = p
				return nil, nil
			},
		})
		_, bodies := rec.requests()
		require.Len(t, bodies, 1)
		assert.Equal(t, string(seen), string(bodies[0]))
	})
	for _, tc := range []struct {
		name string
		hook func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error)
		want string
	}{
		{"an error ends the response unsent", func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("payload refused")
		}, "payload refused"},
		{"a replacement that is not an object", func(context.Context, agentcore.Model, json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`[1]`), nil
		}, "OnPayload returned a payload that is not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorder
			fn := rec.serve(t, 200, nil, textSSE(t))
			final := streamWith(t, fn, agentcore.StreamOptions{OnPayload: tc.hook})
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.Equal(t, tc.want, final.ErrorMessage)
			_, bodies := rec.requests()
			assert.Empty(t, bodies)
		})
	}
}

func TestOnResponse(t *testing.T) {
	t.Run("a 429's status and headers before the error message", func(t *testing.T) {
		var rec recorder
		fn := rec.serve(t, 429, map[string]string{"Retry-After": "7", "Request-Id": "req_1", "Content-Type": "application/json"},
			[]byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`))
		model, _ := streamCases(t)
		var order []string
		so := agentcore.StreamOptions{APIKey: "k", OnResponse: func(_ context.Context, m agentcore.Model, resp agentcore.ProviderResponse) error {
			assert.Equal(t, model.ID, m.ID)
			assert.Equal(t, 429, resp.StatusCode)
			assert.Equal(t, "req_1", resp.Header.Get("Request-Id"))
			assert.Equal(t, "7", resp.Header.Get("Retry-After"))
			order = append(order, "response")
			return nil
		}}
		for ev := range fn(t.Context(), model, hiRequest(), so) {
			order = append(order, ev.Type())
			if e, ok := ev.(*agentcore.ErrorEvent); ok {
				assert.Contains(t, e.Message.ErrorMessage, "429")
			}
		}
		assert.Equal(t, []string{"response", "error"}, order)
	})
	t.Run("an accepted response before start", func(t *testing.T) {
		var rec recorder
		fn := rec.serve(t, 200, nil, textSSE(t))
		model, _ := streamCases(t)
		var order []string
		so := agentcore.StreamOptions{APIKey: "k", OnResponse: func(_ context.Context, _ agentcore.Model, resp agentcore.ProviderResponse) error {
			order = append(order, "response "+resp.Header.Get("Content-Type"))
			return nil
		}}
		for ev := range fn(t.Context(), model, hiRequest(), so) {
			order = append(order, ev.Type())
		}
		require.NotEmpty(t, order)
		assert.Equal(t, []string{"response text/event-stream", "start"}, order[:2])
		assert.Equal(t, "done", order[len(order)-1])
	})
	t.Run("an error ends the response", func(t *testing.T) {
		var rec recorder
		fn := rec.serve(t, 200, nil, textSSE(t))
		final := streamWith(t, fn, agentcore.StreamOptions{OnResponse: func(context.Context, agentcore.Model, agentcore.ProviderResponse) error {
			return errors.New("no thanks")
		}})
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, "no thanks", final.ErrorMessage)
		assert.Empty(t, final.Content)
	})
}

func TestOnProviderStreamEvent(t *testing.T) {
	t.Run("every event, in order, before its assistant events", func(t *testing.T) {
		body := textSSE(t)
		var rec recorder
		fn := rec.serve(t, 200, nil, body)
		model, _ := streamCases(t)
		var seen []string
		var order []string
		so := agentcore.StreamOptions{APIKey: "k", OnProviderStreamEvent: func(_ context.Context, _ agentcore.Model, data json.RawMessage) error {
			seen = append(seen, string(data))
			var ev struct{ Type string }
			require.NoError(t, json.Unmarshal(data, &ev))
			order = append(order, "provider:"+ev.Type)
			return nil
		}}
		for ev := range fn(t.Context(), model, hiRequest(), so) {
			order = append(order, ev.Type())
		}
		assert.Equal(t, sseData(body), seen)
		assert.Less(t, indexOf(order, "provider:content_block_start"), indexOf(order, "text_start"))
		assert.Less(t, indexOf(order, "provider:message_stop"), indexOf(order, "done"))
	})
	t.Run("an error ends the response", func(t *testing.T) {
		var rec recorder
		fn := rec.serve(t, 200, nil, textSSE(t))
		n := 0
		final := streamWith(t, fn, agentcore.StreamOptions{OnProviderStreamEvent: func(context.Context, agentcore.Model, json.RawMessage) error {
			if n++; n == 3 {
				return errors.New("seen enough")
			}
			return nil
		}})
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, "seen enough", final.ErrorMessage)
		assert.Equal(t, 3, n)
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

func TestIdentityHeaders(t *testing.T) {
	model, _ := streamCases(t)
	openRouter := model
	openRouter.Provider = "openrouter"
	for _, tc := range []struct {
		name  string
		model agentcore.Model
		so    agentcore.StreamOptions
		want  map[string]string // "" means absent
	}{
		{"default: the library's User-Agent, no attribution", openRouter, agentcore.StreamOptions{},
			map[string]string{"User-Agent": "agentcore/", "X-Openrouter-Title": "", "Http-Referer": ""}},
		{"attribution to the program at OpenRouter", openRouter,
			agentcore.StreamOptions{Identity: agentcore.Identity{UserAgent: "myapp/1.0", Attribution: agentcore.Attribution{Name: "myapp", URL: "https://myapp.example", Categories: []string{"cli-agent", "ide"}}}},
			map[string]string{"User-Agent": "myapp/1.0", "X-Openrouter-Title": "myapp", "Http-Referer": "https://myapp.example", "X-Openrouter-Categories": "cli-agent,ide"}},
		{"no attribution at Anthropic", model,
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
			var rec recorder
			fn := rec.serve(t, 200, nil, textSSE(t))
			so := tc.so
			so.APIKey = "k"
			_, final := collect(fn(t.Context(), tc.model, hiRequest(), so), nil)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			headers, _ := rec.requests()
			require.Len(t, headers, 1)
			h := headers[0]
			for k, want := range tc.want {
				if want == "" {
					assert.NotContains(t, h, k)
					continue
				}
				assert.True(t, strings.HasPrefix(h.Get(k), want), "%s: %q, want %q", k, h.Get(k), want)
			}
			assert.Equal(t, "k", h.Get("X-Api-Key"), "the key is untouched")
		})
	}
}

func TestRetries(t *testing.T) {
	sse := textSSE(t)
	t.Run("a 429 is retried when MaxRetries allows", func(t *testing.T) {
		var mu sync.Mutex
		n := 0
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			n++
			first := n == 1
			mu.Unlock()
			if first {
				w.Header().Set("Retry-After-Ms", "1")
				w.WriteHeader(429)
				w.Write([]byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`))
				return
			}
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(sse)
		})
		var statuses []int
		final := streamWith(t, streamFrom(srv), agentcore.StreamOptions{MaxRetries: 1, OnResponse: func(_ context.Context, _ agentcore.Model, r agentcore.ProviderResponse) error {
			statuses = append(statuses, r.StatusCode)
			return nil
		}})
		assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
		assert.Equal(t, []int{429, 200}, statuses)
	})
	t.Run("a longer delay than MaxRetryDelay fails at once", func(t *testing.T) {
		var rec recorder
		fn := rec.serve(t, 429, map[string]string{"Retry-After": "120", "Content-Type": "application/json"},
			[]byte(`{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`))
		final := streamWith(t, fn, agentcore.StreamOptions{MaxRetries: 2, MaxRetryDelay: time.Minute})
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, `Server requested 120s retry delay (max: 60s). 429 {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`, final.ErrorMessage)
		var pe *agentcore.ProviderError
		require.ErrorAs(t, final.Err, &pe)
		assert.Equal(t, 429, pe.StatusCode)
		assert.Equal(t, 2*time.Minute, pe.RetryAfter)
		headers, _ := rec.requests()
		assert.Len(t, headers, 1)
	})
}

// hangingTransport answers no request: it waits for the request's end.
type hangingTransport struct{}

func (hangingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	<-r.Context().Done()
	return nil, r.Context().Err()
}

func TestTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		model, _ := streamCases(t)
		fn := StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: &http.Client{Transport: hangingTransport{}}})
		start := time.Now()
		_, final := collect(fn(context.Background(), model, hiRequest(), agentcore.StreamOptions{APIKey: "k", Timeout: 30 * time.Second}), nil)
		require.NotNil(t, final)
		assert.Equal(t, 30*time.Second, time.Since(start))
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.Equal(t, "Request timed out.", final.ErrorMessage)
		assert.True(t, agentcore.IsRetryable(final.Err))
	})
}
