package limit

import (
	"fmt"
	"io"
	"net/http"
)

// Inflated returns the body of resp bounded as the response cap bounds
// the content: when the transport inflated it (resp.Uncompressed: Go's
// transport asks for gzip and inflates it unseen), a read that brings
// the inflated bytes past max fails with an error wrapping
// [ErrResponseTooLarge], its text "Response too large: more than N
// bytes inflated from a compressed body", so that a body of a few
// compressed bytes cannot cost a reader gigabytes. max is the cap's
// option: zero means [DefaultMaxResponseBytes], negative no bound; a
// body the server sent uncompressed is returned as it is.
func Inflated(resp *http.Response, max int64) io.ReadCloser {
	switch {
	case !resp.Uncompressed || max < 0:
		return resp.Body
	case max == 0:
		max = DefaultMaxResponseBytes
	}
	return &inflatedBody{ReadCloser: resp.Body, left: max, max: max}
}

// inflatedBody counts the bytes read from an inflated body.
type inflatedBody struct {
	io.ReadCloser
	left, max int64
	over      bool
}

func (b *inflatedBody) Read(p []byte) (int, error) {
	if b.over {
		return 0, b.err()
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		b.over = true
		return int(b.left), b.err()
	}
	b.left -= int64(n)
	return n, err
}

func (b *inflatedBody) err() error {
	return fmt.Errorf("%w: more than %d bytes inflated from a compressed body", ErrResponseTooLarge, b.max)
}
