package agentcore_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
)

// TestProxyRedirects: StreamProxy follows a redirect within the proxy's
// origin, with its token, and refuses one to another origin, which gets
// nothing; whether it sends with the default client or with one whose
// own policy follows every redirect.
func TestProxyRedirects(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	var token atomic.Value
	proxy := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		StreamFn: agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
			return agentcoretest.TextResponse("hello")
		}).Stream,
		Authorize: func(_ *http.Request, t string) error { token.Store(t); return nil },
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		switch first {
		case "here":
			http.Redirect(w, r, "/moved/"+rest, http.StatusTemporaryRedirect)
		case "away":
			http.Redirect(w, r, other.URL+"/"+rest, http.StatusTemporaryRedirect)
		default:
			r.URL.Path = "/" + rest
			proxy.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()

	clients := []struct {
		name   string
		client *http.Client
	}{
		{name: "default client"},
		{name: "client that follows every redirect", client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}},
	}
	for _, c := range clients {
		stream := func(base string) *agentcore.AssistantMessage {
			fn := agentcore.StreamProxy(agentcore.ProxyOptions{URL: srv.URL + base, AuthToken: "secret-token", Client: c.client})
			var final *agentcore.AssistantMessage
			for ev := range fn(t.Context(), agentcoretest.Model(), agentcore.Request{}, agentcore.StreamOptions{}) {
				switch ev := ev.(type) {
				case *agentcore.DoneEvent:
					final = ev.Message
				case *agentcore.ErrorEvent:
					final = ev.Message
				}
			}
			require.NotNil(t, final)
			return final
		}
		t.Run(c.name, func(t *testing.T) {
			t.Run("same origin", func(t *testing.T) {
				msg := stream("/here")
				assert.Equal(t, agentcore.StopStop, msg.StopReason, msg.ErrorMessage)
				assert.Equal(t, "hello", msg.Text())
				assert.Equal(t, "secret-token", token.Load())
			})
			t.Run("other origin", func(t *testing.T) {
				msg := stream("/away")
				assert.Zero(t, elsewhere.Load(), "the other origin got the request")
				assert.Equal(t, agentcore.StopError, msg.StopReason)
				assert.ErrorIs(t, msg.Err, agentcore.ErrCrossOriginRedirect)
				assert.True(t, strings.HasPrefix(msg.ErrorMessage, "redirect to another origin refused"), msg.ErrorMessage)
				assert.False(t, agentcore.IsRetryable(msg.Err), msg.ErrorMessage)
			})
		})
	}
	assert.NotNil(t, clients[1].client.CheckRedirect)
}
