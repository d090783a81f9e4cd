package provider

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/pi-go/agentcore/internal/jsvalue"
	"github.com/pi-go/agentcore/internal/limit"
)

// OpenAIRefusal reads a refusal's body as the OpenAI SDK does. msg is what
// the SDK's error says after the status ([OpenAIMessage] of the body's
// error), "" when nothing; errObject is the error's JSON when the error is
// a non-empty object (pi-ai reports it when msg does not show it), cut
// to [limit.MaxErrorData] characters:
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
			errObject = limit.Truncate(jsvalue.CompactJSON(errValue), limit.MaxErrorData)
		}
		return OpenAIMessage(errValue), errObject
	case jsvalue.Truthy(trimmed):
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
	if !jsvalue.Truthy(errValue) {
		return ""
	}
	var withMessage struct {
		Message json.RawMessage `json:"message"`
	}
	if isNonEmptyObject(errValue) && json.Unmarshal(errValue, &withMessage) == nil && jsvalue.Truthy(withMessage.Message) {
		var s string
		if json.Unmarshal(withMessage.Message, &s) == nil {
			return s
		}
		return jsvalue.CompactJSON(withMessage.Message)
	}
	return jsvalue.CompactJSON(errValue)
}

// OpenAIStreamError is the error text of an event of a stream as the
// OpenAI SDK throws it, "" when the event is no error: an event named
// "error" throws its data's error, else its data; any other event throws
// its data's error when that is truthy. errValue is the data's "error"
// member, empty when it has none. The text is the SDK's message of the
// error, without a status.
func OpenAIStreamError(name string, data, errValue json.RawMessage) string {
	switch {
	case name == "error" && len(errValue) > 0 && string(errValue) != "null":
	case name == "error":
		errValue = data
	case !jsvalue.Truthy(errValue):
		return ""
	}
	return cmp.Or(OpenAIMessage(errValue), "(no status code or body)")
}

func isNonEmptyObject(v json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(v, &m) == nil && len(m) > 0
}
