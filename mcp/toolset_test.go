package agentmcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	agentmcp "github.com/pi-go/agentcore/mcp"
)

// toolNamed returns the tool of ts named name.
func toolNamed(t *testing.T, ts *agentmcp.Toolset, name string) agentcore.Tool {
	t.Helper()
	for _, tool := range ts.Tools() {
		if tool.Name == name {
			return tool
		}
	}
	require.FailNow(t, "no tool named "+name)
	return agentcore.Tool{}
}

// call executes tool with args, collecting its updates.
func call(t *testing.T, ctx context.Context, tool agentcore.Tool, args string) (agentcore.ToolResult, error) {
	t.Helper()
	return tool.Execute(ctx, "c1", json.RawMessage(args), func(agentcore.ToolResult) {})
}

func TestToolsDeclareTheServersTools(t *testing.T) {
	tr := inMemory(t, newServer()).Transport
	ts := connect(t, nil, agentmcp.Server{Name: "test", Prefix: "t_", Transport: tr})

	var names []string
	for _, tool := range ts.Tools() {
		names = append(names, tool.Name)
		require.NoError(t, tool.Validate())
	}
	assert.ElementsMatch(t, []string{"t_echo", "t_weather", "t_media", "t_fail", "t_big", "t_hang"}, names)

	echo := toolNamed(t, ts, "t_echo")
	assert.Equal(t, "Echo", echo.Label)
	assert.Equal(t, "Echo the text.", echo.Description)
	assert.JSONEq(t, `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`, string(echo.Parameters))
	assert.Empty(t, echo.OutputSchema)
	assert.Equal(t, agentcore.ReplaySafe, echo.Replay, "a read-only tool may run again")

	w := toolNamed(t, ts, "t_weather")
	assert.Equal(t, "t_weather", w.Label)
	assert.JSONEq(t, `{"type":"object","properties":{"city":{"type":"string"},"tempC":{"type":"number"}},"required":["city","tempC"],"additionalProperties":false}`, string(w.OutputSchema))
	assert.Equal(t, agentcore.ReplayNever, w.Replay)
}

func TestCallConvertsTheResult(t *testing.T) {
	tr := inMemory(t, newServer()).Transport
	ts := connect(t, nil, agentmcp.Server{Name: "test", Transport: tr})
	b64 := base64.StdEncoding.EncodeToString

	tests := []struct {
		name, tool, args string
		want             agentcore.ToolResult
	}{
		{
			name: "text", tool: "echo", args: `{"text":"hi"}`,
			want: agentcore.ToolResult{
				Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "hi"}},
				Details: agentmcp.Details{Server: "test", Tool: "echo"},
			},
		},
		{
			name: "structured", tool: "weather", args: `{"text":"Oslo"}`,
			want: agentcore.ToolResult{
				Content:           []agentcore.ContentBlock{agentcore.TextBlock{Text: `{"city":"Oslo","tempC":21.5}`}},
				Details:           agentmcp.Details{Server: "test", Tool: "weather"},
				StructuredContent: json.RawMessage(`{"city":"Oslo","tempC":21.5}`),
			},
		},
		{
			name: "every kind of content", tool: "media", args: `{}`,
			want: agentcore.ToolResult{
				Content: []agentcore.ContentBlock{
					agentcore.TextBlock{Text: "look"},
					agentcore.ImageBlock{Data: b64(png), MimeType: "image/png"},
					agentcore.TextBlock{Text: "[audio audio/wav, 4 bytes, in the result's details]"},
					agentcore.TextBlock{Text: "file a"},
					agentcore.ImageBlock{Data: b64(png), MimeType: "image/png"},
					agentcore.TextBlock{Text: "[resource file:///c.bin (application/octet-stream), 3 bytes, in the result's details]"},
					agentcore.TextBlock{Text: `[resource link file:///d.txt "d" (text/plain): the d file]`},
				},
				Details: agentmcp.Details{
					Server: "test", Tool: "media",
					Audio: []agentmcp.Audio{{MimeType: "audio/wav", Data: b64([]byte("RIFF"))}},
					Resources: []agentmcp.Resource{
						{URI: "file:///a.txt", MimeType: "text/plain", Text: "file a"},
						{URI: "file:///b.png", MimeType: "image/png", Blob: b64(png)},
						{URI: "file:///c.bin", MimeType: "application/octet-stream", Blob: b64([]byte{1, 2, 3})},
						{URI: "file:///d.txt", MimeType: "text/plain", Name: "d", Description: "the d file", Link: true},
					},
					Meta: map[string]any{"trace": "t1"},
				},
			},
		},
		{
			name: "isError", tool: "fail", args: `{}`,
			want: agentcore.ToolResult{
				Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "disk on fire"}},
				Details: agentmcp.Details{Server: "test", Tool: "fail"},
				IsError: true,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := call(t, t.Context(), toolNamed(t, ts, tt.tool), tt.args)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestServerErrorIsTheCallsError(t *testing.T) {
	server := newServer()
	mem := inMemory(t, server)
	ts := connect(t, nil, agentmcp.Server{Name: "test", Transport: mem.Transport})
	fail := toolNamed(t, ts, "fail")
	// A tool the server no longer has: a JSON-RPC error, not a broken
	// connection.
	server.RemoveTools("fail")
	_, err := call(t, t.Context(), fail, `{}`)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `mcp server "test": tool "fail": calling "tools/call": `)
	assert.NotErrorIs(t, err, agentmcp.ErrConnectionLost)
	_, err = call(t, t.Context(), toolNamed(t, ts, "echo"), `{"text":"again"}`)
	require.NoError(t, err)
	assert.Equal(t, 1, mem.Connects(), "the connection was kept")
}

