package bedrock

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pi-go/agentcore/internal/jsonv"
	"github.com/pi-go/agentcore/internal/jsvalue"
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/provider"
)

// The error texts of failures that have no server message, as pi-ai
// words them. A stream function reports them in the final message's
// ErrorMessage.
const (
	// AbortedBeforeResponseText is the error of a request aborted before
	// the server answered, as the AWS SDK's Node handler words it.
	AbortedBeforeResponseText = "Request aborted: This operation was aborted (20)"
	// AbortedText is the error of a response aborted while its body was
	// being read, and of a body that broke off (Node's words for both).
	AbortedText = "aborted"
	// AbortedAfterBodyText is the error of a response whose body ended
	// after ctx was cancelled.
	AbortedAfterBodyText = "Request was aborted"
	// NoStopReasonText is the error of a stream that ended without a
	// messageStop event.
	NoStopReasonText = "Bedrock stream ended without a stop reason"
	// UnknownErrorText is the error of a messageStop without a stop
	// reason.
	UnknownErrorText = "An unknown error occurred"
	// UserMessageStartText is the error of a stream whose message starts
	// with another role than the assistant's.
	UserMessageStartText = "Unexpected assistant message start but got user message start instead"
	// MalformedEventPrefix starts the error of an event whose payload is
	// not JSON of its type's shape; the event type and the parser's reason
	// follow.
	MalformedEventPrefix = "Could not parse Bedrock event "
	// deserializationSuffix follows the parser's words for a refusal
	// whose body is not JSON, as the AWS SDK words it.
	deserializationSuffix = "\n  Deserialization error: to see the raw response, inspect the hidden field {error}.$response on this object."
	// providerStoppedPrefix starts the error of a stop reason that is an
	// error (guardrail_intervened, content_filtered, ...); the reason
	// follows.
	providerStoppedPrefix = "Provider stopped with: "
	// dataRetentionHint follows an error about the account's data
	// retention mode.
	dataRetentionHint = " See https://docs.aws.amazon.com/bedrock/latest/userguide/data-retention.html for supported data retention modes."
)

// errorPrefixes are the words pi-ai puts before the message of the
// Bedrock exceptions it knows; another exception's name is its prefix.
var errorPrefixes = map[string]string{
	"InternalServerException":     "Internal server error",
	"ModelStreamErrorException":   "Model stream error",
	"ValidationException":         "Validation error",
	"ThrottlingException":         "Throttling error",
	"ServiceUnavailableException": "Service unavailable",
}

// streamExceptions are the exceptions of a ConverseStream event stream,
// by their :exception-type.
var streamExceptions = map[string]string{
	"internalServerException":     "InternalServerException",
	"modelStreamErrorException":   "ModelStreamErrorException",
	"validationException":         "ValidationException",
	"throttlingException":         "ThrottlingException",
	"serviceUnavailableException": "ServiceUnavailableException",
}

var dataRetention = regexp.MustCompile(`(?i)data retention mode`)

// exceptionText is the error text of a Bedrock exception named name
// (ValidationException, ...) with message, as pi-ai formats it.
func exceptionText(name, message string) string {
	prefix, ok := errorPrefixes[name]
	if !ok {
		prefix = name
	}
	return withHint(prefix + ": " + message)
}

// withHint appends the data retention hint to a text about it.
func withHint(text string) string {
	if dataRetention.MatchString(text) {
		return text + dataRetentionHint
	}
	return text
}

// exceptionMessage is the message member of an exception's JSON, "Unknown"
// when it has none.
func exceptionMessage(data []byte) string {
	var body struct {
		Message  *string `json:"message"`
		Message2 *string `json:"Message"`
	}
	if json.Unmarshal(data, &body) == nil {
		switch {
		case body.Message != nil:
			return *body.Message
		case body.Message2 != nil:
			return *body.Message2
		}
	}
	return "Unknown"
}

// frameFailure is the failure of an exception or error message of the
// event stream: a known exception with pi-ai's prefix, another one as its
// payload's text, an error message as its :error-message.
func frameFailure(f frame) *provider.Failure {
	if string(f.messageType) == "error" {
		text := string(f.errorMessage)
		if text == "" {
			text = "UnknownError"
		}
		return provider.TextFailure(withHint(limit.Truncate(text, limit.MaxErrorData)))
	}
	if name, ok := streamExceptions[string(f.exceptionType)]; ok {
		return provider.TextFailure(exceptionText(name, limit.Truncate(exceptionMessage(f.payload), limit.MaxErrorData)))
	}
	return provider.TextFailure(withHint(limit.Truncate(strings.ToValidUTF8(string(f.payload), "\uFFFD"), limit.MaxErrorData)))
}

