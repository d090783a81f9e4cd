package bedrock

import (
	"cmp"
	"encoding/json"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/thinklevel"
	"github.com/pi-go/agentcore/internal/tokens"
)

// The beta features this package may ask for.
const (
	interleavedThinkingBeta     = "interleaved-thinking-2025-05-14"
	thinkingBindingControlsBeta = "thinking-binding-controls-2026-08-01"
	minAnswerTokens             = 1024
)

// defaultThinkingBudgets are pi-ai's budgets per level; xhigh and max use
// high's.
var defaultThinkingBudgets = map[agentcore.ThinkingLevel]int{
	agentcore.ThinkingMinimal: 1024,
	agentcore.ThinkingLow:     2048,
	agentcore.ThinkingMedium:  8192,
	agentcore.ThinkingHigh:    16384,
}

// settings are what a request's body depends on beside the model, the
// transcript and the stream options: read from the environment.
type settings struct {
	// cache is the cache retention: "none", "short" or "long".
	cache string
	// forceCache sends cache points to a model not known to take them
	// (AWS_BEDROCK_FORCE_CACHE=1).
	forceCache bool
	// govCloud says the region is an AWS GovCloud one, whose Converse
	// schema lacks newer thinking fields.
	govCloud bool
}

// buildRequest maps one model call onto a ConverseStream body, as pi-ai's
// streamSimple and stream do: the initial system prompt as the system
// blocks, the transcript as messages, maxTokens and temperature, the
// current tools, and the thinking setting as additional model request
// fields. Claude models get cache points after the system prompt and the
// last user message unless the retention is "none".
func buildRequest(model agentcore.Model, messages []agentcore.Message, so agentcore.StreamOptions, s settings) (wireRequest, error) {
	messages = agentcore.CollapseSystemMessages(messages)
	maxTokens, budget := resolveTokens(model, messages, so)
	caching := s.cache != "none" && supportsPromptCaching(model, s.forceCache)
	var cp *cachePoint
	if caching {
		cp = &cachePoint{Type: "default"}
		if s.cache == "long" {
			cp.TTL = "1h"
		}
	}
	req := wireRequest{InferenceConfig: inferenceConfig{MaxTokens: maxTokens, Temperature: so.Temperature}}
	if len(messages) > 0 {
		if sys, ok := messages[0].(*agentcore.SystemMessage); ok {
			if prompt := agentcore.SystemPromptText(sys); prompt != "" {
				req.System = []contentBlock{textBlock(prompt)}
				if cp != nil {
					req.System = append(req.System, contentBlock{CachePoint: cp})
				}
			}
		}
	}
	msgs, err := convertMessages(model, messages, cp)
	if err != nil {
		return wireRequest{}, err
	}
	req.Messages = msgs
	if tools := agentcore.CurrentTools(messages); len(tools) > 0 {
		tc := &toolConfig{}
		for _, t := range tools {
			var spec toolSpecBlock
			spec.ToolSpec.Name, spec.ToolSpec.Description = t.Name, t.Description
			spec.ToolSpec.InputSchema.JSON = t.Parameters
			tc.Tools = append(tc.Tools, spec)
		}
		req.ToolConfig = tc
	}
	req.AdditionalModelRequestFields = additionalFields(model, so.Reasoning, budget, s)
	return req, nil
}

// resolveTokens is maxTokens and, for a Claude model thinking on a budget,
// the budget, as pi-ai's streamSimple decides them: StreamOptions.MaxTokens,
// else the model's, fitted into the context window; with a thinking level
// on a Claude model without adaptive thinking, max tokens grow by the
// level's budget up to the model's cap (fitted again), and the budget
// leaves 1024 tokens for the answer.
func resolveTokens(model agentcore.Model, messages []agentcore.Message, so agentcore.StreamOptions) (maxTokens, budget int) {
	base := tokens.ClampMaxTokens(model, messages, cmp.Or(so.MaxTokens, model.MaxTokens))
	level := so.Reasoning
	if level == "" || level == agentcore.ThinkingOff || !isClaude(model) || supportsAdaptiveThinking(model) {
		return base, 0
	}
	budget = thinkingBudget(level, so.ThinkingBudgets)
	adjusted := min(base+budget, model.MaxTokens)
	if adjusted <= budget {
		budget = min(budget, max(0, adjusted-minAnswerTokens))
	}
	maxTokens = tokens.ClampMaxTokens(model, messages, adjusted)
	return maxTokens, min(budget, max(0, maxTokens-minAnswerTokens))
}

// thinkingBudget is the budget of level: the caller's, else pi-ai's
// default; xhigh and max count as high.
func thinkingBudget(level agentcore.ThinkingLevel, custom map[agentcore.ThinkingLevel]int) int {
	if level == agentcore.ThinkingXHigh || level == agentcore.ThinkingMax {
		level = agentcore.ThinkingHigh
	}
	if b, ok := custom[level]; ok {
		return b
	}
	return defaultThinkingBudgets[level]
}

