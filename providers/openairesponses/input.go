package openairesponses

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/transform"
)

// inputItem is one entry of the request's "input": one of the item
// structs below, each written with its fields in pi-ai's order.
type inputItem interface{ inputItem() }

// instructions is a system message, as role "developer" or "system".
type instructions struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// userInput is a user message.
type userInput struct {
	Role    string         `json:"role"`
	Content []inputContent `json:"content"`
}

// inputContent is a part of a user message or of a tool's output:
// [inputText] or [inputImage].
type inputContent interface{ inputContent() }

type inputText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type inputImage struct {
	Type     string `json:"type"`
	Detail   string `json:"detail"`
	ImageURL string `json:"image_url"`
}

// outputMessage is an assistant text block replayed as a message item.
type outputMessage struct {
	Type    string       `json:"type"`
	Role    string       `json:"role"`
	Content []outputText `json:"content"`
	Status  string       `json:"status"`
	ID      string       `json:"id"`
	Phase   string       `json:"phase,omitempty"`
}

type outputText struct {
	Type        string     `json:"type"`
	Text        string     `json:"text"`
	Annotations []struct{} `json:"annotations"`
}

// functionCall is an assistant tool call replayed.
type functionCall struct {
	Type      string `json:"type"`
	ID        string `json:"id,omitempty"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Namespace string `json:"namespace,omitempty"`
}

// functionCallOutput is a tool result: Output is a string, or
// []inputContent when it carries images.
type functionCallOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output any    `json:"output"`
}

// storedItem is an output item replayed as the server sent it: a
// reasoning item kept in a thinking block's signature.
type storedItem json.RawMessage

// MarshalJSON writes the item as it is stored.
func (s storedItem) MarshalJSON() ([]byte, error) { return s, nil }

func (instructions) inputItem()       {}
func (userInput) inputItem()          {}
func (outputMessage) inputItem()      {}
func (functionCall) inputItem()       {}
func (functionCallOutput) inputItem() {}
func (storedItem) inputItem()         {}
func (inputText) inputContent()       {}
func (inputImage) inputContent()      {}

// The texts pi-ai sends for a tool result without text.
const (
	imageOnlyResult = "(see attached image)"
	emptyResult     = "(no tool output)"
)

// maxItemID is OpenAI's limit on an item ID, in characters.
const maxItemID = 64

// toolCallProviders are the providers whose tool-call IDs carry the
// Responses item ID ("call|item"), kept when replayed.
var toolCallProviders = map[string]bool{"openai": true, "openai-codex": true, "opencode": true}

// errBadThinkingSignature fails a request whose transcript has a thinking
// block of this model with a signature that is no reasoning item.
var errBadThinkingSignature = errors.New("thinking signature is not a JSON reasoning item")

// convertMessages maps a transcript (system messages collapsed or not)
// onto input items, as pi-ai's convertResponsesMessages does after
// preparing it for replay (see [transform.PrepareFrom]): system messages as
// instructions, user text and images, assistant text as message items
// (their IDs from the text signature, else made up from the message's
// position), thinking of this model as the reasoning item of its
// signature, tool calls as function calls and tool results as their
// outputs. Messages of other roles are skipped.
func convertMessages(model agentcore.Model, messages []agentcore.Message, s settings) ([]inputItem, error) {
	role := "system"
	if model.Reasoning && s.developerRole {
		role = "developer"
	}
	images := false
	for _, in := range model.Input {
		images = images || in == "image"
	}
	prepared := transform.PrepareFrom(model, messages, func(id string, from *agentcore.AssistantMessage) string {
		return normalizeToolCallID(model, id, from)
	})
	out := make([]inputItem, 0, len(prepared))
	index := 0 // the message's position, less a leading system message
	for i, m := range prepared {
		items, counted, err := convertMessage(model, m, i == 0, index, role, images)
		if err != nil {
			return nil, err
		}
		out = append(out, items...)
		if counted {
			index++
		}
	}
	return out, nil
}

// convertMessage maps one message, at index (its position, less a
// leading system message) and first when it is the transcript's first.
// counted says whether it takes a position: all but a leading system
// message and those that map to no item.
func convertMessage(model agentcore.Model, m agentcore.Message, first bool, index int, role string, images bool) (items []inputItem, counted bool, err error) {
	switch m := m.(type) {
	case *agentcore.SystemMessage:
		text := transform.RenderSystemUpdate(m)
		if first {
			text = agentcore.SystemPromptText(m)
		}
		if text != "" {
			items = []inputItem{instructions{Role: role, Content: text}}
		}
		return items, !first, nil
	case *agentcore.UserMessage:
		item, ok := convertUser(m)
		if !ok {
			return nil, false, nil
		}
		return []inputItem{item}, true, nil
	case *agentcore.AssistantMessage:
		items, err := convertAssistant(model, m, index)
		return items, len(items) > 0, err
	case *agentcore.ToolResultMessage:
		callID, _, _ := strings.Cut(m.ToolCallID, "|")
		return []inputItem{functionCallOutput{Type: "function_call_output", CallID: callID, Output: toolOutput(m.Content, images)}}, true, nil
	}
	return nil, true, nil
}

// convertUser maps a user message: plain text as one input text, blocks
// as input texts and images (no item when there are none).
func convertUser(m *agentcore.UserMessage) (inputItem, bool) {
	if m.Content.Plain {
		return userInput{Role: "user", Content: []inputContent{inputText{Type: "input_text", Text: m.Content.Text()}}}, true
	}
	var parts []inputContent
	for _, b := range m.Content.Blocks {
		switch b := b.(type) {
		case agentcore.TextBlock:
			parts = append(parts, inputText{Type: "input_text", Text: b.Text})
		case agentcore.ImageBlock:
			parts = append(parts, image(b))
		}
	}
	if len(parts) == 0 {
		return nil, false
	}
	return userInput{Role: "user", Content: parts}, true
}

func image(b agentcore.ImageBlock) inputImage {
	return inputImage{Type: "input_image", Detail: "auto", ImageURL: "data:" + b.MimeType + ";base64," + b.Data}
}

// convertAssistant maps an assistant message at position index onto its
// items, in content order: the stored reasoning item of each signed
// thinking block, a message item per text block, a function call per
// tool call.
func convertAssistant(model agentcore.Model, m *agentcore.AssistantMessage, index int) ([]inputItem, error) {
	sameAPI := m.Provider == model.Provider && m.API == model.API
	sameModel := sameAPI && m.Model == model.ID
	var out []inputItem
	texts := 0
	for _, b := range m.Content {
		switch b := b.(type) {
		case agentcore.ThinkingBlock:
			if b.ThinkingSignature == "" {
				continue
			}
			item, err := jsonv.Stringify([]byte(b.ThinkingSignature), "")
			if err != nil {
				return nil, errBadThinkingSignature
			}
			out = append(out, storedItem(item))
		case agentcore.TextBlock:
			out = append(out, textItem(b, sameModel, index, texts))
			texts++
		case agentcore.ToolCall:
			callID, itemID, _ := strings.Cut(b.ID, "|")
			itemID, _, _ = strings.Cut(itemID, "|")
			if sameAPI && !sameModel || !strings.HasPrefix(itemID, "fc_") {
				itemID = ""
			}
			call := functionCall{Type: "function_call", ID: itemID, CallID: callID, Name: b.Name, Arguments: argumentsText(b.Arguments)}
			if sameModel {
				call.Namespace = b.Namespace
			}
			out = append(out, call)
		}
	}
	return out, nil
}

// textItem is the message item of the texts-th text block of the message
// at index: its ID and phase from its signature when it is this model's,
// else an ID made up from the positions, as pi-ai makes it.
func textItem(b agentcore.TextBlock, sameModel bool, index, texts int) outputMessage {
	signature := ""
	if sameModel {
		signature = b.TextSignature
	}
	id, phase := parseTextSignature(signature)
	switch {
	case id == "" && texts == 0:
		id = "msg_pi_" + strconv.Itoa(index)
	case id == "":
		id = "msg_pi_" + strconv.Itoa(index) + "_" + strconv.Itoa(texts)
	case jsLength(id) > maxItemID:
		id = "msg_" + transform.ShortHash(id)
	}
	return outputMessage{
		Type: "message", Role: "assistant", Status: "completed", ID: id, Phase: phase,
		Content: []outputText{{Type: "output_text", Text: b.Text, Annotations: []struct{}{}}},
	}
}

// argumentsText is the arguments as JSON.stringify writes them.
func argumentsText(args json.RawMessage) string {
	if len(args) == 0 {
		return "{}"
	}
	if s, err := jsonv.Stringify(args, ""); err == nil {
		return s
	}
	return string(args)
}

// textSignature is the signature pi-ai gives a text block: the item's ID
// and its phase, when it has one.
type textSignature struct {
	V     int     `json:"v"`
	ID    *string `json:"id,omitempty"` // "" is kept, as JSON.stringify keeps it
	Phase string  `json:"phase,omitempty"`
}

// parseTextSignature reads a text block's signature: the ID and phase
// (commentary or final_answer) of pi-ai's JSON form, else the whole
// signature as the ID.
func parseTextSignature(sig string) (id, phase string) {
	if strings.HasPrefix(sig, "{") {
		var v struct {
			V     json.RawMessage `json:"v"`
			ID    *string         `json:"id"`
			Phase json.RawMessage `json:"phase"`
		}
		if json.Unmarshal([]byte(sig), &v) == nil && string(v.V) == "1" && v.ID != nil {
			switch string(v.Phase) {
			case `"commentary"`, `"final_answer"`:
				phase = strings.Trim(string(v.Phase), `"`)
			}
			return *v.ID, phase
		}
	}
	return sig, ""
}

