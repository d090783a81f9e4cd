package google

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/pi-go/agentcore"
)

// The texts pi-ai sends around tool results.
const (
	imageOnlyResult  = "(see attached image)"
	resultImageTitle = "Tool result image:"
)

// convertMessages maps a prepared transcript (collapsed, its leading
// system message removed) onto contents, as pi-ai does:
//
//   - user text (blank text included) and images as inlineData; a user
//     message without parts is dropped;
//   - assistant text, thinking as thought parts and tool calls as
//     functionCall parts; signatures (thoughtSignature) are replayed only
//     to the model that made them and only when they are base64; blank
//     text and thinking without a signature are dropped, as is a message
//     left with no part;
//   - a tool result as a functionResponse ({"output": text} or
//     {"error": text}), appended to the previous turn when that one holds
//     function responses; its images go inside the response for models
//     that take them there (Gemini 3 and later, non-Gemini models), else
//     in a user turn of their own after it.
//
// Function calls and responses carry IDs for the models that need them.
func convertMessages(model agentcore.Model, messages []agentcore.Message) []content {
	out := []content{}
	withIDs := requiresToolCallID(model.ID)
	for _, m := range messages {
		switch m := m.(type) {
		case *agentcore.UserMessage:
			if parts := userParts(m); len(parts) > 0 {
				out = append(out, content{Parts: parts, Role: "user"})
			}
		case *agentcore.AssistantMessage:
			if parts := assistantParts(model, m, withIDs); len(parts) > 0 {
				out = append(out, content{Parts: parts, Role: "model"})
			}
		case *agentcore.ToolResultMessage:
			out = appendToolResult(out, model, m, withIDs)
		}
	}
	return out
}

// userParts maps a user message's content.
func userParts(m *agentcore.UserMessage) []part {
	if m.Content.Plain {
		return []part{textPart(m.Content.Text())}
	}
	var parts []part
	for _, b := range m.Content.Blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			parts = append(parts, textPart(b.Text))
		case agentcore.ImageBlock:
			parts = append(parts, imagePart(b))
		}
	}
	return parts
}

// assistantParts maps an assistant message's blocks. Text signatures are
// kept only for the same provider, API and model (pi-ai drops them in
// transformMessages otherwise); thinking and tool-call signatures for the
// same provider and model.
func assistantParts(model agentcore.Model, m *agentcore.AssistantMessage, withIDs bool) []part {
	sameModel := m.Provider == model.Provider && m.Model == model.ID
	sameAPI := sameModel && m.API == model.API
	var parts []part
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			sig := signature(sameAPI, b.TextSignature)
			if strings.TrimSpace(b.Text) == "" && sig == "" {
				continue
			}
			p := textPart(b.Text)
			p.ThoughtSignature = sig
			parts = append(parts, p)
		case agentcore.ThinkingBlock:
			blank := strings.TrimSpace(b.Thinking) == ""
			if !sameModel {
				if !blank {
					parts = append(parts, textPart(b.Thinking))
				}
				continue
			}
			sig := signature(true, b.ThinkingSignature)
			if blank && sig == "" {
				continue
			}
			p := textPart(b.Thinking)
			p.Thought, p.ThoughtSignature = true, sig
			parts = append(parts, p)
		case agentcore.ToolCall:
			call := &functionCall{Args: argumentsOf(b), Name: b.Name}
			if withIDs {
				call.ID = b.ID
			}
			parts = append(parts, part{FunctionCall: call, ThoughtSignature: signature(sameModel, b.ThoughtSignature)})
		}
	}
	return parts
}

// argumentsOf is a call's arguments to replay: {} when it has none or
// they are not JSON.
func argumentsOf(c agentcore.ToolCall) json.RawMessage {
	if len(c.Arguments) == 0 || !json.Valid(c.Arguments) {
		return json.RawMessage("{}")
	}
	return c.Arguments
}

// base64Signature matches what Google takes as a thought signature.
var base64Signature = regexp.MustCompile(`^[A-Za-z0-9+/]+={0,2}$`)

// signature returns sig when it may be replayed: to the model that made it
// (same), and base64.
func signature(same bool, sig string) string {
	if !same || sig == "" || len(sig)%4 != 0 || !base64Signature.MatchString(sig) {
		return ""
	}
	return sig
}

// appendToolResult adds a tool result's function response to out.
func appendToolResult(out []content, model agentcore.Model, m *agentcore.ToolResultMessage, withIDs bool) []content {
	var texts []string
	var images []part
	takesImages := slices.Contains(model.Input, "image")
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			texts = append(texts, b.Text)
		case agentcore.ImageBlock:
			if takesImages {
				images = append(images, imagePart(b))
			}
		}
	}
	text := strings.Join(texts, "\n")
	value := ""
	switch {
	case strings.TrimSpace(text) != "":
		value = text
	case len(images) > 0:
		value = imageOnlyResult
	}
	key := "output"
	if m.IsError {
		key = "error"
	}
	response, _ := json.Marshal(map[string]string{key: value})
	fr := &functionResponse{Name: m.ToolName, Response: response}
	inside := multimodalFunctionResponses(model.ID)
	if inside {
		fr.Parts = images
	}
	if withIDs {
		fr.ID = m.ToolCallID
	}
	p := part{FunctionResponse: fr}
	if n := len(out); n > 0 && out[n-1].Role == "user" && hasFunctionResponse(out[n-1].Parts) {
		out[n-1].Parts = append(out[n-1].Parts, p)
	} else {
		out = append(out, content{Parts: []part{p}, Role: "user"})
	}
	if len(images) > 0 && !inside {
		out = append(out, content{Parts: append([]part{textPart(resultImageTitle)}, images...), Role: "user"})
	}
	return out
}

func hasFunctionResponse(parts []part) bool {
	for _, p := range parts {
		if p.FunctionResponse != nil {
			return true
		}
	}
	return false
}

func imagePart(img agentcore.ImageBlock) part {
	return part{InlineData: &blob{MimeType: img.MimeType, Data: img.Data}}
}
