package codingtools

import (
	"context"
	"encoding/json"
	"os"

	"github.com/pi-go/agentcore"
)

// Options configure a tool set. A nil *Options means defaults.
type Options struct {
	// FS is the file system of read, write, edit, grep, find and ls. Nil
	// means [LocalFS].
	FS FS
	// Shell runs bash's commands. Nil means a [LocalShell] running bash.
	Shell Shell
	// Confine refuses paths of the file tools that leave the working
	// directory: "..", absolute paths elsewhere, symbolic links leading
	// out and, with LocalFS, files with several hard links. The call
	// fails with an error wrapping [ErrOutsideDir]. When FS is a
	// [Confiner] (LocalFS is) every open goes through it and no race
	// with a change of the tree can lead out; otherwise paths are checked
	// before use, following links when FS is a [RealPather]. See the
	// package doc. It cannot confine bash: a command can reach any file
	// the process can, so a program that confines leaves bash out or
	// gives it a sandboxed Shell ([LocalShell].Limits bound its
	// resources, not its files).
	Confine bool
	// CommandPrefix, when set, runs before every bash command, on a line of
	// its own (pi's commandPrefix), e.g. "set -euo pipefail".
	CommandPrefix string
	// Env is the environment of bash's commands. Nil means pi's: the
	// process's, with pi's bin folder ($PI_CODING_AGENT_DIR/bin, else
	// ~/.pi/agent/bin) first on PATH, without the variables describing a
	// pi session (PI_SESSION_ID, PI_SESSION_FILE, PI_PROVIDER, PI_MODEL,
	// PI_REASONING_LEVEL), and with PWD inherited as Node's spawn leaves
	// it, so that pwd in a directory reached through a link prints its
	// real path.
	Env []string
	// TempDir is where bash saves the full output of a cut output. Empty
	// means [os.TempDir].
	TempDir string
}

// toolset is the state the tools of one set share.
type toolset struct {
	dir   string
	fs    FS
	shell Shell
	paths resolver
	opts  Options
	// ancestors is the FS that looks for .git and .gitignore files above
	// a search: fs below dir, the unconfined FS above it.
	ancestors FS
}

func newToolset(dir string, opts *Options) *toolset {
	s := &toolset{dir: absDir(dir)}
	if opts != nil {
		s.opts = *opts
	}
	s.fs = s.opts.FS
	if s.fs == nil {
		s.fs = LocalFS{}
	}
	s.shell = s.opts.Shell
	if s.shell == nil {
		s.shell = &LocalShell{}
	}
	if s.opts.TempDir == "" {
		s.opts.TempDir = os.TempDir()
	}
	s.ancestors = s.fs
	kernel := false
	if c, ok := s.fs.(Confiner); ok && s.opts.Confine {
		s.ancestors = &aboveFS{dir: s.dir, below: c.Confine(s.dir), above: s.fs}
		s.fs, kernel = s.ancestors.(*aboveFS).below, true
	}
	s.paths = resolver{dir: s.dir, fsys: s.fs, confine: s.opts.Confine, kernel: kernel}
	return s
}

// declare returns the tool named name with pi's declaration and execute.
func (s *toolset) declare(name string, execute func(ctx context.Context, callID string, args json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error)) agentcore.Tool {
	d := declarations[name]
	return agentcore.Tool{
		Name:        name,
		Label:       name,
		Description: d.description,
		Parameters:  append(json.RawMessage(nil), d.parameters...),
		Execute:     execute,
	}
}

// tool returns the tool named name of s.
func (s *toolset) tool(name string) agentcore.Tool {
	switch name {
	case "read":
		return s.readTool()
	case "bash":
		return s.bashTool()
	case "edit":
		return s.editTool()
	case "write":
		return s.writeTool()
	case "grep":
		return s.grepTool()
	case "find":
		return s.findTool()
	default:
		return s.lsTool()
	}
}

func (s *toolset) tools(names ...string) []agentcore.Tool {
	out := make([]agentcore.Tool, len(names))
	for i, n := range names {
		out[i] = s.tool(n)
	}
	return out
}

// CodingTools returns pi's coding set for the working directory dir: read,
// bash, edit and write, in that order (createCodingTools).
func CodingTools(dir string, opts *Options) []agentcore.Tool {
	return newToolset(dir, opts).tools("read", "bash", "edit", "write")
}

// ReadOnlyTools returns pi's read-only set for dir: read, grep, find and
// ls (createReadOnlyTools).
func ReadOnlyTools(dir string, opts *Options) []agentcore.Tool {
	return newToolset(dir, opts).tools("read", "grep", "find", "ls")
}

// AllTools returns all seven tools for dir: read, bash, edit, write, grep,
// find and ls (createAllTools without Windows' powershell).
func AllTools(dir string, opts *Options) []agentcore.Tool {
	return newToolset(dir, opts).tools(ToolNames()...)
}

// ToolNames returns the names of the tools of this package in [AllTools]'
// order: read, bash, edit, write, grep, find, ls. The slice is the
// caller's.
func ToolNames() []string { return []string{"read", "bash", "edit", "write", "grep", "find", "ls"} }

// Tool returns the tool named name ("read", "bash", "edit", "write",
// "grep", "find" or "ls") for dir, and false for another name.
func Tool(name, dir string, opts *Options) (agentcore.Tool, bool) {
	if _, ok := declarations[name]; !ok {
		return agentcore.Tool{}, false
	}
	return newToolset(dir, opts).tool(name), true
}
