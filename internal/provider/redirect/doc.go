// Package redirect is the redirect policy of every client in the
// repository that sends a credential over HTTP: the providers (through
// internal/provider's send path) and the proxy client
// (agentcore.StreamProxy). It lives apart from internal/provider, which
// imports the root package, so that the root package can use it too.
//
// # Policy
//
// A request follows a redirect only within its origin: the scheme, host
// and port of the URL it was first sent to. A redirect anywhere else is
// refused before anything is sent there, with an error that wraps
// [ErrCrossOrigin]: the request's headers (an API key in x-api-key or
// api-key, a bearer token, any header a caller added) and its body (the
// transcript) stay with the server they were meant for. Stripping the
// credential headers instead would still hand the transcript to the other
// host, and a custom header may be a credential this package cannot tell
// from another, so nothing is sent at all. Same-origin redirects are
// followed as the client's own policy decides (Go's default: up to 10).
package redirect
