package agentcore

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/pi-go/agentcore/internal/jsonscan"
)

// The messages' decoders first read their input in one pass with a
// jsonscan.Scanner, which takes the shapes pi and this package write;
// input it does not take (a null, a key differing only in case, a
// repeated key, invalid UTF-8, a value of the wrong kind, a syntax error)
// is decoded again by the encoding/json path after it, whose value or
// error is the answer. Both give the same value for any input both take.

var scanners = sync.Pool{New: func() any { return new(jsonscan.Scanner) }}

// scan runs read over data with a pooled scanner and reports whether it
// read the whole input.
func scan(data []byte, read func(s *jsonscan.Scanner) bool) bool {
	s := scanners.Get().(*jsonscan.Scanner)
	s.Reset(data)
	ok := read(s) && !s.Failed() && s.End()
	s.Reset(nil)
	scanners.Put(s)
	return ok
}

// fields is the set of known keys an object has shown, to refuse a
// repeated one (encoding/json would merge or overwrite).
type fields uint32

// once adds f to *seen and reports whether it was new; a field read
// twice fails s.
func once(s *jsonscan.Scanner, seen *fields, f fields) bool {
	if *seen&f != 0 || s.Peek() == 'n' { // a repeat, or a null: the slow path's
		s.Fail()
		return false
	}
	*seen |= f
	return true
}

// unknown skips the value of a key no field has, failing s when the key
// matches one of known but for case (encoding/json would take it).
func unknown(s *jsonscan.Scanner, key []byte, known []string) {
	for _, k := range known {
		// A key folds to an ASCII one with as many bytes, or more (the
		// Kelvin sign is three).
		if len(key) >= len(k) && len(key) <= 3*len(k) && strings.EqualFold(string(key), k) {
			s.Fail()
			return
		}
	}
	s.Skip()
}

// scanMessage decodes one message of a built-in role other than system,
// whose "role" comes first: the messages of a conversation.
func scanMessage(data []byte) (Message, bool) {
	var m Message
	ok := scan(data, func(s *jsonscan.Scanner) bool {
		if !s.Object() {
			return false
		}
		key, ok := s.Key(true)
		if !ok || string(key) != "role" || s.Peek() != '"' {
			return false
		}
		switch s.String() {
		case "user":
			u := new(UserMessage)
			m = u
			return u.scan(s, false, fieldRole)
		case "assistant":
			a := new(AssistantMessage)
			m = a
			return a.scan(s, false, fieldRole)
		case "toolResult":
			r := new(ToolResultMessage)
			m = r
			return r.scan(s, false, fieldRole)
		}
		return false
	})
	return m, ok
}

// scanMessages decodes an array of objects in one pass over it, each
// object with UnmarshalMessage; it reports false for any other input or a
// message that fails, which UnmarshalMessages then decodes again to say
// why.
func (r *MessageRegistry) scanMessages(data []byte) ([]Message, bool) {
	var out []Message
	ok := scan(data, func(s *jsonscan.Scanner) bool {
		if !s.Array() {
			return false
		}
		out = []Message{}
		for first := true; s.More(first); first = false {
			if s.Peek() != '{' {
				return false
			}
			m, err := r.UnmarshalMessage(s.Span())
			if err != nil || s.Failed() {
				return false
			}
			out = append(out, m)
		}
		return true
	})
	return out, ok
}

// fieldRole is the "role" key of every message.
const fieldRole fields = 1 << 31

var userKeys = []string{"role", "content", "timestamp"}

// scan reads the members of a user message's object into m, from the
// first when first is true; seen holds fieldRole when the role was read.
func (m *UserMessage) scan(s *jsonscan.Scanner, first bool, seen fields) bool {
	content := Content{Plain: true}
	for ; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			break
		}
		switch string(key) {
		case "role":
			scanRole(s, seen)
		case "content":
			if once(s, &seen, 1) {
				content = scanContent(s, textOrImage)
			}
		case "timestamp":
			if once(s, &seen, 2) {
				m.Timestamp = s.Int()
			}
		default:
			unknown(s, key, userKeys)
		}
		if s.Failed() {
			return false
		}
	}
	m.Content = content
	return !s.Failed()
}

// scanRole skips a role key, failing s when the role was read already.
func scanRole(s *jsonscan.Scanner, seen fields) {
	if seen&fieldRole != 0 {
		s.Fail()
		return
	}
	s.Skip()
}

var assistantKeys = []string{"role", "content", "api", "provider", "model", "responseModel", "responseId",
	"providerThinkingLevel", "thinkingLevel", "diagnostics", "usage", "stopReason", "deferred", "errorMessage",
	"rawStopReason", "endTurn", "timestamp", "durationMs"}

