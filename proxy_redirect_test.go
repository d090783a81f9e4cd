package agentcore_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agentcoretest"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestProxyRedirects: StreamProxy follows a redirect within the proxy's
// origin, with its token, and refuses one to another origin, which gets
// nothing (see providertest.Redirects).
func TestProxyRedirects(t *testing.T) {
	var token atomic.Value
	proxy := agentcore.NewProxyHandler(agentcore.ProxyHandlerOptions{
		StreamFn: agentcoretest.NewFunc(func(context.Context, agentcoretest.Call) agentcoretest.Response {
			return agentcoretest.TextResponse("hello")
		}).Stream,
		Authorize: func(_ *http.Request, t string) error { token.Store(t); return nil },
	})
	newStream := func(base string, client *http.Client) agentcore.StreamFn {
		return agentcore.StreamProxy(agentcore.ProxyOptions{URL: base, AuthToken: "secret-token", Client: client})
	}
	providertest.Redirects(t, agentcoretest.Model(), agentcore.StreamOptions{}, newStream, proxy.ServeHTTP)
	assert.Equal(t, "secret-token", token.Load())
}
