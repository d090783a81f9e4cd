package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/pi-go/agentcore/internal/jsvalue"
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

// refusal describes a non-2xx response with the HTTP status and what
// the server said, as the Anthropic SDK words it for pi-ai:
//
//	{"message": "text", ...}  ->  "400 text"
//	other JSON                ->  `429 {"type":"error","error":{...}}` (compacted)
//	other text                ->  "502 text" (as sent)
//	an empty body             ->  "503 status code (no body)"
func refusal(resp *http.Response, body []byte) *provider.Failure {
	status := resp.StatusCode
	f := provider.Status(status, resp.Header, "")
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
		case jsvalue.Truthy(envelope.Message) && json.Unmarshal(envelope.Message, &s) == nil:
			f.Text = fmt.Sprintf("%d %s", status, s)
		case jsvalue.Truthy(envelope.Message):
			f.Text = fmt.Sprintf("%d %s", status, jsvalue.CompactJSON(envelope.Message))
		default:
			f.Text = fmt.Sprintf("%d %s", status, jsvalue.CompactJSON(trimmed))
		}
	default:
		f.Text = fmt.Sprintf("%d %s", status, body) // as sent, white space included
	}
	return f
}

// streamFailure describes an error event the server sent mid-stream: its
// data as sent, as pi-ai reports it.
func streamFailure(data []byte) *provider.Failure {
	return provider.TextFailure(string(data))
}
