package mistral

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

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
	// TerminatedText starts the error of a response whose body broke off;
	// Go's reason follows.
	TerminatedText = "terminated"
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
// status, then the body trimmed and cut to 4000 characters, or the
// status text when the body is blank.
func refusal(status int, h http.Header, body []byte) provider.Failure {
	text := strings.TrimSpace(string(body))
	if text == "" {
		text = statusText(status)
	} else {
		text = provider.Truncate(strings.ToValidUTF8(text, "\uFFFD"), provider.MaxErrorData)
	}
	return provider.Status(status, h, fmt.Sprintf("%s (%d): %s", ErrorName, status, text))
}

// statusText is a status's reason phrase, as fetch reports it, else
// pi-ai's words for a status without one.
func statusText(status int) string {
	if t := http.StatusText(status); t != "" {
		return t
	}
	return fmt.Sprintf("Request failed with status %d", status)
}

// connectionFailure describes a request that got no response.
func connectionFailure(err error) provider.Failure {
	return provider.Failure{Text: FetchFailedText + ": " + reason(err), Err: err}
}

// bodyFailure describes a response whose body broke off.
func bodyFailure(err error) *provider.Failure {
	return &provider.Failure{Text: TerminatedText + ": " + reason(err), Err: err}
}

// reason is an error's text without the URL a url.Error adds.
func reason(err error) string {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	return err.Error()
}
