package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// OpenAIRefusal reads a refusal's body as the OpenAI SDK does. msg is what
// the SDK's error says after the status ([OpenAIMessage] of the body's
// error), "" when nothing; errObject is the error's JSON when the error is
// a non-empty object (pi-ai reports it when msg does not show it), cut
// to [MaxErrorData] characters:
//
//	{"error": {"message": "bad", ...}}  ->  "bad", `{"message":"bad",...}`
//	{"error": {"code": 5}}             ->  `{"code":5}`, `{"code":5}`
//	{"error": "slow down"}             ->  `"slow down"`, ""
//	{"detail": "Not Found"}            ->  `{"detail":"Not Found"}`, `{"detail":"Not Found"}`
//	Bad Gateway                        ->  "Bad Gateway", ""
//	an empty body                      ->  "", ""
func OpenAIRefusal(body []byte) (msg, errObject string) {
	trimmed := bytes.TrimSpace(body)
	switch {
	case !json.Valid(trimmed):
		return string(body), ""
	case trimmed[0] == '{' || trimmed[0] == '[':
		errValue := json.RawMessage(trimmed)
		var members map[string]json.RawMessage
		if json.Unmarshal(trimmed, &members) == nil {
			if e, ok := members["error"]; ok && string(e) != "null" {
				errValue = e
			}
		}
		if isNonEmptyObject(errValue) {
			errObject = Truncate(CompactJSON(errValue), MaxErrorData)
		}
		return OpenAIMessage(errValue), errObject
	case Truthy(trimmed):
		return "", "" // a JSON number, string or true: no error to show
	}
	return string(body), "" // 0, false, null, "": the SDK shows the text
}

// OpenAIStatusText is a refusal as the OpenAI SDK's APIError words it:
// the status and msg of [OpenAIRefusal], or "STATUS status code (no
// body)".
func OpenAIStatusText(status int, msg string) string {
	if msg == "" {
		return fmt.Sprintf("%d status code (no body)", status)
	}
	return fmt.Sprintf("%d %s", status, msg)
}

// OpenAIMessage is an error value as the OpenAI SDK's APIError words it,
// without a status: the value's message when it is an object with a
// truthy message (the message's JSON unless it is a string), else the
// value's JSON; "" for a falsy value (null, false, 0, "").
func OpenAIMessage(errValue json.RawMessage) string {
	if !Truthy(errValue) {
		return ""
	}
	var withMessage struct {
		Message json.RawMessage `json:"message"`
	}
	if isNonEmptyObject(errValue) && json.Unmarshal(errValue, &withMessage) == nil && Truthy(withMessage.Message) {
		var s string
		if json.Unmarshal(withMessage.Message, &s) == nil {
			return s
		}
		return CompactJSON(withMessage.Message)
	}
	return CompactJSON(errValue)
}

// Truthy reports whether a JSON value is present and not null, false, 0 or
// "", as JavaScript would test it.
func Truthy(v json.RawMessage) bool {
	s := string(bytes.TrimSpace(v))
	switch s {
	case "", "null", "false", `""`:
		return false
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return n != 0
	}
	return true
}

func isNonEmptyObject(v json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(v, &m) == nil && len(m) > 0
}

// CompactJSON returns v without insignificant space, or v itself when it
// is not valid JSON.
func CompactJSON(v []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return string(v)
	}
	return buf.String()
}