func TestResultTooLarge(t *testing.T) {
	tr := inMemory(t, newServer()).Transport
	ts := connect(t, &agentmcp.Options{MaxResultBytes: 1 << 20}, agentmcp.Server{Name: "test", Transport: tr})

	_, err := call(t, t.Context(), toolNamed(t, ts, "big"), `{"bytes":2000000}`)
	require.ErrorIs(t, err, agentmcp.ErrResultTooLarge)
	assert.Equal(t, `mcp server "test": tool "big": agentmcp: tool result too large: over 1048576 bytes`, err.Error())

	res, err := call(t, t.Context(), toolNamed(t, ts, "big"), `{"bytes":1000}`)
	require.NoError(t, err)
	assert.Len(t, res.Text(), 1000)
}

func TestCallTimeout(t *testing.T) {
	// In a synctest bubble the 50ms pass only when every goroutine is
	// blocked, so the second call's answer never races the timeout on a
	// loaded machine.
	synctest.Test(t, testCallTimeout)
}

func testCallTimeout(t *testing.T) {
	server := newServer()
	cancelled := make(chan struct{})
	mcp.AddTool(server, &mcp.Tool{Name: "stuck"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		close(cancelled)
		return nil, nil, ctx.Err()
	})
	mem := inMemory(t, server)
	ts := connect(t, &agentmcp.Options{CallTimeout: 50 * time.Millisecond}, agentmcp.Server{Name: "test", Transport: mem.Transport})

	_, err := call(t, t.Context(), toolNamed(t, ts, "stuck"), `{}`)
	require.ErrorIs(t, err, agentmcp.ErrTimeout)
	assert.Equal(t, `mcp server "test": tool "stuck": agentmcp: no result in time: no result within 50ms`, err.Error())
	<-cancelled // the server was told to cancel

	_, err = call(t, t.Context(), toolNamed(t, ts, "echo"), `{"text":"still there"}`)
	require.NoError(t, err)
	assert.Equal(t, 1, mem.Connects(), "a timeout keeps the connection")
}

func TestAbortCancelsTheRequest(t *testing.T) {
	server := newServer()
	started, cancelled := make(chan struct{}), make(chan struct{})
	mcp.AddTool(server, &mcp.Tool{Name: "stuck"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, nil, ctx.Err()
	})
	tr := inMemory(t, server).Transport
	ts := connect(t, nil, agentmcp.Server{Name: "test", Transport: tr})

	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-started
		cancel()
	}()
	_, err := call(t, ctx, toolNamed(t, ts, "stuck"), `{}`)
	require.ErrorIs(t, err, context.Canceled)
	<-cancelled
}

