package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/acp"
	"github.com/pi-go/agentcore/agentcoretest"
)

// editor is a client with files (its buffers) and terminals.
type editor struct {
	mu        sync.Mutex
	buffers   map[string]string
	writes    map[string]string
	commands  []string
	killed    map[string]chan struct{}
	released  []string
	terminals int
}

func newEditor() *editor {
	return &editor{buffers: map[string]string{}, writes: map[string]string{}, killed: map[string]chan struct{}{}}
}

func (e *editor) answer(method string, params json.RawMessage) (any, *acp.Error) {
	var p struct {
		Path, Content, Command, TerminalID string
		Args                               []string
	}
	_ = json.Unmarshal(params, &p)
	e.mu.Lock()
	defer e.mu.Unlock()
	switch method {
	case "fs/read_text_file":
		text, ok := e.buffers[p.Path]
		if !ok {
			return nil, &acp.Error{Code: acp.CodeNotFound, Message: "no such file"}
		}
		return map[string]any{"content": text}, nil
	case "fs/write_text_file":
		e.writes[p.Path] = p.Content
		e.buffers[p.Path] = p.Content
		return nil, nil
	case "terminal/create":
		e.terminals++
		id := "term-" + string(rune('0'+e.terminals))
		e.commands = append(e.commands, p.Command+" "+strings.Join(p.Args, " "))
		e.killed[id] = make(chan struct{})
		return map[string]any{"terminalId": id}, nil
	case "terminal/wait_for_exit":
		cmd := e.commands[len(e.commands)-1]
		ch := e.killed[p.TerminalID]
		if strings.Contains(cmd, "sleep") {
			e.mu.Unlock()
			<-ch
			e.mu.Lock()
			return map[string]any{"exitCode": nil, "signal": "SIGKILL"}, nil
		}
		return map[string]any{"exitCode": 3}, nil
	case "terminal/kill":
		close(e.killed[p.TerminalID])
		return nil, nil
	case "terminal/output":
		return map[string]any{"output": "hello from the editor\n", "truncated": false}, nil
	case "terminal/release":
		e.released = append(e.released, p.TerminalID)
		return nil, nil
	}
	return nil, &acp.Error{Code: acp.CodeMethodNotFound, Message: method}
}

func TestClientFilesAndTerminal(t *testing.T) {
	cwd := t.TempDir()
	onDisk := filepath.Join(cwd, "a.txt")
	require.NoError(t, os.WriteFile(onDisk, []byte("saved\n"), 0o644))
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(
		agentcoretest.ToolCallResponse(tc("r1", "read", map[string]any{"path": "a.txt"})),
		agentcoretest.ToolCallResponse(tc("e1", "edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"oldText": "unsaved", "newText": "edited"}}})),
		agentcoretest.ToolCallResponse(tc("b1", "bash", map[string]any{"command": "make test"})),
		agentcoretest.ToolCallResponse(tc("g1", "grep", map[string]any{"pattern": "saved"})),
		agentcoretest.TextResponse("done"),
	)
	ed := newEditor()
	ed.buffers[onDisk] = "unsaved\n"
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake)}), ed.answer)
	c.initialize(map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}, "terminal": true})
	id := c.newSession(cwd)
	assert.Equal(t, "end_turn", c.prompt(id, "work"))

	calls := fake.Calls()
	require.Len(t, calls, 5)
	msgs := calls[1].Request.Messages
	assert.Contains(t, msgs[len(msgs)-1].(interface{ Text() string }).Text(), "unsaved", "the read saw the editor's buffer")
	assert.Equal(t, map[string]string{onDisk: "edited\n"}, ed.writes, "the edit went through the editor")
	data, err := os.ReadFile(onDisk)
	require.NoError(t, err)
	assert.Equal(t, "saved\n", string(data), "the disk is the editor's business")

	assert.Equal(t, []string{"bash -c make test"}, ed.commands)
	assert.Equal(t, []string{"term-1"}, ed.released)
	msgs = calls[3].Request.Messages
	result := msgs[len(msgs)-1].(interface{ Text() string }).Text()
	grep := calls[4].Request.Messages[len(calls[4].Request.Messages)-1].(interface{ Text() string }).Text()
	assert.Equal(t, "a.txt:1: saved", grep, "grep reads the disk, not a request a file")
	assert.Contains(t, result, "hello from the editor")
	assert.Contains(t, result, "exited with code 3")
	var terminal bool
	for _, u := range of(c.updates(), "tool_call_update") {
		for _, cc := range asList(u["content"]) {
			if m := cc.(map[string]any); m["type"] == "terminal" && m["terminalId"] == "term-1" && u["toolCallId"] == "b1" {
				terminal = true
			}
		}
	}
	assert.True(t, terminal, "the call shows the editor's terminal")
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestCancelKillsTheClientsTerminal(t *testing.T) {
	tc := agentcoretest.ToolCall
	fake := agentcoretest.New(agentcoretest.ToolCallResponse(tc("b1", "bash", map[string]any{"command": "sleep 100"})))
	fake.Append(agentcoretest.TextResponse("unheard"))
	ed := newEditor()
	c := serve(t, acp.NewServer(acp.Options{Ephemeral: true, Agent: codingAgent(fake)}), ed.answer)
	c.initialize(map[string]any{"terminal": true})
	id := c.newSession(t.TempDir())
	ch := c.start("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "sleep"}}})
	require.Eventually(t, func() bool { return len(c.requests("terminal/wait_for_exit")) == 1 }, waitLong, pollEvery)
	c.notify("session/cancel", map[string]any{"sessionId": id})
	m := c.wait(ch)
	assert.JSONEq(t, `{"stopReason":"cancelled"}`, string(m.Result))
	assert.Len(t, c.requests("terminal/kill"), 1)
	require.Eventually(t, func() bool { return len(c.requests("terminal/release")) == 1 }, waitLong, pollEvery)
}
