package compaction

import (
	"encoding/json"
	"slices"

	"github.com/pi-go/agentcore"
)

// FileOp is one file a tool call touches.
type FileOp struct {
	// Path is the file as the call names it.
	Path string
	// Modified is true for a write or an edit, false for a read.
	Modified bool
}

// FilesFunc says which files a tool call touches. It is called on the
// goroutine that prepares a compaction, once per tool call of the
// messages summarized; call is read-only. Nil or empty means none.
type FilesFunc func(call agentcore.ToolCall) []FileOp

// DefaultFiles is pi's convention: a tool named "read" reads, and tools
// named "write" and "edit" modify, the file of their "path" argument.
func DefaultFiles(call agentcore.ToolCall) []FileOp {
	var modified bool
	switch call.Name {
	case "read":
	case "write", "edit":
		modified = true
	default:
		return nil
	}
	var args struct {
		Path *string `json:"path"`
	}
	if json.Unmarshal(call.Arguments, &args) != nil || args.Path == nil || *args.Path == "" {
		return nil
	}
	return []FileOp{{Path: *args.Path, Modified: modified}}
}

// fileSet accumulates the files of a compaction.
type fileSet struct {
	read, modified map[string]bool
}

func newFileSet(previous *Summary) fileSet {
	fs := fileSet{read: map[string]bool{}, modified: map[string]bool{}}
	if previous != nil {
		for _, f := range previous.ReadFiles {
			fs.read[f] = true
		}
		for _, f := range previous.ModifiedFiles {
			fs.modified[f] = true
		}
	}
	return fs
}

// nestedCalls is the nestedCalls member of a tool result (pi's codemode):
// the tool calls a script made.
type nestedCalls struct {
	Calls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"calls"`
}

// toolCalls are the tool calls m records: an assistant message's, or the
// nested calls of a tool result.
func toolCalls(m agentcore.Message) []agentcore.ToolCall {
	switch m := m.(type) {
	case *agentcore.AssistantMessage:
		return m.ToolCalls()
	case *agentcore.ToolResultMessage:
		var nested nestedCalls
		if len(m.NestedCalls) == 0 || json.Unmarshal(m.NestedCalls, &nested) != nil {
			return nil
		}
		calls := make([]agentcore.ToolCall, len(nested.Calls))
		for i, c := range nested.Calls {
			calls[i] = agentcore.ToolCall{Name: c.Name, Arguments: c.Arguments}
		}
		return calls
	}
	return nil
}

// add records the files of the tool calls of messages: those of assistant
// messages and those nested in tool results, as pi does.
func (fs fileSet) add(messages []agentcore.Message, files FilesFunc) {
	for _, m := range messages {
		for _, call := range toolCalls(m) {
			for _, op := range files(call) {
				if op.Path == "" {
					continue
				}
				if op.Modified {
					fs.modified[op.Path] = true
				} else {
					fs.read[op.Path] = true
				}
			}
		}
	}
}

// lists returns the files only read and the files modified, sorted as
// JavaScript sorts strings (by UTF-16 code units).
func (fs fileSet) lists() (read, modified []string) {
	for f := range fs.read {
		if !fs.modified[f] {
			read = append(read, f)
		}
	}
	for f := range fs.modified {
		modified = append(modified, f)
	}
	slices.SortFunc(read, compareJS)
	slices.SortFunc(modified, compareJS)
	return read, modified
}
