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
}

// systemPrompt tells the model about the page's confirm tool.
const systemPrompt = "You are a helpful assistant in a web chat. Use the weather tool for weather questions. " +
	"Before anything irreversible (deploying, deleting, paying), call the confirm tool, which asks the user in their browser, and respect the answer."

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

// New returns the page at /, its configuration at /config and the agent
// at /agent.
func New(c Config) http.Handler {
	h := agui.New(agui.Options{
		NewAgent: func(context.Context, *agui.RunInput) (agentcore.Options, error) {
			return agentcore.Options{
				SystemPrompt:  systemPrompt,
				Model:         c.Model,
				ThinkingLevel: c.ThinkingLevel,
				StreamFn:      c.StreamFn,
				StreamOptions: agentcore.StreamOptions{APIKey: c.APIKey},
				Tools:         []agentcore.Tool{weather},
			}, nil
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
