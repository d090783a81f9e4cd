package agentmcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os/exec"
	"slices"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport says how to reach an MCP server: a [Command], a
// [StreamableHTTP] endpoint, or an [SDKTransport]. The set is closed. A
// Transport is a recipe, not a connection: the [Toolset] makes a fresh
// SDK transport from it each time it connects, the first time and after
// the server went away.
type Transport interface {
	// newTransport returns a fresh SDK transport for one connection;
	// maxResponse, when not negative, bounds what one request may read.
	newTransport(maxResponse int64) (mcp.Transport, error)
}

// Command starts the server as a subprocess and speaks to it over its
// standard input and output (the MCP stdio transport). Each connection
// starts a new process; closing the connection closes its standard input,
// then terminates it if it has not exited within TerminateAfter.
type Command struct {
	// Path is the program to run, looked up in PATH when it holds no
	// separator (as [exec.Command] does).
	Path string
	// Args are the arguments after the program's name.
	Args []string
	// Env is the process's environment; nil inherits this process's.
	Env []string
	// Dir is the working directory; empty means this process's.
	Dir string
	// Stderr receives the server's standard error; nil discards it.
	Stderr io.Writer
	// TerminateAfter is how long closing waits for the process to exit
	// on its own before signalling it; zero means the SDK's default (5s).
	TerminateAfter time.Duration
}

// StreamableHTTP reaches a server over the Streamable HTTP transport.
type StreamableHTTP struct {
	// URL is the server's MCP endpoint.
	URL string
	// Header is sent with every request, for authentication
	// (Authorization: Bearer ...) or routing. It is copied at each
	// connection.
	Header http.Header
	// HTTPClient makes the requests; nil means [http.DefaultClient].
	// Header is added by wrapping its Transport, which it keeps.
	HTTPClient *http.Client
}

// SDKTransport reaches a server through any transport of the SDK: an
// in-memory transport in tests, a custom one elsewhere.
type SDKTransport struct {
	// New returns the transport of one connection; it is called at every
	// connection, so a transport that works once (such as one of
	// [mcp.NewInMemoryTransports]) must be made afresh by it.
	New func() (mcp.Transport, error)
}

// errNoTransport is reported for a server whose Transport is nil or empty.
var errNoTransport = errors.New("no transport")

func (c Command) newTransport(int64) (mcp.Transport, error) {
	if c.Path == "" {
		return nil, fmt.Errorf("%w: Command without a Path", errNoTransport)
	}
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = slices.Clone(c.Env)
	cmd.Dir = c.Dir
	cmd.Stderr = c.Stderr
	return &mcp.CommandTransport{Command: cmd, TerminateDuration: c.TerminateAfter}, nil
}

func (h StreamableHTTP) newTransport(maxResponse int64) (mcp.Transport, error) {
	if h.URL == "" {
		return nil, fmt.Errorf("%w: StreamableHTTP without a URL", errNoTransport)
	}
	client := http.DefaultClient
	if h.HTTPClient != nil {
		client = h.HTTPClient
	}
	wrapped := *client
	wrapped.Transport = boundedTransport{base: cmp.Or[http.RoundTripper](client.Transport, http.DefaultTransport), header: h.Header.Clone(), max: maxResponse}
	return &mcp.StreamableClientTransport{Endpoint: h.URL, HTTPClient: &wrapped}, nil
}

func (s SDKTransport) newTransport(int64) (mcp.Transport, error) {
	if s.New == nil {
		return nil, fmt.Errorf("%w: SDKTransport without New", errNoTransport)
	}
	t, err := s.New()
	if err == nil && t == nil {
		err = fmt.Errorf("%w: SDKTransport.New returned nil", errNoTransport)
	}
	return t, err
}

// boundedTransport adds header to every request it sends and bounds the
// body of the response to each POST (a request's messages: its progress
// and its result) to max bytes, when max is not negative. The standalone
// stream a GET opens is not bounded: it lives as long as the session.
type boundedTransport struct {
	base   http.RoundTripper
	header http.Header
	max    int64
}

// RoundTrip sends a copy of req carrying the header.
func (t boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.header) > 0 {
		req = req.Clone(req.Context())
		maps.Copy(req.Header, t.header)
	}
	resp, err := t.base.RoundTrip(req)
	if err == nil && req.Method == http.MethodPost && t.max >= 0 {
		tripped, _ := req.Context().Value(trippedKey{}).(*atomic.Bool)
		resp.Body = &boundedBody{ReadCloser: resp.Body, left: t.max, max: t.max, tripped: tripped}
	}
	return resp, err
}

// trippedKey keys the flag a call's ctx carries for the bound of its
// response: the SDK reports some failed reads without their error, so a
// body that reached its bound says so there.
type trippedKey struct{}

// withTripFlag returns ctx carrying a fresh flag for [boundedBody].
func withTripFlag(ctx context.Context) (context.Context, *atomic.Bool) {
	flag := new(atomic.Bool)
	return context.WithValue(ctx, trippedKey{}, flag), flag
}

// boundedBody fails a read past its bound with an error wrapping
// [ErrResultTooLarge], and sets tripped, when not nil.
type boundedBody struct {
	io.ReadCloser
	left, max int64
	tripped   *atomic.Bool
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		if b.tripped != nil {
			b.tripped.Store(true)
		}
		return 0, fmt.Errorf("%w: a response over %d bytes", ErrResultTooLarge, b.max)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