func TestProgressBecomesUpdates(t *testing.T) {
	server := newServer()
	seen := make(chan struct{})
	mcp.AddTool(server, &mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
		token := req.Params.GetProgressToken()
		if token == nil {
			return nil, nil, errors.New("no progress token")
		}
		for i, msg := range []string{"reading", ""} {
			p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(i + 1), Total: 2, Message: msg}
			if err := req.Session.NotifyProgress(ctx, p); err != nil {
				return nil, nil, err
			}
			<-seen // the client handled it: updates come before the result
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	tr := inMemory(t, server).Transport
	ts := connect(t, nil, agentmcp.Server{Name: "test", Transport: tr})

	var updates []agentcore.ToolResult
	res, err := toolNamed(t, ts, "work").Execute(t.Context(), "c1", json.RawMessage(`{}`), func(r agentcore.ToolResult) {
		updates = append(updates, r)
		seen <- struct{}{}
	})
	require.NoError(t, err)
	assert.Equal(t, "done", res.Text())
	assert.Equal(t, []agentcore.ToolResult{
		{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "reading"}}, Details: agentmcp.Progress{Progress: 1, Total: 2, Message: "reading"}},
		{Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: "2/2"}}, Details: agentmcp.Progress{Progress: 2, Total: 2}},
	}, updates)
}

func TestServerGoneMidCallReconnects(t *testing.T) {
	server := newServer()
	var mem *memServer
	mcp.AddTool(server, &mcp.Tool{Name: "crash"}, func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
		mem.Cut() // the connection drops before the answer
		return &mcp.CallToolResult{}, nil, nil
	})
	mem = inMemory(t, server)
	ts := connect(t, nil, agentmcp.Server{Name: "test", Transport: mem.Transport})

	_, err := call(t, t.Context(), toolNamed(t, ts, "crash"), `{}`)
	require.ErrorIs(t, err, agentmcp.ErrConnectionLost)
	assert.Contains(t, err.Error(), `mcp server "test": tool "crash": agentmcp: connection to the server lost (the next call reconnects)`)

	res, err := call(t, t.Context(), toolNamed(t, ts, "echo"), `{"text":"back"}`)
	require.NoError(t, err)
	assert.Equal(t, "back", res.Text())
	assert.Equal(t, 2, mem.Connects())
}

// only returns the servers of a test: server, in memory, named name.
func only(name string, server *mcp.Server) func(t *testing.T) []agentmcp.Server {
	return func(t *testing.T) []agentmcp.Server {
		return []agentmcp.Server{{Name: name, Transport: inMemory(t, server).Transport}}
	}
}

func TestConnectRefuses(t *testing.T) {
	good := newServer()
	twin := newServer()
	malformed := newServer()
	rawTool(malformed, "broken", `{"type":"object","properties":{"path":12}}`)
	badOutput := mcp.NewServer(&mcp.Implementation{Name: "bad"}, nil)
	badOutput.AddTool(&mcp.Tool{Name: "out", InputSchema: json.RawMessage(`{"type":"object"}`), OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"string","pattern":"(?<"}}}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})

	tests := []struct {
		name    string
		servers func(t *testing.T) []agentmcp.Server
		is      error
		text    []string
	}{
		{
			name:    "a malformed input schema",
			servers: only("files", malformed),
			is:      agentcore.ErrInvalidTool,
			text:    []string{`agentmcp: server "files": tool "broken": agentcore: invalid tool "broken": Parameters:`},
		},
		{
			name:    "a malformed output schema",
			servers: only("out", badOutput),
			is:      agentcore.ErrInvalidTool,
			text:    []string{`agentmcp: server "out": tool "out": agentcore: invalid tool "out": OutputSchema:`},
		},
		{
			name: "a name collision",
			servers: func(t *testing.T) []agentmcp.Server {
				a := inMemory(t, good).Transport
				b := inMemory(t, twin).Transport
				return []agentmcp.Server{{Name: "a", Transport: a}, {Name: "b", Transport: b}}
			},
			is:   agentmcp.ErrNameCollision,
			text: []string{`agentmcp: tool name collision: servers "a" and "b" both have a tool named "echo" (give one a Prefix)`},
		},
		{
			name: "a configuration error",
			servers: func(t *testing.T) []agentmcp.Server {
				a := inMemory(t, good).Transport
				return []agentmcp.Server{{Transport: a}, {Name: "x", Transport: a}, {Name: "x", Transport: a}, {Name: "y"}}
			},
			text: []string{"agentmcp: server 0 has no name", `agentmcp: two servers are named "x"`, `agentmcp: server "y": no transport`},
		},
		{
			name: "an unreachable server",
			servers: func(t *testing.T) []agentmcp.Server {
				return []agentmcp.Server{{Name: "gone", Transport: agentmcp.Command{Path: "/nonexistent/mcp-server"}}}
			},
			text: []string{`agentmcp: server "gone": connecting:`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := agentmcp.Connect(t.Context(), tt.servers(t), nil)
			require.Error(t, err)
			assert.Nil(t, ts)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			for _, text := range tt.text {
				assert.Contains(t, err.Error(), text)
			}
		})
	}
}

