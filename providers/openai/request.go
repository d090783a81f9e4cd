package openai

import (
	"bytes"
	"cmp"
	"encoding/json"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/thinklevel"
	"github.com/pi-go/agentcore/internal/tokens"
	"github.com/pi-go/agentcore/internal/transform"
)

// chatRequest is the body of a streaming chat completions request. The
// field order is pi-ai's, so that bodies compare as text.
type chatRequest struct {
	Model                string          `json:"model"`
	Messages             []wireMessage   `json:"messages"`
	Stream               bool            `json:"stream"`
	PromptCacheKey       string          `json:"prompt_cache_key,omitempty"`
	PromptCacheRetention string          `json:"prompt_cache_retention,omitempty"`
	StreamOptions        *streamOptions  `json:"stream_options,omitempty"`
	Store                *bool           `json:"store,omitempty"`
	MaxCompletionTokens  int             `json:"max_completion_tokens,omitempty"`
	MaxTokens            int             `json:"max_tokens,omitempty"`
	Temperature          *float64        `json:"temperature,omitempty"`
	Tools                []wireTool      `json:"tools,omitempty"`
	Reasoning            *effort         `json:"reasoning,omitempty"`
	ReasoningEffort      string          `json:"reasoning_effort,omitempty"`
	ResponseFormat       *responseFormat `json:"response_format,omitempty"`
}

// responseFormat is response_format: a json_schema answer, from
// StreamOptions.ResponseFormat.
type responseFormat struct {
	Type       string               `json:"type"`
	JSONSchema *provider.JSONSchema `json:"json_schema"`
}

// newResponseFormat maps f onto response_format; nil for nil.
func newResponseFormat(f *agentcore.ResponseFormat) *responseFormat {
	if f == nil {
		return nil
	}
	return &responseFormat{Type: "json_schema", JSONSchema: provider.NewJSONSchema(f)}
}

// effort is OpenRouter's reasoning object.
type effort struct {
	Effort string `json:"effort"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// wireMessage is one entry of "messages". Content is nil (sent as null),
// a string, or []wirePart.
type wireMessage struct {
	Role    string
	Content any
	// ReasoningField, when set, names the field that carries
	// ReasoningText back to the server that produced it.
	ReasoningField string
	ReasoningText  string
	ToolCalls      []wireToolCall
	ToolCallID     string
	Name           string
}

// MarshalJSON writes the fields of m's role in pi-ai's order.
func (m wireMessage) MarshalJSON() ([]byte, error) {
	w := objectWriter{}
	w.field("role", m.Role)
	w.field("content", m.Content)
	if m.ReasoningField != "" {
		w.field(m.ReasoningField, m.ReasoningText)
	}
	if len(m.ToolCalls) > 0 {
		w.field("tool_calls", m.ToolCalls)
	}
	if m.Role == "tool" {
		w.field("tool_call_id", m.ToolCallID)
	}
	if m.Name != "" {
		w.field("name", m.Name)
	}
	return w.close()
}

// objectWriter writes a JSON object field by field, in call order.
type objectWriter struct {
	buf bytes.Buffer
	err error
}

func (w *objectWriter) field(name string, v any) {
	if w.err != nil {
		return
	}
	if w.buf.Len() == 0 {
		w.buf.WriteByte('{')
	} else {
		w.buf.WriteByte(',')
	}
	key, _ := json.Marshal(name)
	w.buf.Write(key)
	w.buf.WriteByte(':')
	val, err := json.Marshal(v)
	w.err = err
	w.buf.Write(val)
}

func (w *objectWriter) close() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	w.buf.WriteByte('}')
	return w.buf.Bytes(), nil
}

// wirePart is one part of a user message's content: text or an image.
type wirePart struct {
	Type     string        `json:"type"`
	Text     string        `json:"text,omitempty"`
	ImageURL *wireImageURL `json:"image_url,omitempty"`
}

type wireImageURL struct {
	URL string `json:"url"`
}

func textPart(text string) wirePart { return wirePart{Type: "text", Text: text} }

func imagePart(img agentcore.ImageBlock) wirePart {
	return wirePart{Type: "image_url", ImageURL: &wireImageURL{URL: "data:" + img.MimeType + ";base64," + img.Data}}
}

type wireToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function wireCallFunction `json:"function"`
}

type wireCallFunction struct {
	Name string `json:"name"`
	// Arguments is the JSON text of the arguments object.
	Arguments string `json:"arguments"`
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// defaultParameters is the schema sent for a tool that declares none.
var defaultParameters = json.RawMessage(`{"type":"object","properties":{}}`)

// buildRequest maps one model call onto a request body: the transcript's
// messages (system messages collapsed or in place), the tools the
// transcript declares, and the request options. The token cap is
// StreamOptions.MaxTokens, else the model's MaxTokens, fitted into the
// model's ContextWindow (see [tokens.ClampMaxTokens]), as pi-ai does; with
// neither there is none.
func buildRequest(model agentcore.Model, messages []agentcore.Message, opts agentcore.StreamOptions, s settings) chatRequest {
	maxTokens := cmp.Or(opts.MaxTokens, model.MaxTokens)
	if maxTokens > 0 {
		maxTokens = tokens.ClampMaxTokens(model, messages, maxTokens)
	}
	if !s.inPlace {
		messages = agentcore.CollapseSystemMessages(messages)
	}
	req := chatRequest{
		Model:    model.ID,
		Messages: convertMessages(model, transform.Prepare(model, messages, func(id string) string { return normalizeToolCallID(model, id) }), s),
		Stream:   true,
		Tools:    convertTools(agentcore.CurrentTools(messages)),
	}
	if opts.SessionID != "" && s.promptCacheKey(opts.CacheRetention) {
		req.PromptCacheKey = provider.PromptCacheKey(opts.SessionID)
	}
	if opts.CacheRetention == "long" && s.longCache {
		req.PromptCacheRetention = "24h"
	}
	if s.usageInStream {
		req.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	if s.store {
		req.Store = new(false)
	}
	if maxTokens > 0 {
		if s.legacyMaxTokens {
			req.MaxTokens = maxTokens
		} else {
			req.MaxCompletionTokens = maxTokens
		}
	}
	req.Temperature = opts.Temperature
	setReasoning(&req, model, opts.Reasoning, s)
	req.ResponseFormat = newResponseFormat(opts.ResponseFormat)
	return req
}

// setReasoning sets the request's reasoning fields for the level, as the
// server's dialect takes them: OpenRouter's reasoning object, or
// reasoning_effort; nothing for a model without reasoning.
func setReasoning(req *chatRequest, model agentcore.Model, level agentcore.ThinkingLevel, s settings) {
	switch {
	case !model.Reasoning:
	case s.openRouterReasoning:
		if e := thinklevel.Effort(model, level); e != "" {
			req.Reasoning = &effort{Effort: e}
		} else if off, ok := thinklevel.OffValue(model); ok {
			req.Reasoning = &effort{Effort: cmp.Or(off, "none")}
		}
	case s.reasoningEffort:
		off, _ := thinklevel.OffValue(model)
		req.ReasoningEffort = cmp.Or(thinklevel.Effort(model, level), off)
	}
}

// convertTools declares tools as functions.
func convertTools(tools []agentcore.ToolDeclaration) []wireTool {
	if len(tools) == 0 {
		return nil
	}
	out := make([]wireTool, len(tools))
	for i, t := range tools {
		params := t.Parameters
		if len(params) == 0 {
			params = defaultParameters
		}
		out[i] = wireTool{Type: "function", Function: wireFunction{Name: t.Name, Description: t.Description, Parameters: params}}
	}
	return out
}
