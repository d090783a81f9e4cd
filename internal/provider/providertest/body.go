package providertest

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// ReaderClient returns a client that answers every request with a 200
// event stream whose body is what open returns for it, without a network.
func ReaderClient(open func(*http.Request) io.Reader) *http.Client {
	return &http.Client{Transport: readerTransport(open)}
}

type readerTransport func(*http.Request) io.Reader

func (open readerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	io.Copy(io.Discard, r.Body)
	r.Body.Close()
	return &http.Response{
		StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(open(r)), Request: r,
	}, nil
}

// StallClient returns a client that answers every request with a 200
// event stream that sends head and then nothing, until the request ends.
func StallClient(head []byte) *http.Client {
	return ReaderClient(func(r *http.Request) io.Reader { return &stallBody{head: bytes.NewReader(head), ctx: r.Context()} })
}

// stallBody reads head, then waits for ctx to end.
type stallBody struct {
	head *bytes.Reader
	ctx  context.Context
}

func (b *stallBody) Read(p []byte) (int, error) {
	if b.head.Len() > 0 {
		return b.head.Read(p)
	}
	<-b.ctx.Done()
	return 0, b.ctx.Err()
}

// repeated reads event n times, holding it once.
type repeated struct {
	event []byte
	n     int
	r     bytes.Reader
}

func (rp *repeated) Read(p []byte) (int, error) {
	for rp.r.Len() == 0 {
		if rp.n == 0 {
			return 0, io.EOF
		}
		rp.n--
		rp.r.Reset(rp.event)
	}
	return rp.r.Read(p)
}

// ToolCallBody returns a reader of a response of one tool call whose
// arguments are {"content":"xxx..."} with n pieces of piece bytes of x,
// each an event: the body is generated as it is read, never held whole.
func (target Target) ToolCallBody(n, piece int) io.Reader {
	return io.MultiReader(
		bytes.NewReader(target.ToolCallHead),
		bytes.NewReader(target.ArgumentsEvent(`{"content":"`)),
		&repeated{event: target.ArgumentsEvent(string(bytes.Repeat([]byte("x"), piece))), n: n},
		bytes.NewReader(target.ArgumentsEvent(`"}`)),
		bytes.NewReader(target.ToolCallTail),
	)
}
