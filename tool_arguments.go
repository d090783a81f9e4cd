package agentcore

import (
	"encoding/json"
	"errors"

	"github.com/pi-go/agentcore/internal/schema"
)

// validateToolArguments fails a call whose arguments could not be parsed,
// then coerces a copy of args to the tool's schema and validates it, as
// pi-ai's validateToolArguments does. The error's text is what the model
// sees; the schema of each tool compiles once.
func validateToolArguments(tool Tool, call ToolCall, args json.RawMessage) (json.RawMessage, error) {
	if call.ArgumentsError != "" {
		return nil, errors.New(`Invalid arguments for tool "` + call.Name + `": ` + call.ArgumentsError)
	}
	if len(args) == 0 {
		args = emptyObject
	}
	params := tool.Parameters
	if len(params) == 0 {
		params = defaultParameters
	}
	return schema.ValidateToolArguments(call.Name, params, args)
}
