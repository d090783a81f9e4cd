package openairesponses

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider"
)

// The error texts of failures that have no server message, as pi-ai words
// them. A stream function reports them in the final message's
// ErrorMessage.
const (
	// AbortedBeforeResponseText is the error of a request aborted before
	// the server answered.
	AbortedBeforeResponseText = "Request aborted"
	// AbortedText is the error of a response aborted while it streamed.
	AbortedText = "Request was aborted"
	// NoTerminalEventText is the error of a stream that ended before a
	// response.completed, response.incomplete or response.failed event:
	// the connection was cut or the server gave up.
	NoTerminalEventText = "OpenAI Responses stream ended before a terminal response event"
	// NoStopReasonText is the error of a response that ended without a
	// stop reason.
	NoStopReasonText = "OpenAI Responses stream ended without a stop reason"
	// UnknownErrorText is the error of a response whose status says it
	// failed without saying why.
	UnknownErrorText = "An unknown error occurred"
	// MalformedEventText is the error of an event whose data is not JSON.
	MalformedEventText = "Error reading response: malformed server-sent event JSON."
	// LineTooLongText is the error of a line of the event stream (or an
	// event's data) longer than 16 MiB: no event is that long, so the body
	// is no event stream.
	LineTooLongText = "Error reading response: server-sent event line too long."
	// unfinishedCallText begins the error of a response that asks for a
	// tool call whose item never ended: its arguments may be cut off.
	unfinishedCallText = "OpenAI Responses stream completed with an unfinished tool call: "
)

// maxLine bounds one line of the event stream, and one event's data.
const maxLine = 16 << 20

// The hints pi-ai adds to the errors of ChatGPT's usage limits.
const (
	usageLimitCode     = "subscription_sharing_usage_limit_exceeded"
	usageLimitHint     = "\nCheck your ChatGPT usage: https://chatgpt.com/settings/usage"
	workspaceLimitCode = "subscription_sharing_workplace_individual_usage_limit_exceeded"
	workspaceLimitHint = "\nYou've reached your ChatGPT workspace's usage limit. Ask your workspace admin to increase it at admin.openai.com → Workspace → Usage limits."
)

// refusal describes a non-2xx response as pi-ai does: the API's name and
// the status, then the OpenAI SDK's text of the error, or the error
// object's JSON when that text does not show it:
//
//	test API error (429): {"message":"slow down","type":"rate_limit_error"}
//	OpenAI API error (502): 502 Bad Gateway
func refusal(model agentcore.Model) func(*http.Response, []byte) *provider.Failure {
	return func(resp *http.Response, body []byte) *provider.Failure {
		status := resp.StatusCode
		msg, errObject := provider.OpenAIRefusal(body)
		sdk := provider.OpenAIStatusText(status, msg)
		shown := sdk
		if errObject != "" && !strings.Contains(sdk, errObject) {
			shown = errObject
		}
		f := provider.Status(status, resp.Header, fmt.Sprintf("%s (%d): %s", apiName(model), status, shown))
		f.SDKText = sdk
		return f
	}
}

// apiName names the API in refusals: "OpenAI" for the openai provider,
// else the provider's name.
func apiName(model agentcore.Model) string {
	if model.Provider == "openai" {
		return "OpenAI API error"
	}
	return model.Provider + " API error"
}

// withHint adds to text the hint of a ChatGPT usage limit it names.
func withHint(text string) string {
	switch {
	case strings.Contains(text, usageLimitCode):
		return text + usageLimitHint
	case strings.Contains(text, workspaceLimitCode):
		return text + workspaceLimitHint
	}
	return text
}