// statusFailure describes a refusal (a non-2xx response) as the AWS SDK
// and pi-ai do: the exception named by the x-amzn-errortype header, else
// by the body's code or __type member ("Unknown" when none), with the
// body's message, "Validation error: The provided model identifier is
// invalid.". A body that is not JSON gives JavaScript's parser error and
// the SDK's hint instead. Texts quote at most [limit.MaxErrorData]
// characters of the body.
func statusFailure(resp *http.Response, body []byte) *provider.Failure {
	header := resp.Header
	f := provider.Status(resp.StatusCode, header, "")
	v := jsonv.ObjectValue(nil)
	if len(body) > 0 {
		parsed, err := jsonv.Parse(body)
		if err != nil {
			f.Text = limit.Truncate(jsParseError(body), limit.MaxErrorData) + deserializationSuffix
			return f
		}
		v = parsed
	}
	name := errorCode(header.Get("X-Amzn-Errortype"))
	if name == "" && v.Kind() == jsonv.Object {
		for _, m := range v.Members() {
			if strings.EqualFold(m.Key, "code") && name == "" {
				name = errorCode(jsString(m.Value))
			}
		}
		if t, ok := v.Get("__type"); ok && name == "" {
			name = errorCode(jsString(t))
		}
	}
	if name == "" {
		name = "Unknown"
	}
	message := "Unknown"
	if v.Kind() == jsonv.Object {
		for _, key := range []string{"message", "Message"} {
			if m, ok := v.Get(key); ok && !m.IsNull() {
				message = jsString(m)
				break
			}
		}
	}
	f.Text = exceptionText(name, limit.Truncate(message, limit.MaxErrorData))
	return f
}

// errorCode is an AWS error code as the SDK reads it from a header or a
// body: before a comma or a colon, after a '#'.
func errorCode(raw string) string {
	raw, _, _ = strings.Cut(raw, ",")
	raw, _, _ = strings.Cut(raw, ":")
	if _, after, ok := strings.Cut(raw, "#"); ok {
		raw = after
	}
	return raw
}

// jsString is v as JavaScript's template literal writes it.
func jsString(v jsonv.Value) string { return jsvalue.Template(v.AppendJSON(nil)) }

// jsParseError words the failure to parse body as JSON as V8's JSON.parse
// does in the common cases: an unexpected token, with the source around
// it, or the end of the input.
func jsParseError(body []byte) string {
	src := strings.ToValidUTF8(string(body), "\uFFFD")
	var serr *json.SyntaxError
	if err := json.Unmarshal(body, new(any)); !errors.As(err, &serr) {
		return "Unexpected end of JSON input"
	}
	pos := int(serr.Offset) - 1
	if pos < 0 || pos >= len(src) {
		return "Unexpected end of JSON input"
	}
	runes := []rune(src)
	at := utf8.RuneCountInString(src[:pos])
	const context = 10
	if len(runes) <= 2*context {
		return fmt.Sprintf("Unexpected token '%c', \"%s\" is not valid JSON", runes[at], src)
	}
	start, end := max(0, at-context), min(len(runes), at+context)
	quoted := `"` + string(runes[start:end]) + `"`
	if start > 0 {
		quoted = "..." + quoted
	}
	if end < len(runes) {
		quoted += "..."
	}
	return fmt.Sprintf("Unexpected token '%c', %s is not valid JSON", runes[at], quoted)
}

// connectionFailure describes a request that got no response: the
// network's reason, as Node words it for pi-ai.
func connectionFailure(err error) *provider.Failure {
	return provider.CauseFailure("", err)
}

// bodyFailure describes a body that did not frame (its text the AWS
// SDK's) or, with [AbortedText] as Node's http client words it for
// pi-ai, a connection that broke off.
func bodyFailure(err error) *provider.Failure {
	switch {
	case errors.Is(err, ErrTruncated):
		return provider.TextFailure(err.Error())
	case errors.Is(err, errFraming):
		return &provider.Failure{Text: strings.TrimPrefix(err.Error(), errFraming.Error()+": "), Err: err}
	}
	return &provider.Failure{Text: AbortedText, Err: err}
}
