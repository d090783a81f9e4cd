package codingtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-go/agentcore"
)

// editArgs are the edit tool's arguments after [prepareEditArguments].
type editArgs struct {
	Path  string          `json:"path"`
	Edits json.RawMessage `json:"edits"`
}

// prepareEditArguments repairs the argument shapes models send instead of
// an edits array, as pi does: edits as a JSON string (of an array or of
// one edit), edits as one object, and top-level oldText/newText, which are
// appended to edits.
func prepareEditArguments(raw json.RawMessage) (json.RawMessage, error) {
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil || args == nil {
		return raw, nil
	}
	changed := false
	if e, ok := args["edits"]; ok {
		var s string
		if json.Unmarshal(e, &s) == nil {
			if trimmed := strings.TrimSpace(s); strings.HasPrefix(trimmed, "[") {
				var arr []json.RawMessage
				if json.Unmarshal([]byte(s), &arr) == nil {
					args["edits"], changed = json.RawMessage(s), true
				}
			} else if isSingleEdit(json.RawMessage(s)) {
				args["edits"], changed = json.RawMessage("["+s+"]"), true
			}
		} else if isSingleEdit(e) {
			args["edits"], changed = json.RawMessage("["+string(e)+"]"), true
		}
	}
	var oldText, newText string
	if json.Unmarshal(args["oldText"], &oldText) == nil && json.Unmarshal(args["newText"], &newText) == nil && args["oldText"] != nil && args["newText"] != nil {
		var edits []json.RawMessage
		_ = json.Unmarshal(args["edits"], &edits)
		one, _ := json.Marshal(Edit{OldText: oldText, NewText: newText})
		edits = append(edits, one)
		all, _ := json.Marshal(edits)
		args["edits"] = all
		delete(args, "oldText")
		delete(args, "newText")
		changed = true
	}
	if !changed {
		return raw, nil
	}
	return json.Marshal(args)
}

// isSingleEdit reports whether raw is an object with string oldText and
// newText.
func isSingleEdit(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return false
	}
	var a, b string
	return m["oldText"] != nil && m["newText"] != nil && json.Unmarshal(m["oldText"], &a) == nil && json.Unmarshal(m["newText"], &b) == nil
}

// editTool builds the edit tool.
func (s *toolset) editTool() agentcore.Tool {
	t := s.declare("edit", func(ctx context.Context, _ string, raw json.RawMessage, _ func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		var args editArgs
		if err := json.Unmarshal(raw, &args); err != nil {
			return agentcore.ToolResult{}, fmt.Errorf("decoding arguments of edit: %w", err)
		}
		var edits []Edit
		if json.Unmarshal(args.Edits, &edits) != nil || len(edits) == 0 {
			return agentcore.ToolResult{}, errors.New("Edit tool input is invalid. edits must contain at least one replacement.")
		}
		abs, err := s.paths.resolve(ctx, args.Path)
		if err != nil {
			return agentcore.ToolResult{}, err
		}
		var details EditDetails
		err = mutations.do(ctx, s.mutationKey(ctx, abs), func() error {
			var err error
			details, err = s.edit(ctx, abs, args.Path, edits)
			return err
		})
		if err != nil {
			return agentcore.ToolResult{}, err
		}
		text := fmt.Sprintf("Successfully replaced %d block(s) in %s.", len(edits), args.Path)
		return agentcore.ToolResult{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}}, Details: details}, nil
	})
	t.PrepareArguments = prepareEditArguments
	return t
}

// edit applies edits to the file at abs; it runs holding the file's
// mutation lock.
func (s *toolset) edit(ctx context.Context, abs, path string, edits []Edit) (EditDetails, error) {
	if ctx.Err() != nil {
		return EditDetails{}, errAborted
	}
	info, err := s.fs.Stat(ctx, abs)
	if err != nil {
		if ctx.Err() != nil {
			return EditDetails{}, errAborted
		}
		if code, _ := errorCode(err); code != "" {
			return EditDetails{}, fmt.Errorf("Could not edit file: %s. Error code: %s.", path, code)
		}
		return EditDetails{}, fmt.Errorf("Could not edit file: %s. %v.", path, err)
	}
	if info.IsDir() {
		return EditDetails{}, &nodeError{err: errIsDir, syscall: "read"}
	}
	f, err := s.fs.Open(ctx, abs)
	if err != nil {
		return EditDetails{}, &nodeError{err: err, syscall: "open", path: abs}
	}
	data, err := readAllSized(f, info.Size())
	f.Close()
	if err != nil {
		return EditDetails{}, err
	}
	if ctx.Err() != nil {
		return EditDetails{}, errAborted
	}
	var raw string
	if utf8.Valid(data) {
		// data is never written again: the text shares its bytes rather
		// than doubling the memory of a large file.
		raw = unsafe.String(unsafe.SliceData(data), len(data))
	} else {
		raw = decodeString(data)
	}
	bom := ""
	if strings.HasPrefix(raw, "\ufeff") {
		bom, raw = "\ufeff", raw[len("\ufeff"):]
	}
	normalized := normalizeToLF(raw)
	newContent, reps, err := applyEdits(normalized, edits, path)
	if err != nil {
		return EditDetails{}, err
	}
	details := editDiff(path, normalized, newContent, reps)
	if ctx.Err() != nil {
		return EditDetails{}, errAborted
	}
	final := newContent
	if raw != normalized {
		final = applyToOriginal(raw, reps)
	}
	var out []byte
	if bom == "" {
		// WriteFile does not modify data (see FS): no copy of the text.
		out = unsafe.Slice(unsafe.StringData(final), len(final))
	} else {
		out = append(append(make([]byte, 0, len(bom)+len(final)), bom...), final...)
	}
	if err := s.fs.WriteFile(ctx, abs, out); err != nil {
		return EditDetails{}, &nodeError{err: err, syscall: "open", path: abs}
	}
	if ctx.Err() != nil {
		return EditDetails{}, errAborted
	}
	return details, nil
}

// readAllSized reads r to its end into a buffer sized for size bytes, so
// that a large file is not copied as the buffer grows.
func readAllSized(r io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > math.MaxInt-512 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, size+512)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}
