package acp

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/codingtools"
	"github.com/pi-go/agentcore/hold"
)

// toolTracker follows a session's tool calls as the client sees them:
// announced at their start, updated as they report, finished once (by
// their end, or by the Gate's resolution of a held call). It keeps only
// the calls not finished, and the finished ones the Gate has yet to
// resolve, so that a long session's tracker stays small.
type toolTracker struct {
	s  *sess
	fs codingtools.FS

	mu    sync.Mutex
	calls map[string]*trackedCall
}

type trackedCall struct {
	name     string
	args     json.RawMessage
	info     ToolInfo
	done     bool
	oldText  *string // write: the file before, when it existed
	oldLost  bool    // write: the file existed, too large to keep
	terminal string  // bash through the client's terminal
}

func newToolTracker(s *sess, fs codingtools.FS) *toolTracker {
	return &toolTracker{s: s, fs: fs, calls: map[string]*trackedCall{}}
}

// callKey keys the tool call ID in a tool's ctx.
type callKey struct{}

// callID returns the ID of the tool call ctx belongs to, or "".
func callID(ctx context.Context) string {
	id, _ := ctx.Value(callKey{}).(string)
	return id
}

// wrap tells the client when a call starts running (in_progress: a held
// call stays pending until allowed), gives the call's ID to the
// operations the tool runs (the client's terminal attaches to it) and
// keeps what write replaces, for its diff.
func (t *toolTracker) wrap(tool agentcore.Tool) agentcore.Tool {
	next := tool.Execute
	if next == nil {
		return tool
	}
	name := tool.Name
	tool.Execute = func(ctx context.Context, id string, args json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
		ctx = context.WithValue(ctx, callKey{}, id)
		t.s.c.update(t.s.id, toolCall{SessionUpdate: "tool_call_update", ToolCallID: id, Status: "in_progress"})
		if name == "write" {
			t.keepOld(ctx, id, args)
		}
		return next(ctx, id, args, onUpdate)
	}
	return tool
}

// keepOld reads the file a write replaces; a file that does not exist
// (or cannot be read) has no old text.
func (t *toolTracker) keepOld(ctx context.Context, id string, args json.RawMessage) {
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) != nil || a.Path == "" {
		return
	}
	f, err := t.fs.Open(ctx, absPath(a.Path, t.s.cwd))
	if err != nil {
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, maxDiffBytes+1))
	f.Close()
	if err != nil {
		return
	}
	t.mu.Lock()
	if c := t.calls[id]; c != nil {
		if len(data) > maxDiffBytes {
			c.oldLost = true
		} else {
			old := string(data)
			c.oldText = &old
		}
	}
	t.mu.Unlock()
}

// maxDiffBytes bounds the file a write's diff shows; a write over a
// larger one shows none.
const maxDiffBytes = 1 << 20

// describe returns how the client shows a call.
func (t *toolTracker) describe(name string, args json.RawMessage) ToolInfo {
	if d := t.s.c.srv.opts.Describe; d != nil {
		if info := d(name, args, t.s.cwd); info.Title != "" {
			return info
		}
	}
	return describeTool(name, args, t.s.cwd)
}

// start announces a call: a tool_call, pending.
func (t *toolTracker) start(id, name string, args json.RawMessage) {
	info := t.describe(name, args)
	t.mu.Lock()
	t.calls[id] = &trackedCall{name: name, args: args, info: info}
	t.mu.Unlock()
	tc := toolCall{SessionUpdate: "tool_call", ToolCallID: id, Title: info.Title, Kind: kindOr(info.Kind),
		Status: "pending", Locations: locations(info.Locations), RawInput: rawInput(args)}
	t.s.c.update(t.s.id, tc)
}

// progress reports a partial result: in_progress, with its content.
func (t *toolTracker) progress(id string, partial agentcore.ToolResult) {
	tc := toolCall{SessionUpdate: "tool_call_update", ToolCallID: id, Status: "in_progress", Content: t.content(id, partial, false)}
	t.s.c.update(t.s.id, tc)
}

