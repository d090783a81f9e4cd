package acp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/codingtools"
	"github.com/pi-go/agentcore/hold"
)

// Options configure a [Server]. Only Agent is required.
type Options struct {
	// Name and Version are the agent's, told to the client in initialize;
	// empty Name means "agentcore".
	Name, Version string

	// Agent returns the options of a session's Agent, on the goroutine
	// serving session/new or session/load. env says where the session
	// works and gives the operations its tools use: pass env.FS and
	// env.Shell to codingtools, and add env.Tools (the MCP servers' tools)
	// to the tools. The server adds its layers after the returned ones
	// (the session file's, its permission gate, its turn limit) and, on
	// session/load, the transcript. An error fails the request: an [*Error]
	// is the client's answer as it is (CodeAuthRequired asks the client to
	// authenticate first), another an internal error.
	Agent func(ctx context.Context, env *Env) (agentcore.Options, error)

	// Permission picks the tool calls that need the user's permission,
	// asked with session/request_permission: a [hold.Policy] ([hold.Always]
	// lists tool names). Nil asks for none. The answers "allow always" and
	// "reject always" apply to the tool's later calls in the session. The
	// server holds the calls with a [hold.Gate] of its own: a Gate among
	// the layers Agent returns holds calls no client can answer, and a
	// prompt it holds fails.
	Permission hold.Policy

	// Describe gives a tool call's title, kind and file locations as the
	// editor shows them; nil, or a zero Title, uses the defaults, which know
	// codingtools' tools. It is called on the run's goroutine.
	Describe func(name string, args json.RawMessage, cwd string) ToolInfo

	// AgentDir is the directory of pi's session files: sessions of a
	// working directory are kept in session.Dir(AgentDir, cwd), and are
	// loaded and listed from there. Empty means session.AgentDir()
	// (~/.pi/agent). Ephemeral keeps no files: session/load and
	// session/list are then not offered.
	AgentDir  string
	Ephemeral bool

	// Lookup finds a loaded session's model by provider and ID
	// (models.Lookup for pi's catalog); nil keeps the model Agent gave.
	Lookup func(provider, id string) (agentcore.Model, bool)

	// MaxTurns, when positive, ends a prompt after that many model
	// requests with the stop reason max_turn_requests.
	MaxTurns int

	// Commands are the slash commands the client offers its user,
	// announced after session/new and session/load. A prompt starting with
	// "/name" is given to the command's Expand.
	Commands []Command

	// Modes are the session modes the client may switch between; the
	// first is a new session's. With none, session/set_mode is refused.
	// The Agent sees the current mode as [Env].Mode (a closure reading it
	// at each call, say in a Policy or a hook).
	Modes []Mode

	// AuthMethods are offered in initialize; Authenticate, called on
	// session/authenticate's goroutine, runs the one the client picked (an
	// error fails the request).
	AuthMethods  []AuthMethod
	Authenticate func(ctx context.Context, methodID string) error

	// ConnectMCP connects the MCP servers a client passes in session/new or
	// session/load, and returns their tools and the function that closes
	// them when the session ends, on the goroutine serving the request.
	// Nil ignores the servers passed. agentmcp.ACPConnector (module
	// github.com/pi-go/agentcore/mcp) is one.
	ConnectMCP func(ctx context.Context, servers []MCPServer) (tools []agentcore.Tool, closeFn func() error, err error)
	// MCPHTTP and MCPSSE say whether ConnectMCP takes http and sse
	// servers, as told to the client in initialize.
	MCPHTTP, MCPSSE bool

	// MaxMessageBytes bounds one JSON-RPC message from the client; zero
	// means 64 MiB. A longer one is answered with a parse error.
	MaxMessageBytes int
	// MaxInFlightBytes bounds the memory the client's requests take while
	// they are served: the total size of their messages, as read (a
	// session/prompt's counts until its prompt ends). Zero means 256 MiB;
	// one request alone is always served. A request that would pass it
	// is refused at once with an internal error (-32603), as one over 256
	// requests in progress is; the client retries when some are answered.
	MaxInFlightBytes int
}

