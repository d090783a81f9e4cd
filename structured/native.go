package structured

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/schema"
)

// Mode is how an [Answer] asks the model for its answer: through the
// final-answer tool, or in the provider's native structured-output mode,
// where the answer is the model's final text, JSON matching T's schema.
type Mode int

const (
	// ModeAuto uses the native mode for the models known to support it
	// (see [NativeSupported]) and the tool for the others.
	ModeAuto Mode = iota
	// ModeTool always uses the final-answer tool.
	ModeTool
	// ModeNative uses the native mode whenever the model's API has one in
	// this library (openai-completions, openai-responses,
	// azure-openai-responses, google-generative-ai, google-vertex,
	// anthropic-messages), whatever the model, and the tool for the other
	// APIs. The program answers for the model supporting the mode: one
	// that does not fails its request with the provider's error.
	ModeNative
)

// nativeAPIs are the APIs whose providers map
// [agentcore.StreamOptions].ResponseFormat onto a native mode.
var nativeAPIs = map[string]bool{
	"openai-completions":     true,
	"openai-responses":       true,
	"azure-openai-responses": true,
	"google-generative-ai":   true,
	"google-vertex":          true,
	"anthropic-messages":     true,
}

// withoutStructuredOutputs match the IDs of OpenAI models older than
// structured outputs: GPT-3.5, GPT-4 and GPT-4 Turbo, the first GPT-4o,
// o1-mini and o1-preview.
var withoutStructuredOutputs = regexp.MustCompile(`^(gpt-3\.5|gpt-4$|gpt-4-|gpt-4o-2024-05-13|o1-mini|o1-preview)`)

// openAIModel matches the IDs of OpenAI's own models.
var openAIModel = regexp.MustCompile(`^(gpt-|chat-|o\d)`)

// geminiMajor matches a Gemini model ID and its major version.
var geminiMajor = regexp.MustCompile(`^gemini-(\d+)`)

// NativeSupported reports whether [ModeAuto] uses the native mode for a
// model, from the catalog's facts about it (its API, provider and ID), as
// the [models] catalog names them:
//
//   - OpenAI's models (provider "openai", API openai-responses or
//     openai-completions) and Azure OpenAI's (API azure-openai-responses),
//     GPT and o-series, except those older than structured outputs
//     (GPT-3.5, GPT-4, GPT-4 Turbo, gpt-4o-2024-05-13, o1-mini,
//     o1-preview);
//   - Gemini 3 and later (APIs google-generative-ai and google-vertex),
//     which take a response schema beside function calling;
//   - no Anthropic model: the catalog says which models take strict tools,
//     not which take JSON outputs, so Claude's structured outputs are
//     used only with [ModeNative];
//   - no other API or provider (OpenAI-compatible servers differ in what
//     they accept).
//
// A model's other fields do not count, so the decision can be made again
// from an assistant message alone: the layer judges each turn that way.
func NativeSupported(api, provider, modelID string) bool {
	id := strings.ToLower(modelID)
	switch api {
	case "openai-responses", "openai-completions":
		return provider == "openai" && openAIModel.MatchString(id) && !withoutStructuredOutputs.MatchString(id)
	case "azure-openai-responses":
		return openAIModel.MatchString(id) && !withoutStructuredOutputs.MatchString(id)
	case "google-generative-ai", "google-vertex":
		m := geminiMajor.FindStringSubmatch(id)
		if m == nil {
			return false
		}
		n, err := strconv.Atoi(m[1])
		return err == nil && n >= 3
	}
	return false
}

// native reports whether the answer uses the native mode for a model of
// api, provider and ID.
func (a *Answer[T]) native(api, provider, modelID string) bool {
	switch a.mode {
	case ModeTool:
		return false
	case ModeNative:
		return nativeAPIs[api]
	}
	return NativeSupported(api, provider, modelID)
}

