package openai

import (
	"fmt"
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
// as the OpenAI SDK words it (the status and what the body's error says,
// see [provider.OpenAIRefusal]), and text, as pi-ai reports it: sdk when
// it shows the error whole, else (an error object with a message) the
// status and the error object's JSON, cut to 4000 characters:
// `400: {"message":"bad",...}`.
func refusalTexts(status int, body []byte) (text, sdk string) {
	msg, errObject := provider.OpenAIRefusal(body)
	sdk = provider.OpenAIStatusText(status, msg)
	if errObject == "" || strings.Contains(sdk, errObject) {
		return sdk, sdk
	}
	return fmt.Sprintf("%d: %s", status, errObject), sdk
}
