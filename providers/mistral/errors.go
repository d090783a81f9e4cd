package mistral

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/provider"
)

// The error texts of failures, as pi-ai words them. A stream function
// reports them in the final message's ErrorMessage.
const (
	// ErrorName starts the text of a refusal: "Mistral API error (429):
	// " and the body (cut to 4000 characters), else the status text.
	ErrorName = "Mistral API error"
	// AbortedText is the error of a request aborted before or while its
	// response streamed.
	AbortedText = "This operation was aborted"
	// AbortedAfterBodyText is the error of a request aborted once its
	// body was read.
	AbortedAfterBodyText = "Request was aborted"
	// NoFinishReasonText is the error of a stream that ended without a
	// finish reason.
	NoFinishReasonText = "Mistral stream ended without a finish reason"
	// InvalidEventText is the error of an event whose data is JSON but no
	// object with a choices list.
	InvalidEventText = "Invalid Mistral streaming event"
	// MalformedChunkPrefix starts the error of an event whose data is no
	// JSON; the parser's reason follows (pi-ai gives JavaScript's).
	MalformedChunkPrefix = "Could not parse Mistral stream chunk"
	// FetchFailedText starts the error of a request that got no
	// response; Go's reason follows.
	FetchFailedText = "fetch failed"
	// UnknownErrorText is the error of a response that stopped with an
	// error and no text of its own.
	UnknownErrorText = "An unknown error occurred"
	// providerStoppedPrefix starts the error of a finish reason that is
	// no normal end.
	providerStoppedPrefix = "Provider stopped with: "
)

// maxLine bounds one line of the event stream, and one event's data.
const maxLine = 16 << 20

// refusal describes a non-2xx response as pi-ai does: ErrorName, the
// status, then the body trimmed and cut to 4000 characters, or else the
// status line's reason phrase (pi-ai's words when there is none).
func refusal(resp *http.Response, body []byte) *provider.Failure {
	status := resp.StatusCode
	text := strings.TrimSpace(string(body))
	switch {
	case text != "":
		text = limit.Truncate(strings.ToValidUTF8(text, "\uFFFD"), limit.MaxErrorData)
	case provider.Reason(resp) != "":
		text = provider.Reason(resp)
	default:
		text = fmt.Sprintf("Request failed with status %d", status)
	}
	return provider.Status(status, resp.Header, fmt.Sprintf("%s (%d): %s", ErrorName, status, text))
}

// connectionFailure describes a request that got no response: fetch's
// words, then Go's reason.
func connectionFailure(err error) *provider.Failure {
	return provider.CauseFailure(FetchFailedText+": ", err)
}
