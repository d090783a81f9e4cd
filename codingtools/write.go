package codingtools

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/pi-go/agentcore"
)

// writeArgs are the write tool's arguments.
type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// writeTool builds the write tool.
func (s *toolset) writeTool() agentcore.Tool {
	return s.declare("write", func(ctx context.Context, _ string, raw json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var args writeArgs
		if err := json.Unmarshal(raw, &args); err != nil {
			return agentcore.ToolResult{}, fmt.Errorf("decoding arguments of write: %w", err)
		}
		abs, err := s.paths.resolve(ctx, args.Path)
		if err != nil {
			return agentcore.ToolResult{}, err
		}
		err = mutations.do(ctx, s.mutationKey(ctx, abs), func() error {
			if ctx.Err() != nil {
				return errAborted
			}
			if err := s.fs.MkdirAll(ctx, filepath.Dir(abs)); err != nil {
				if info, serr := s.fs.Stat(ctx, filepath.Dir(abs)); serr == nil && !info.IsDir() {
					err = fs.ErrExist // Node's word when the directory itself is a file
				}
				return &nodeError{err: err, syscall: "mkdir", path: filepath.Dir(abs)}
			}
			if ctx.Err() != nil {
				return errAborted
			}
			if err := s.fs.WriteFile(ctx, abs, []byte(args.Content)); err != nil {
				return &nodeError{err: err, syscall: "open", path: abs}
			}
			if ctx.Err() != nil {
				return errAborted
			}
			return nil
		})
		if err != nil {
			return agentcore.ToolResult{}, err
		}
		return agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "Successfully wrote to " + args.Path}}}, nil
	})
}
