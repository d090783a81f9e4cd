package agentcore

import (
	"bytes"
	"encoding/json"
)

// ResponseFormat is a request for a JSON answer matching a schema, sent
// in the provider's native structured-output mode (see
// [StreamOptions].ResponseFormat). The model's final text is the JSON; the
// caller still validates it, since not every mode guarantees the schema.
type ResponseFormat struct {
	// Name names the schema where the provider takes a name (OpenAI's
	// json_schema.name: letters, digits, '_' and '-', at most 64); empty
	// means "response".
	Name string
	// Schema is the JSON Schema of the answer, an object schema.
	Schema json.RawMessage
	// Strict asks OpenAI's modes to enforce the schema exactly, which
	// requires every object to list all its properties as required and to
	// set additionalProperties false; the other modes ignore it.
	Strict bool
}

// clone returns a copy of f that shares no memory with it; nil stays nil.
func (f *ResponseFormat) clone() *ResponseFormat {
	if f == nil {
		return nil
	}
	c := *f
	c.Schema = bytes.Clone(f.Schema)
	return &c
}
