package providertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// GzipBomb returns a gzip body (for Content-Encoding: gzip) that inflates
// to head and then n MiB of newlines: one member of head, then the same
// member of 1 MiB of newlines (about 1 KB) n times, as gzip allows
// members to follow one another. It costs about n KB on the wire.
func GzipBomb(t testing.TB, head []byte, n int) []byte {
	member := func(data []byte) []byte {
		var b bytes.Buffer
		z, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
		require.NoError(t, err)
		_, err = z.Write(data)
		require.NoError(t, err)
		require.NoError(t, z.Close())
		return b.Bytes()
	}
	newlines := member(bytes.Repeat([]byte("\n"), 1<<20))
	return append(member(head), bytes.Repeat(newlines, n)...)
}

// ToServer returns a client that sends every request to srv, whatever its
// URL's host, through srv's own transport (Go's, which asks for gzip and
// inflates it): for a stream function made for another base URL.
func ToServer(srv *httptest.Server) *http.Client {
	return &http.Client{Transport: toServer{srv}}
}

type toServer struct{ srv *httptest.Server }

func (t toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = "http", t.srv.Listener.Addr().String(), ""
	return t.srv.Client().Transport.RoundTrip(r)
}

// gzipBomb: a body of 1 MB on the wire that inflates to 1 GiB (the
// first delta, then newlines) ends once the inflated bytes pass the
// response cap, with the cap's error and the content so far, instead of
// costing the reader a minute of CPU. Bedrock's event stream
// (HeadBody) reads newlines as a bad frame; its transport's bound is
// internal/provider's.
func (target Target) gzipBomb(t *testing.T) {
	if target.HeadBody != nil {
		t.Skip("not a server-sent event stream")
	}
	bomb := GzipBomb(t, target.Head(), 1024)
	srv := Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	})
	const max = 1 << 20
	start := time.Now()
	final := target.stream(t.Context(), target.WithLimits(ToServer(srv), Limits{MaxResponseBytes: max}), agentcore.StreamOptions{}, nil)
	t.Logf("%d KB on the wire: ended after %s", len(bomb)>>10, time.Since(start))
	require.NotNil(t, final)
	assert.Equal(t, agentcore.StopError, final.StopReason)
	assert.ErrorIs(t, final.Err, agentcore.ErrResponseTooLarge)
	assert.Equal(t, "Response too large: more than 1048576 bytes inflated from a compressed body", final.ErrorMessage)
	assert.False(t, agentcore.IsRetryable(final.Err))
	assert.Equal(t, "Hello", final.Text(), "the content so far is kept")
}

// idleBeforeHeaders: a server that never sends its headers ends the
// response at the idle timeout, as one that stalls mid-body does (the
// same rule as the proxy client's).
func (target Target) idleBeforeHeaders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fn := target.WithLimits(HangClient(), Limits{IdleTimeout: time.Minute})
		start := time.Now()
		final := target.stream(context.Background(), fn, agentcore.StreamOptions{}, nil)
		require.NotNil(t, final)
		assert.Equal(t, time.Minute, time.Since(start))
		assert.Equal(t, agentcore.StopError, final.StopReason)
		assert.ErrorIs(t, final.Err, agentcore.ErrStreamIdleTimeout)
		assert.Equal(t, "Stream idle timeout: no data from the server for 1m0s", final.ErrorMessage)
		assert.True(t, agentcore.IsRetryable(final.Err))
	})
}

// HangClient returns a client whose requests get no response until they
// end, without a network.
func HangClient() *http.Client {
	return &http.Client{Transport: hangTransport{}}
}

type hangTransport struct{}

func (hangTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	<-r.Context().Done()
	return nil, context.Cause(r.Context())
}
