package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// The error texts of failures that have no server message, as pi-ai words
// them. A stream function reports them in the final message's ErrorMessage.
const (
	// AbortedBeforeResponseText is the error of a request aborted before
	// the server answered.
	AbortedBeforeResponseText = "Request aborted"
	// AbortedText is the error of a response aborted while its body was
	// being read.
	AbortedText = "This operation was aborted"
	// AbortedAfterBodyText is the error of a response whose body ended
	// after ctx was cancelled.
	AbortedAfterBodyText = "Request was aborted"
	// NoMessageStopText is the error of a stream that started a message
	// and ended without message_stop: the connection was cut or the
	// server gave up.
	NoMessageStopText = "Anthropic stream ended before message_stop"
	// NoStopReasonText is the error of a stream that ended without a stop
	// reason (and without starting a message).
	NoStopReasonText = "Anthropic stream ended without a stop reason"
	// MalformedEventPrefix starts the error of an event whose data is not
	// JSON of the expected shape; the parser's reason and the data follow.
	MalformedEventPrefix = "Could not parse Anthropic SSE event"
	// FallbackText is the error of a server-side model fallback in the
	// middle of the output.
	FallbackText = "Anthropic performed an unsupported mid-output model fallback"
)

// unknownErrorText is the error of a stop reason mapped to an error that
// carried no message of its own.
const unknownErrorText = "An unknown error occurred"

// maxErrorBody caps how much of an error response is read.
const maxErrorBody = 1 << 20

// failure is why a request failed: the text for the message's
// ErrorMessage, and what a retry policy needs. It is the one place where
// failures are classified, ready to become the core's typed provider error.
type failure struct {
	text string
	// status is the HTTP status, 0 when the failure had none (a network
	// error, an error event mid-stream, a cut stream).
	status int
	// errType is the server's error type (rate_limit_error,
	// overloaded_error, ...) when it said one.
	errType string
	// retryable says whether the same request may succeed later.
	retryable bool
	// retryAfter is the delay the server asked for, 0 when none.
	retryAfter time.Duration
}

// classify decides whether a failure is worth retrying, as pi-ai's retry
// helper (after the Anthropic SDK) does for a status, and as the API's
// error types say for an error without one: the server's x-should-retry
// header when it sent one; else 408, 409, 429 and 5xx (529 overloaded
// included); else, without a status, overloaded, API and rate-limit
// errors and failures of the connection. header may be nil.
func classify(status int, header http.Header, errType string) (retryable bool, retryAfter time.Duration) {
	retryAfter = retryDelay(header)
	switch header.Get("x-should-retry") {
	case "true":
		return true, retryAfter
	case "false":
		return false, retryAfter
	}
	switch {
	case status == 408, status == 409, status == 429, status >= 500:
		return true, retryAfter
	case status != 0:
		return false, retryAfter
	}
	switch errType {
	case "overloaded_error", "api_error", "rate_limit_error", "timeout_error", "":
		return true, retryAfter
	}
	return false, retryAfter
}

// retryDelay reads retry-after-ms, else retry-after (seconds or an HTTP
// date); 0 when absent or unreadable.
func retryDelay(header http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(header.Get("retry-after-ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := header.Get("retry-after")
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return 0
}

// statusFailure describes a non-2xx response with the HTTP status and what
// the server said, as the Anthropic SDK words it for pi-ai:
//
//	{"message": "text", ...}  ->  "400 text"
//	other JSON                ->  `429 {"type":"error","error":{...}}` (compacted)
//	other text                ->  "502 text"
//	an empty body             ->  "503 status code (no body)"
func statusFailure(status int, header http.Header, body []byte) failure {
	body = bytes.TrimSpace(body)
	f := failure{status: status}
	var envelope struct {
		Message json.RawMessage `json:"message"`
		Error   struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	switch {
	case len(body) == 0:
		f.text = fmt.Sprintf("%d status code (no body)", status)
	case json.Valid(body):
		json.Unmarshal(body, &envelope)
		f.errType = envelope.Error.Type
		var s string
		switch {
		case truthy(envelope.Message) && json.Unmarshal(envelope.Message, &s) == nil:
			f.text = fmt.Sprintf("%d %s", status, s)
		case truthy(envelope.Message):
			f.text = fmt.Sprintf("%d %s", status, compactJSON(envelope.Message))
		default:
			f.text = fmt.Sprintf("%d %s", status, compactJSON(body))
		}
	default:
		f.text = fmt.Sprintf("%d %s", status, body)
	}
	f.retryable, f.retryAfter = classify(status, header, f.errType)
	return f
}

// streamFailure describes an error event the server sent mid-stream: its
// data as sent, as pi-ai reports it.
func streamFailure(data []byte) failure {
	var ev struct {
		Error struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	json.Unmarshal(data, &ev)
	f := failure{text: string(data), errType: ev.Error.Type}
	f.retryable, f.retryAfter = classify(0, nil, f.errType)
	return f
}

// connectionFailure describes a request that got no response, or whose
// body broke off: pi-ai's "Connection error." with the reason.
func connectionFailure(err error) failure {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	f := failure{text: "Connection error.: " + err.Error()}
	f.retryable, f.retryAfter = classify(0, nil, "")
	return f
}

// textFailure is a failure of the response's content (a malformed event, a
// refusal, a cut stream); retryable says whether a retry may help.
func textFailure(text string, retryable bool) failure {
	return failure{text: text, retryable: retryable}
}

// truthy reports whether a JSON value is present and not null, false, 0 or
// "", as JavaScript would test it.
func truthy(v json.RawMessage) bool {
	switch string(bytes.TrimSpace(v)) {
	case "", "null", "false", "0", `""`:
		return false
	}
	return true
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
