package acp

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/codingtools"
	"github.com/pi-go/agentcore/hold"
	"github.com/pi-go/agentcore/session"
)

// sess is one ACP session: an Agent, its permission gate and its file.
type sess struct {
	c     *connection
	id    string
	cwd   string
	agent *agentcore.Agent
	gate  *hold.Gate
	file  *session.Session // nil when ephemeral
	mcp   func() error     // closes the MCP servers; nil for none
	tools *toolTracker

	mu      sync.Mutex
	running bool
	// ended is closed when the running prompt's handler returns.
	ended  chan struct{}
	closed bool // by session/close: no prompt begins
	cancel context.CancelFunc
	// cancelled is set by session/cancel during the prompt.
	cancelled bool
	// cancelSeq is the number of the last session/cancel read (see
	// seqOf): a prompt read before it and not yet running when it came
	// is cancelled as it begins.
	cancelSeq uint64
	mode      string
	// always holds the tools the user allowed (true) or rejected (false)
	// for the rest of the session.
	always map[string]bool
	// turns counts the model requests of the running prompt.
	turns   int
	limited bool
}

func (c *connection) newSession(ctx context.Context, params json.RawMessage) (reply, error) {
	var p newSessionRequest
	if err := decodeParams(params, &p); err != nil {
		return reply{}, err
	}
	if err := checkCwd(p.Cwd); err != nil {
		return reply{}, err
	}
	o := c.srv.opts
	var file *session.Session
	id := newID()
	if !o.Ephemeral {
		dir, err := c.srv.sessionDir(p.Cwd)
		if err != nil {
			return reply{}, err
		}
		file, err = session.Create(dir, p.Cwd, nil)
		if err != nil {
			return reply{}, rpcError(CodeInternalError, "creating the session file: %v", err)
		}
		id = file.Header().ID
	}
	s, err := c.open(ctx, id, p.Cwd, p.MCPServers, file)
	if err != nil {
		return reply{}, err
	}
	return reply{result: newSessionResponse{SessionID: s.id, Modes: s.modeState()}, after: s.announce}, nil
}

// checkCwd refuses a working directory that is not absolute.
func checkCwd(cwd string) error {
	if cwd == "" || !filepath.IsAbs(cwd) {
		return rpcError(CodeInvalidParams, "invalid params: cwd must be an absolute path, got %q", cwd)
	}
	return nil
}

// sessionDir is the directory of the session files of cwd.
func (s *Server) sessionDir(cwd string) (string, error) {
	agentDir := s.opts.AgentDir
	if agentDir == "" {
		d, err := session.AgentDir()
		if err != nil {
			return "", rpcError(CodeInternalError, "%v", err)
		}
		agentDir = d
	}
	return session.Dir(agentDir, cwd), nil
}

// open builds the session's Agent around file (nil: none) and registers
// it; on error everything it opened is closed, file included.
func (c *connection) open(ctx context.Context, id, cwd string, servers []wireMCPServer, file *session.Session) (_ *sess, err error) {
	o := c.srv.opts
	s := &sess{c: c, id: id, cwd: cwd, file: file, always: map[string]bool{}}
	defer func() {
		if err != nil {
			s.close()
		}
	}()
	if len(o.Modes) > 0 {
		s.mode = o.Modes[0].ID
	}
	if file != nil {
		s.restorePermissions()
	}
	env := &Env{SessionID: id, Cwd: cwd, FS: codingtools.LocalFS{}, Mode: s.currentMode, Plan: s.plan, s: s}
	caps := c.capabilities()
	if caps.FS.ReadTextFile || caps.FS.WriteTextFile {
		env.FS = &clientFS{s: s, read: caps.FS.ReadTextFile, write: caps.FS.WriteTextFile}
	}
	if caps.Terminal {
		env.Shell = &clientShell{s: s}
	}
	if len(servers) > 0 && o.ConnectMCP != nil {
		list, err := convertMCPServers(servers)
		if err != nil {
			return nil, err
		}
		tools, closeFn, err := o.ConnectMCP(ctx, list)
		if err != nil {
			return nil, rpcError(CodeInternalError, "connecting the MCP servers: %v", err)
		}
		s.mcp = closeFn
		env.Tools = tools
	}
	if o.Agent == nil {
		return nil, rpcError(CodeInternalError, "the server has no Agent to serve (Options.Agent is nil)")
	}
	opts, err := o.Agent(ctx, env)
	if err != nil {
		if e := (*Error)(nil); errors.As(err, &e) {
			return nil, e
		}
		return nil, rpcError(CodeInternalError, "%v", err)
	}
	s.gate = hold.New(hold.Options{Policy: s.policy(o.Permission), OnEvent: s.onHoldEvent})
	s.tools = newToolTracker(s, env.FS)
	layers := []agentcore.Layer{agentcore.LayerFunc(s.install)}
	if file != nil {
		opts = file.Restore(opts, o.Lookup)
		// Restore appended the file's layer; the server's go after it.
		opts.Layers = append(opts.Layers, layers...)
	} else {
		opts.Layers = append(slices.Clone(opts.Layers), layers...)
	}
	opts.Layers = append(opts.Layers, s.gate)
	s.agent = agentcore.New(opts)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return nil, ErrClosed
	}
	if _, dup := c.sessions[id]; dup {
		return nil, rpcError(CodeInvalidRequest, "session %s is already open", id)
	}
	if len(c.sessions) >= maxSessions {
		return nil, rpcError(CodeInternalError, "too many sessions open (%d); close some with session/close", maxSessions)
	}
	c.sessions[id] = s
	return s, nil
}