// attachTerminal shows the client's terminal running the call.
func (t *toolTracker) attachTerminal(id, terminalID string) {
	t.mu.Lock()
	if c := t.calls[id]; c != nil {
		c.terminal = terminalID
	}
	t.mu.Unlock()
	t.s.c.update(t.s.id, toolCall{SessionUpdate: "tool_call_update", ToolCallID: id, Status: "in_progress",
		Content: []toolCallContent{{Type: "terminal", TerminalID: terminalID}}})
}

// nameOf returns the tool of call id, "" when unknown.
func (t *toolTracker) nameOf(id string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.calls[id]; c != nil {
		return c.name
	}
	return ""
}

// settle is told the Gate resolved call id: it reports whether the call
// was finished already (refused as the prompt ended), and then forgets it.
func (t *toolTracker) settle(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.calls[id]
	if c == nil || !c.done {
		return false
	}
	delete(t.calls, id)
	return true
}

// finish reports the call's result: completed or failed, with its
// content (and diffs). The call is then forgotten, unless the Gate still
// holds it: its resolution comes later (see settle).
func (t *toolTracker) finish(id string, r agentcore.ToolResult, isError bool) {
	content := t.content(id, r, !isError)
	held := t.s.gate.Holds(id)
	t.mu.Lock()
	if c := t.calls[id]; c != nil {
		if held {
			c.done = true
		} else {
			delete(t.calls, id)
		}
	}
	t.mu.Unlock()
	status := "completed"
	if isError {
		status = "failed"
	}
	t.s.c.update(t.s.id, toolCall{SessionUpdate: "tool_call_update", ToolCallID: id, Status: status, Content: content})
}

// content is a result as ACP tool call content: the diffs of an edit or
// write that succeeded, the terminal that ran a command, then the result's
// text and images.
func (t *toolTracker) content(id string, r agentcore.ToolResult, ok bool) []toolCallContent {
	t.mu.Lock()
	c := t.calls[id]
	var call trackedCall
	if c != nil {
		call = *c
	}
	t.mu.Unlock()
	out := []toolCallContent{}
	if ok {
		switch call.name {
		case "edit":
			out = append(out, editDiffs(call.args, r.Details, t.s.cwd)...)
		case "write":
			var a struct {
				Path    string `json:"path"`
				Content string `json:"content"`
			}
			// A file too large to keep has no diff: without its old text
			// the diff would show a new file.
			if !call.oldLost && json.Unmarshal(call.args, &a) == nil && a.Path != "" {
				text := a.Content
				out = append(out, toolCallContent{Type: "diff", Path: absPath(a.Path, t.s.cwd), OldText: call.oldText, NewText: &text})
			}
		}
	}
	if call.terminal != "" {
		out = append(out, toolCallContent{Type: "terminal", TerminalID: call.terminal})
	}
	for _, b := range r.Content {
		if cb, ok := contentOf(b); ok {
			out = append(out, toolCallContent{Type: "content", Content: &cb})
		}
	}
	return out
}

// permissionView is a held call as the permission request shows it.
func (t *toolTracker) permissionView(call hold.Call) toolCall {
	info := t.describe(call.Tool, call.Arguments)
	title := info.Title
	if call.Title != "" {
		title = call.Title
	}
	return toolCall{ToolCallID: call.ID, Title: title, Kind: kindOr(info.Kind), Status: "pending",
		Locations: locations(info.Locations), RawInput: rawInput(call.Arguments)}
}

// contentOf is a text or image block as ACP content; other blocks have
// none.
func contentOf(b agentcore.ContentBlock) (contentBlock, bool) {
	switch b := b.(type) {
	case agentcore.TextBlock:
		return contentBlock{Type: "text", Text: b.Text}, true
	case agentcore.ImageBlock:
		return contentBlock{Type: "image", Data: b.Data, MimeType: b.MimeType}, true
	}
	return contentBlock{}, false
}

func kindOr(kind string) string {
	if kind == "" {
		return "other"
	}
	return kind
}

