package agui

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/limit"
)

// MaxTools is the most front-end tools a request may declare; a request
// with more is refused with 400. Each tool's parameters are bounded as
// every tool schema is ([agentcore.MaxSchemaBytes],
// [agentcore.MaxSchemaDepth], [agentcore.MaxSchemaSubschemas]).
const MaxTools = 128

// toolName is what a front-end tool's name must match: the names the
// model providers accept.
var toolName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkTools checks a request's front-end tools: their number, names and
// parameters, before compiling any schema, then each schema, stopping when
// ctx ends. Its cost is linear in the tools' size. Errors wrap
// [ErrBadInput], or are ctx's error.
func checkTools(ctx context.Context, tools []Tool) error {
	if len(tools) > MaxTools {
		return fmt.Errorf("%w: tools: %d front-end tools, over the limit of %d", ErrBadInput, len(tools), MaxTools)
	}
	seen := make(map[string]bool, len(tools))
	for i, t := range tools {
		if !toolName.MatchString(t.Name) {
			return fmt.Errorf("%w: tools[%d]: name %s: want 1 to 64 letters, digits, '_' or '-'", ErrBadInput, i, limit.Quote(t.Name))
		}
		if seen[t.Name] {
			return fmt.Errorf("%w: tool %q is declared twice", ErrBadInput, t.Name)
		}
		seen[t.Name] = true
		if err := objectSchema(t.Parameters); err != nil {
			return fmt.Errorf("%w: tools[%d] (%s): parameters: %v", ErrBadInput, i, t.Name, err)
		}
	}
	for i, t := range tools {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := (agentcore.Tool{Name: t.Name, Parameters: t.Parameters}).Validate(); err != nil {
			return fmt.Errorf("%w: tools[%d]: %v", ErrBadInput, i, err)
		}
	}
	return nil
}

// objectSchema checks that raw, when present, is a JSON object whose
// type, if it says one, is "object": the schema of a tool's arguments.
func objectSchema(raw json.RawMessage) error {
	if raw == nil {
		return nil
	}
	var s struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(raw, &s) != nil || raw[0] != '{' {
		return fmt.Errorf("want a JSON Schema object, got %s", clip(raw))
	}
	if s.Type != nil && string(s.Type) != `"object"` {
		return fmt.Errorf(`want a schema of "type": "object", got "type": %s`, clip(s.Type))
	}
	return nil
}

// clip is raw, shortened for an error text.
func clip(raw json.RawMessage) string {
	const most = 40
	if len(raw) > most {
		return string(raw[:most]) + "..."
	}
	return string(raw)
}

// tools are the run's tools: the program's, then a tool per front-end
// tool (checked by checkTools), whose calls end the run pending.
func (t *thread) tools(front []Tool) ([]agentcore.Tool, error) {
	tools := slices.Clone(t.server)
	server := make(map[string]bool, len(tools))
	for _, s := range tools {
		server[s.Name] = true
	}
	for _, f := range front {
		if server[f.Name] {
			return nil, fmt.Errorf("%w: tool %q is declared by the client and the server", ErrBadInput, f.Name)
		}
		tools = append(tools, agentcore.Tool{
			Name: f.Name, Description: f.Description, Parameters: f.Parameters,
			Execute: frontExecute,
		})
	}
	return tools, nil
}
