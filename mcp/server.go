package agentmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
)

// server is the connection state of one [Server] of a Toolset.
type server struct {
	cfg    Server
	ts     *Toolset
	client *mcp.Client

	mu     sync.Mutex // guards sess and closed; held while connecting
	sess   *session
	closed bool
	ever   bool // connected at least once

	// tools are the server's current tools: written by Connect, then only
	// by the Toolset's refresh goroutine.
	tools []agentcore.Tool
	// stale marks the tools for a refresh.
	stale atomic.Bool

	progress sync.Map // progress token (string) -> onUpdate of its call
	tokens   atomic.Uint64
}

// session is one connection to a server.
type session struct {
	cs   *mcp.ClientSession
	done chan struct{} // closed when the connection has ended
}

func newServer(ts *Toolset, cfg Server) *server {
	s := &server{cfg: cfg, ts: ts}
	s.client = mcp.NewClient(ts.opts.Client, &mcp.ClientOptions{
		Capabilities:                &mcp.ClientCapabilities{},
		ToolListChangedHandler:      s.toolListChanged,
		ProgressNotificationHandler: s.progressed,
	})
	return s
}

// toolListChanged marks the tools for a refresh; the SDK calls it on its
// connection's goroutine.
func (s *server) toolListChanged(context.Context, *mcp.ToolListChangedRequest) {
	s.stale.Store(true)
	s.ts.notify()
}

// progressed hands a progress notification to its call's onUpdate.
func (s *server) progressed(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	token, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	if onUpdate, ok := s.progress.Load(token); ok {
		onUpdate.(func(agentcore.ToolResult))(progressResult(req.Params))
	}
}

// connect returns the live session, connecting first when there is none
// or the last one ended. A reconnection marks the tools for a refresh: the
// server may have changed.
func (s *server) connect(ctx context.Context) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	if s.sess != nil {
		select {
		case <-s.sess.done:
			s.sess.cs.Close() // releases what the SDK holds; the peer is gone
			s.sess = nil
		default:
			return s.sess, nil
		}
	}
	t, err := s.cfg.Transport.newTransport(s.ts.maxResponse())
	if err != nil {
		return nil, err
	}
	cs, err := s.client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting: %w", err)
	}
	sess := &session{cs: cs, done: make(chan struct{})}
	go func() {
		_ = cs.Wait()
		close(sess.done)
	}()
	s.sess = sess
	if s.ever {
		s.stale.Store(true)
		s.ts.notify()
	}
	s.ever = true
	return sess, nil
}

// drop closes sess, which failed, unless a newer one replaced it; the next
// call connects again.
func (s *server) drop(sess *session) {
	s.mu.Lock()
	if s.sess == sess {
		s.sess = nil
	}
	s.mu.Unlock()
	_ = sess.cs.Close()
	<-sess.done
}

// close closes the connection for good.
func (s *server) close() error {
	s.mu.Lock()
	sess := s.sess
	s.sess, s.closed = nil, true
	s.mu.Unlock()
	if sess == nil {
		return nil
	}
	err := sess.cs.Close()
	<-sess.done
	if err != nil && !errors.Is(err, mcp.ErrConnectionClosed) {
		return fmt.Errorf("agentmcp: server %q: closing: %w", s.cfg.Name, err)
	}
	return nil
}

