package agentmcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
)

// Server is one MCP server of a [Toolset].
type Server struct {
	// Name identifies the server in errors and in [Details]; it is
	// required and unique within a Toolset.
	Name string
	// Prefix is prepended to the names of the server's tools ("fs_" makes
	// its read_file fs_read_file), to tell apart servers whose tools
	// share names. Empty keeps the server's names.
	Prefix string
	// Transport reaches the server.
	Transport Transport
}

// Options configure [Connect]. A nil *Options, like the zero value, means
// the defaults.
type Options struct {
	// Client is how the Toolset introduces itself to servers; nil means
	// name "agentcore".
	Client *mcp.Implementation
	// CallTimeout bounds each tool call, its connection included, and
	// each refresh of a server's tool list; a call over it fails with an
	// error wrapping [ErrTimeout] (and the server is told to cancel it).
	// Zero means [DefaultCallTimeout]; negative means no bound but the
	// call's ctx.
	CallTimeout time.Duration
	// MaxResultBytes bounds the size of a call's result (text, base64
	// data and structured content, as the tool result would hold them); a
	// larger result fails the call with an error wrapping
	// [ErrResultTooLarge]. Zero means [DefaultMaxResultBytes]; negative
	// means no bound. Reading is bounded too, so that a hostile server
	// cannot fill memory: the response to a Streamable HTTP request is cut
	// at twice MaxResultBytes (plus 64 KiB), and the SDK refuses a stdio
	// message over 16 MiB; either ends the connection, and the call fails
	// with an error wrapping both ErrResultTooLarge and ErrConnectionLost.
	MaxResultBytes int
	// MaxTools bounds the tools of one server's listing, and its pages:
	// a server listing more, at Connect or when its list is refreshed,
	// fails with an error wrapping [ErrListTooLarge] that names it (a
	// refresh keeps its previous tools). Zero means [DefaultMaxTools];
	// negative means no bound.
	MaxTools int
	// MaxListBytes bounds the size of one server's tool declarations
	// (names, labels, descriptions and schemas, as the tools hold them),
	// as MaxTools bounds their number. Zero means [DefaultMaxListBytes];
	// negative means no bound.
	MaxListBytes int
	// OnToolsChanged, optional, is called after a server announced a new
	// tool list (notifications/tools/list_changed) or was reconnected and
	// the Toolset refreshed its tools, once [Toolset.Tools] gives the new
	// set and the attached Agents have it ([Toolset.Attach]). err, when
	// not nil, says which server's list could not be refreshed (a failed
	// request, a malformed schema, a name collision): that server keeps
	// its previous tools. It runs on the Toolset's own goroutine, one
	// call at a time; the Toolset waits for it, so it must not call
	// [Toolset.Close].
	OnToolsChanged func(ts *Toolset, err error)
}

// The defaults of [Options].
const (
	DefaultCallTimeout    = 10 * time.Minute
	DefaultMaxResultBytes = 4 << 20
	DefaultMaxTools       = 10_000
	DefaultMaxListBytes   = 16 << 20
)

// The errors of a Toolset, tested with errors.Is.
var (
	// ErrNameCollision: two tools of a Toolset have the same name.
	ErrNameCollision = errors.New("agentmcp: tool name collision")
	// ErrTimeout: a call had no result within [Options].CallTimeout.
	ErrTimeout = errors.New("agentmcp: no result in time")
	// ErrConnectionLost: the server went away during the call; the next
	// call connects again.
	ErrConnectionLost = errors.New("agentmcp: connection to the server lost")
	// ErrListTooLarge: a server listed more tools than
	// [Options].MaxTools or MaxListBytes allow.
	ErrListTooLarge = errors.New("agentmcp: tool list too large")
	// ErrClosed: the Toolset was closed.
	ErrClosed = errors.New("agentmcp: toolset closed")
)

// Toolset is the tools of a set of MCP servers as agentcore tools, kept in
// step with the servers: a server's notifications/tools/list_changed
// refreshes its tools, and a server that went away is connected again on
// its next call. All methods are safe for concurrent use.
type Toolset struct {
	opts    Options // defaults applied
	servers []*server

	mu       sync.Mutex
	tools    []agentcore.Tool    // the current set; replaced, never modified
	owned    map[string]struct{} // every name the Toolset ever published
	attached []*agentcore.Agent
	closed   bool

	wake chan struct{} // a server's tools need a refresh; capacity 1
	stop context.CancelFunc
	done chan struct{} // closed when the refresh goroutine returns
}