// maxSessions bounds the sessions a connection holds open, each an Agent
// with its transcript in memory.
const maxSessions = 1024

// newID returns a random UUID for an ephemeral session.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func convertMCPServers(in []wireMCPServer) ([]MCPServer, error) {
	out := make([]MCPServer, 0, len(in))
	for _, w := range in {
		m := MCPServer{Type: w.Type, Name: w.Name, Command: w.Command, Args: slices.Clone(w.Args), URL: w.URL}
		if m.Type == "" {
			m.Type = "stdio"
		}
		for _, e := range w.Env {
			m.Env = append(m.Env, e.Name+"="+e.Value)
		}
		if len(w.Headers) > 0 {
			m.Headers = map[string]string{}
			for _, h := range w.Headers {
				m.Headers[h.Name] = h.Value
			}
		}
		switch {
		case m.Type == "stdio" && m.Command == "":
			return nil, rpcError(CodeInvalidParams, "invalid params: MCP server %q has no command", m.Name)
		case (m.Type == "http" || m.Type == "sse") && m.URL == "":
			return nil, rpcError(CodeInvalidParams, "invalid params: MCP server %q has no url", m.Name)
		case m.Type != "stdio" && m.Type != "http" && m.Type != "sse":
			return nil, rpcError(CodeInvalidParams, "invalid params: MCP server %q has unknown type %q", m.Name, m.Type)
		}
		out = append(out, m)
	}
	return out, nil
}

