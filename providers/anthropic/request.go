package anthropic

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel"
	"github.com/pi-go/agentcore/internal/tokens"
	"github.com/pi-go/agentcore/internal/transform"
)

// The beta features this package may ask for.
const (
	fineGrainedToolStreamingBeta = "fine-grained-tool-streaming-2025-05-14"
	interleavedThinkingBeta      = "interleaved-thinking-2025-05-14"
)

// minAnswerTokens is what a thinking budget always leaves of max_tokens.
const minAnswerTokens = 1024

// defaultThinkingBudgets are pi-ai's budgets per level; xhigh and max use
// high's.
var defaultThinkingBudgets = map[agentcore.ThinkingLevel]int{
	agentcore.ThinkingMinimal: 1024,
	agentcore.ThinkingLow:     2048,
	agentcore.ThinkingMedium:  8192,
	agentcore.ThinkingHigh:    16384,
}

// built is a request body and the beta features it needs.
type built struct {
	body  wireRequest
	betas []string
}

// buildRequest maps one model call onto a request body, as pi-ai's
// streamSimple and buildParams do for the options the Go side has.
func buildRequest(model agentcore.Model, messages []agentcore.Message, so agentcore.StreamOptions, s settings) built {
	t := resolveThinking(model, messages, so, s)
	if !s.inPlace {
		messages = agentcore.CollapseSystemMessages(messages)
	}
	cc := cacheControlFor(so.CacheRetention, s)
	prompt := ""
	prepared := transform.Prepare(model, messages, normalizeToolCallID)
	if len(messages) > 0 {
		if sys, ok := messages[0].(*agentcore.SystemMessage); ok {
			prompt = agentcore.SystemPromptText(sys)
			prepared = prepared[1:]
		}
	}
	tools := agentcore.CurrentTools(messages)

	req := wireRequest{
		Model:     model.ID,
		Messages:  convertMessages(prepared, s, cc),
		MaxTokens: t.maxTokens,
		Stream:    true,
		Tools:     convertTools(tools, s, cc),
	}
	if prompt != "" {
		req.System = []block{textBlock{Type: "text", Text: prompt, CacheControl: cc}}
	}
	if so.Temperature != nil && !t.enabled && s.temperature {
		req.Temperature = so.Temperature
	}
	switch {
	case model.Reasoning && !t.enabled:
		// A model whose level map makes off unsupported gets no thinking field.
		if _, ok := thinklevel.OffValue(model); ok {
			req.Thinking = &wireThinking{Type: "disabled"}
		}
	case model.Reasoning && s.adaptive:
		req.Thinking = &wireThinking{Type: "adaptive", Display: "summarized"}
		req.OutputConfig = &outputConfig{Effort: t.effort}
	case model.Reasoning:
		req.Thinking = &wireThinking{Type: "enabled", BudgetTokens: cmp.Or(t.budget, 1024), Display: "summarized"}
	}
	if f := so.ResponseFormat; f != nil {
		if req.OutputConfig == nil {
			req.OutputConfig = &outputConfig{}
		}
		req.OutputConfig.Format = &outputFormat{Type: "json_schema", Schema: f.Schema}
	}
	req.Metadata = readMetadata(so.Metadata)
	return built{body: req, betas: betas(model, len(tools) > 0, t.enabled, s)}
}

// betas are the beta features a request uses: fine-grained tool
// streaming with tools (unless the server streams them eagerly), and
// interleaved thinking with a thinking budget.
func betas(model agentcore.Model, tools, thinking bool, s settings) []string {
	var out []string
	if tools && !s.eagerToolStreaming {
		out = append(out, fineGrainedToolStreamingBeta)
	}
	if model.Reasoning && thinking && !s.adaptive {
		out = append(out, interleavedThinkingBeta)
	}
	return out
}

// thinking is the resolved thinking setting of a request.
type thinking struct {
	enabled   bool
	maxTokens int
	budget    int    // budget tokens, for budget thinking
	effort    string // for adaptive thinking
}

