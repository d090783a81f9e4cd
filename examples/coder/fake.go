package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-go/agentcore/agentcoretest"
)

// scriptedInput is the user's side of the offline session: a prompt, then
// the answers to the agent's questions (the edit is allowed, the first
// bash command declined, the second allowed).
const scriptedInput = `The greeting in main.go has a typo. Fix it and show me the line.
y
n
y
`

// script is the fake model's side: the calls a coding model would make.
var script = []agentcoretest.Response{
	call("find", map[string]any{"pattern": "*.go"}),
	call("read", map[string]any{"path": "main.go"}),
	call("grep", map[string]any{"pattern": "Helo"}),
	call("edit", map[string]any{"path": "main.go", "edits": []map[string]string{{"oldText": `"Helo, world"`, "newText": `"Hello, world"`}}}),
	call("bash", map[string]any{"command": "rm -rf ."}),
	call("bash", map[string]any{"command": "grep -n Hello main.go"}),
	agentcoretest.TextResponse("Fixed the typo: main.go line 6 now prints \"Hello, world\"."),
}

var calls int

func call(name string, args any) agentcoretest.Response {
	calls++
	return agentcoretest.ToolCallResponse(agentcoretest.ToolCall(name+"-"+string(rune('0'+calls)), name, args))
}

// runFake runs the scripted session in a scratch directory on the fake
// model: no network, no key.
func runFake(ctx context.Context, out io.Writer) error {
	dir, err := os.MkdirTemp("", "coder-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"Helo, world\")\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		return err
	}
	fake := agentcoretest.New(script...)
	s := session{dir: dir, model: agentcoretest.Model(), streamFn: fake.Stream, in: bufio.NewScanner(strings.NewReader(scriptedInput)), out: &relative{w: out, dir: dir}, echo: true}
	return s.run(ctx)
}

// relative writes through to w with the scratch directory's path shown
// as ".", so the session reads the same on every machine.
type relative struct {
	w   io.Writer
	dir string
}

func (r *relative) Write(p []byte) (int, error) {
	_, err := io.WriteString(r.w, strings.ReplaceAll(string(p), r.dir, "."))
	return len(p), err
}
