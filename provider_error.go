package agentcore

import (
	"errors"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// ProviderError is a failed model request, as a stream function that knows
// the cause reports it: on the final message's Err (the transcript keeps
// only ErrorMessage, its text) and, through [RunError], from the run's
// error with errors.As. The providers of this module and [StreamProxy]
// fill it; a retry policy above the Agent reads it instead of matching
// texts.
type ProviderError struct {
	// StatusCode is the HTTP status of the provider's reply; 0 when the
	// request failed without one (a network error, a broken stream).
	StatusCode int
	// Message is the failure's text, the message's ErrorMessage.
	Message string
	// RetryAfter is the delay the provider asked for (Retry-After or
	// retry-after-ms); 0 when it asked for none.
	RetryAfter time.Duration
	// Err is the underlying error, such as a net.Error; nil when none.
	Err error
}

// Error returns Message.
func (e *ProviderError) Error() string { return e.Message }

// Unwrap returns Err.
func (e *ProviderError) Unwrap() error { return e.Err }

// Retryable reports whether the failure looks transient: a 408, 429 or 5xx
// status, or a text that pi-ai 1.6.0's isRetryableAssistantError takes for
// an overloaded provider, a rate limit, a server error or a broken
// connection. Quota, billing and plan limits are not retryable, whatever
// their status.
func (e *ProviderError) Retryable() bool {
	if nonRetryableText.MatchString(e.Message) {
		return false
	}
	switch s := e.StatusCode; {
	case s == http.StatusRequestTimeout, s == http.StatusTooManyRequests, s >= 500 && s <= 599:
		return true
	}
	return isRetryableText(e.Message)
}

// IsRetryable reports whether err, a run's error, is a transient provider
// failure worth a retry: a [*ProviderError] whose Retryable says so, else a
// [*RunError] whose failed (not aborted) message has an ErrorMessage that
// pi-ai 1.6.0's isRetryableAssistantError takes for transient. Aborts and
// other errors are not retryable.
func IsRetryable(err error) bool {
	if pe, ok := errors.AsType[*ProviderError](err); ok {
		return pe.Retryable()
	}
	re, ok := errors.AsType[*RunError](err)
	return ok && re.Message != nil && re.Message.StopReason == StopError && isRetryableText(re.Message.ErrorMessage)
}

// isRetryableText reports whether a failure text reads as a transient
// provider or transport failure.
func isRetryableText(text string) bool {
	return text != "" && !nonRetryableText.MatchString(text) && retryableText.MatchString(text)
}

// The patterns of pi-ai's utils/retry, in RE2: its lookbehinds are written
// as a non-word character or the start of the text.
var (
	nonRetryableText = regexp.MustCompile(`(?i)` + strings.Join([]string{
		`GoUsageLimitError`, `FreeUsageLimitError`, `Monthly usage limit reached`, `available balance`,
		`insufficient_quota`, `out of budget`, `quota exceeded`, `billing`,
		`subscription_sharing_usage_limit_exceeded`, `subscription_sharing_workplace_individual_usage_limit_exceeded`,
		`"code"\s*:\s*"?1308(?:[^0-9]|$)`,
	}, "|"))
	retryableText = regexp.MustCompile(`(?i)` + strings.Join([]string{
		`overloaded`, `server_busy`, `servers are currently busy`, `currently experiencing high demand`,
		`model is at capacity`, `rate.?limit`, `too many requests`,
		`(?:^|[^a-z0-9])(?:429|500|502|503|504|520|524)(?:[^a-z0-9]|$)`,
		`service.?(?:is.?)?(?:temporarily.?)?unavailable`, `server.?error`, `internal.?error`,
		`provider.?returned.?(?:an.?)?error`, `exceeded request buffer limit while retrying upstream`,
		`unable to forward upstream`, `upstream.?request.?failed`, `upstream_stream_read_error`,
		`stream was interrupted`, `http/?2 stream failed`,
		`network.?error`, `connection.?error`, `connection.?refused`, `connection.?lost`, `connection.?closed`,
		`other side closed`, `fetch failed`, `request to \S+ failed, reason:`, `getaddrinfo`,
		`(?:^|[^a-z0-9_])(?:ECONNRESET|ECONNABORTED|ECONNREFUSED|ETIMEDOUT|EPIPE)(?:[^a-z0-9_]|$)`,
		`connection reset by peer`, `ENOTFOUND`, `EAI_AGAIN`, `upstream.?connect`, `reset before headers`,
		`socket hang up`, `socket connection was closed`, `timed? out`, `timeout`, `terminated`,
		`websocket.?closed`, `websocket.?error`, `websocket.?connection.?limit.?reached`,
		`ended without`, `stream ended before message_stop`, `stream ended before a terminal response event`,
		`http2 request did not get a response`, `stream disconnected before completion`,
		`cut short after the reply had begun`, `pending stream has been canceled`, `retry delay`,
		`you can retry your request`, `try your request again`, `please retry your request`,
		`ResourceExhausted`, `subscription_sharing_usage_unavailable`, `subscription_sharing_user_unavailable`,
	}, "|"))
)