// scan reads the members of an assistant message's object into m; see
// [UserMessage.scan].
func (m *AssistantMessage) scan(s *jsonscan.Scanner, first bool, seen fields) bool {
	m.Content = []ContentBlock{}
	optional := func(v *string, stated statedZeros) {
		*v = s.String()
		if *v == "" {
			m.stated |= stated
		}
	}
	for ; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			break
		}
		switch k := string(key); k {
		case "role":
			scanRole(s, seen)
		case "content":
			if once(s, &seen, 1<<0) {
				m.Content = scanBlocks(s, assistantBlock)
			}
		case "api":
			if once(s, &seen, 1<<1) {
				m.API = s.String()
			}
		case "provider":
			if once(s, &seen, 1<<2) {
				m.Provider = s.String()
			}
		case "model":
			if once(s, &seen, 1<<3) {
				m.Model = s.String()
			}
		case "responseModel":
			if once(s, &seen, 1<<4) {
				optional(&m.ResponseModel, statedResponseModel)
			}
		case "responseId":
			if once(s, &seen, 1<<5) {
				optional(&m.ResponseID, statedResponseID)
			}
		case "providerThinkingLevel":
			if once(s, &seen, 1<<6) {
				optional(&m.ProviderThinkingLevel, statedProviderThinkingLevel)
			}
		case "thinkingLevel":
			if once(s, &seen, 1<<7) {
				var l string
				optional(&l, statedThinkingLevel)
				m.ThinkingLevel = ThinkingLevel(l)
			}
		case "diagnostics":
			if once(s, &seen, 1<<8) {
				m.Diagnostics = cloneRaw(s.Raw())
			}
		case "usage":
			if once(s, &seen, 1<<9) {
				m.Usage.scan(s)
			}
		case "stopReason":
			if once(s, &seen, 1<<10) {
				m.StopReason = StopReason(s.String())
			}
		case "deferred":
			if once(s, &seen, 1<<11) {
				m.Deferred = cloneRaw(s.Raw())
			}
		case "errorMessage":
			if once(s, &seen, 1<<12) {
				optional(&m.ErrorMessage, statedErrorMessage)
			}
		case "rawStopReason":
			if once(s, &seen, 1<<13) {
				optional(&m.RawStopReason, statedRawStopReason)
			}
		case "endTurn":
			if once(s, &seen, 1<<14) {
				m.EndTurn = new(s.Bool())
			}
		case "timestamp":
			if once(s, &seen, 1<<15) {
				m.Timestamp = s.Int()
			}
		case "durationMs":
			if once(s, &seen, 1<<16) {
				m.DurationMs = new(s.Int())
			}
		default:
			unknown(s, key, assistantKeys)
		}
		if s.Failed() {
			return false
		}
	}
	return !s.Failed()
}

var toolResultKeys = []string{"role", "toolCallId", "toolName", "content", "details", "usage", "nestedCalls",
	"isError", "timestamp", "durationMs"}

// scan reads the members of a tool result message's object into m; see
// [UserMessage.scan].
func (m *ToolResultMessage) scan(s *jsonscan.Scanner, first bool, seen fields) bool {
	m.Content = []ContentBlock{}
	for ; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			break
		}
		switch string(key) {
		case "role":
			scanRole(s, seen)
		case "toolCallId":
			if once(s, &seen, 1<<0) {
				m.ToolCallID = s.String()
			}
		case "toolName":
			if once(s, &seen, 1<<1) {
				m.ToolName = s.String()
			}
		case "content":
			if once(s, &seen, 1<<2) {
				m.Content = scanBlocks(s, textOrImage)
			}
		case "details":
			if once(s, &seen, 1<<3) {
				m.Details = cloneRaw(s.Raw())
			}
		case "usage":
			if once(s, &seen, 1<<4) {
				m.Usage = new(Usage)
				m.Usage.scan(s)
			}
		case "nestedCalls":
			if once(s, &seen, 1<<5) {
				m.NestedCalls = cloneRaw(s.Raw())
			}
		case "isError":
			if once(s, &seen, 1<<6) {
				m.IsError = s.Bool()
			}
		case "timestamp":
			if once(s, &seen, 1<<7) {
				m.Timestamp = s.Int()
			}
		case "durationMs":
			if once(s, &seen, 1<<8) {
				m.DurationMs = new(s.Int())
			}
		default:
			unknown(s, key, toolResultKeys)
		}
		if s.Failed() {
			return false
		}
	}
	return !s.Failed()
}

// cloneRaw copies a raw value out of the input.
func cloneRaw(raw []byte) json.RawMessage {
	if raw == nil {
		return nil
	}
	return append(json.RawMessage(nil), raw...)
}

