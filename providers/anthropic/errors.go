package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/pi-go/agentcore/internal/provider"
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
	// JSON of the expected shape; the event's name, the parser's reason
	// and "; data=" with the data follow, as pi-ai words it: the data's
	// first 4000 characters, then "... [truncated N chars]" when it is
	// longer. pi-ai appends the event's raw lines ("; raw=..."), a second
	// copy of the data, which is left out.
	MalformedEventPrefix = "Could not parse Anthropic SSE event"
	// FallbackText is the error of a server-side model fallback in the
	// middle of the output.
	FallbackText = "Anthropic performed an unsupported mid-output model fallback"
)

// unknownErrorText is the error of a stop reason mapped to an error that
// carried no message of its own.
const unknownErrorText = "An unknown error occurred"

// failure is why a request failed, as every HTTP-speaking stream function
// of the repository reports it.
type failure = provider.Failure

// statusFailure describes a non-2xx response with the HTTP status and what
// the server said, as the Anthropic SDK words it for pi-ai:
//
//	{"message": "text", ...}  ->  "400 text"
//	other JSON                ->  `429 {"type":"error","error":{...}}` (compacted)
//	other text                ->  "502 text" (as sent)
//	an empty body             ->  "503 status code (no body)"
func statusFailure(status int, header http.Header, body []byte) failure {
	f := provider.Status(status, header, "")
	var envelope struct {
		Message json.RawMessage `json:"message"`
	}
	switch trimmed := bytes.TrimSpace(body); {
	case len(body) == 0:
		f.Text = fmt.Sprintf("%d status code (no body)", status)
	case json.Valid(trimmed):
		json.Unmarshal(trimmed, &envelope)
		var s string
		switch {
		case truthy(envelope.Message) && json.Unmarshal(envelope.Message, &s) == nil:
			f.Text = fmt.Sprintf("%d %s", status, s)
		case truthy(envelope.Message):
			f.Text = fmt.Sprintf("%d %s", status, compactJSON(envelope.Message))
		default:
			f.Text = fmt.Sprintf("%d %s", status, compactJSON(trimmed))
		}
	default:
		f.Text = fmt.Sprintf("%d %s", status, body) // as sent, white space included
	}
	return f
}

// streamFailure describes an error event the server sent mid-stream: its
// data as sent, as pi-ai reports it.
func streamFailure(data []byte) failure {
	return failure{Text: string(data)}
}

// connectionFailure describes a request that got no response, or whose
// body broke off: pi-ai's "Connection error." with the reason.
func connectionFailure(err error) failure {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return failure{Text: "Connection error.: " + err.Error(), Err: err}
}

// textFailure is a failure without a status or a cause: a malformed event,
// a refusal, a cut stream, a request that could not be built.
func textFailure(text string) failure {
	return failure{Text: text}
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
