package google

import (
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestResponseFormatWire checks responseMimeType and responseJsonSchema on recorded wire traffic: the
// request body with the schema (testdata/response_format), and the
// streamed JSON text decoded into the answer.
func TestResponseFormatWire(t *testing.T) {
	model := agentcore.Model{ID: "gemini-3-flash-preview", Provider: "google", API: "google-generative-ai", MaxTokens: 4096}
	providertest.ResponseFormatWire(t, model, "", func(url string) agentcore.StreamFn {
		return StreamFn(Options{BaseURL: url, APIKey: "k"})
	})
}