// scanContent reads a string or a list of blocks, each allowed.
func scanContent(s *jsonscan.Scanner, allowed func(ContentBlock) bool) Content {
	if s.Peek() == '"' {
		return Text(s.String())
	}
	return Content{Blocks: scanBlocks(s, allowed)}
}

// scanBlocks reads a list of blocks, each allowed.
func scanBlocks(s *jsonscan.Scanner, allowed func(ContentBlock) bool) []ContentBlock {
	if !s.Array() {
		return nil
	}
	blocks := make([]ContentBlock, 0, 4)
	for first := true; s.More(first); first = false {
		b := scanBlock(s)
		if s.Failed() || !allowed(b) {
			s.Fail()
			return nil
		}
		blocks = append(blocks, b)
	}
	return slices.Clip(blocks)
}

var blockKeys = []string{"type", "text", "textSignature", "thinking", "thinkingSignature", "redacted", "data",
	"mimeType", "id", "name", "arguments", "thoughtSignature", "namespace", "argumentsError"}

// The keys of the blocks, in the fields of scanBlock.
const (
	keyType fields = 1 << iota
	keyText
	keyTextSignature
	keyThinking
	keyThinkingSignature
	keyRedacted
	keyData
	keyMimeType
	keyID
	keyName
	keyArguments
	keyThoughtSignature
	keyNamespace
	keyArgumentsError
)

// scanBlock reads one block: the members of every kind are read, and
// those of the block's type kept.
func scanBlock(s *jsonscan.Scanner) ContentBlock {
	s.Peek()
	begin := s.Pos()
	if !s.Object() {
		return nil
	}
	var (
		seen                                 fields
		typ, text, sig, thinking, data, mime string
		id, name, thoughtSig, ns, argsErr    string
		redacted                             bool
		args                                 []byte
	)
	str := func(v *string, f fields) {
		if once(s, &seen, f) {
			*v = s.String()
		}
	}
	for first := true; ; first = false {
		key, ok := s.Key(first)
		if !ok {
			break
		}
		switch string(key) {
		case "type":
			str(&typ, keyType)
		case "text":
			str(&text, keyText)
		case "textSignature":
			str(&sig, keyTextSignature)
		case "thinking":
			str(&thinking, keyThinking)
		case "thinkingSignature":
			str(&sig, keyThinkingSignature)
		case "redacted":
			if once(s, &seen, keyRedacted) {
				redacted = s.Bool()
			}
		case "data":
			str(&data, keyData)
		case "mimeType":
			str(&mime, keyMimeType)
		case "id":
			str(&id, keyID)
		case "name":
			str(&name, keyName)
		case "arguments":
			if once(s, &seen, keyArguments) {
				args = s.Raw()
			}
		case "thoughtSignature":
			str(&thoughtSig, keyThoughtSignature)
		case "namespace":
			str(&ns, keyNamespace)
		case "argumentsError":
			str(&argsErr, keyArgumentsError)
		default:
			unknown(s, key, blockKeys)
		}
		if s.Failed() {
			return nil
		}
	}
	stated := func(f fields, v string, z statedZeros) statedZeros {
		if seen&f != 0 && v == "" {
			return z
		}
		return 0
	}
	switch typ {
	case "text":
		if seen&keyThinkingSignature != 0 { // sig holds the other kind's
			s.Fail()
			return nil
		}
		return TextBlock{Text: text, TextSignature: sig, stated: stated(keyTextSignature, sig, statedSignature)}
	case "thinking":
		if seen&keyTextSignature != 0 {
			s.Fail()
			return nil
		}
		b := ThinkingBlock{Thinking: thinking, ThinkingSignature: sig, Redacted: redacted,
			stated: stated(keyThinkingSignature, sig, statedSignature)}
		if seen&keyRedacted != 0 && !redacted {
			b.stated |= statedRedacted
		}
		return b
	case "image":
		return ImageBlock{Data: data, MimeType: mime}
	case "toolCall":
		if args != nil && args[0] != '{' {
			s.Fail()
			return nil
		}
		return ToolCall{ID: id, Name: name, Arguments: cloneRaw(args), ThoughtSignature: thoughtSig, Namespace: ns,
			ArgumentsError: argsErr, stated: stated(keyThoughtSignature, thoughtSig, statedSignature) |
				stated(keyNamespace, ns, statedNamespace) | stated(keyArgumentsError, argsErr, statedArgumentsError)}
	case "":
		s.Fail()
		return nil
	}
	return UnknownBlock{Type: typ, Raw: bytes.Clone(s.Data()[begin:s.Pos()])}
}
