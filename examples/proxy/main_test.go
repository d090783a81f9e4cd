package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

// TestRun runs the example end to end on loopback and checks its log.
func TestRun(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out bytes.Buffer
	err := run(ctx, &out)
	require.NoError(t, err, "run\n%s", out.String())
	log := out.String()
	for _, want := range []string{
		"user: How many widgets and gadgets do we have?",
		`   streaming lookup arguments: {"item":"widgets"}`,
		`   calls lookup {"item":"gadgets"}`,
		"tool result c1: 42 widgets",
		"tool result c2: 7 gadgets",
		"assistant: You have 42| widgets an|d 7 gadgets| in stock.|",
		"   [stop] 120 tokens in, 30 out",
		"agent end: 5 new messages",
		"wrong token: [error] Proxy error: invalid proxy token",
	} {
		assert.True(t, strings.Contains(log, want), "the log lacks %q", want)
	}
	if t.Failed() {
		t.Logf("log:\n%s", log)
	}
}

// TestServerTimeouts checks that the example's server bounds the reading
// of requests and leaves long answers alone, and that a client stalled
// halfway through its body is cut off once ReadTimeout passes.
func TestServerTimeouts(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newHTTPServer(server("tok", "key"))
	assert.Positive(t, srv.ReadHeaderTimeout)
	assert.Positive(t, srv.ReadTimeout)
	assert.Zero(t, srv.WriteTimeout, "a WriteTimeout cuts long streams")

	srv.ReadTimeout = 100 * time.Millisecond // short, for the test
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer func() {
		require.NoError(t, srv.Close())
		<-served
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	// The headers, then 10 bytes of a 1000-byte body, then nothing.
	_, err = io.WriteString(conn, "POST /api/stream HTTP/1.1\r\nHost: proxy\r\nAuthorization: Bearer tok\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"model\":")
	require.NoError(t, err)
	// The server answers (a 400 for the cut body) and closes: the read ends.
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(time.Minute)))
	answer, err := io.ReadAll(conn)
	require.NoError(t, err, "the stalled request was not cut off")
	assert.Contains(t, string(answer), "400 Bad Request")
}