// Connect connects to servers, lists their tools and returns them as a
// Toolset. Servers are connected concurrently; ctx bounds the connections
// and the listings (later reconnections are bounded by their call's ctx).
//
// It fails, leaving nothing open, when a server is misconfigured (no name,
// a repeated name, no transport), cannot be reached or listed, declares a
// tool whose input or output schema does not compile (the error names the
// server and the tool, and wraps [agentcore.ErrInvalidTool]), or when two
// tools end up with the same name (an error wrapping [ErrNameCollision]
// that names both servers; give them a [Server].Prefix).
func Connect(ctx context.Context, servers []Server, opts *Options) (*Toolset, error) {
	if ctx == nil {
		return nil, agentcore.ErrNilContext
	}
	ts := &Toolset{opts: resolve(opts), owned: map[string]struct{}{}, wake: make(chan struct{}, 1)}
	if err := ts.addServers(servers); err != nil {
		return nil, err
	}
	errs := make([]error, len(ts.servers))
	var wg sync.WaitGroup
	for i, s := range ts.servers {
		wg.Go(func() { s.tools, errs[i] = s.listTools(ctx) })
	}
	wg.Wait()
	err := errors.Join(errs...)
	var tools []agentcore.Tool
	if err == nil {
		tools, err = ts.combine(nil, nil)
	}
	if err != nil {
		ts.closeServers()
		return nil, err
	}
	ts.publish(tools)
	watchCtx, stop := context.WithCancel(context.Background())
	ts.stop, ts.done = stop, make(chan struct{})
	go ts.watch(watchCtx)
	return ts, nil
}

// resolve returns opts with the defaults applied.
func resolve(opts *Options) Options {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Client == nil {
		o.Client = &mcp.Implementation{Name: "agentcore"}
	}
	if o.CallTimeout == 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.MaxResultBytes == 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	if o.MaxTools == 0 {
		o.MaxTools = DefaultMaxTools
	}
	if o.MaxListBytes == 0 {
		o.MaxListBytes = DefaultMaxListBytes
	}
	return o
}

// addServers checks the servers' configuration and makes their state.
func (ts *Toolset) addServers(servers []Server) error {
	seen := map[string]bool{}
	var errs []error
	for i, cfg := range servers {
		switch {
		case cfg.Name == "":
			errs = append(errs, fmt.Errorf("agentmcp: server %d has no name", i))
		case seen[cfg.Name]:
			errs = append(errs, fmt.Errorf("agentmcp: two servers are named %q", cfg.Name))
		case cfg.Transport == nil:
			errs = append(errs, fmt.Errorf("agentmcp: server %q: %w", cfg.Name, errNoTransport))
		}
		seen[cfg.Name] = true
		ts.servers = append(ts.servers, newServer(ts, cfg))
	}
	return errors.Join(errs...)
}

// combine joins the servers' tools in server order, with updated's tools
// in place of its current ones when updated is not nil. A name used twice
// is an error wrapping [ErrNameCollision].
func (ts *Toolset) combine(updated *server, tools []agentcore.Tool) ([]agentcore.Tool, error) {
	if len(ts.servers) == 1 {
		// One server's names are unique: its list is the set, shared
		// (neither is modified, only replaced).
		if updated != nil {
			return tools, nil
		}
		return ts.servers[0].tools, nil
	}
	var all []agentcore.Tool
	from := map[string]string{} // tool name -> server name
	var errs []error
	for _, s := range ts.servers {
		list := s.tools
		if s == updated {
			list = tools
		}
		for _, t := range list {
			if other, ok := from[t.Name]; ok {
				errs = append(errs, fmt.Errorf("%w: servers %q and %q both have a tool named %q (give one a Prefix)",
					ErrNameCollision, other, s.cfg.Name, t.Name))
				continue
			}
			from[t.Name] = s.cfg.Name
			all = append(all, t)
		}
	}
	return all, errors.Join(errs...)
}

// publish makes tools the current set and gives it to the attached Agents.
func (ts *Toolset) publish(tools []agentcore.Tool) {
	ts.mu.Lock()
	ts.tools = slices.Clip(tools)
	for _, t := range tools {
		ts.owned[t.Name] = struct{}{}
	}
	agents := slices.Clone(ts.attached)
	ts.mu.Unlock()
	for _, a := range agents {
		a.SetTools(ts.Apply(a.State().Tools))
	}
}

// Tools returns the current tools of every server, in server order, each
// server's in its own order. The slice is the caller's; the tools are
// values. A tool's Execute calls the server, connecting again first when
// the server went away; it keeps working after the set changed (a tool
// the server removed fails with the server's error) until [Toolset.Close].
func (ts *Toolset) Tools() []agentcore.Tool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return slices.Clone(ts.tools)
}

// Apply returns tools with the Toolset's tools brought up to date: a tool
// the Toolset published is replaced by its current version, or dropped
// when no server has it any more, in place; the current tools tools does
// not hold are appended. Other tools are kept as they are. tools is not
// modified.
func (ts *Toolset) Apply(tools []agentcore.Tool) []agentcore.Tool {
	ts.mu.Lock()
	current := ts.tools
	owned := ts.owned
	out := make([]agentcore.Tool, 0, len(tools)+len(current))
	index := make(map[string]int, len(current))
	for i, t := range current {
		index[t.Name] = i
	}
	used := make([]bool, len(current))
	for _, t := range tools {
		if _, ours := owned[t.Name]; !ours {
			out = append(out, t)
			continue
		}
		if i, ok := index[t.Name]; ok && !used[i] {
			out = append(out, current[i])
			used[i] = true
		}
	}
	ts.mu.Unlock()
	for i, t := range current {
		if !used[i] {
			out = append(out, t)
		}
	}
	return out
}

