package providertest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// Serve starts a server with h, closed when the test ends.
func Serve(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// ServeBody starts a server, closed when the test ends, answering every
// request with status, contentType, header (may be nil) and body.
func ServeBody(t testing.TB, status int, contentType string, header map[string]string, body []byte) *httptest.Server {
	t.Helper()
	return Serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		w.Write(body)
	})
}

// HangingServer starts a server that reads each request's body, calls
// arrived (when not nil), answers with head as an event stream (when not
// nil) and then holds the response open until the client goes away,
// which it reports by closing gone.
func HangingServer(t testing.TB, head []byte, arrived func()) (srv *httptest.Server, gone <-chan struct{}) {
	done := make(chan struct{})
	srv = Serve(t, func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		io.Copy(io.Discard, r.Body) // then the server notices the client leaving
		if arrived != nil {
			arrived()
		}
		if head != nil {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(head)
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	})
	return srv, done
}

// WaitGone waits for a [HangingServer] to see its client go away.
func WaitGone(t testing.TB, gone <-chan struct{}) {
	t.Helper()
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the client close the connection")
	}
}

// Recorder records the headers and body of each request its servers get.
// The zero value is ready to use.
type Recorder struct {
	mu      sync.Mutex
	headers []http.Header
	bodies  [][]byte
}

// record reads and records r.
func (rec *Recorder) record(r *http.Request) int {
	b, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.headers = append(rec.headers, r.Header.Clone())
	rec.bodies = append(rec.bodies, b)
	return len(rec.bodies) - 1
}

// Serve starts a server closed with the test that records each request
// and answers with status, header and body (an event stream unless header
// says otherwise), and returns the target's stream function for it.
func (rec *Recorder) Serve(t *testing.T, target Target, status int, header map[string]string, body []byte) agentcore.StreamFn {
	t.Helper()
	srv := Serve(t, func(w http.ResponseWriter, r *http.Request) {
		rec.record(r)
		w.Header().Set("Content-Type", "text/event-stream")
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		w.Write(body)
	})
	return target.New(srv.URL, srv.Client())
}

// Script starts a server closed with the test that records each request
// and answers the n-th with the event stream bodies[n], and a request
// past the script with a 500; it returns the target's stream function for
// it.
func (rec *Recorder) Script(t *testing.T, target Target, bodies ...[]byte) agentcore.StreamFn {
	t.Helper()
	srv := Serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := rec.record(r)
		if n >= len(bodies) {
			http.Error(w, "no scripted response", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(bodies[n])
	})
	return target.New(srv.URL, srv.Client())
}

// Requests returns the recorded headers and bodies, in the order the
// requests arrived.
func (rec *Recorder) Requests() ([]http.Header, [][]byte) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.headers, rec.bodies
}

// AgentRequests returns the bodies of the two requests of an [AgentRun]
// rec recorded, requiring two and checking that each sent the hook's key
// as header name's value want.
func (rec *Recorder) AgentRequests(t *testing.T, name, want string) [][]byte {
	t.Helper()
	headers, bodies := rec.Requests()
	require.Len(t, bodies, 2)
	for i, h := range headers {
		assert.Equal(t, want, h.Get(name), "request %d", i)
	}
	return bodies
}
