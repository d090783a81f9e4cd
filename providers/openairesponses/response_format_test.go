package openairesponses

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestResponseFormatWire checks text.format json_schema on recorded wire traffic: the
// request body with the schema (testdata/response_format), and the
// streamed JSON text decoded into the answer.
func TestResponseFormatWire(t *testing.T) {
	model := agentcore.Model{ID: "gpt-test", Provider: "openai", API: "openai-responses", MaxTokens: 4096}
	providertest.ResponseFormatWire(t, model, "", func(url string) agentcore.StreamFn {
		return StreamFn(Options{BaseURL: url, APIKey: "k"})
	})
}