func locations(ls []Location) []toolCallLocation {
	var out []toolCallLocation
	for _, l := range ls {
		loc := toolCallLocation{Path: l.Path}
		if l.Line > 0 {
			line := l.Line
			loc.Line = &line
		}
		out = append(out, loc)
	}
	return out
}

// rawInput is args for the client, {} when there are none.
func rawInput(args json.RawMessage) json.RawMessage {
	if len(args) == 0 || !json.Valid(args) {
		return json.RawMessage("{}")
	}
	return args
}

// absPath resolves p, as codingtools does, against cwd.
func absPath(p, cwd string) string {
	p = strings.TrimPrefix(p, "@")
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// describeTool is the default [ToolInfo], which knows codingtools' tools.
func describeTool(name string, raw json.RawMessage, cwd string) ToolInfo {
	var a struct {
		Path    string `json:"path"`
		Offset  int    `json:"offset"`
		Command string `json:"command"`
		Pattern string `json:"pattern"`
	}
	_ = json.Unmarshal(raw, &a)
	at := func(line int) []Location {
		if a.Path == "" {
			return nil
		}
		return []Location{{Path: absPath(a.Path, cwd), Line: line}}
	}
	in := ""
	if a.Path != "" {
		in = " in " + a.Path
	}
	switch name {
	case "read":
		return ToolInfo{Title: "Read " + a.Path, Kind: "read", Locations: at(max(a.Offset, 0))}
	case "edit":
		return ToolInfo{Title: "Edit " + a.Path, Kind: "edit", Locations: at(0)}
	case "write":
		return ToolInfo{Title: "Write " + a.Path, Kind: "edit", Locations: at(0)}
	case "bash":
		return ToolInfo{Title: firstLine(a.Command, 120), Kind: "execute"}
	case "grep":
		return ToolInfo{Title: "grep " + a.Pattern + in, Kind: "search", Locations: at(0)}
	case "find":
		return ToolInfo{Title: "find " + a.Pattern + in, Kind: "search", Locations: at(0)}
	case "ls":
		p := a.Path
		if p == "" {
			p = "."
		}
		return ToolInfo{Title: "ls " + p, Kind: "search", Locations: at(0)}
	}
	return ToolInfo{Title: name, Kind: "other"}
}

// editDiffs are the diffs of an edit: each hunk of the unified patch in
// its details (codingtools.EditDetails), as old and new text.
func editDiffs(raw json.RawMessage, details any, cwd string) []toolCallContent {
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(raw, &a) != nil || a.Path == "" || details == nil {
		return nil
	}
	var d codingtools.EditDetails
	switch v := details.(type) {
	case codingtools.EditDetails:
		d = v
	case *codingtools.EditDetails:
		d = *v
	default:
		data, err := json.Marshal(details)
		if err != nil || json.Unmarshal(data, &d) != nil {
			return nil
		}
	}
	path := absPath(a.Path, cwd)
	var out []toolCallContent
	for _, h := range patchHunks(d.Patch) {
		oldText, newText := h[0], h[1]
		out = append(out, toolCallContent{Type: "diff", Path: path, OldText: &oldText, NewText: &newText})
	}
	return out
}

// patchHunks returns the old and new text of each hunk of a unified
// patch.
func patchHunks(patch string) [][2]string {
	var out [][2]string
	var oldB, newB strings.Builder
	in := false
	flush := func() {
		if in {
			out = append(out, [2]string{oldB.String(), newB.String()})
		}
		oldB.Reset()
		newB.Reset()
	}
	for _, line := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(line, "@@"):
			flush()
			in = true
		case !in || line == "":
		case line[0] == ' ':
			oldB.WriteString(line[1:] + "\n")
			newB.WriteString(line[1:] + "\n")
		case line[0] == '-':
			oldB.WriteString(line[1:] + "\n")
		case line[0] == '+':
			newB.WriteString(line[1:] + "\n")
		}
	}
	flush()
	return out
}
