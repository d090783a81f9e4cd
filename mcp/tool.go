package agentmcp

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
)

// newTool makes the agentcore tool of t, a tool of s: its name with the
// server's prefix, its title as label, its schemas as parameters and
// output schema, and an Execute that calls it. A schema that is not a JSON
// object or does not compile is an error naming the server and the tool.
func (s *server) newTool(t *mcp.Tool) (agentcore.Tool, error) {
	params, err := schemaJSON(t.InputSchema)
	if err != nil {
		return agentcore.Tool{}, s.toolError(t.Name, "input schema", err)
	}
	output, err := schemaJSON(t.OutputSchema)
	if err != nil {
		return agentcore.Tool{}, s.toolError(t.Name, "output schema", err)
	}
	label := t.Title
	if label == "" && t.Annotations != nil {
		label = t.Annotations.Title
	}
	remote, name := t.Name, s.cfg.Prefix+t.Name
	tool := agentcore.Tool{
		Name:         name,
		Label:        cmp.Or(label, name),
		Description:  t.Description,
		Parameters:   params,
		OutputSchema: output,
		Replay:       replayPolicy(t.Annotations),
		Execute: func(ctx context.Context, _ string, args json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
			return s.call(ctx, remote, args, onUpdate)
		},
	}
	if err := tool.Validate(); err != nil {
		return agentcore.Tool{}, fmt.Errorf("agentmcp: server %q: tool %q: %w", s.cfg.Name, t.Name, err)
	}
	return tool, nil
}

// toolError reports a malformed schema of tool.
func (s *server) toolError(tool, what string, err error) error {
	return fmt.Errorf("agentmcp: server %q: tool %q: %w: %s: %w", s.cfg.Name, tool, agentcore.ErrInvalidTool, what, err)
}

// schemaJSON returns a schema as the SDK decoded it (a map, or nil) as
// JSON; nil stays nil. A schema must be a JSON object.
func schemaJSON(schema any) (json.RawMessage, error) {
	if schema == nil {
		return nil, nil
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(raw, []byte("{")) {
		return nil, fmt.Errorf("not a JSON object: %.100s", raw)
	}
	return raw, nil
}

// replayPolicy reads a tool's hints: a read-only or idempotent tool may
// run again when its outcome is unknown.
func replayPolicy(a *mcp.ToolAnnotations) agentcore.ReplayPolicy {
	if a != nil && (a.ReadOnlyHint || a.IdempotentHint) {
		return agentcore.ReplaySafe
	}
	return agentcore.ReplayNever
}
