package agentmcp

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pi-go/agentcore"
)

// Details is the Details of a tool result made from an MCP result: what
// the model does not see, for logs and UIs. Content the model cannot take
// (audio, binary resources) is here in full, and a text block in the
// result says where.
type Details struct {
	// Server is the [Server.Name] the call went to.
	Server string `json:"server"`
	// Tool is the server's name for the tool, without the prefix.
	Tool string `json:"tool"`
	// Audio are the result's audio blocks, in order.
	Audio []Audio `json:"audio,omitempty"`
	// Resources are the result's embedded resources and resource links,
	// in order.
	Resources []Resource `json:"resources,omitempty"`
	// Meta is the result's _meta, if any.
	Meta map[string]any `json:"meta,omitempty"`
}

// Audio is an audio block of an MCP result.
type Audio struct {
	// MimeType is the audio's type, such as "audio/wav".
	MimeType string `json:"mimeType"`
	// Data is the audio, base64-encoded.
	Data string `json:"data"`
}

// Resource is an embedded resource or a resource link of an MCP result.
type Resource struct {
	// URI names the resource.
	URI string `json:"uri"`
	// MimeType is its type, if the server said.
	MimeType string `json:"mimeType,omitempty"`
	// Name, Title and Description describe a link.
	Name        string `json:"name,omitempty"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Text is a text resource's contents.
	Text string `json:"text,omitempty"`
	// Blob is a binary resource's contents, base64-encoded.
	Blob string `json:"blob,omitempty"`
	// Link reports a resource link: the server named the resource
	// without sending it.
	Link bool `json:"link,omitempty"`
}

// Progress is the Details of a partial result made from an MCP progress
// notification.
type Progress struct {
	// Progress increases with each notification of a call.
	Progress float64 `json:"progress"`
	// Total is the progress at completion; zero when unknown.
	Total float64 `json:"total,omitempty"`
	// Message is the server's description of the progress, if any.
	Message string `json:"message,omitempty"`
}

// ErrResultTooLarge is wrapped by the error of a call whose result is over
// [Options].MaxResultBytes.
var ErrResultTooLarge = errors.New("agentmcp: tool result too large")

// reservedMeta prefixes the _meta keys the protocol itself sets (the
// server's identity, say), which Details leaves out.
const reservedMeta = "io.modelcontextprotocol/"

// resultBuilder turns an MCP result into a tool result, counting its size
// against a limit (none when negative).
type resultBuilder struct {
	details Details
	blocks  []agentcore.ContentBlock
	size    int
	limit   int
}

// convertResult turns res, the result of tool of server, into a tool
// result. A result whose content, counted as the model and the details
// would hold it, is over limit bytes is an error wrapping
// [ErrResultTooLarge].
func convertResult(server, tool string, res *mcp.CallToolResult, limit int) (agentcore.ToolResult, error) {
	b := resultBuilder{details: Details{Server: server, Tool: tool}, limit: limit}
	for _, c := range res.Content {
		b.add(c)
		if err := b.check(); err != nil {
			return agentcore.ToolResult{}, err
		}
	}
	var structured any
	if res.StructuredContent != nil {
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return agentcore.ToolResult{}, fmt.Errorf("structured content: %w", err)
		}
		b.size += len(raw)
		if err := b.check(); err != nil {
			return agentcore.ToolResult{}, err
		}
		structured = json.RawMessage(raw)
		if len(b.blocks) == 0 {
			// The spec asks servers to send structured content as text too;
			// one that did not still shows the model its answer.
			b.blocks = append(b.blocks, agentcore.TextBlock{Text: string(raw)})
		}
	}
	for k, v := range res.Meta {
		if strings.HasPrefix(k, reservedMeta) {
			continue
		}
		if b.details.Meta == nil {
			b.details.Meta = map[string]any{}
		}
		b.details.Meta[k] = v
	}
	if b.blocks == nil {
		b.blocks = []agentcore.ContentBlock{}
	}
	return agentcore.ToolResult{
		Content:           b.blocks,
		Details:           b.details,
		StructuredContent: structured,
		IsError:           res.IsError,
	}, nil
}

// check reports a result grown over the limit.
func (b *resultBuilder) check() error {
	if b.limit >= 0 && b.size > b.limit {
		return fmt.Errorf("%w: over %d bytes", ErrResultTooLarge, b.limit)
	}
	return nil
}

// text adds a text block.
func (b *resultBuilder) text(s string) {
	b.blocks = append(b.blocks, agentcore.TextBlock{Text: s})
	b.size += len(s)
}

// add converts one content block of an MCP result.
func (b *resultBuilder) add(c mcp.Content) {
	switch c := c.(type) {
	case *mcp.TextContent:
		b.text(c.Text)
	case *mcp.ImageContent:
		data := base64.StdEncoding.EncodeToString(c.Data)
		b.blocks = append(b.blocks, agentcore.ImageBlock{Data: data, MimeType: c.MIMEType})
		b.size += len(data)
	case *mcp.AudioContent:
		data := base64.StdEncoding.EncodeToString(c.Data)
		b.details.Audio = append(b.details.Audio, Audio{MimeType: c.MIMEType, Data: data})
		b.size += len(data)
		b.text(fmt.Sprintf("[audio %s, %d bytes, in the result's details]", c.MIMEType, len(c.Data)))
	case *mcp.EmbeddedResource:
		if c.Resource != nil {
			b.resource(c.Resource)
		}
	case *mcp.ResourceLink:
		b.details.Resources = append(b.details.Resources, Resource{
			URI: c.URI, MimeType: c.MIMEType, Name: c.Name, Title: c.Title, Description: c.Description, Link: true,
		})
		b.text(describeLink(c))
	default:
		// A block the SDK knows and a tool result cannot hold (tool use
		// blocks belong to sampling): its JSON shows the model it was there.
		raw, err := json.Marshal(c)
		if err != nil {
			raw = []byte(fmt.Sprintf("%T", c))
		}
		b.text(string(raw))
	}
}

// resource converts an embedded resource: text the model reads, an image
// it sees, other binary contents left in the details.
func (b *resultBuilder) resource(r *mcp.ResourceContents) {
	res := Resource{URI: r.URI, MimeType: r.MIMEType, Text: r.Text}
	switch {
	case r.Blob != nil && strings.HasPrefix(r.MIMEType, "image/"):
		data := base64.StdEncoding.EncodeToString(r.Blob)
		b.blocks = append(b.blocks, agentcore.ImageBlock{Data: data, MimeType: r.MIMEType})
		b.size += len(data)
		res.Blob = data
	case r.Blob != nil:
		res.Blob = base64.StdEncoding.EncodeToString(r.Blob)
		b.size += len(res.Blob)
		b.text(fmt.Sprintf("[resource %s (%s), %d bytes, in the result's details]", r.URI, orUnknown(r.MIMEType), len(r.Blob)))
	default:
		b.size += len(r.Text) // counted again in the details
		b.text(r.Text)
	}
	b.details.Resources = append(b.details.Resources, res)
}

// describeLink is the text the model sees for a resource link.
func describeLink(l *mcp.ResourceLink) string {
	var sb strings.Builder
	sb.WriteString("[resource link ")
	sb.WriteString(l.URI)
	if name := cmp.Or(l.Title, l.Name); name != "" {
		sb.WriteString(" ")
		sb.WriteString(strconv.Quote(name))
	}
	if l.MIMEType != "" {
		sb.WriteString(" (" + l.MIMEType + ")")
	}
	if l.Description != "" {
		sb.WriteString(": " + l.Description)
	}
	sb.WriteString("]")
	return sb.String()
}

// progressResult is the partial result of a progress notification.
func progressResult(p *mcp.ProgressNotificationParams) agentcore.ToolResult {
	text := p.Message
	if text == "" {
		text = strconv.FormatFloat(p.Progress, 'f', -1, 64)
		if p.Total > 0 {
			text += "/" + strconv.FormatFloat(p.Total, 'f', -1, 64)
		}
	}
	return agentcore.ToolResult{
		Content: []agentcore.ContentBlock{agentcore.TextBlock{Text: text}},
		Details: Progress{Progress: p.Progress, Total: p.Total, Message: p.Message},
	}
}

func orUnknown(mime string) string { return cmp.Or(mime, "unknown type") }
