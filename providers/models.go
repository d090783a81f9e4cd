package providers

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pi-go/agentcore"
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
// [OpenAICompletions], taking text, with no prices and no known context
// window (add it to [models.Default] to give one); a name without a
// provider is one of [LocalProvider]. Without baseURL, a name the
// catalog does not know is an error wrapping [ErrUnknownModel]. A model
// the catalog does not know still works as a hand-written
// [agentcore.Model].
func LookupModel(name, baseURL string) (agentcore.Model, error) {
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
		return agentcore.Model{}, fmt.Errorf("%w: %q (names are PROVIDER/ID, or give a server's base URL)", ErrUnknownModel, name)
	}
	if provider == "" {
		provider = LocalProvider
	}
	return agentcore.Model{ID: id, Name: id, API: OpenAICompletions, Provider: provider, BaseURL: baseURL, Input: []string{"text"}}, nil
}
