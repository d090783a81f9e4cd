package openai

import (
	"strings"
	"unicode/utf16"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/transform"
)

// maxToolCallID is OpenAI's limit on a tool call ID, in characters.
const maxToolCallID = 40

// normalizeToolCallID returns a tool-call ID from another model in a form
// Chat Completions accepts, as pi-ai does: an ID of the Responses API
// ("call|item", often hundreds of characters) becomes "call_item" with
// unsafe characters replaced, or, when that is too long, the call part
// and a short hash of the whole ID; for the "openai" provider a long ID is
// cut to 40 characters.
func normalizeToolCallID(model agentcore.Model, id string) string {
	if callID, itemID, ok := strings.Cut(id, "|"); ok {
		callID, itemID = transform.SanitizeID(callID), transform.SanitizeID(itemID)
		combined := callID
		if itemID != "" {
			combined += "_" + itemID
		}
		if len(combined) <= maxToolCallID {
			return combined
		}
		hash := transform.ShortHash(id)[:8]
		prefix := callID[:min(len(callID), max(1, maxToolCallID-len(hash)-1))]
		return prefix + "_" + hash
	}
	if model.Provider == "openai" {
		if units := utf16.Encode([]rune(id)); len(units) > maxToolCallID {
			return string(utf16.Decode(units[:maxToolCallID]))
		}
	}
	return id
}
