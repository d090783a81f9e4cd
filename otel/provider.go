package agentotel

import (
	"go.opentelemetry.io/otel/semconv/v1.41.0/genaiconv"

	"github.com/pi-go/agentcore"
)

// wellKnownProviders maps pi's provider IDs to the well-known values of
// gen_ai.provider.name, which the conventions require where one applies.
var wellKnownProviders = map[string]genaiconv.ProviderNameAttr{
	"amazon-bedrock": genaiconv.ProviderNameAWSBedrock,
	"anthropic":      genaiconv.ProviderNameAnthropic,
	"azure":          genaiconv.ProviderNameAzureAIOpenAI,
	"deepseek":       genaiconv.ProviderNameDeepseek,
	"google":         genaiconv.ProviderNameGCPGemini, // generativelanguage.googleapis.com
	"google-vertex":  genaiconv.ProviderNameGCPVertexAI,
	"groq":           genaiconv.ProviderNameGroq,
	"mistral":        genaiconv.ProviderNameMistralAI,
	"openai":         genaiconv.ProviderNameOpenAI,
	"openai-codex":   genaiconv.ProviderNameOpenAI,
	"xai":            genaiconv.ProviderNameXAI,
}

// providerName is the gen_ai.provider.name of a model: the well-known
// value of its Provider, else the Provider as it is, else its API, else
// "unknown".
func providerName(m agentcore.Model) string {
	switch {
	case m.Provider != "":
		if known, ok := wellKnownProviders[m.Provider]; ok {
			return string(known)
		}
		return m.Provider
	case m.API != "":
		return m.API
	}
	return "unknown"
}
