package mistral

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel"
	"github.com/pi-go/agentcore/internal/tokens"
	"github.com/pi-go/agentcore/internal/transform"
)

// request is the body of a streaming chat completions request, in
// pi-ai's field order.
type request struct {
	Model           string     `json:"model"`
	Stream          bool       `json:"stream"`
	Messages        []message  `json:"messages"`
	Tools           []wireTool `json:"tools,omitempty"`
	Temperature     *float64   `json:"temperature,omitempty"`
	MaxTokens       int        `json:"max_tokens"`
	ReasoningEffort string     `json:"reasoning_effort,omitempty"`
	PromptMode      string     `json:"prompt_mode,omitempty"`
	PromptCacheKey  string     `json:"prompt_cache_key,omitempty"`
}

// message is one message of the request; which fields it has depends on
// its role.
type message struct {
	Role       string     `json:"role"`
	Prefix     *bool      `json:"prefix,omitempty"` // false on assistant messages
	Name       string     `json:"name,omitempty"`   // a tool result's tool
	Content    any        `json:"content,omitempty"`
	ToolCalls  []wireCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// chunk is one part of a message's content: text, an image (a data URL)
// or thinking (a list of text chunks).
type chunk struct {
	Type     string  `json:"type"`
	Text     *string `json:"text,omitempty"`
	ImageURL string  `json:"image_url,omitempty"`
	Thinking []chunk `json:"thinking,omitempty"`
}

type wireCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	Index int `json:"index"`
}

type wireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters,omitempty"` // none: left out, as pi-ai leaves it
		Strict      bool            `json:"strict"`
	} `json:"function"`
}

// The texts pi-ai sends in place of what a message cannot carry.
const (
	imageOmitted     = "(image omitted: model does not support images)"
	toolImageOmitted = "[tool image omitted: model does not support images]"
	imageAttached    = "(see attached image)"
	noToolOutput     = "(no tool output)"
	toolErrorPrefix  = "[tool error] "
)

// buildRequest maps one model call onto a request body, as pi-ai's
// streamSimple and buildChatPayload do: the transcript prepared for
// replay (other models' tool-call IDs made Mistral's), its system,
// user, assistant and tool messages, the current tools, and the options.
func buildRequest(model agentcore.Model, messages []agentcore.Message, so agentcore.StreamOptions, s settings) (request, error) {
	all := messages
	if !s.inPlace {
		messages = agentcore.CollapseSystemMessages(messages)
	}
	tools, err := convertTools(agentcore.CurrentTools(messages))
	if err != nil {
		return request{}, err
	}
	req := request{
		Model:       model.ID,
		Stream:      true,
		Messages:    convertMessages(model, transform.Prepare(model, messages, newToolCallIDs().normalize)),
		Tools:       tools,
		Temperature: so.Temperature,
		MaxTokens:   tokens.ClampMaxTokens(model, all, cmp.Or(so.MaxTokens, model.MaxTokens)),
	}
	req.ReasoningEffort, req.PromptMode = reasoning(model, so.Reasoning)
	if so.SessionID != "" && so.CacheRetention != "none" {
		req.PromptCacheKey = so.SessionID
	}
	return req, nil
}

// reasoning is how a request asks model to think at level, as pi-ai's
// streamSimple decides it: a level other than none is clamped to those
// the model supports ([thinklevel.Clamp]), off counting as none. A
// reasoning model with a ThinkingLevelMap gets the map's value for the
// level as effort ("high" when the map has none), or without a level the
// map's value for off (none when it has none); another reasoning model
// asked to think gets prompt mode "reasoning". Empty values are not sent.
func reasoning(model agentcore.Model, level agentcore.ThinkingLevel) (effort, promptMode string) {
	if level != "" {
		level = thinklevel.Clamp(model, level)
	}
	if level == agentcore.ThinkingOff {
		level = ""
	}
	switch {
	case !model.Reasoning:
		return "", ""
	case model.ThinkingLevelMap == nil && level != "":
		return "", "reasoning"
	case model.ThinkingLevelMap == nil:
		return "", ""
	case level != "":
		return thinklevel.MapOr(model, level, "high"), ""
	}
	return thinklevel.MapOr(model, agentcore.ThinkingOff, ""), ""
}

// convertMessages maps prepared messages onto the request's, as pi-ai's
// toChatMessages does.
func convertMessages(model agentcore.Model, messages []agentcore.Message) []message {
	images := slices.Contains(model.Input, "image")
	out := make([]message, 0, len(messages))
	for i, m := range messages {
		switch m := m.(type) {
		case *agentcore.SystemMessage:
			text := transform.RenderSystemUpdate(m)
			if i == 0 {
				text = agentcore.SystemPromptText(m)
			}
			if text != "" {
				out = append(out, message{Role: "system", Content: text})
			}
		case *agentcore.UserMessage:
			if msg, ok := convertUser(m, images); ok {
				out = append(out, msg)
			}
		case *agentcore.AssistantMessage:
			if msg, ok := convertAssistant(m); ok {
				out = append(out, msg)
			}
		case *agentcore.ToolResultMessage:
			out = append(out, convertToolResult(m, images))
		}
	}
	return out
}

