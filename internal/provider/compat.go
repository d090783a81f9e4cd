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

// Affinity is how a model wants the session of its requests named in
// headers, so that a gateway routes them alike (to its prompt cache):
// pi-ai's compat settings sendSessionAffinityHeaders (by default, only
// for OpenRouter) and sessionAffinityFormat ("openrouter" by default for
// OpenRouter).
type Affinity struct {
	send       bool
	openRouter bool
}

// NewAffinity reads the two compat settings for a model that is or is not
// served by OpenRouter.
func NewAffinity(send *bool, format string, openRouter bool) Affinity {
	if format == "" && openRouter {
		format = "openrouter"
	}
	return Affinity{send: Flag(send, openRouter), openRouter: format == "openrouter"}
}

// Session returns the session ID to send in headers, and whether in
// OpenRouter's form (x-session-id). The ID is "" when none is sent: the
// request has no SessionID, its CacheRetention is "none", or the model
// does not want it.
func (a Affinity) Session(o agentcore.StreamOptions) (id string, openRouter bool) {
	if !a.send || o.CacheRetention == "none" {
		return "", false
	}
	return o.SessionID, a.openRouter
}
