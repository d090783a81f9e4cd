package provider

import (
	"encoding/json"
	"fmt"

	"github.com/pi-go/agentcore"
)

// Compat decodes model's compat settings, a JSON object with pi-ai's
// keys, into v, a pointer to a struct of the keys a provider reads.
// Absent or null settings leave v as it is; settings that are not a JSON
// object are an error whose text a request fails with.
func Compat(model agentcore.Model, v any) error {
	if len(model.Compat) == 0 || string(model.Compat) == "null" {
		return nil
	}
	if err := json.Unmarshal(model.Compat, v); err != nil {
		return fmt.Errorf("invalid model compat settings: %v", err)
	}
	return nil
}

// Flag returns the compat setting b, or def when the settings leave it out.
func Flag(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}
