package openairesponses

import (
	"encoding/json"
	"errors"

	"github.com/pi-go/agentcore/internal/jsonv"
)

// event is the data of one server-sent event of a streamed response. One
// struct holds the fields of every event type; Type says which are set.
// Item and Response are decoded only by the events that use them.
type event struct {
	Type        string          `json:"type"`
	OutputIndex json.RawMessage `json:"output_index"`
	Item        json.RawMessage `json:"item"`
	Delta       *string         `json:"delta"`
	Arguments   *string         `json:"arguments"`
	Response    json.RawMessage `json:"response"`
	Code        json.RawMessage `json:"code"`
	Message     json.RawMessage `json:"message"`
	Error       json.RawMessage `json:"error"`
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
	Output            []json.RawMessage  `json:"output"`
}

type incompleteDetails struct {
	Reason string `json:"reason"`
}

type responseError struct {
	Code    json.RawMessage `json:"code"`
	Message json.RawMessage `json:"message"`
}

type usageJSON struct {
	InputTokens        float64 `json:"input_tokens"`
	OutputTokens       float64 `json:"output_tokens"`
	TotalTokens        float64 `json:"total_tokens"`
	InputTokensDetails struct {
		CachedTokens     float64 `json:"cached_tokens"`
		CacheWriteTokens float64 `json:"cache_write_tokens"`
	} `json:"input_tokens_details"`
	OutputTokensDetails struct {
		ReasoningTokens float64 `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
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

// slotKey is an output_index as a key of the open output items: a number
// in JavaScript's form, else the value's JSON ("" when absent), so that
// keys compare as pi-ai's map keys do.
func slotKey(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if isDigits(raw) && len(raw) < 16 && (raw[0] != '0' || len(raw) == 1) {
		return string(raw) // an integer, the usual index
	}
	v, err := jsonv.Parse(raw)
	if err != nil {
		return string(raw)
	}
	if v.Kind() == jsonv.Number {
		return jsonv.FormatNumber(v.Num())
	}
	return "json:" + v.JSON()
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
