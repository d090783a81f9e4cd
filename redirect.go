package agentcore

import "github.com/pi-go/agentcore/internal/provider/redirect"

// ErrCrossOriginRedirect is the error of a request whose server redirected
// it to another origin (scheme, host or port). The providers of this
// module and [StreamProxy] follow a redirect only within the origin of
// the URL they were given, whatever the *http.Client they send with:
// another origin gets nothing, neither the request's headers (keys,
// tokens, any header a caller added) nor its body. The failed message's
// Err wraps it, and its ErrorMessage is its text with both origins.
var ErrCrossOriginRedirect = redirect.ErrCrossOrigin
