package google

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/jsvalue"
	"github.com/pi-go/agentcore/internal/limit"
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
	// NoFinishReasonText is the error of a stream that ended without a
	// finish reason: cut off, or a prompt blocked by Google's filters
	// (promptFeedback, no candidate).
	NoFinishReasonText = "Google stream ended without a finish reason"
	// IncompleteText is the error of a stream whose last event is not
	// followed by a blank line: the server stopped in the middle of it.
	IncompleteText = "Incomplete JSON segment at the end"
	// MalformedChunkPrefix starts the error of an event whose data is not
	// JSON of a response's shape; the parser's reason follows.
	MalformedChunkPrefix = "Could not parse Gemini stream chunk"
	// FetchFailedPrefix starts the error of a request that got no
	// response; the network's reason follows.
	FetchFailedPrefix = "fetch failed: "
	// TerminatedPrefix starts the error of a response whose body broke
	// off on a connection kept alive; the network's reason follows.
	TerminatedPrefix = provider.TerminatedPrefix
	// providerStoppedPrefix starts the error of a finish reason that is an
	// error (SAFETY, RECITATION, ...); the reason follows.
	providerStoppedPrefix = "Provider stopped with: "
	// unhandledStopPrefix starts the error of a finish reason pi-ai does
	// not know.
	unhandledStopPrefix = "Unhandled stop reason: "
)

// refusal describes a non-2xx response as Google's SDK does for
// pi-ai: a JSON body re-serialized compactly as JavaScript would, any
// other body wrapped in Google's error envelope, with the response's own
// reason phrase as its status:
//
//	{"error":{"code":429,"message":"...","status":"RESOURCE_EXHAUSTED"}}  (as sent, compacted)
//	{"error":{"message":"Bad Gateway\n","code":502,"status":"Bad Gateway"}}  (a text body)
//
// A body sent as JSON that does not parse is wrapped as text. The JSON, or
// the text, is cut to its first [limit.MaxErrorData] characters.
func refusal(resp *http.Response, body []byte) *provider.Failure {
	status := resp.StatusCode
	f := provider.Status(status, resp.Header, "")
	if strings.Contains(resp.Header.Get("Content-Type"), "application/json") {
		if v, err := jsonv.Parse(body); err == nil {
			f.Text = limit.Truncate(string(v.AppendJSON(nil)), limit.MaxErrorData)
			return f
		}
	}
	b := []byte(`{"error":{"message":`)
	b = jsonv.AppendQuote(b, limit.Truncate(strings.ToValidUTF8(string(body), "\uFFFD"), limit.MaxErrorData))
	b = append(b, `,"code":`...)
	b = jsonv.AppendNumber(b, float64(status))
	b = append(b, `,"status":`...)
	b = jsonv.AppendQuote(b, provider.Reason(resp))
	f.Text = string(append(b, "}}"...))
	return f
}

// chunkError returns the failure of a streamed event that is an error
// object with an HTTP error code (400 to 599), as Google's SDK throws it:
// "got status: STATUS. " and the event's JSON, cut to its first
// [limit.MaxErrorData] characters. Other data gives nil.
func chunkError(data []byte) *provider.Failure {
	if !bytes.Contains(data, []byte(`"error"`)) {
		return nil
	}
	v, err := jsonv.Parse(data)
	if err != nil || v.Kind() != jsonv.Object {
		return nil
	}
	e, ok := v.Get("error")
	if !ok || e.Kind() != jsonv.Object {
		return nil
	}
	code, ok := e.Get("code")
	if !ok || code.Kind() != jsonv.Number || code.Num() < 400 || code.Num() >= 600 {
		return nil
	}
	var status json.RawMessage
	if s, ok := e.Get("status"); ok {
		status = s.AppendJSON(nil)
	}
	text := "got status: " + jsvalue.Template(status) + ". " + limit.Truncate(string(v.AppendJSON(nil)), limit.MaxErrorData)
	return &provider.Failure{Text: text, Status: int(code.Num())}
}

// connectionFailure describes a request that got no response, as Node's
// fetch words it for pi-ai: "fetch failed: " and the reason.
func connectionFailure(err error) *provider.Failure {
	return provider.CauseFailure(FetchFailedPrefix, err)
}