// Env is what [Options].Agent learns of a session.
type Env struct {
	// SessionID is the session's ID, the ID of its session file.
	SessionID string
	// Cwd is the session's working directory, an absolute path.
	Cwd string
	// FS and Shell are the operations of codingtools' tools: the
	// client's files (its unsaved buffers read, its edits shown) and its
	// terminal when it offers them, else the local disk and bash.
	FS    codingtools.FS
	Shell codingtools.Shell
	// Tools are the tools of the MCP servers the client passed.
	Tools []agentcore.Tool
	// Mode returns the session's current mode ID, "" without modes. It may
	// be called from any goroutine.
	Mode func() string
	// Plan shows the client the agent's plan, replacing the one shown
	// before: a program whose agent keeps a plan (a todo tool, say) calls
	// it when the plan changes, from any goroutine. The entries are
	// copied.
	Plan func(entries []PlanEntry)

	s *sess // the session, for the package's tests
}

// PlanEntry is one step of a plan.
type PlanEntry struct {
	Content string
	// Priority is high, medium or low; "" means medium.
	Priority string
	// Status is pending, in_progress or completed; "" means pending.
	Status string
}

// ToolInfo is how the editor shows a tool call.
type ToolInfo struct {
	Title string
	// Kind is one of ACP's tool kinds: read, edit, delete, move, search,
	// execute, think, fetch, switch_mode or other ("" means other).
	Kind string
	// Locations are the files the call touches, absolute paths; Line is
	// 1-based, 0 for none.
	Locations []Location
}

// Location is a file a tool call touches.
type Location struct {
	Path string
	Line int
}

// Command is a slash command.
type Command struct {
	Name, Description string
	// Hint, when set, tells the user the command takes input.
	Hint string
	// Expand returns the prompt text of "/name input"; nil sends the
	// prompt as typed.
	Expand func(input string) string
}

// Mode is a session mode.
type Mode struct {
	ID, Name, Description string
}

// AuthMethod is a way to authenticate that the agent runs itself.
type AuthMethod struct {
	ID, Name, Description string
}

// MCPServer is an MCP server a client passed: a command to start (stdio:
// Command, Args, Env) or a server to reach (Type "http" or "sse": URL and
// Headers).
type MCPServer struct {
	Type    string // "stdio", "http" or "sse"
	Name    string
	Command string
	Args    []string
	Env     []string // "NAME=value"
	URL     string
	Headers map[string]string
}

// Server serves Agents to ACP clients. It holds only its options: every
// connection ([Server.Serve]) has sessions of its own. It is safe for
// concurrent use.
type Server struct {
	opts Options
}

// NewServer returns a Server configured by opts.
func NewServer(opts Options) *Server {
	if opts.Name == "" {
		opts.Name = "agentcore"
	}
	if opts.Version == "" {
		opts.Version = "0"
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = defaultMaxMessage
	}
	if opts.MaxInFlightBytes <= 0 {
		opts.MaxInFlightBytes = defaultMaxInFlightBytes
	}
	return &Server{opts: opts}
}

// ServeStdio serves one client on the process's standard input and
// output, as an editor that launched the program talks to it.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.Serve(ctx, stdio{})
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }

// Serve serves one client on rw: JSON-RPC 2.0 messages, one per line. It
// returns when the client's input ends (nil), reading fails, or ctx ends;
// before it returns every prompt still running is aborted (the
// permissions it waited for refused), every session closed (its file
// released) and every goroutine it started has returned, but one: when ctx
// ends, a Write to rw in progress (a client that stopped reading) is not
// waited for; the goroutine writing returns once that Write does. When
// ctx ends, a Read in progress is interrupted by closing rw if it is an
// io.Closer; otherwise Serve returns once that Read does.
func (s *Server) Serve(ctx context.Context, rw io.ReadWriter) error {
	c := &connection{srv: s, sessions: map[string]*sess{}}
	c.rpc = newConn(rw, s.opts.MaxInFlightBytes, c.handle, c.notification)
	err := c.rpc.run(ctx, rw, s.opts.MaxMessageBytes)
	c.closeAll()
	if errors.Is(err, context.Canceled) && ctx.Err() == nil {
		// The connection ended itself: a write to the client failed.
		return ErrClosed
	}
	return err
}

// connection is the state of one client.
type connection struct {
	srv *Server
	rpc *conn

	mu          sync.Mutex
	initialized bool
	caps        clientCapabilities
	sessions    map[string]*sess
	closing     bool
}

// handle serves the client's requests.
func (c *connection) handle(ctx context.Context, method string, params json.RawMessage) (reply, error) {
	if method == "initialize" {
		return c.initialize(params)
	}
	c.mu.Lock()
	ok := c.initialized
	c.mu.Unlock()
	if !ok {
		if _, known := methods[method]; known {
			return reply{}, rpcError(CodeInvalidRequest, "%s before initialize", method)
		}
	}
	m, known := methods[method]
	if !known {
		return reply{}, rpcError(CodeMethodNotFound, "method not found: %s", method)
	}
	return m(c, ctx, params)
}