// install is the server's layer: the listener that streams the run to
// the client, the turn limit, the remembered rejections, and the tool
// wrapper that lets the client's shell and the diffs know their call.
func (s *sess) install(setup *agentcore.Setup) {
	setup.Subscribe(s.onEvent)
	setup.WrapTool(s.tools.wrap)
	setup.AddHooks(agentcore.Hooks{
		BeforeToolCall: func(_ context.Context, call agentcore.BeforeToolCallContext) (*agentcore.BeforeToolCallResult, error) {
			s.mu.Lock()
			allow, ok := s.always[call.ToolCall.Name]
			s.mu.Unlock()
			if ok && !allow {
				return agentcore.Block(textRejectedAlways), nil
			}
			return nil, nil
		},
		FinishTurn: func(context.Context, agentcore.TurnContext) (agentcore.TurnDecision, error) {
			max := s.c.srv.opts.MaxTurns
			if max <= 0 {
				return agentcore.TurnDefault, nil
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			s.turns++
			if s.turns >= max {
				s.limited = true
				return agentcore.TurnEnd, nil
			}
			return agentcore.TurnDefault, nil
		},
	})
}

// plan sends the plan entries as a plan update.
func (s *sess) plan(entries []PlanEntry) {
	u := planUpdate{SessionUpdate: "plan", Entries: make([]planEntry, 0, len(entries))}
	for _, e := range entries {
		u.Entries = append(u.Entries, planEntry{Content: e.Content, Priority: cmp.Or(e.Priority, "medium"), Status: cmp.Or(e.Status, "pending")})
	}
	s.c.update(s.id, u)
}

// currentMode returns the session's mode.
func (s *sess) currentMode() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

func (s *sess) modeState() *sessionModeState {
	modes := s.c.srv.opts.Modes
	if len(modes) == 0 {
		return nil
	}
	st := &sessionModeState{CurrentModeID: s.currentMode()}
	for _, m := range modes {
		st.AvailableModes = append(st.AvailableModes, sessionMode{ID: m.ID, Name: m.Name, Description: m.Description})
	}
	return st
}

// announce sends the commands available, after the session's response.
func (s *sess) announce() {
	cmds := s.c.srv.opts.Commands
	if len(cmds) == 0 {
		return
	}
	u := availableCommandsUpdate{SessionUpdate: "available_commands_update", AvailableCommands: []availableCommand{}}
	for _, c := range cmds {
		ac := availableCommand{Name: c.Name, Description: c.Description}
		if c.Hint != "" {
			ac.Input = &availableCommandInput{Hint: c.Hint}
		}
		u.AvailableCommands = append(u.AvailableCommands, ac)
	}
	s.c.update(s.id, u)
}

func (c *connection) setMode(_ context.Context, params json.RawMessage) (reply, error) {
	var p setModeRequest
	if err := decodeParams(params, &p); err != nil {
		return reply{}, err
	}
	s, err := c.lookup(p.SessionID)
	if err != nil {
		return reply{}, err
	}
	modes := c.srv.opts.Modes
	if !slices.ContainsFunc(modes, func(m Mode) bool { return m.ID == p.ModeID }) {
		return reply{}, rpcError(CodeInvalidParams, "invalid params: unknown mode %q", p.ModeID)
	}
	s.mu.Lock()
	s.mode = p.ModeID
	s.mu.Unlock()
	return reply{result: struct{}{}, after: func() {
		c.update(s.id, currentModeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: p.ModeID})
	}}, nil
}

// lookup returns the open session id, or the protocol's not-found error.
func (c *connection) lookup(id string) (*sess, error) {
	if s := c.session(id); s != nil {
		return s, nil
	}
	return nil, errNotFound(id)
}

// errNotFound is the protocol's error for a session id that names none.
func errNotFound(id string) *Error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf("session not found: %q", id)}
}

// cancelPrompt aborts the running prompt, if any.
func (s *sess) cancelPrompt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running && s.cancel != nil {
		s.cancelled = true
		s.cancel()
	}
}

// closeSession serves session/close: the session's prompt is cancelled
// and waited for, then the session closed (its file, its MCP servers)
// and forgotten; a later request naming it gets not found.
func (c *connection) closeSession(ctx context.Context, params json.RawMessage) (reply, error) {
	var p sessionRequest
	if err := decodeParams(params, &p); err != nil {
		return reply{}, err
	}
	s, err := c.lookup(p.SessionID)
	if err != nil {
		return reply{}, err
	}
	c.mu.Lock()
	if c.sessions[s.id] != s {
		c.mu.Unlock()
		return reply{}, errNotFound(s.id)
	}
	delete(c.sessions, s.id)
	c.mu.Unlock()
	s.mu.Lock()
	s.closed = true
	ended := s.ended
	s.mu.Unlock()
	s.cancelPrompt()
	if ended != nil {
		select {
		case <-ended:
		case <-ctx.Done():
			// The connection ended: Serve closes the session once the
			// prompt's handler has returned.
			c.mu.Lock()
			c.sessions[s.id] = s
			c.mu.Unlock()
			return reply{}, ErrClosed
		}
	}
	s.close()
	return reply{result: struct{}{}}, nil
}

// cancelBefore serves a session/cancel, message seq: it aborts the
// running prompt, and a prompt read before it that has yet to begin.
func (s *sess) cancelBefore(seq uint64) {
	s.mu.Lock()
	s.cancelSeq = max(s.cancelSeq, seq)
	s.mu.Unlock()
	s.cancelPrompt()
}

// close aborts the session's prompt and closes its file and MCP servers;
// the prompt's handler has returned when the connection closes it.
func (s *sess) close() {
	s.cancelPrompt()
	if s.agent != nil {
		s.agent.Abort()
	}
	if s.file != nil {
		_ = s.file.Close()
	}
	if s.mcp != nil {
		_ = s.mcp()
	}
}