// toolOutput is a tool result's output: its text (or a placeholder) as a
// string, or, when it has images the model takes, its text and images as
// parts.
func toolOutput(content []agentcore.ContentBlock, images bool) any {
	var texts []string
	var imgs []inputContent
	for _, b := range content {
		switch b := b.(type) {
		case agentcore.TextBlock:
			texts = append(texts, b.Text)
		case agentcore.ImageBlock:
			imgs = append(imgs, image(b))
		}
	}
	text := strings.Join(texts, "\n")
	hasText := strings.TrimSpace(text) != ""
	if len(imgs) == 0 || !images {
		switch {
		case hasText:
			return text
		case len(imgs) > 0:
			return imageOnlyResult
		}
		return emptyResult
	}
	var parts []inputContent
	if hasText {
		parts = append(parts, inputText{Type: "input_text", Text: text})
	}
	return append(parts, imgs...)
}

// normalizeToolCallID returns the ID of a tool call from another model in
// a form the Responses API accepts, as pi-ai does: for OpenAI's own
// providers a "call|item" ID keeps its call part and an item ID starting
// with "fc_" (a hash of it when the call came from another provider or
// API); any other ID has its unsafe characters replaced and is cut to 64
// characters.
func normalizeToolCallID(model agentcore.Model, id string, from *agentcore.AssistantMessage) string {
	if !toolCallProviders[model.Provider] || !strings.Contains(id, "|") {
		return idPart(id)
	}
	parts := strings.Split(id, "|")
	callID, itemID := idPart(parts[0]), parts[1]
	if from.Provider != model.Provider || from.API != model.API {
		itemID = "fc_" + transform.ShortHash(itemID)
		itemID = itemID[:min(len(itemID), maxItemID)]
	} else {
		itemID = idPart(itemID)
	}
	if !strings.HasPrefix(itemID, "fc_") {
		itemID = idPart("fc_" + itemID)
	}
	return callID + "|" + itemID
}

// idPart makes s a safe ID: characters other than ASCII letters, digits,
// '_' and '-' replaced by '_', cut to 64, trailing underscores dropped.
func idPart(s string) string {
	s = transform.SanitizeID(s)
	return strings.TrimRight(s[:min(len(s), maxItemID)], "_")
}

// jsLength is the length of s in UTF-16 code units, as JavaScript counts.
func jsLength(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
