package provider_test

import (
	"net/http"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
)

func TestIdentityHeaders(t *testing.T) {
	app := agentcore.Attribution{Name: "myapp", URL: "https://myapp.example", Categories: []string{"cli-agent", "ide"}}
	for _, tc := range []struct {
		name     string
		id       agentcore.Identity
		provider string
		baseURL  string
		want     http.Header
	}{
		{"zero: the library's detailed User-Agent, no attribution", agentcore.Identity{Version: "v1.2.3"}, "openrouter", "",
			http.Header{"User-Agent": {"agentcore/v1.2.3 (" + runtime.GOOS + "; " + runtime.Version() + "; " + runtime.GOARCH + ")"}}},
		{"short", agentcore.Identity{UserAgent: agentcore.UserAgentShort}, "anthropic", "", http.Header{"User-Agent": {"agentcore"}}},
		{"custom", agentcore.Identity{UserAgent: "myapp/2.0"}, "anthropic", "", http.Header{"User-Agent": {"myapp/2.0"}}},
		{"OpenRouter by provider", agentcore.Identity{UserAgent: "u", Attribution: app}, "openrouter", "",
			http.Header{"User-Agent": {"u"}, "Http-Referer": {"https://myapp.example"}, "X-Openrouter-Title": {"myapp"}, "X-Openrouter-Categories": {"cli-agent,ide"}}},
		{"OpenRouter by URL, no categories", agentcore.Identity{UserAgent: "u", Attribution: agentcore.Attribution{Name: "a", URL: "https://a.example"}}, "custom", "https://openrouter.ai/api/v1",
			http.Header{"User-Agent": {"u"}, "Http-Referer": {"https://a.example"}, "X-Openrouter-Title": {"a"}}},
		{"NVIDIA capitalizes the name", agentcore.Identity{UserAgent: "u", Attribution: agentcore.PiAttribution()}, "custom", "https://integrate.api.nvidia.com/v1",
			http.Header{"User-Agent": {"u"}, "X-Billing-Invoke-Origin": {"Pi"}}},
		{"OpenCode", agentcore.Identity{UserAgent: "u", Attribution: app}, "opencode-go", "",
			http.Header{"User-Agent": {"u"}, "X-Opencode-Client": {"myapp"}}},
		{"other providers get none", agentcore.Identity{UserAgent: "u", Attribution: app}, "anthropic", "https://api.anthropic.com",
			http.Header{"User-Agent": {"u"}}},
		{"an attribution without a name is none", agentcore.Identity{UserAgent: "u", Attribution: agentcore.Attribution{URL: "https://x.example"}}, "openrouter", "",
			http.Header{"User-Agent": {"u"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, provider.IdentityHeaders(tc.id, tc.provider, tc.baseURL))
		})
	}
}
