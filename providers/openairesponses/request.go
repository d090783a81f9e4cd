package openairesponses

import (
	"bytes"
	"cmp"
	"encoding/json"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
	"github.com/pi-go/agentcore/internal/thinklevel"
	"github.com/pi-go/agentcore/internal/tokens"
)

// request is the body of a streaming responses request. The field order
// is pi-ai's, so that bodies compare as text.
type request struct {
	Model                string        `json:"model"`
	Input                []inputItem   `json:"input"`
	Stream               bool          `json:"stream"`
	PromptCacheKey       string        `json:"prompt_cache_key,omitempty"`
	PromptCacheRetention string        `json:"prompt_cache_retention,omitempty"`
	PromptCacheOptions   *cacheOptions `json:"prompt_cache_options,omitempty"`
	Store                bool          `json:"store"`
	MaxOutputTokens      int           `json:"max_output_tokens,omitempty"`
	Temperature          *float64      `json:"temperature,omitempty"`
	ServiceTier          string        `json:"service_tier,omitempty"`
	Tools                []wireTool    `json:"tools,omitempty"`
	Reasoning            *reasoning    `json:"reasoning,omitempty"`
	Include              []string      `json:"include,omitempty"`
	Text                 *textConfig   `json:"text,omitempty"`
}

// textConfig is the request's text field: the answer's format, a
// json_schema from StreamOptions.ResponseFormat.
type textConfig struct {
	Format textFormat `json:"format"`
}

// textFormat is a json_schema format, its schema's fields inline.
type textFormat struct {
	Type string `json:"type"`
	*provider.JSONSchema
}

// newTextConfig maps f onto the text field; nil for nil.
func newTextConfig(f *agentcore.ResponseFormat) *textConfig {
	if f == nil {
		return nil
	}
	return &textConfig{Format: textFormat{Type: "json_schema", JSONSchema: provider.NewJSONSchema(f)}}
}

// cacheOptions is prompt_cache_options, for servers with an explicit
// prompt cache mode.
type cacheOptions struct {
	Mode string `json:"mode,omitempty"`
	TTL  string `json:"ttl,omitempty"`
}

type reasoning struct {
	Effort  string `json:"effort"`
	Summary string `json:"summary,omitempty"`
}

// wireTool declares a tool as a function.
type wireTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

// The request's constants, as pi-ai sends them.
const (
	// minOutputTokens is the least max_output_tokens the API accepts.
	minOutputTokens = 16
	// encryptedReasoning is the include that returns reasoning items with
	// their encrypted content, so that they can be replayed with store
	// false.
	encryptedReasoning = "reasoning.encrypted_content"
)

// requestInput is what a request is built from.
type requestInput struct {
	model    agentcore.Model
	messages []agentcore.Message
	so       agentcore.StreamOptions
	opts     Options
	s        settings
	base     string // the API root
	key      string // the API key sent
	// modelName is the body's "model"; empty means the model's ID.
	modelName string
}

// buildRequest maps one model call onto a request body, as pi-ai's
// streamSimple does: the transcript's input items and tools, and the
// request options. It fails only on a thinking signature that is no JSON
// (see convertMessages).
func buildRequest(in requestInput) (request, error) {
	model, so, s := in.model, in.so, in.s
	messages := in.messages
	maxTokens := tokens.ClampMaxTokens(model, messages, cmp.Or(so.MaxTokens, model.MaxTokens))
	if !s.inPlace {
		messages = agentcore.CollapseSystemMessages(messages)
	}
	input, err := convertMessages(model, messages, s)
	if err != nil {
		return request{}, err
	}
	signIn := chatGPTSignIn(model, in.base, in.key)
	retention := cmp.Or(so.CacheRetention, "short")
	req := request{
		Model:  cmp.Or(in.modelName, model.ID),
		Input:  input,
		Stream: true,
		Tools:  convertTools(agentcore.CurrentTools(messages), s),
	}
	setCache(&req, so.SessionID, retention, s, signIn)
	if !signIn {
		if maxTokens > 0 && s.maxOutput {
			req.MaxOutputTokens = max(maxTokens, minOutputTokens)
		}
		req.Temperature = so.Temperature
	}
	req.ServiceTier = in.opts.ServiceTier
	if model.Reasoning {
		if effort := reasoningEffort(model, so.Reasoning, in.opts.ReasoningSummary); effort != "" {
			req.Reasoning = &reasoning{Effort: effort, Summary: cmp.Or(in.opts.ReasoningSummary, "auto")}
			req.Include = []string{encryptedReasoning}
		} else if off, ok := thinklevel.OffValue(model); ok && model.Provider != "github-copilot" {
			req.Reasoning = &reasoning{Effort: cmp.Or(off, "none")}
		}
		if model.Provider == "xai" {
			req.Include = []string{encryptedReasoning}
		}
	}
	req.Text = newTextConfig(so.ResponseFormat)
	return req, nil
}

// setCache sets the prompt cache fields of req for the session and the
// cache retention asked for, as the server takes them (none for a
// ChatGPT sign-in but the cache key).
func setCache(req *request, sessionID, retention string, s settings, signIn bool) {
	if s.sendsCacheKey(sessionID, retention) {
		req.PromptCacheKey = provider.PromptCacheKey(sessionID)
	}
	if signIn {
		return
	}
	if retention == "long" && s.longCache && !s.explicitCache {
		req.PromptCacheRetention = "24h"
	}
	if s.explicitCache {
		switch {
		case retention == "none":
			req.PromptCacheOptions = &cacheOptions{Mode: "explicit"}
		case retention == "long" && s.longCache:
			req.PromptCacheOptions = &cacheOptions{TTL: "30m"}
		}
	}
}

// encodeRequest writes req as JSON (without HTML escapes, as JavaScript
// writes it) with the request's SamplingParams merged in last, as pi-ai
// does: one the body already has takes the new value, a new one is added.
func encodeRequest(req request, samplingParams json.RawMessage) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return nil, err
	}
	return provider.MergeParams(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), samplingParams)
}

// reasoningEffort is the effort asked of a reasoning model: the thinking
// level clamped to the ones the model supports and mapped by its
// ThinkingLevelMap (off none), else "medium" when a summary is asked for,
// else "".
func reasoningEffort(model agentcore.Model, level agentcore.ThinkingLevel, summary string) string {
	if effort := thinklevel.Effort(model, level); effort != "" {
		return effort
	}
	if summary != "" {
		return string(agentcore.ThinkingMedium)
	}
	return ""
}

// convertTools declares tools as functions, their parameters as given.
func convertTools(tools []agentcore.ToolDeclaration, s settings) []wireTool {
	if len(tools) == 0 {
		return nil
	}
	out := make([]wireTool, len(tools))
	for i, t := range tools {
		out[i] = wireTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: t.Parameters}
		if s.strict {
			out[i].Strict = new(false)
		}
	}
	return out
}
