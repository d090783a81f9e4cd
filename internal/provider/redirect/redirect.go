package redirect

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ErrCrossOrigin is the error a request fails with when its server
// redirects it to another origin (scheme, host or port); nothing is sent
// there. The error returned by [http.Client.Do] wraps it (in a
// [*url.Error]) with the two origins.
var ErrCrossOrigin = errors.New("redirect to another origin refused: the request's credentials and body go only to the origin it was sent to")

// maxOriginText caps each origin shown in an error: the server chose it.
const maxOriginText = 200

// maxRedirects is how many redirects Go's default policy follows.
const maxRedirects = 10

// Guard returns a client that sends as c does (nil means
// [http.DefaultClient]) but follows a redirect only within the origin of
// the request's first URL: a copy of c whose CheckRedirect refuses any
// other with an error wrapping [ErrCrossOrigin], then asks c's own
// CheckRedirect (Go's default policy when it is nil). c is not changed;
// its Transport, Jar and Timeout are shared.
func Guard(c *http.Client) *http.Client {
	if c == nil {
		c = http.DefaultClient
	}
	guarded := *c
	next := c.CheckRedirect
	guarded.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := Check(req, via); err != nil {
			return err
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		return nil
	}
	return &guarded
}

// Do sends req with [Guard] of c. A refused redirect's error is the
// policy's, wrapping [ErrCrossOrigin], without the [*url.Error] around it
// (whose text has the URL the server chose); other errors are c's.
func Do(c *http.Client, req *http.Request) (*http.Response, error) {
	resp, err := Guard(c).Do(req)
	if uerr, ok := errors.AsType[*url.Error](err); ok && errors.Is(err, ErrCrossOrigin) {
		err = uerr.Err
	}
	return resp, err
}

// Check is the policy as an [http.Client.CheckRedirect]: nil when req, the
// redirect to follow, has the origin of via[0], the first request, else
// an error wrapping [ErrCrossOrigin] naming both origins.
func Check(req *http.Request, via []*http.Request) error {
	if len(via) == 0 {
		return nil
	}
	from, to := via[0].URL, req.URL
	if sameOrigin(from, to) {
		return nil
	}
	return fmt.Errorf("%w (from %s to %s)", ErrCrossOrigin, originText(from), originText(to))
}

// sameOrigin reports whether a and b have the same scheme, host and port,
// a port left out being the scheme's default.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

// port is u's port, else its scheme's default.
func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// originText is u's origin as scheme://host, cut to maxOriginText bytes.
func originText(u *url.URL) string {
	s := u.Scheme + "://" + u.Host
	if len(s) > maxOriginText {
		s = strings.ToValidUTF8(s[:maxOriginText], "") + "..."
	}
	return s
}
