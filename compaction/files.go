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

// add records the files of the tool calls of messages' assistant messages.
func (fs fileSet) add(messages []agentcore.Message, files FilesFunc) {
	for _, m := range messages {
		a, ok := m.(*agentcore.AssistantMessage)
		if !ok {
			continue
		}
		for _, call := range a.ToolCalls() {
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

// lists returns the files only read and the files modified, sorted.
func (fs fileSet) lists() (read, modified []string) {
	for f := range fs.read {
		if !fs.modified[f] {
			read = append(read, f)
		}
	}
	for f := range fs.modified {
		modified = append(modified, f)
	}
	slices.Sort(read)
	slices.Sort(modified)
	return read, modified
}
