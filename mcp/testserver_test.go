package agentmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type textArgs struct {
	Text string `json:"text"`
}

type none struct{}

type sizeArgs struct {
	Bytes int `json:"bytes"`
}

type weather struct {
	City  string  `json:"city"`
	TempC float64 `json:"tempC"`
}

// png is a 1x1 PNG.
var png = []byte("\x89PNG\r\n\x1a\n")

// newServer returns the in-process server of the tests: one tool per kind
// of content, and hostile ones.
func newServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "v1"}, nil)
	text := func(t string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}}}
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Title: "Echo", Description: "Echo the text.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in textArgs) (*mcp.CallToolResult, any, error) {
			return text(in.Text), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "weather", Description: "The weather."},
		func(_ context.Context, _ *mcp.CallToolRequest, in textArgs) (*mcp.CallToolResult, weather, error) {
			return nil, weather{City: in.Text, TempC: 21.5}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "media", Description: "Every kind of content."},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			size := int64(3)
			return &mcp.CallToolResult{
				Meta: mcp.Meta{"trace": "t1"},
				Content: []mcp.Content{
					&mcp.TextContent{Text: "look"},
					&mcp.ImageContent{Data: png, MIMEType: "image/png"},
					&mcp.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///a.txt", MIMEType: "text/plain", Text: "file a"}},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///b.png", MIMEType: "image/png", Blob: png}},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///c.bin", MIMEType: "application/octet-stream", Blob: []byte{1, 2, 3}}},
					&mcp.ResourceLink{URI: "file:///d.txt", Name: "d", Description: "the d file", MIMEType: "text/plain", Size: &size},
				},
			}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Fails."},
		func(context.Context, *mcp.CallToolRequest, none) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("disk on fire")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "big", Description: "A text result of the given size."},
		func(_ context.Context, _ *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
			return text(strings.Repeat("x", in.Bytes)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "Never answers; tells hung when its ctx ends."},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	return s
}

// addTool adds a tool named name that echoes its text.
func addTool(s *mcp.Server, name string) {
	mcp.AddTool(s, &mcp.Tool{Name: name, Description: "Late " + name + "."},
		func(_ context.Context, _ *mcp.CallToolRequest, in textArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + ": " + in.Text}}}, nil, nil
		})
}

// rawTool adds a tool with a hand-written input schema.
func rawTool(s *mcp.Server, name, schema string) {
	s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(schema)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
}