// listTools lists the server's tools as agentcore tools, page by page,
// within the bounds of [Options].MaxTools and MaxListBytes: a listing past
// them, or of more pages than MaxTools (a server paging without tools),
// fails with [ErrListTooLarge].
func (s *server) listTools(ctx context.Context) ([]agentcore.Tool, error) {
	sess, err := s.connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("agentmcp: server %q: %w", s.cfg.Name, err)
	}
	maxTools, maxBytes := s.ts.opts.MaxTools, s.ts.opts.MaxListBytes
	var tools []agentcore.Tool
	seen := map[string]bool{}
	size := 0
	params := &mcp.ListToolsParams{}
	for pages := 1; ; pages++ {
		res, err := sess.cs.ListTools(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("agentmcp: server %q: listing tools: %w", s.cfg.Name, err)
		}
		for _, t := range res.Tools {
			tool, err := s.newTool(t)
			if err != nil {
				return nil, err
			}
			if seen[tool.Name] {
				return nil, fmt.Errorf("%w: server %q lists two tools named %q", ErrNameCollision, s.cfg.Name, t.Name)
			}
			seen[tool.Name] = true
			tools = append(tools, tool)
			size += declarationSize(tool)
			if maxTools >= 0 && len(tools) > maxTools {
				return nil, s.listError("more than %d tools (Options.MaxTools)", maxTools)
			}
			if maxBytes >= 0 && size > maxBytes {
				return nil, s.listError("tool declarations over %d bytes (Options.MaxListBytes)", maxBytes)
			}
		}
		if res.NextCursor == "" {
			return slices.Clip(tools), nil
		}
		if maxTools >= 0 && pages > maxTools {
			return nil, s.listError("more than %d pages (Options.MaxTools)", maxTools)
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
}

// listError reports a listing past a bound.
func (s *server) listError(format string, bound int) error {
	return fmt.Errorf("agentmcp: server %q: listing tools: %w: "+format, s.cfg.Name, ErrListTooLarge, bound)
}

// declarationSize is the size of what tool declares to the model.
func declarationSize(tool agentcore.Tool) int {
	return len(tool.Name) + len(tool.Label) + len(tool.Description) + len(tool.Parameters) + len(tool.OutputSchema)
}

// call runs tool on the server: tools/call with args, bounded by ctx and
// the call timeout, its progress going to onUpdate.
func (s *server) call(ctx context.Context, tool string, args json.RawMessage, onUpdate func(agentcore.ToolResult)) (agentcore.ToolResult, error) {
	callCtx, cancel := s.ts.bound(ctx)
	defer cancel()
	sess, err := s.connect(callCtx)
	if err != nil {
		return agentcore.ToolResult{}, s.callError(ctx, callCtx, tool, err)
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	if onUpdate != nil {
		token := s.cfg.Name + "/" + strconv.FormatUint(s.tokens.Add(1), 10)
		s.progress.Store(token, onUpdate)
		defer s.progress.Delete(token)
		params.SetProgressToken(token)
	}
	reqCtx, tripped := withTripFlag(callCtx)
	res, err := sess.cs.CallTool(reqCtx, params)
	if err != nil {
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) && callCtx.Err() == nil {
			// Neither the server's answer nor an abort or a timeout (the
			// SDK tells the server to cancel those): the connection failed.
			s.drop(sess)
			if tripped.Load() || isTooLarge(err) {
				err = fmt.Errorf("%w: %w (the next call reconnects): %w", ErrResultTooLarge, ErrConnectionLost, err)
			} else {
				err = fmt.Errorf("%w (the next call reconnects): %w", ErrConnectionLost, err)
			}
		}
		return agentcore.ToolResult{}, s.callError(ctx, callCtx, tool, err)
	}
	result, err := convertResult(s.cfg.Name, tool, res, s.ts.opts.MaxResultBytes)
	if err != nil {
		return agentcore.ToolResult{}, fmt.Errorf("mcp server %q: tool %q: %w", s.cfg.Name, tool, err)
	}
	return result, nil
}

// callError describes the failure err of a call of tool: the caller's
// abort, the call timeout, or err itself.
func (s *server) callError(ctx, callCtx context.Context, tool string, err error) error {
	switch {
	case ctx.Err() != nil:
		err = context.Cause(ctx)
	case errors.Is(context.Cause(callCtx), ErrTimeout):
		err = fmt.Errorf("%w: no result within %s", ErrTimeout, s.ts.opts.CallTimeout)
	}
	return fmt.Errorf("mcp server %q: tool %q: %w", s.cfg.Name, tool, err)
}

// isTooLarge reports a message over a transport's size limit, which ends
// the connection: the SDK's (16 MiB for stdio), whose error it does not
// export, or the Streamable HTTP bound's, which it reports as text only.
// Their texts are matched.
func isTooLarge(err error) bool {
	text := err.Error()
	return strings.Contains(text, "frame exceeded the configured maximum") || strings.Contains(text, ErrResultTooLarge.Error())
}