// textChunk is a text chunk holding s.
func textChunk(s string) chunk { return chunk{Type: "text", Text: &s} }

// imageChunk is an image chunk of b's data URL.
func imageChunk(b agentcore.ImageBlock) chunk {
	return chunk{Type: "image_url", ImageURL: "data:" + b.MimeType + ";base64," + b.Data}
}

// convertUser maps a user message: plain text as a string, blocks as text
// and (for a model that takes them) image chunks; no message when nothing
// is left.
func convertUser(m *agentcore.UserMessage, images bool) (message, bool) {
	if m.Content.Plain {
		return message{Role: "user", Content: m.Content.Text()}, true
	}
	var parts []chunk
	hadImages := false
	for _, b := range m.Content.Blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			parts = append(parts, textChunk(b.Text))
		case agentcore.ImageBlock:
			hadImages = true
			if images {
				parts = append(parts, imageChunk(b))
			}
		}
	}
	switch {
	case len(parts) > 0:
		return message{Role: "user", Content: parts}, true
	case hadImages:
		return message{Role: "user", Content: imageOmitted}, true
	}
	return message{}, false
}

// convertAssistant maps an assistant message: its non-blank text and
// thinking as chunks, its tool calls with their arguments as JSON text;
// no message when it has neither.
func convertAssistant(m *agentcore.AssistantMessage) (message, bool) {
	var parts []chunk
	var calls []wireCall
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			if strings.TrimSpace(b.Text) != "" {
				parts = append(parts, textChunk(b.Text))
			}
		case agentcore.ThinkingBlock:
			if strings.TrimSpace(b.Thinking) != "" {
				parts = append(parts, chunk{Type: "thinking", Thinking: []chunk{textChunk(b.Thinking)}})
			}
		case agentcore.ToolCall:
			c := wireCall{ID: b.ID, Type: "function"}
			c.Function.Name, c.Function.Arguments = b.Name, argumentsText(b.Arguments)
			calls = append(calls, c)
		}
	}
	if len(parts) == 0 && len(calls) == 0 {
		return message{}, false
	}
	msg := message{Role: "assistant", Prefix: new(false), ToolCalls: calls}
	if len(parts) > 0 {
		msg.Content = parts
	}
	return msg, true
}

// argumentsText is a call's arguments as compact JSON, "{}" for none.
func argumentsText(args json.RawMessage) string {
	var b bytes.Buffer
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" || json.Compact(&b, args) != nil {
		return "{}"
	}
	return b.String()
}

// convertToolResult maps a tool result: its text (or a note saying there
// is none, marked when it is an error) and, for a model that takes them,
// its images.
func convertToolResult(m *agentcore.ToolResultMessage, images bool) message {
	var texts []string
	var imgs []chunk
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			texts = append(texts, b.Text)
		case agentcore.ImageBlock:
			imgs = append(imgs, imageChunk(b))
		}
	}
	parts := []chunk{textChunk(toolResultText(strings.Join(texts, "\n"), len(imgs) > 0, images, m.IsError))}
	if images {
		parts = append(parts, imgs...)
	}
	return message{Role: "tool", Name: m.ToolName, Content: parts, ToolCallID: m.ToolCallID}
}

// toolResultText is the text of a tool result, as pi-ai words it.
func toolResultText(text string, hasImages, images, isError bool) string {
	prefix := ""
	if isError {
		prefix = toolErrorPrefix
	}
	switch trimmed := strings.TrimSpace(text); {
	case trimmed != "" && hasImages && !images:
		return prefix + trimmed + "\n" + toolImageOmitted
	case trimmed != "":
		return prefix + trimmed
	case hasImages && images:
		return prefix + imageAttached
	case hasImages:
		return prefix + imageOmitted
	}
	return prefix + noToolOutput
}

// constrained is the part of a tool's ConstrainedSampling read here.
type constrained struct {
	Type   string `json:"type"`
	Strict string `json:"strict"`
}

// convertTools declares tools as functions, their parameters as given
// and strict false. A tool that requires JSON-schema constrained sampling
// fails the request, as pi-ai fails it where strict tools are not
// supported.
func convertTools(tools []agentcore.ToolDeclaration) ([]wireTool, error) {
	out := make([]wireTool, 0, len(tools))
	for _, t := range tools {
		var c constrained
		if len(t.ConstrainedSampling) > 0 && json.Unmarshal(t.ConstrainedSampling, &c) == nil && c.Type == "json_schema" && c.Strict == "require" {
			return nil, errors.New(`Tool "` + t.Name + `" requires JSON-schema constrained sampling, but strict tools are unsupported.`)
		}
		var w wireTool
		w.Type = "function"
		w.Function.Name, w.Function.Description, w.Function.Parameters = t.Name, t.Description, t.Parameters
		out = append(out, w)
	}
	return out, nil
}

// encodeRequest writes req as JSON without HTML escapes, as JavaScript
// writes it.
func encodeRequest(req request) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
