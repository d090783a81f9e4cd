package provider

import (
	"cmp"
	"encoding/json"

	"github.com/pi-go/agentcore"
)

// JSONSchema is the named schema of OpenAI's json_schema answer format,
// as Chat Completions' response_format.json_schema and, inline, the
// Responses API's text.format write it.
type JSONSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

// NewJSONSchema maps f onto a JSONSchema, named "response" when f names
// none; nil for nil.
func NewJSONSchema(f *agentcore.ResponseFormat) *JSONSchema {
	if f == nil {
		return nil
	}
	return &JSONSchema{Name: cmp.Or(f.Name, "response"), Schema: f.Schema, Strict: f.Strict}
}
