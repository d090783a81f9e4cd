package agentmcp

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/acp"
)

// ACPConnector returns the connector of an ACP server (acp.Options'
// ConnectMCP): the MCP servers an editor passes in session/new become a
// [Toolset] of this package, stdio servers as a [Command] (the editor's
// variables added to this process's environment), http servers as
// [StreamableHTTP] with their headers; the tools are the Toolset's at
// connection (a session's Agent keeps them), and the returned function
// closes it. An sse server is refused (set acp.Options' MCPHTTP, not
// MCPSSE). opts configure [Connect]; nil means the defaults. Two servers
// declaring one tool name fail the session with [ErrNameCollision].
func ACPConnector(opts *Options) func(ctx context.Context, servers []acp.MCPServer) ([]agentcore.Tool, func() error, error) {
	return func(ctx context.Context, servers []acp.MCPServer) ([]agentcore.Tool, func() error, error) {
		list := make([]Server, 0, len(servers))
		for _, s := range servers {
			var t Transport
			switch s.Type {
			case "stdio":
				cmd := Command{Path: s.Command, Args: slices.Clone(s.Args)}
				if len(s.Env) > 0 {
					cmd.Env = append(os.Environ(), s.Env...)
				}
				t = cmd
			case "http":
				h := http.Header{}
				for k, v := range s.Headers {
					h.Set(k, v)
				}
				t = StreamableHTTP{URL: s.URL, Header: h}
			default:
				return nil, nil, fmt.Errorf("agentmcp: MCP server %q: transport %q is not supported", s.Name, s.Type)
			}
			list = append(list, Server{Name: s.Name, Transport: t})
		}
		ts, err := Connect(ctx, list, opts)
		if err != nil {
			return nil, nil, err
		}
		return ts.Tools(), ts.Close, nil
	}
}
