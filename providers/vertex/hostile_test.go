package vertex

import (
	"context"
	"net/http"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestHostileServers checks the provider against servers that try to do
// it harm (see providertest.Hostile).
func TestHostileServers(t *testing.T) { providertest.Hostile(t, testTarget(t)) }

// TestTokenNeverLeavesTheOrigin: a redirect to another origin is refused
// before anything (the ADC bearer token above all) is sent there.
func TestTokenNeverLeavesTheOrigin(t *testing.T) {
	text := providertest.ReadTestdata(t, "stream", "text.sse")
	token := func(context.Context) (string, error) { return adcToken, nil }
	env := func(k string) string { return map[string]string{EnvProject: "p", EnvLocation: "us-central1"}[k] }
	providertest.Redirects(t, testTarget(t).Model, agentcore.StreamOptions{}, func(base string, client *http.Client) agentcore.StreamFn {
		return StreamFn(Options{BaseURL: base, HTTPClient: client, Token: token, Getenv: env})
	}, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(text)
	})
}
