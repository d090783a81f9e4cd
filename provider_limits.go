package agentcore

import (
	"github.com/pi-go/agentcore/internal/limit"
	"github.com/pi-go/agentcore/internal/provider/redirect"
)

// ErrCrossOriginRedirect is the error of a request whose server redirected
// it to another origin (scheme, host or port). The providers of this
// module and [StreamProxy] follow a redirect only within the origin of
// the URL they were given, whatever the *http.Client they send with:
// another origin gets nothing, neither the request's headers (keys,
// tokens, any header a caller added) nor its body. The failed message's
// Err wraps it, and its ErrorMessage is its text with both origins.
var ErrCrossOriginRedirect = redirect.ErrCrossOrigin

// DefaultMaxResponseBytes is the content a response of the providers of
// this module (the packages under providers/) may build when
// their MaxResponseBytes option is zero: 16 MiB of text, thinking,
// signatures and tool calls, some thirty times what the largest output
// of any model takes.
const DefaultMaxResponseBytes = limit.DefaultMaxResponseBytes

// ErrResponseTooLarge is the error of a provider's response that built
// more content than its MaxResponseBytes option allows. The failed
// message's Err wraps it, and its ErrorMessage is its text and the cap:
// "Response too large: more than 16777216 bytes of content".
var ErrResponseTooLarge = limit.ErrResponseTooLarge

// DefaultStreamIdleTimeout is how long a streaming response of the
// providers of this module may send nothing when their IdleTimeout option
// is zero: long enough for a model that reasons for minutes before its
// first token.
const DefaultStreamIdleTimeout = limit.DefaultStreamIdleTimeout

// ErrStreamIdleTimeout is the error of a provider's streaming response
// that sent nothing for its IdleTimeout option. The failed message's Err
// wraps it, and its ErrorMessage is its text and the timeout: "Stream
// idle timeout: no data from the server for 10m0s". It is retryable.
var ErrStreamIdleTimeout = limit.ErrStreamIdleTimeout