// resolveThinking decides max_tokens and the thinking setting for a
// request of messages, as pi-ai's streamSimple does. max_tokens is
// StreamOptions.MaxTokens, else the model's MaxTokens, fitted into the
// model's ContextWindow (see [tokens.ClampMaxTokens]). The level comes
// from StreamOptions.Reasoning (empty: no thinking; the agent loop passes
// off as empty, and an explicit off is a level, as in pi-ai); Model.Reasoning
// says whether the model takes thinking at all, and the compat setting
// forceAdaptiveThinking whether it takes an effort (adaptive thinking)
// rather than a token budget. A budget is ThinkingBudgets' entry for the
// level, else pi-ai's default (xhigh and max count as high); max_tokens
// then grows by the budget, up to the model's MaxTokens and again fitted
// into the context window, and the budget shrinks to leave 1024 tokens for
// the answer.
func resolveThinking(model agentcore.Model, messages []agentcore.Message, so agentcore.StreamOptions, s settings) thinking {
	modelMax := model.MaxTokens
	if modelMax <= 0 {
		modelMax = DefaultMaxTokens
	}
	base := tokens.ClampMaxTokens(model, messages, cmp.Or(so.MaxTokens, modelMax))
	level := so.Reasoning
	if level == "" {
		return thinking{maxTokens: base}
	}
	if s.adaptive {
		return thinking{enabled: true, maxTokens: base, effort: thinklevel.MapOr(model, level, thinklevel.ThreeEfforts(level))}
	}
	if level == agentcore.ThinkingXHigh || level == agentcore.ThinkingMax {
		level = agentcore.ThinkingHigh
	}
	budget, ok := so.ThinkingBudgets[level]
	if !ok {
		budget = defaultThinkingBudgets[level]
	}
	maxTokens := tokens.ClampMaxTokens(model, messages, min(base+budget, modelMax))
	return thinking{enabled: true, maxTokens: maxTokens, budget: min(budget, max(0, maxTokens-minAnswerTokens))}
}

// cacheControlFor is the cache breakpoint for a retention preference: none
// for "none", a 1h one for "long" when the model takes it, else the
// default 5 minute one.
func cacheControlFor(retention string, s settings) *cacheControl {
	switch retention {
	case "none":
		return nil
	case "long":
		if s.longCache {
			return &cacheControl{Type: "ephemeral", TTL: "1h"}
		}
	}
	return &cacheControl{Type: "ephemeral"}
}

// readMetadata returns the metadata pi-ai sends: the user_id of metadata
// when it is a string.
func readMetadata(raw json.RawMessage) *metadata {
	var m struct {
		UserID *string `json:"user_id"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil || m.UserID == nil {
		return nil
	}
	return &metadata{UserID: *m.UserID}
}

// normalizeToolCallID makes a tool-call ID from another model one the API
// accepts: unsafe characters replaced, at most 64 characters.
func normalizeToolCallID(id string) string {
	id = transform.SanitizeID(id)
	return id[:min(len(id), 64)]
}

// convertTools declares tools. The input schema keeps the parameters'
// properties, required, additionalProperties and shared definitions; other
// root keywords are left out, as the API rejects root anyOf and the like.
// The last tool gets the cache breakpoint when the model takes one there.
func convertTools(tools []agentcore.ToolDeclaration, s settings, cc *cacheControl) []wireTool {
	out := make([]wireTool, len(tools))
	for i, t := range tools {
		out[i] = wireTool{Name: t.Name, Description: t.Description, EagerInputStreaming: s.eagerToolStreaming, InputSchema: inputSchema(t.Parameters)}
		if i == len(tools)-1 && s.cacheOnTools {
			out[i].CacheControl = cc
		}
	}
	return out
}

// inputSchema builds a tool's input_schema from its parameters.
func inputSchema(params json.RawMessage) json.RawMessage {
	var schema map[string]json.RawMessage
	json.Unmarshal(params, &schema) // anything but an object declares no parameters
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":`)
	b.Write(orDefault(schema["properties"], "{}"))
	b.WriteString(`,"required":`)
	b.Write(orDefault(schema["required"], "[]"))
	for _, key := range []string{"additionalProperties", "$defs", "definitions"} {
		if v, ok := schema[key]; ok {
			b.WriteString(`,"` + key + `":`)
			b.Write(v)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// orDefault returns v, or def when v is absent or null.
func orDefault(v json.RawMessage, def string) json.RawMessage {
	if len(v) == 0 || strings.TrimSpace(string(v)) == "null" {
		return json.RawMessage(def)
	}
	return v
}

// betaHeader resolves the anthropic-beta header: the features configured
// in the model's or the request's headers (the last one set wins; split at
// commas, trimmed, duplicates dropped) replace the computed ones.
func betaHeader(computed []string, headerSets ...map[string]string) string {
	configured, found := "", false
	for _, set := range headerSets {
		for k, v := range set {
			if strings.EqualFold(k, "anthropic-beta") {
				configured, found = v, true
			}
		}
	}
	features := computed
	if found {
		features = nil
		for _, f := range strings.Split(configured, ",") {
			features = append(features, strings.TrimSpace(f))
		}
	}
	var out []string
	for _, f := range features {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return strings.Join(out, ",")
}
