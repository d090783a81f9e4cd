package openai

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/replay"
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
		callID, itemID = replay.SanitizeID(callID), replay.SanitizeID(itemID)
		combined := callID
		if itemID != "" {
			combined += "_" + itemID
		}
		if len(combined) <= maxToolCallID {
			return combined
		}
		hash := shortHash(id)[:8]
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

// shortHash is pi-ai's 53-bit string hash (cyrb53 over UTF-16 code units)
// in base 36, so that shortened IDs match the ones pi computes.
func shortHash(s string) string {
	h1, h2 := uint32(0xdeadbeef), uint32(0x41c6ce57)
	for _, ch := range utf16.Encode([]rune(s)) {
		h1 = (h1 ^ uint32(ch)) * 2654435761
		h2 = (h2 ^ uint32(ch)) * 1597334677
	}
	h1 = (h1^(h1>>16))*2246822507 ^ (h2^(h2>>13))*3266489909
	h2 = (h2^(h2>>16))*2246822507 ^ (h1^(h1>>13))*3266489909
	return strconv.FormatUint(uint64(h2), 36) + strconv.FormatUint(uint64(h1), 36)
}