var methods map[string]func(c *connection, ctx context.Context, params json.RawMessage) (reply, error)

func init() {
	methods = map[string]func(c *connection, ctx context.Context, params json.RawMessage) (reply, error){
		"authenticate":     (*connection).authenticate,
		"session/new":      (*connection).newSession,
		"session/load":     (*connection).loadSession,
		"session/list":     (*connection).listSessions,
		"session/prompt":   (*connection).prompt,
		"session/set_mode": (*connection).setMode,
		"session/close":    (*connection).closeSession,
	}
}

// notification serves the client's notifications, on the reading
// goroutine: session/cancel; others are ignored, as JSON-RPC asks.
func (c *connection) notification(ctx context.Context, method string, params json.RawMessage) {
	if method != "session/cancel" {
		return
	}
	var p sessionRequest
	if json.Unmarshal(params, &p) != nil {
		return
	}
	if s := c.session(p.SessionID); s != nil {
		s.cancelBefore(seqOf(ctx))
	}
}

// decodeParams decodes params into v, an invalid-params error otherwise.
func decodeParams(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return rpcError(CodeInvalidParams, "invalid params: missing")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return rpcError(CodeInvalidParams, "invalid params: %v", err)
	}
	return nil
}

func (c *connection) initialize(params json.RawMessage) (reply, error) {
	var p initializeRequest
	if err := decodeParams(params, &p); err != nil {
		return reply{}, err
	}
	if p.ProtocolVersion == nil {
		return reply{}, rpcError(CodeInvalidParams, "invalid params: protocolVersion is required")
	}
	c.mu.Lock()
	c.initialized = true
	c.caps = p.ClientCapabilities
	c.mu.Unlock()
	o := c.srv.opts
	res := initializeResponse{
		// Version 1 is the only one: a client asking for another decides
		// whether it speaks 1.
		ProtocolVersion: ProtocolVersion,
		AgentCapabilities: agentCapabilities{
			LoadSession:        !o.Ephemeral,
			PromptCapabilities: promptCapabilities{Image: true, EmbeddedContext: true},
			MCPCapabilities:    mcpCapabilities{HTTP: o.ConnectMCP != nil && o.MCPHTTP, SSE: o.ConnectMCP != nil && o.MCPSSE},
		},
		AuthMethods: []authMethod{},
		AgentInfo:   &implementation{Name: o.Name, Version: o.Version},
	}
	res.AgentCapabilities.SessionCapabilities.Close = &struct{}{}
	if !o.Ephemeral {
		res.AgentCapabilities.SessionCapabilities.List = &struct{}{}
	}
	for _, m := range o.AuthMethods {
		res.AuthMethods = append(res.AuthMethods, authMethod{ID: m.ID, Name: m.Name, Description: m.Description})
	}
	return reply{result: res}, nil
}

func (c *connection) authenticate(ctx context.Context, params json.RawMessage) (reply, error) {
	var p authenticateRequest
	if err := decodeParams(params, &p); err != nil {
		return reply{}, err
	}
	o := c.srv.opts
	known := false
	for _, m := range o.AuthMethods {
		known = known || m.ID == p.MethodID
	}
	if !known || o.Authenticate == nil {
		return reply{}, rpcError(CodeInvalidParams, "unknown authentication method %q", p.MethodID)
	}
	if err := o.Authenticate(ctx, p.MethodID); err != nil {
		return reply{}, rpcError(CodeAuthRequired, "authentication failed: %v", err)
	}
	return reply{result: struct{}{}}, nil
}

// session returns the session id, or nil.
func (c *connection) session(id string) *sess {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessions[id]
}

// closeAll aborts and closes every session, once the connection ended.
func (c *connection) closeAll() {
	c.mu.Lock()
	c.closing = true
	all := make([]*sess, 0, len(c.sessions))
	for _, s := range c.sessions {
		all = append(all, s)
	}
	c.sessions = map[string]*sess{}
	c.mu.Unlock()
	for _, s := range all {
		s.close()
	}
}

// capabilities returns what the client offers.
func (c *connection) capabilities() clientCapabilities {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caps
}

// update sends a session/update notification; a failed write ends the
// connection (and so the session's prompt).
func (c *connection) update(sessionID string, u any) {
	_ = c.rpc.notifyPeer("session/update", sessionNotification{SessionID: sessionID, Update: u})
}
