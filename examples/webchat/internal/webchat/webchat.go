// Package webchat is the server of examples/webchat: one page speaking
// AG-UI to an [agui.Handler], and the tools of its agent.
package webchat

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/agui"
	"github.com/pi-go/agentcore/compaction"
	"github.com/pi-go/agentcore/hold"
)

//go:embed static
var static embed.FS

// Config configures [New].
type Config struct {
	// Model and StreamFn are the agent's model and stream function.
	Model    agentcore.Model
	StreamFn agentcore.StreamFn
	// APIKey, optional, is the key of every request.
	APIKey string
	// ThinkingLevel is the agent's reasoning level; empty means off.
	ThinkingLevel agentcore.ThinkingLevel
	// Layers, when not nil, returns more layers for a new thread's Agent
	// (tracing, say), called once per thread; they come first, so that a
	// tracing layer sees the work of the thread's own layers.
	Layers func() []agentcore.Layer
}

// systemPrompt tells the model about the page's confirm tool and the
// deploy tool.
const systemPrompt = "You are a helpful assistant in a web chat. Use the weather tool for weather questions. " +
	"To ship a version, call the deploy tool: the user approves or denies each call in their browser. " +
	"Before anything else irreversible (deleting, paying), call the confirm tool, which asks the user in their browser, and respect the answer."

type cityArgs struct {
	City string `json:"city" jsonschema:"required,description=the city"`
}

// forecasts are the weather tool's made-up forecasts.
var forecasts = map[string]string{"paris": "18°C and sunny", "tokyo": "24°C with light rain", "london": "14°C and cloudy"}

// weather is the server tool: a made-up forecast.
var weather = agentcore.NewTool("weather", "Get the current weather of a city.",
	func(_ context.Context, _ string, a cityArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		f, ok := forecasts[strings.ToLower(a.City)]
		if !ok {
			f = "21°C and clear"
		}
		return agentcore.TextResult(fmt.Sprintf("%s: %s", a.City, f)), nil
	})

type deployArgs struct {
	Version string `json:"version" jsonschema:"required,description=the version to ship"`
	Env     string `json:"env" jsonschema:"required,description=the environment: staging or production"`
}

// deploy is a server tool the page's Gate holds until the user approves
// it: a made-up deployment.
var deploy = agentcore.NewTool("deploy", "Deploy a version of the service to an environment.",
	func(_ context.Context, _ string, a deployArgs, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		return agentcore.TextResult(fmt.Sprintf("Version %s is live in %s.", a.Version, a.Env)), nil
	})

// approval is what the user is shown to decide a deploy call.
var approval = hold.Request{
	Title:   "Deploy to production?",
	Reason:  "Deploying changes what every user sees.",
	Touches: []string{"web service", "production"},
}

// AgentOptions are the options of a thread's Agent: the page's model, two
// server tools (weather, and deploy, which a Gate holds until the user
// approves it: the page shows an approval card, an AG-UI interrupt), c's
// layers, and a compaction of the thread's own (a [compaction.Compactor]
// serves one Agent).
func AgentOptions(c Config) agentcore.Options {
	var layers []agentcore.Layer
	if c.Layers != nil {
		layers = c.Layers()
	}
	return agentcore.Options{
		SystemPrompt:  systemPrompt,
		Model:         c.Model,
		ThinkingLevel: c.ThinkingLevel,
		StreamFn:      c.StreamFn,
		StreamOptions: agentcore.StreamOptions{APIKey: c.APIKey},
		Tools:         []agentcore.Tool{weather, deploy},
		Layers: append(layers,
			hold.New(hold.Options{Policy: hold.Always(approval, "deploy")}),
			compaction.New(compaction.Options{})),
	}
}

// New returns the page at /, its configuration at /config and the agent
// at /agent.
func New(c Config) http.Handler {
	h := agui.New(agui.Options{
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			return AgentOptions(c), nil
		},
	})
	mux := http.NewServeMux()
	mux.Handle("POST /agent", h)
	mux.HandleFunc("GET /config", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(struct {
			Model    string `json:"model"`
			Provider string `json:"provider"`
		}{c.Model.ID, c.Model.Provider})
	})
	root, _ := fs.Sub(static, "static")
	mux.Handle("GET /", http.FileServerFS(root))
	return mux
}