// nativeMessage reports whether msg is a native answer: a successful
// assistant message without tool calls from a model in the native mode.
func (a *Answer[T]) nativeMessage(msg *agentcore.AssistantMessage) bool {
	return msg != nil && !msg.StopReason.Failed() && len(msg.ToolCalls()) == 0 && a.native(msg.API, msg.Provider, msg.Model)
}

// wrapStreamFn sets the response format on the requests of models in the
// native mode.
func (a *Answer[T]) wrapStreamFn(next agentcore.StreamFn) agentcore.StreamFn {
	return func(ctx context.Context, model agentcore.Model, req agentcore.Request, so agentcore.StreamOptions) agentcore.AssistantStream {
		if a.native(model.API, model.Provider, model.ID) {
			so.ResponseFormat = a.format
		}
		return next(ctx, model, req, so)
	}
}

// errNotJSON is the problem of a native answer whose text is no JSON
// object.
var errNotJSON = errors.New("the answer is not a JSON object")

// checkText validates the text of a native answer as the tool's
// arguments would be: the validator's coerced JSON, or its error. A
// Markdown code fence around the JSON is taken off.
func (a *Answer[T]) checkText(text string) (json.RawMessage, error) {
	raw := json.RawMessage(unfence(text))
	if !json.Valid(raw) || raw[0] != '{' {
		return nil, fmt.Errorf("%w. Received:\n%s", errNotJSON, text)
	}
	coerced, err := schema.ValidateToolArguments(a.name, a.decl.Parameters, raw)
	if err != nil {
		return nil, err
	}
	if _, err := agentcore.DecodeArgs[T](coerced); err != nil {
		return nil, err
	}
	return coerced, nil
}

// unfence trims text and takes off a Markdown code fence around it.
func unfence(text string) string {
	text = strings.TrimSpace(text)
	if rest, ok := strings.CutPrefix(text, "```"); ok {
		if body, ok := strings.CutSuffix(rest, "```"); ok {
			if i := strings.IndexByte(body, '\n'); i >= 0 {
				body = body[i+1:] // the fence's language tag
			}
			return strings.TrimSpace(body)
		}
	}
	return text
}

// nativeSchema is the schema sent as the response format: the tool's
// parameters with additionalProperties false on every object that lists
// properties and sets no additionalProperties (the native modes require
// it, and a stricter schema passes the same validation). strict reports
// whether OpenAI's strict mode takes it: every object requires all its
// properties and none is a map.
func nativeSchema(params json.RawMessage) (out json.RawMessage, strict bool) {
	var root any
	if err := json.Unmarshal(params, &root); err != nil {
		return params, false
	}
	strict = closeObjects(root)
	out, err := json.Marshal(root)
	if err != nil {
		return params, false
	}
	return out, strict
}

// closeObjects sets additionalProperties false on the objects of schema
// s that list properties without setting it, at any depth (definitions
// under "$defs" included), and reports
// whether every object of s is strict (all properties required, no map).
func closeObjects(s any) bool {
	strict := true
	switch s := s.(type) {
	case map[string]any:
		if props, ok := s["properties"].(map[string]any); ok {
			if _, set := s["additionalProperties"]; !set {
				s["additionalProperties"] = false
			}
			required, _ := s["required"].([]any)
			strict = len(required) == len(props)
			for _, p := range props {
				strict = closeObjects(p) && strict
			}
		} else if s["type"] == "object" {
			strict = false // a map, or an object of any properties
		}
		if ap, ok := s["additionalProperties"]; ok && ap != false {
			closeObjects(ap)
			strict = false
		}
		for _, k := range []string{"items", "not"} {
			if sub, ok := s[k]; ok {
				strict = closeObjects(sub) && strict
			}
		}
		for _, k := range []string{"$defs", "definitions"} {
			if defs, ok := s[k].(map[string]any); ok {
				for _, def := range defs {
					strict = closeObjects(def) && strict
				}
			}
		}
		for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
			if subs, ok := s[k].([]any); ok {
				for _, sub := range subs {
					strict = closeObjects(sub) && strict
				}
			}
		}
	case []any:
		for _, sub := range s {
			strict = closeObjects(sub) && strict
		}
	}
	return strict
}
