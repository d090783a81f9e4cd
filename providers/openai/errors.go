package openai

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/pi-go/agentcore/internal/provider"
)

// The error texts of failures that have no server message, as pi-ai words
// them. A stream function reports them in the final message's ErrorMessage.
const (
	// AbortedBeforeResponseText is the error of a request aborted before
	// the server answered.
	AbortedBeforeResponseText = "Request aborted"
	// AbortedText is the error of a response aborted while it streamed.
	AbortedText = "Request was aborted"
	// NoFinishReasonText is the error of a stream that ended without a
	// finish_reason: the connection was cut or the server gave up.
	NoFinishReasonText = "Stream ended without finish_reason"
	// MalformedChunkText is the error of an event whose data is not JSON.
	MalformedChunkText = "Error reading response: malformed server-sent event JSON."
	// LineTooLongText is the error of a line of the event stream (or an
	// event's data) longer than 16 MiB: no chunk is that long, so the body
	// is no event stream.
	LineTooLongText = "Error reading response: server-sent event line too long."
)

// maxLine bounds one line of the event stream, and one event's data.
const maxLine = 16 << 20

// errorStopText is the error of a finish reason mapped to an error that
// carried no message of its own.
const errorStopText = "Provider returned an error stop reason"

// refusalTexts returns the texts of a non-2xx response: sdk, the error
// as the OpenAI SDK words it, and text, as pi-ai reports it. The SDK says
// the status and what the body's error says: the error's message, else
// the error's JSON (the body's JSON when it has no "error" member), else
// the body as it came when it is no JSON object or array:
//
//	{"error": {"message": "bad", ...}}  ->  "400 bad"
//	{"error": {"code": 5}}             ->  `400 {"code":5}`
//	{"error": "slow down"}             ->  `429 "slow down"`
//	{"detail": "Not Found"}            ->  `404 {"detail":"Not Found"}`
//	Bad Gateway                        ->  "502 Bad Gateway"
//	an empty body                      ->  "503 status code (no body)"
//
// pi-ai reports that text when it shows the error whole; else (an error
// object with a message) it reports the status and the error object's JSON,
// cut to 4000 characters: `400: {"message":"bad",...}`.
func refusalTexts(status int, body []byte) (text, sdk string) {
	msg, errObject := refusalError(body)
	sdk = fmt.Sprintf("%d status code (no body)", status)
	if msg != "" {
		sdk = fmt.Sprintf("%d %s", status, msg)
	}
	if errObject == "" {
		return sdk, sdk
	}
	errObject = provider.Truncate(errObject, provider.MaxErrorData)
	if strings.Contains(sdk, errObject) {
		return sdk, sdk
	}
	return fmt.Sprintf("%d: %s", status, errObject), sdk
}

// refusalError reads a refusal's body as the OpenAI SDK does. msg is what
// the body says ([sdkMessage] of its error), "" when nothing; errObject
// is the error's JSON when the error is a non-empty object.
func refusalError(body []byte) (msg, errObject string) {
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
			errObject = compactJSON(errValue)
		}
		return sdkMessage(errValue), errObject
	case truthy(trimmed):
		return "", "" // a JSON number, string or true: no error to show
	}
	return string(body), "" // 0, false, null, "": the SDK shows the text
}

// sdkMessage is an error value as the OpenAI SDK's APIError words it,
// without the status: the value's message when it is an object with a
// truthy message (the message's JSON unless it is a string), else the
// value's JSON; "" for a falsy value (null, false, 0, "").
func sdkMessage(errValue json.RawMessage) string {
	if !truthy(errValue) {
		return ""
	}
	var withMessage struct {
		Message json.RawMessage `json:"message"`
	}
	if isNonEmptyObject(errValue) && json.Unmarshal(errValue, &withMessage) == nil && truthy(withMessage.Message) {
		var s string
		if json.Unmarshal(withMessage.Message, &s) == nil {
			return s
		}
		return compactJSON(withMessage.Message)
	}
	return compactJSON(errValue)
}

// streamErrorText describes an error the server sent inside the stream (a
// chunk with an "error" field, or an "error" event) as pi-ai does: the
// SDK's message for it, without a status.
func streamErrorText(errValue json.RawMessage) string {
	return cmp.Or(sdkMessage(errValue), "(no status code or body)")
}

// connectionErrorText describes a request that got no response (or whose
// body broke off): pi-ai's "Connection error." with the reason.
func connectionErrorText(err error) string {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return "Connection error.: " + err.Error()
}

// truthy reports whether a JSON value is present and not null, false, 0 or
// "", as JavaScript would test it.
func truthy(v json.RawMessage) bool {
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

// compactJSON returns v without insignificant space, or v itself when it is
// not valid JSON.
func compactJSON(v []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return string(v)
	}
	return buf.String()
}
