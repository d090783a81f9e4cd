package provider

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// connKey keys the request counter of a connection in its context.
type connKey struct{}

// dropReusedServer answers the first request of each connection, keeping
// it open, and closes a connection on its second request after reading
// it, before any byte of an answer: a server that drops its keep-alive
// connections as a request goes out on one (llama-server does).
func dropReusedServer(t *testing.T) (srv *httptest.Server, dropped *atomic.Int32) {
	dropped = new(atomic.Int32)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.Context().Value(connKey{}).(*atomic.Int32).Add(1) > 1 {
			dropped.Add(1)
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {}\n\n")
	}))
	srv.Config.ConnContext = func(ctx context.Context, _ net.Conn) context.Context {
		return context.WithValue(ctx, connKey{}, new(atomic.Int32))
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, dropped
}

// TestSendAgainOnDroppedKeepAlive sends requests one after another to a
// server that drops every reused connection: each request after the
// first goes out on the idle connection of the one before, fails before
// any answer, and is sent again on a fresh connection, with MaxRetries 0.
func TestSendAgainOnDroppedKeepAlive(t *testing.T) {
	srv, dropped := dropReusedServer(t)
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(client.CloseIdleConnections)
	for i := range 5 {
		resp, err := Do(t.Context(), Request{Client: client, URL: srv.URL, Header: http.Header{}, Body: []byte(`{}`)})
		require.NoError(t, err, "request %d", i)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		assert.Equal(t, "data: {}\n\n", string(body))
	}
	assert.Equal(t, int32(4), dropped.Load(), "every request after the first met a dropped connection")
}

// TestNoSendAgainOnFreshConnection checks that a request whose fresh
// connection fails is not sent again without MaxRetries.
func TestNoSendAgainOnFreshConnection(t *testing.T) {
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Add(1)
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(client.CloseIdleConnections)
	_, err := Do(t.Context(), Request{Client: client, URL: srv.URL, Header: http.Header{}, Body: []byte(`{}`), Options: agentcore.StreamOptions{}})
	require.Error(t, err)
	assert.Equal(t, int32(1), seen.Load())
}
