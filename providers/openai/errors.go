package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
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

// maxErrorText is how many characters of an error response are reported.
const maxErrorText = 4000

// statusErrorText describes a non-2xx response with the HTTP status and
// what the server said, as pi-ai does with the OpenAI SDK's error:
//
//	{"error": {...}}      ->  "400: {...}"  (the error object, compacted)
//	{"error": "text"}     ->  `429 "text"`
//	other text            ->  "502 text"
//	an empty body         ->  "503 status code (no body)"
//
// Beyond pi-ai (whose SDK reports a JSON body without an "error" field as
// having no body), other JSON is reported like other text.
func statusErrorText(status int, body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return fmt.Sprintf("%d status code (no body)", status)
	}
	var envelope struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &envelope) == nil && truthy(envelope.Error) {
		errJSON := compactJSON(envelope.Error)
		if isNonEmptyObject(envelope.Error) {
			return fmt.Sprintf("%d: %s", status, truncateText(errJSON, maxErrorText))
		}
		return fmt.Sprintf("%d %s", status, errJSON)
	}
	return fmt.Sprintf("%d %s", status, truncateText(string(body), maxErrorText))
}

// streamErrorText describes an error the server sent inside the stream (a
// chunk with an "error" field, or an "error" event): the error's message
// when it is a string, else its JSON.
func streamErrorText(errValue json.RawMessage) string {
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
	switch s := string(bytes.TrimSpace(v)); s {
	case "", "null", "false", "0", `""`:
		return false
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

// truncateText cuts s to max characters, saying how many were left off.
func truncateText(s string, max int) string {
	n := utf8.RuneCountInString(s)
	if n <= max {
		return s
	}
	var b strings.Builder
	i := 0
	for _, r := range s {
		if i == max {
			break
		}
		b.WriteRune(r)
		i++
	}
	fmt.Fprintf(&b, "... [truncated %d chars]", n-max)
	return b.String()
}