// PrepareNextTurn is an [agentcore.Hooks].PrepareNextTurn that brings a
// run's tools up to date between turns ([Toolset.Apply]): set it in the
// Agent's or loop's hooks, and a tool list that changed during a run is
// declared to the model and callable from the next turn on. It answers
// nil when the run's tools are current. A hook of one's own calls it and
// merges its answer.
func (ts *Toolset) PrepareNextTurn(_ context.Context, turn agentcore.TurnContext) (*agentcore.TurnUpdate, error) {
	next := ts.Apply(turn.Context.Tools)
	if slices.EqualFunc(turn.Context.Tools, next, sameTool) {
		return nil, nil
	}
	return &agentcore.TurnUpdate{Context: &agentcore.AgentContext{Messages: turn.Context.Messages, Tools: next}}, nil
}

// sameTool reports whether a and b declare the same tool.
func sameTool(a, b agentcore.Tool) bool {
	return a.Name == b.Name && a.Label == b.Label && a.Description == b.Description &&
		bytes.Equal(a.Parameters, b.Parameters) && bytes.Equal(a.OutputSchema, b.OutputSchema)
}

// Attach keeps agent's tools up to date between runs: it sets them now,
// and after every change of the set, to [Toolset.Apply] of the Agent's
// tools (a run in progress keeps its own: set [Toolset.PrepareNextTurn]
// in the Agent's hooks for those). It returns the function that stops it;
// Close stops it too.
func (ts *Toolset) Attach(agent *agentcore.Agent) (detach func()) {
	ts.mu.Lock()
	ts.attached = append(ts.attached, agent)
	ts.mu.Unlock()
	agent.SetTools(ts.Apply(agent.State().Tools))
	return func() {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		if i := slices.Index(ts.attached, agent); i >= 0 {
			ts.attached = slices.Delete(slices.Clone(ts.attached), i, i+1)
		}
	}
}

// notify asks the refresh goroutine for a refresh; it never blocks.
func (ts *Toolset) notify() {
	select {
	case ts.wake <- struct{}{}:
	default:
	}
}

// watch refreshes the servers marked for it each time it is woken, until
// ctx is done.
func (ts *Toolset) watch(ctx context.Context) {
	defer close(ts.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-ts.wake:
		}
		changed, err := ts.refresh(ctx)
		if ctx.Err() != nil {
			return
		}
		if (changed || err != nil) && ts.opts.OnToolsChanged != nil {
			ts.opts.OnToolsChanged(ts, err)
		}
	}
}

// refresh lists the tools of the servers marked for it and publishes the
// new set. A server whose list fails keeps its tools.
func (ts *Toolset) refresh(ctx context.Context) (changed bool, err error) {
	var errs []error
	for _, s := range ts.servers {
		if !s.stale.Swap(false) {
			continue
		}
		listCtx, cancel := ts.bound(ctx)
		tools, err := s.listTools(listCtx)
		cancel()
		if err == nil {
			_, err = ts.combine(s, tools)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !slices.EqualFunc(s.tools, tools, sameTool) {
			changed = true
		}
		s.tools = tools
	}
	if changed {
		all, _ := ts.combine(nil, nil)
		ts.publish(all)
	}
	return changed, errors.Join(errs...)
}

// maxResponse is the most a Streamable HTTP request may read: twice the
// result bound (JSON escapes and progress notifications come with a
// result) plus room for the envelope; -1 when results are unbounded.
func (ts *Toolset) maxResponse() int64 {
	if ts.opts.MaxResultBytes < 0 {
		return -1
	}
	return 2*int64(ts.opts.MaxResultBytes) + 64<<10
}

// bound returns ctx bounded by the call timeout.
func (ts *Toolset) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if ts.opts.CallTimeout < 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, ts.opts.CallTimeout, ErrTimeout)
}

// Close stops refreshing and closes the connections, stopping the
// servers started as commands. Calls in progress fail with
// [ErrConnectionLost], later calls with [ErrClosed]. It returns the
// servers' errors on closing, if any; a second Close does nothing.
func (ts *Toolset) Close() error {
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		return nil
	}
	ts.closed = true
	ts.attached = nil
	ts.mu.Unlock()
	ts.stop()
	<-ts.done
	return ts.closeServers()
}

// closeServers closes every server's connection.
func (ts *Toolset) closeServers() error {
	var errs []error
	for _, s := range ts.servers {
		errs = append(errs, s.close())
	}
	return errors.Join(errs...)
}
