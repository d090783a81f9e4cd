package google

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/thinklevel"
	"github.com/pi-go/agentcore/internal/tokens"
	"github.com/pi-go/agentcore/internal/transform"
)

// buildRequest maps one model call onto a request body, as pi-ai's
// streamSimple and buildParams do for the options the Go side has. A tool
// that requires strict function calling the model cannot give is an
// error. flashBudgetsForLite gives Gemini 2.5 Flash-Lite the budgets of
// 2.5 Flash, as pi-ai's Vertex module does.
func buildRequest(model agentcore.Model, messages []agentcore.Message, so agentcore.StreamOptions, flashBudgetsForLite bool) (wireRequest, error) {
	tools := agentcore.CurrentTools(messages)
	strict, err := strictTools(model.ID, tools)
	if err != nil {
		return wireRequest{}, err
	}
	collapsed := agentcore.CollapseSystemMessages(messages)
	prompt := ""
	var normalize func(string) string
	if requiresToolCallID(model.ID) {
		normalize = normalizeToolCallID
	}
	prepared := transform.Prepare(model, collapsed, normalize)
	if len(collapsed) > 0 {
		if sys, ok := collapsed[0].(*agentcore.SystemMessage); ok {
			prompt = agentcore.SystemPromptText(sys)
			prepared = prepared[1:]
		}
	}
	req := wireRequest{
		Contents: convertMessages(model, prepared),
		Tools:    convertTools(tools, strict),
	}
	if slices.Contains(strict, true) {
		req.ToolConfig = &toolConfig{}
		req.ToolConfig.FunctionCallingConfig.Mode = "VALIDATED"
	}
	if prompt != "" {
		req.SystemInstruction = &content{Parts: []part{textPart(prompt)}, Role: "user"}
	}
	req.GenerationConfig.Temperature = so.Temperature
	if limit := cmp.Or(so.MaxTokens, model.MaxTokens); limit > 0 {
		req.GenerationConfig.MaxOutputTokens = tokens.ClampMaxTokens(model, messages, limit)
	}
	req.GenerationConfig.ThinkingConfig = thinkingFor(model, so, flashBudgetsForLite)
	if f := so.ResponseFormat; f != nil {
		req.GenerationConfig.ResponseMIMEType = "application/json"
		req.GenerationConfig.ResponseJSONSchema = parametersSchema(f.Schema, false)
	}
	return req, nil
}

// thinkingFor is the thinking config pi-ai sends for the request's level,
// nil for a model without reasoning. The level is clamped to the ones the
// model supports and mapped by its ThinkingLevelMap, as pi-ai does (for a
// model without a map, xhigh and max count as high). Off sends a zero
// budget, or the lowest level of a model that cannot turn thinking off; a
// Gemini 3 (or later, or Gemma 4) model gets a thinking level, others a
// token budget: the request's ThinkingBudgets entry, else pi-ai's default
// for the model family, else -1 (the model decides).
func thinkingFor(model agentcore.Model, so agentcore.StreamOptions, flashBudgetsForLite bool) *thinkingConfig {
	if !model.Reasoning {
		return nil
	}
	level := thinklevel.Clamp(model, so.Reasoning)
	if so.Reasoning == "" || level == agentcore.ThinkingOff {
		return thinkingOff(model)
	}
	level = googleLevel(model, level)
	if usesThinkingLevel(model.ID) {
		return &thinkingConfig{IncludeThoughts: true, ThinkingLevel: strings.ToUpper(string(level))}
	}
	budget, ok := so.ThinkingBudgets[level]
	if !ok {
		budget = defaultBudget(model.ID, level, flashBudgetsForLite)
	}
	return &thinkingConfig{IncludeThoughts: true, ThinkingBudget: &budget}
}

// thinkingOff is the config that turns thinking off, as pi-ai's: a zero
// budget, except for a model taking a thinking level that cannot be off,
// which gets the lowest level it supports, without thoughts.
func thinkingOff(model agentcore.Model) *thinkingConfig {
	lowest := thinklevel.Clamp(model, agentcore.ThinkingOff)
	if !usesThinkingLevel(model.ID) || lowest == agentcore.ThinkingOff {
		zero := 0
		return &thinkingConfig{ThinkingBudget: &zero}
	}
	return &thinkingConfig{ThinkingLevel: strings.ToUpper(string(googleLevel(model, lowest)))}
}

