package providers

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/models"
)

// ErrUnknownModel is returned, wrapped, by [LookupModel] for a name the
// catalog does not know when no server was given.
var ErrUnknownModel = errors.New("providers: unknown model")

// LocalProvider is the provider of a model [LookupModel] makes for a
// server the catalog does not know, when the name gives none.
const LocalProvider = "openai-compatible"

// LookupModel returns the model name names, "PROVIDER/ID", from the
// [models.Default] registry (pi-ai's catalog and what the program added);
// the ID may hold slashes itself, as OpenRouter's do ("openrouter/
// anthropic/claude-fable-5"). A model from the catalog comes with its API,
// base URL, context window, output limit and prices, so its responses
// report their cost.
//
// With baseURL set, requests go to that server: a catalog model keeps its
// other facts, and a name the catalog does not know becomes a model of an
// OpenAI-compatible server (llama.cpp, Ollama, vLLM) speaking
// [OpenAICompletions], taking text, with no prices, and the context
// window the server reports ([ServerContextWindow], asked under ctx with
// no key), so compaction works on it; a name without a provider is one of
// [LocalProvider]. When the server reports no window, LookupModel returns
// the model with ContextWindow 0 (usable; compaction then needs a window
// of its own) and an error wrapping [ErrNoContextWindow]. Without
// baseURL, a name the catalog does not know is an error wrapping
// [ErrUnknownModel]. A model the catalog does not know still works as a
// hand-written [agentcore.Model].
func LookupModel(ctx context.Context, name, baseURL string) (agentcore.Model, error) {
	provider, id, ok := strings.Cut(name, "/")
	if !ok {
		provider, id = "", name
	}
	if m, found := models.Lookup(provider, id); found {
		if baseURL != "" {
			m.BaseURL = baseURL
		}
		return m, nil
	}
	if baseURL == "" || id == "" {
		return agentcore.Model{}, fmt.Errorf("%w: %s (names are PROVIDER/ID, or give a server's base URL)", ErrUnknownModel, limit.Quote(name))
	}
	if provider == "" {
		provider = LocalProvider
	}
	m := agentcore.Model{ID: id, Name: id, API: OpenAICompletions, Provider: provider, BaseURL: baseURL, Input: []string{"text"}}
	window, err := ServerContextWindow(ctx, baseURL, id, nil)
	m.ContextWindow = window
	return m, err
}