// additionalFields is the thinking setting of a request as Bedrock's
// additionalModelRequestFields, nil without a level or for a model that
// does not reason: Claude's thinking (adaptive with an effort, else
// enabled with a budget), gpt-oss's reasoning_effort, or GPT's
// reasoning.effort.
func additionalFields(model agentcore.Model, level agentcore.ThinkingLevel, budget int, s settings) json.RawMessage {
	if level == "" || level == agentcore.ThinkingOff || !model.Reasoning {
		return nil
	}
	var members []jsonv.Member
	add := func(key string, v jsonv.Value) { members = append(members, jsonv.Member{Key: key, Value: v}) }
	str := jsonv.StringValue
	obj := func(ms ...jsonv.Member) jsonv.Value { return jsonv.ObjectValue(ms) }
	member := func(key string, v jsonv.Value) jsonv.Member { return jsonv.Member{Key: key, Value: v} }
	switch {
	case isClaude(model):
		thinking := []jsonv.Member{}
		adaptive := supportsAdaptiveThinking(model)
		if adaptive {
			thinking = append(thinking, member("type", str("adaptive")))
		} else {
			thinking = append(thinking, member("type", str("enabled")), member("budget_tokens", jsonv.NumberValue(float64(budget))))
		}
		if !s.govCloud {
			thinking = append(thinking, member("display", str("summarized")))
		}
		binding := adaptive && !s.govCloud && matches(model, thinkingBindingModels)
		if binding {
			thinking = append(thinking, member("block_binding", obj(member("prefix_mismatch_behavior", str("drop_block")))))
		}
		add("thinking", obj(thinking...))
		if adaptive {
			add("output_config", obj(member("effort", str(claudeEffort(model, level)))))
		}
		switch {
		case binding:
			add("anthropic_beta", jsonv.ArrayValue([]jsonv.Value{str(thinkingBindingControlsBeta)}))
		case !adaptive:
			add("anthropic_beta", jsonv.ArrayValue([]jsonv.Value{str(interleavedThinkingBeta)}))
		}
	case matches(model, []string{"gpt-oss"}):
		add("reasoning_effort", str(thinklevel.ThreeEfforts(level)))
	case matches(model, []string{"gpt-"}):
		add("reasoning", obj(member("effort", str(thinklevel.MapOr(model, level, gptEffort(level))))))
	default:
		return nil
	}
	return jsonv.ObjectValue(members).AppendJSON(nil)
}

// claudeEffort is the adaptive-thinking effort of level: xhigh where the
// model takes it, else the model's ThinkingLevelMap value for level, else
// low, medium or high ([thinklevel.ThreeEfforts]).
func claudeEffort(model agentcore.Model, level agentcore.ThinkingLevel) string {
	if level == agentcore.ThinkingXHigh && matches(model, nativeXHighModels) {
		return "xhigh"
	}
	return thinklevel.MapOr(model, level, thinklevel.ThreeEfforts(level))
}

// gptEffort is GPT's reasoning effort of level: it has no minimal.
func gptEffort(level agentcore.ThinkingLevel) string {
	if level == agentcore.ThinkingMinimal {
		return "low"
	}
	return string(level)
}

// The model families pi-ai tells apart by name.
var (
	adaptiveThinkingModels = []string{"opus-4-6", "opus-4-7", "opus-4-8", "opus-5", "sonnet-4-6", "sonnet-5", "haiku-5", "fable-5"}
	nativeXHighModels      = []string{"opus-4-7", "opus-4-8", "opus-5", "sonnet-5", "haiku-5", "fable-5"}
	thinkingBindingModels  = nativeXHighModels
	claude5Models          = []string{"fable-5", "opus-5", "sonnet-5", "haiku-5"}
)

// candidates are the names a model is matched by: its ID and name, lower
// case, as they are and with runs of spaces, '_', '.' and ':' as '-'
// (an application inference profile's ARN names no model; its name may).
func candidates(model agentcore.Model) []string {
	values := []string{model.ID}
	if model.Name != "" {
		values = append(values, model.Name)
	}
	var out []string
	for _, v := range values {
		lower := strings.ToLower(v)
		out = append(out, lower, dashed(lower))
	}
	return out
}

// dashed replaces each run of spaces, '_', '.' and ':' in s with one '-'.
func dashed(s string) string {
	var b strings.Builder
	run := false
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\r', '\f', '\v', '_', '.', ':':
			if !run {
				b.WriteByte('-')
			}
			run = true
			continue
		}
		run = false
		b.WriteRune(r)
	}
	return b.String()
}

// matches reports whether a candidate name of model contains one of
// parts.
func matches(model agentcore.Model, parts []string) bool {
	for _, c := range candidates(model) {
		for _, p := range parts {
			if strings.Contains(c, p) {
				return true
			}
		}
	}
	return false
}

func supportsAdaptiveThinking(model agentcore.Model) bool {
	return matches(model, adaptiveThinkingModels)
}

// isClaude reports whether model is an Anthropic Claude model, by its ID
// or name.
func isClaude(model agentcore.Model) bool {
	id, name := strings.ToLower(model.ID), strings.ToLower(model.Name)
	return strings.Contains(id, "anthropic.claude") || strings.Contains(id, "anthropic/claude") ||
		strings.Contains(name, "claude")
}

// supportsPromptCaching reports whether model takes cache points: Claude
// 3.5 Haiku, 3.7 Sonnet, 4.x and 5, or any model when forced.
func supportsPromptCaching(model agentcore.Model, force bool) bool {
	if !matches(model, []string{"claude"}) {
		return force
	}
	return matches(model, claude5Models) || matches(model, []string{"-4-", "claude-3-7-sonnet", "claude-3-5-haiku"})
}
