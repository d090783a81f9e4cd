package provider

import (
	"net/http"
	"net/url"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/pi-go/agentcore"
)

// UserAgent returns the User-Agent id sends.
func UserAgent(id agentcore.Identity) string {
	switch id.UserAgent {
	case "":
		v := id.Version
		if v == "" {
			v = moduleVersion()
		}
		return "agentcore/" + v + " (" + runtime.GOOS + "; " + runtime.Version() + "; " + runtime.GOARCH + ")"
	case agentcore.UserAgentShort:
		return "agentcore"
	}
	return id.UserAgent
}

// IdentityHeaders returns the headers id adds to a request for a model of
// provider served at baseURL: User-Agent, and the attribution headers that
// target takes (none for most). Providers set them below every other
// header ([Layer]), so that configured headers override them; the map is
// the caller's.
func IdentityHeaders(id agentcore.Identity, provider, baseURL string) http.Header {
	h := http.Header{}
	h.Set("User-Agent", UserAgent(id))
	a := id.Attribution
	if a.Name == "" {
		return h
	}
	switch {
	case provider == "openrouter" || strings.Contains(baseURL, "openrouter.ai"):
		h.Set("HTTP-Referer", a.URL)
		h.Set("X-OpenRouter-Title", a.Name)
		if len(a.Categories) > 0 {
			h.Set("X-OpenRouter-Categories", strings.Join(a.Categories, ","))
		}
	case provider == "nvidia" || hostIs(baseURL, "integrate.api.nvidia.com"):
		r, n := utf8.DecodeRuneInString(a.Name)
		h.Set("X-BILLING-INVOKE-ORIGIN", string(unicode.ToUpper(r))+a.Name[n:])
	case provider == "opencode" || provider == "opencode-go" || hostIs(baseURL, "opencode.ai"):
		h.Set("X-Opencode-Client", a.Name)
	}
	return h
}

// hostIs reports whether rawURL parses with the host name host.
func hostIs(rawURL, host string) bool {
	u, err := url.Parse(rawURL)
	return err == nil && u.Hostname() == host
}

// moduleVersion is this module's version as the build records it.
var moduleVersion = sync.OnceValue(func() string {
	const path = "github.com/pi-go/agentcore"
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Path == path && info.Main.Version != "" && info.Main.Version != "(devel)" {
			return info.Main.Version
		}
		for _, m := range info.Deps {
			if m.Path == path && m.Version != "" && m.Version != "(devel)" {
				return m.Version
			}
		}
	}
	return "devel"
})