// googleLevel is the Google level of a supported level: the model's
// ThinkingLevelMap value for it, lowered, or the level itself.
func googleLevel(model agentcore.Model, level agentcore.ThinkingLevel) agentcore.ThinkingLevel {
	return agentcore.ThinkingLevel(strings.ToLower(thinklevel.MapOr(model, level, string(level))))
}

// defaultBudgets are pi-ai's thinking budgets per model family and level,
// the first family whose name the model ID contains.
var defaultBudgets = []struct {
	family string
	budget map[agentcore.ThinkingLevel]int
}{
	{"2.5-pro", map[agentcore.ThinkingLevel]int{agentcore.ThinkingMinimal: 128, agentcore.ThinkingLow: 2048, agentcore.ThinkingMedium: 8192, agentcore.ThinkingHigh: 32768}},
	{"2.5-flash-lite", map[agentcore.ThinkingLevel]int{agentcore.ThinkingMinimal: 512, agentcore.ThinkingLow: 2048, agentcore.ThinkingMedium: 8192, agentcore.ThinkingHigh: 24576}},
	{"2.5-flash", map[agentcore.ThinkingLevel]int{agentcore.ThinkingMinimal: 128, agentcore.ThinkingLow: 2048, agentcore.ThinkingMedium: 8192, agentcore.ThinkingHigh: 24576}},
}

// defaultBudget is pi-ai's budget for level on the model, -1 (dynamic
// thinking) for a model of no known family; flashBudgetsForLite skips
// 2.5 Flash-Lite's own.
func defaultBudget(modelID string, level agentcore.ThinkingLevel, flashBudgetsForLite bool) int {
	for _, f := range defaultBudgets {
		if flashBudgetsForLite && f.family == "2.5-flash-lite" {
			continue
		}
		if strings.Contains(modelID, f.family) {
			return f.budget[level]
		}
	}
	return -1
}

// thinkingLevelModels match the model IDs (lower-cased) that take
// Gemini's thinkingLevel rather than a budget: Gemini 3 Pro and Flash,
// Gemini 4 and later, Gemma 4.
var thinkingLevelModels = regexp.MustCompile(`gemini-3(?:\.\d+)?-(?:pro|flash)|gemini-(?:[4-9]|[1-9]\d)|gemma-?4`)

// usesThinkingLevel reports whether a model takes a thinking level, as
// pi-ai tells from its ID.
func usesThinkingLevel(modelID string) bool {
	id := strings.ToLower(modelID)
	return thinkingLevelModels.MatchString(id) || id == "gemini-flash-latest" || id == "gemini-flash-lite-latest"
}

// geminiVersion matches a Gemini model ID (lower-cased) and its major
// version.
var geminiVersion = regexp.MustCompile(`^gemini(?:-live)?-(\d+)`)

// geminiMajor returns the major version of a Gemini model, and false for
// another model.
func geminiMajor(modelID string) (int, bool) {
	m := geminiVersion.FindStringSubmatch(strings.ToLower(modelID))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// requiresToolCallID reports whether the model needs the IDs of function
// calls and responses: Gemini 3 and later, and the Claude and gpt-oss
// models Google serves.
func requiresToolCallID(modelID string) bool {
	if strings.HasPrefix(modelID, "claude-") || strings.HasPrefix(modelID, "gpt-oss-") {
		return true
	}
	n, ok := geminiMajor(modelID)
	return ok && n >= 3
}

// multimodalFunctionResponses reports whether the model takes images
// inside a function response: Gemini 3 and later, and every model that is
// not Gemini.
func multimodalFunctionResponses(modelID string) bool {
	n, ok := geminiMajor(modelID)
	return !ok || n >= 3
}

// normalizeToolCallID makes a tool-call ID from another model one Google
// accepts: unsafe characters replaced, at most 64 characters.
func normalizeToolCallID(id string) string {
	id = transform.SanitizeID(id)
	return id[:min(len(id), 64)]
}
