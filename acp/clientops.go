package acp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pi-go/agentcore/codingtools"
)

// clientFS is the [codingtools.FS] of a client that offers its files:
// the reads of read and edit go through fs/read_text_file (the editor's
// unsaved buffers), the writes of write and edit through
// fs/write_text_file (the editor sees them); what the protocol has no
// method for (stat, listing, directories, links), files that are not
// text, and the other tools' reads (grep and find read whole trees, a
// request a file) are the local disk's.
type clientFS struct {
	codingtools.LocalFS
	s           *sess
	read, write bool
}

// binaryExt are the extensions read from disk: the client reads text.
var binaryExt = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".bmp": true, ".ico": true, ".pdf": true}

// Open reads the file through the client.
func (f *clientFS) Open(ctx context.Context, path string) (io.ReadCloser, error) {
	if !f.read || binaryExt[strings.ToLower(filepath.Ext(path))] || !f.viaClient(ctx) {
		return f.LocalFS.Open(ctx, path)
	}
	var res readTextFileResponse
	if err := f.s.c.rpc.call(ctx, "fs/read_text_file", readTextFileRequest{SessionID: f.s.id, Path: path}, &res); err != nil {
		return nil, clientError("read", path, err)
	}
	return io.NopCloser(strings.NewReader(res.Content)), nil
}

// WriteFile writes the file through the client; data that is not UTF-8
// text goes to the disk.
func (f *clientFS) WriteFile(ctx context.Context, path string, data []byte) error {
	if !f.write || !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 || !f.viaClient(ctx) {
		return f.LocalFS.WriteFile(ctx, path, data)
	}
	req := writeTextFileRequest{SessionID: f.s.id, Path: path, Content: string(data)}
	if err := f.s.c.rpc.call(ctx, "fs/write_text_file", req, nil); err != nil {
		return clientError("write", path, err)
	}
	return nil
}

// viaClient reports whether the tool call of ctx reads and writes
// through the client: read, edit and write.
func (f *clientFS) viaClient(ctx context.Context) bool {
	switch f.s.tools.nameOf(callID(ctx)) {
	case "read", "edit", "write":
		return true
	}
	return false
}

// clientError is a failed client request as a file error: the client's
// "resource not found" wraps fs.ErrNotExist.
func clientError(op, path string, err error) error {
	var e *Error
	if errors.As(err, &e) && e.Code == CodeNotFound {
		return &fs.PathError{Op: op, Path: path, Err: fs.ErrNotExist}
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

// clientShell is the [codingtools.Shell] of a client that offers
// terminals: each command runs in a terminal of the editor
// (terminal/create with bash -c), which the call's tool_call shows.
type clientShell struct {
	s *sess
}

// terminalOutputLimit is the output the client keeps of a command:
// codingtools keeps the tail of a long output.
const terminalOutputLimit = 1 << 20

// Exec runs c in a client terminal, waits for it (killing it when ctx
// ends or c.Timeout passes), writes its output to c.Output and releases
// the terminal.
func (sh *clientShell) Exec(ctx context.Context, c codingtools.ShellCommand) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	rpc := sh.s.c.rpc
	req := createTerminalRequest{SessionID: sh.s.id, Command: "bash", Args: []string{"-c", c.Command}, Cwd: c.Dir, OutputByteLimit: terminalOutputLimit}
	for _, kv := range c.Env {
		name, value, _ := strings.Cut(kv, "=")
		req.Env = append(req.Env, envVariable{Name: name, Value: value})
	}
	var created createTerminalResponse
	if err := rpc.call(ctx, "terminal/create", req, &created); err != nil {
		return 0, fmt.Errorf("the client's terminal: %w", err)
	}
	term := terminalRequest{SessionID: sh.s.id, TerminalID: created.TerminalID}
	// The release is the client's own business once the connection is
	// gone; it gets a context of its own so that an aborted call still
	// releases its terminal.
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		_ = rpc.call(rctx, "terminal/release", term, nil)
	}()
	if id := callID(ctx); id != "" {
		sh.s.tools.attachTerminal(id, created.TerminalID)
	}
	waitCtx := ctx
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	var exit terminalExitStatus
	werr := rpc.call(waitCtx, "terminal/wait_for_exit", term, &exit)
	if werr != nil && waitCtx.Err() != nil {
		kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		_ = rpc.call(kctx, "terminal/kill", term, nil)
		cancel()
	}
	var out terminalOutputResponse
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	oerr := rpc.call(octx, "terminal/output", term, &out)
	cancel()
	if oerr == nil && c.Output != nil {
		_, _ = io.WriteString(c.Output, out.Output)
	}
	switch {
	case ctx.Err() != nil:
		return 0, ctx.Err()
	case werr != nil && waitCtx.Err() != nil:
		return 0, &codingtools.TimeoutError{Timeout: c.Timeout}
	case werr != nil:
		return 0, fmt.Errorf("the client's terminal: %w", werr)
	}
	switch {
	case exit.ExitCode != nil:
		return *exit.ExitCode, nil
	case exit.Signal != nil:
		return 0, fmt.Errorf("command killed by signal %s", *exit.Signal)
	}
	return 0, nil
}
