// Package variant describes how a server differs from the one a codec of
// this module was written for: Azure OpenAI's Responses API
// (providers/azure) from OpenAI's (providers/openairesponses), Vertex AI
// (providers/vertex) from the Gemini API (providers/google). A codec
// package takes a variant through its StreamFnVariant entry point, which
// only this module can call with one.
package variant

import (
	"context"
	"net/http"

	"github.com/pi-go/agentcore"
)

// Endpoint is where one request goes and what authenticates it.
type Endpoint struct {
	// URL is the request's whole URL.
	URL string
	// Auth holds the authentication headers, set before the model's, the
	// options' and the request's headers (which may replace them).
	Auth http.Header
}

// Resolve returns the endpoint of one request for model, whose key is key
// (the request's, else the options' fallback; "" when none). An error
// fails the request with its text, as pi-ai words it. It is called on the
// goroutine ranging over the stream, once per request, before the body is
// built; it may block (to fetch a token) until ctx is done.
type Resolve func(ctx context.Context, model agentcore.Model, key string) (Endpoint, error)

// Responses is a server speaking OpenAI's Responses API as pi-ai's
// azure-openai-responses module does. Besides what its fields say, the
// codec then follows that module's body rules: strict tools unless the
// model's compat turns them off, the SessionID as prompt_cache_key
// whatever the retention, no cache retention or options, no session
// headers, max_output_tokens whenever there is a cap, no service-tier
// pricing and no ChatGPT usage-limit hints.
type Responses struct {
	// Endpoint resolves each request's URL and authentication.
	Endpoint Resolve
	// Model is the body's "model" for a model, such as its deployment
	// name; nil means the model's ID.
	Model func(agentcore.Model) string
	// ErrorName starts the text of a refusal: "Azure OpenAI API error".
	ErrorName string
	// NoStopReasonText is the error of a stream without a stop reason.
	NoStopReasonText string
	// ToolCallProvider is one more provider whose tool-call IDs carry
	// the Responses item ID, kept when replayed ("azure").
	ToolCallProvider string
}

// Gemini is a server speaking the Gemini API as pi-ai's google-vertex
// module does.
type Gemini struct {
	// Endpoint resolves each request's URL and authentication.
	Endpoint Resolve
	// NoFinishReasonText is the error of a stream without a finish reason.
	NoFinishReasonText string
	// FlashBudgetsForLite gives Gemini 2.5 Flash-Lite the default thinking
	// budgets of 2.5 Flash, pi-ai's Vertex table having none of its own.
	FlashBudgetsForLite bool
}
