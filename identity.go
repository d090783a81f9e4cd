package agentcore

// Identity is how a provider request identifies the calling program: the
// User-Agent header and, for the gateways that rank or bill by app, the
// provider attribution headers (pi-ai's ClientIdentity). Every field is
// optional and is resolved on its own: a zero field takes this port's
// default, whatever the other fields say.
//
// The defaults differ from pi-agent-core's on purpose. pi's Agent
// attributes every request to pi (name "pi", url https://pi.dev), which is
// true of pi's own apps; a Go program embedding this library is not pi, and
// a library cannot know the program's name. So the zero Identity sends a
// User-Agent naming this library and no attribution: attribution is the
// program's to claim, with [Identity.Attribution] (or [PiAttribution] for
// pi's).
type Identity struct {
	// UserAgent is the User-Agent header. Empty means the detailed form
	// "agentcore/VERSION (GOOS; GOVERSION; GOARCH)"; [UserAgentShort] means
	// "agentcore"; any other value is sent as it is. A request header
	// "User-Agent" (in [StreamOptions.Headers] or a provider's) overrides
	// it, and an empty one sends none.
	UserAgent string
	// Version is the version in the detailed User-Agent; empty means this
	// module's version as the build records it ("devel" when it does not).
	Version string
	// Attribution names the program to the gateways that attribute
	// requests to apps (OpenRouter, NVIDIA NIM, OpenCode). The zero value
	// sends no attribution headers.
	Attribution Attribution
}

// UserAgentShort is the [Identity.UserAgent] that sends the library's name
// alone, "agentcore" (pi's "short" mode).
const UserAgentShort = "short"

// Attribution is who requests are attributed to (pi-ai's
// ClientAttribution). An Attribution with an empty Name is none.
type Attribution struct {
	// Name is the app's name: OpenRouter's X-OpenRouter-Title, NVIDIA's
	// X-BILLING-INVOKE-ORIGIN (first letter upper-cased), OpenCode's
	// x-opencode-client.
	Name string
	// URL is the app's URL, OpenRouter's HTTP-Referer.
	URL string
	// Categories are the app's categories, such as "cli-agent": OpenRouter's
	// X-OpenRouter-Categories, comma-separated. The slice is read, never
	// kept.
	Categories []string
}

// PiAttribution returns pi's own attribution, the one pi-agent-core 1.6.0
// sends by default: for programs that are pi's apps.
func PiAttribution() Attribution {
	return Attribution{Name: "pi", URL: "https://pi.dev", Categories: []string{"cli-agent"}}
}

// clone returns id with its own categories.
func (id Identity) clone() Identity {
	if id.Attribution.Categories != nil {
		id.Attribution.Categories = append([]string(nil), id.Attribution.Categories...)
	}
	return id
}