func TestPrefixesAvoidCollisions(t *testing.T) {
	a := inMemory(t, newServer()).Transport
	b := inMemory(t, newServer()).Transport
	ts := connect(t, nil, agentmcp.Server{Name: "a", Transport: a}, agentmcp.Server{Name: "b", Prefix: "b_", Transport: b})
	res, err := call(t, t.Context(), toolNamed(t, ts, "b_echo"), `{"text":"from b"}`)
	require.NoError(t, err)
	assert.Equal(t, agentmcp.Details{Server: "b", Tool: "echo"}, res.Details)
	require.NoError(t, agentcore.ValidateTools(ts.Tools()))
}

func TestClosedToolset(t *testing.T) {
	tr := inMemory(t, newServer()).Transport
	ts, err := agentmcp.Connect(t.Context(), []agentmcp.Server{{Name: "test", Transport: tr}}, nil)
	require.NoError(t, err)
	echo := toolNamed(t, ts, "echo")
	require.NoError(t, ts.Close())
	require.NoError(t, ts.Close())
	_, err = call(t, t.Context(), echo, `{"text":"hi"}`)
	require.ErrorIs(t, err, agentmcp.ErrClosed)
}

func TestConnectCtxBoundsOnlyConnect(t *testing.T) {
	tests := []struct {
		name      string
		transport func(t *testing.T) agentmcp.Transport
	}{
		{"in memory", func(t *testing.T) agentmcp.Transport { return inMemory(t, newServer()).Transport }},
		{"stdio", func(t *testing.T) agentmcp.Transport { return agentmcp.Command{Path: stdioServer(t)} }},
		{"streamable HTTP", func(t *testing.T) agentmcp.Transport {
			server := newServer()
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
			t.Cleanup(srv.Close)
			return agentmcp.StreamableHTTP{URL: srv.URL, HTTPClient: srv.Client()}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			ts, err := agentmcp.Connect(ctx, []agentmcp.Server{{Name: "s", Transport: tt.transport(t)}}, nil)
			require.NoError(t, err)
			defer ts.Close()
			cancel()
			res, err := call(t, t.Context(), toolNamed(t, ts, "echo"), `{"text":"still connected"}`)
			require.NoError(t, err)
			assert.Equal(t, "still connected", res.Text())
		})
	}
}

// TestStreamableHTTPBoundsResponses checks that a server cannot make a
// call read more than the bound, whether it answers with an event stream
// or with JSON.
func TestStreamableHTTPBoundsResponses(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		t.Run(map[bool]string{false: "event stream", true: "JSON"}[jsonResponse], func(t *testing.T) {
			server := newServer()
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
				&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse}))
			t.Cleanup(srv.Close)
			ts := connect(t, &agentmcp.Options{MaxResultBytes: 100 << 10},
				agentmcp.Server{Name: "web", Transport: agentmcp.StreamableHTTP{URL: srv.URL, HTTPClient: srv.Client()}})

			_, err := call(t, t.Context(), toolNamed(t, ts, "big"), `{"bytes":1000000}`)
			require.ErrorIs(t, err, agentmcp.ErrResultTooLarge)
			assert.ErrorIs(t, err, agentmcp.ErrConnectionLost)
			assert.Contains(t, err.Error(), `mcp server "web": tool "big": agentmcp: tool result too large`)

			res, err := call(t, t.Context(), toolNamed(t, ts, "echo"), `{"text":"next"}`)
			require.NoError(t, err)
			assert.Equal(t, "next", res.Text())
		})
	}
}
