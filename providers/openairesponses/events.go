package openairesponses

import (
	"encoding/json"
	"errors"
	"math"

	"github.com/pi-go/agentcore/internal/jsondec"
	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/provider"
)

// event is the data of one server-sent event of a streamed response. One
// struct holds the fields of every event type; Type says which are set.
type event struct {
	Type string `json:"type"`
	// OutputIndex is NaN when absent (see decodeEvent); key is its key.
	OutputIndex float64 `json:"output_index"`
	key         slotKey
	Item        *item `json:"item"`
	// Delta is "" when absent or not a string.
	Delta     string          `json:"delta"`
	Arguments *string         `json:"arguments"`
	Response  *response       `json:"response"`
	Code      json.RawMessage `json:"code"`
	Message   json.RawMessage `json:"message"`
	Error     json.RawMessage `json:"error"`
}

// item is an output item: a reasoning item, a message, a function call,
// or another type this package does not show.
type item struct {
	Type      string  `json:"type"`
	ID        *string `json:"id"`
	CallID    *string `json:"call_id"`
	Name      string  `json:"name"`
	Arguments string  `json:"arguments"`
	Namespace *string `json:"namespace"`
	Phase     string  `json:"phase"`
	// Summary and Content are the texts of a reasoning item; Content the
	// parts of a message.
	Summary          []itemPart      `json:"summary"`
	Content          []itemPart      `json:"content"`
	EncryptedContent json.RawMessage `json:"encrypted_content"`
}

// itemPart is a summary or content part: its text, or a refusal.
type itemPart struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
}

// response is the response object of response.created,
// response.completed, response.incomplete and response.failed.
type response struct {
	ID                string             `json:"id"`
	Status            string             `json:"status"`
	ServiceTier       string             `json:"service_tier"`
	IncompleteDetails *incompleteDetails `json:"incomplete_details"`
	Error             *responseError     `json:"error"`
	Usage             *usageJSON         `json:"usage"`
	// Output and InputTransformations are valid only while the event is
	// applied.
	Output               lazyRaw `json:"output"`
	InputTransformations lazyRaw `json:"input_transformations"`
}

type incompleteDetails struct {
	Reason string `json:"reason"`
}

type responseError struct {
	Code    json.RawMessage `json:"code"`
	Message json.RawMessage `json:"message"`
}

type usageJSON struct {
	InputTokens        provider.Number `json:"input_tokens"`
	OutputTokens       provider.Number `json:"output_tokens"`
	TotalTokens        provider.Number `json:"total_tokens"`
	InputTokensDetails struct {
		CachedTokens     provider.Number `json:"cached_tokens"`
		CacheWriteTokens provider.Number `json:"cache_write_tokens"`
	} `json:"input_tokens_details"`
	OutputTokensDetails struct {
		ReasoningTokens provider.Number `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
}

// lazyRaw is a JSON value kept as the decoder's input holds it, not
// copied: it is valid only as long as that input.
type lazyRaw []byte

// UnmarshalJSON keeps data.
func (l *lazyRaw) UnmarshalJSON(data []byte) error {
	*l = data
	return nil
}

// decodeEvent decodes data, which is valid JSON, into e with dec as
// [decodeLoosely] does, and sets e's slot key from its output_index. It
// reports whether data is a JSON object.
func decodeEvent(dec *jsondec.Decoder, data []byte, e *event) bool {
	e.OutputIndex = math.NaN() // JSON has no NaN: it stays when absent
	err := dec.Decode(data, e)
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return false
		}
		// A field of another type, maybe output_index: read it as it is.
		var raw struct {
			OutputIndex json.RawMessage `json:"output_index"`
		}
		json.Unmarshal(data, &raw)
		e.key = keyOf(raw.OutputIndex)
		return true
	case err != nil || len(data) == 0 || data[0] != '{':
		return false
	case e.OutputIndex != e.OutputIndex:
		e.key = slotKey{n: -1}
	case e.OutputIndex >= 0 && e.OutputIndex < 1e15 && e.OutputIndex == math.Trunc(e.OutputIndex):
		e.key = slotKey{n: int(e.OutputIndex)}
	default:
		e.key = slotKey{n: -1, s: jsonv.FormatNumber(e.OutputIndex)}
	}
	return true
}

// decodeLoosely decodes data, which is valid JSON, into v as JavaScript
// reads fields: a field whose JSON type differs from the Go one is left
// unset rather than losing the rest. It reports whether data is a JSON
// object (anything else sets nothing).
func decodeLoosely(data []byte, v any) bool {
	err := json.Unmarshal(data, v)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return typeErr.Field != "" // a mismatch inside the object, not the object itself
	}
	return err == nil && len(data) > 0 && data[0] == '{'
}

// slotKey is an output_index as a key of the open output items, so
// that keys compare as pi-ai's map keys do: an integer as itself, any
// other value as its JSON (numbers in JavaScript's form), absent as "".
type slotKey struct {
	n int    // the integer, or -1
	s string // the value's JSON when it is no integer
}

// keyOf returns the key of an output_index.
func keyOf(raw json.RawMessage) slotKey {
	if n, ok := smallInt(raw); ok {
		return slotKey{n: n}
	}
	if len(raw) == 0 {
		return slotKey{n: -1}
	}
	v, err := jsonv.Parse(raw)
	switch {
	case err != nil:
		return slotKey{n: -1, s: string(raw)}
	case v.Kind() == jsonv.Number:
		if f := v.Num(); f >= 0 && f < 1e15 && f == float64(int(f)) {
			return slotKey{n: int(f)}
		}
		return slotKey{n: -1, s: jsonv.FormatNumber(v.Num())}
	}
	return slotKey{n: -1, s: "json:" + v.JSON()}
}

// smallInt reads raw as a non-negative integer of up to 15 digits
// without a leading zero.
func smallInt(raw []byte) (int, bool) {
	if len(raw) == 0 || len(raw) > 15 || raw[0] == '0' && len(raw) > 1 {
		return 0, false
	}
	n := 0
	for _, c := range raw {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
