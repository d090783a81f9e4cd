package providers

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/providers/anthropic"
	"github.com/pi-go/agentcore/providers/azure"
	"github.com/pi-go/agentcore/providers/google"
	"github.com/pi-go/agentcore/providers/mistral"
	"github.com/pi-go/agentcore/providers/openai"
	"github.com/pi-go/agentcore/providers/openairesponses"
	"github.com/pi-go/agentcore/providers/vertex"
)

// The APIs of the built-in providers, the values of [agentcore.Model.API]
// a [Registry] dispatches on from the start.
const (
	OpenAICompletions    = "openai-completions"
	OpenAIResponses      = "openai-responses"
	AnthropicMessages    = "anthropic-messages"
	GoogleGenerativeAI   = "google-generative-ai"
	AzureOpenAIResponses = "azure-openai-responses"
	GoogleVertex         = "google-vertex"
	MistralConversations = "mistral-conversations"
)

// ErrUnknownAPI is the cause of a request whose model's API has no stream
// function: its message reads "No API provider registered for api: " and
// the API, as pi-ai's streamSimple words it. Test for it with errors.Is
// on the final message's Err.
var ErrUnknownAPI = errors.New("No API provider registered for api")

// Options configure the built-in providers of a [Registry]. The zero value
// uses each provider's defaults and reads keys from the process
// environment.
type Options struct {
	// OpenAI, OpenAIResponses, Anthropic and Google configure the stream
	// functions of "openai-completions", "openai-responses",
	// "anthropic-messages" and "google-generative-ai".
	OpenAI          openai.Options
	OpenAIResponses openairesponses.Options
	Anthropic       anthropic.Options
	Google          google.Options
	// Azure, Vertex and Mistral configure the stream functions of
	// "azure-openai-responses", "google-vertex" and
	// "mistral-conversations": Azure's endpoint and deployments, Vertex's
	// project, location and token source (Application Default
	// Credentials), Mistral's base URL. Their Getenv, when nil, is this
	// Options' Getenv.
	Azure   azure.Options
	Vertex  vertex.Options
	Mistral mistral.Options
	// Getenv reads an environment variable for [EnvAPIKey] (and for the
	// endpoints of Azure and Vertex); nil means [os.Getenv]. It is called
	// on the goroutine ranging over a stream, once per request that has
	// no key.
	Getenv func(string) string
	// NoEnvKeys turns the environment fallback off: a request without a
	// key goes to its provider without one.
	NoEnvKeys bool
}

// Registry maps APIs to the stream functions that speak them, as pi-ai's
// API registry does. Its [Registry.Stream] is one [agentcore.StreamFn] for
// every model: it dispatches on [agentcore.Model.API]. A Registry is safe
// for concurrent use; a change applies to the requests started after it.
// The zero Registry has no APIs and reads keys from the process
// environment; [New] makes one with the built-in providers.
type Registry struct {
	mu        sync.RWMutex
	fns       map[string]agentcore.StreamFn
	getenv    func(string) string
	noEnvKeys bool
}

// New returns a registry of the built-in providers configured by opts:
// [OpenAICompletions], [OpenAIResponses], [AnthropicMessages],
// [GoogleGenerativeAI], [AzureOpenAIResponses], [GoogleVertex] and
// [MistralConversations].
func New(opts Options) *Registry {
	if opts.Azure.Getenv == nil {
		opts.Azure.Getenv = opts.Getenv
	}
	if opts.Vertex.Getenv == nil {
		opts.Vertex.Getenv = opts.Getenv
	}
	r := &Registry{
		fns: map[string]agentcore.StreamFn{
			OpenAICompletions:    openai.StreamFn(opts.OpenAI),
			AnthropicMessages:    anthropic.StreamFn(opts.Anthropic),
			GoogleGenerativeAI:   google.StreamFn(opts.Google),
			OpenAIResponses:      openairesponses.StreamFn(opts.OpenAIResponses),
			AzureOpenAIResponses: azure.StreamFn(opts.Azure),
			GoogleVertex:         vertex.StreamFn(opts.Vertex),
			MistralConversations: mistral.StreamFn(opts.Mistral),
		},
		getenv:    opts.Getenv,
		noEnvKeys: opts.NoEnvKeys,
	}
	return r
}

// StreamFn returns the [Registry.Stream] of a new registry of the built-in
// providers: one stream function for every model.
func StreamFn(opts Options) agentcore.StreamFn { return New(opts).Stream }

// Register makes fn the stream function of api, replacing the one it had
// (a built-in one included); a nil fn removes api.
func (r *Registry) Register(api string, fn agentcore.StreamFn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if fn == nil {
		delete(r.fns, api)
		return
	}
	if r.fns == nil {
		r.fns = map[string]agentcore.StreamFn{}
	}
	r.fns[api] = fn
}

// Lookup returns the stream function of api, and whether there is one.
func (r *Registry) Lookup(api string) (agentcore.StreamFn, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	fn, ok := r.fns[api]
	return fn, ok
}

// APIs returns the registered APIs, sorted.
func (r *Registry) APIs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Sorted(maps.Keys(r.fns))
}

// Stream is an [agentcore.StreamFn] that streams the request with the
// stream function of model.API. A request without a key (so.APIKey blank)
// gets the one [EnvAPIKey] finds for model.Provider, unless the registry
// was made with NoEnvKeys. An API without a stream function gives a
// stream of one error event: its message's ErrorMessage reads "No API
// provider registered for api: " and the API, its Err wraps
// [ErrUnknownAPI].
func (r *Registry) Stream(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
	fn, ok := r.Lookup(model.API)
	if !ok {
		err := fmt.Errorf("%w: %s", ErrUnknownAPI, model.API)
		return agentcore.NewAssistantStream(func(w *agentcore.StreamWriter) {
			w.Fail(ctx, provider.Message(model), err)
		})
	}
	if strings.TrimSpace(so.APIKey) == "" && !r.noEnvKeys {
		if key := EnvAPIKey(model.Provider, r.getenv); key != "" {
			so.APIKey = key
		}
	}
	return fn(ctx, model, req, so)
}
