package redirect

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name, from, to string
		ok             bool
	}{
		{name: "same origin, other path", from: "https://api.example.com/v1/messages", to: "https://api.example.com/v2/messages", ok: true},
		{name: "default port spelled out", from: "https://api.example.com/v1", to: "https://API.example.com:443/v2", ok: true},
		{name: "other host", from: "http://127.0.0.1:8080/v1", to: "http://localhost:8080/v1"},
		{name: "subdomain", from: "https://example.com/v1", to: "https://api.example.com/v1"},
		{name: "other port", from: "http://127.0.0.1:8080/v1", to: "http://127.0.0.1:8081/v1"},
		{name: "downgrade to http", from: "https://api.example.com/v1", to: "http://api.example.com/v1"},
		{name: "upgrade to https", from: "http://api.example.com/v1", to: "https://api.example.com/v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, err := http.NewRequest(http.MethodPost, tt.from, nil)
			require.NoError(t, err)
			next, err := http.NewRequest(http.MethodPost, tt.to, nil)
			require.NoError(t, err)
			err = Check(next, []*http.Request{first})
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, ErrCrossOrigin)
		})
	}
}

// TestCheckNamesBoundedOrigins: the error names both origins, never the
// path or query, and cuts a long host.
func TestCheckNamesBoundedOrigins(t *testing.T) {
	first, _ := http.NewRequest(http.MethodPost, "https://api.example.com/v1?key=secret", nil)
	next, _ := http.NewRequest(http.MethodPost, "https://"+strings.Repeat("a", 5000)+".example/x?key=secret", nil)
	err := Check(next, []*http.Request{first})
	require.ErrorIs(t, err, ErrCrossOrigin)
	assert.NotContains(t, err.Error(), "secret")
	assert.Contains(t, err.Error(), "from https://api.example.com to https://aaa")
	assert.Less(t, len(err.Error()), len(ErrCrossOrigin.Error())+2*maxOriginText+50)
}

// TestGuard: a guarded client sends nothing to another origin, follows a
// same-origin redirect through the caller's own policy, and leaves the
// caller's client unchanged.
func TestGuard(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/x", http.StatusTemporaryRedirect)
		case "/here":
			http.Redirect(w, r, "/ok", http.StatusTemporaryRedirect)
		default:
			w.Write([]byte("ok"))
		}
	}))
	defer srv.Close()

	var asked int
	own := func(*http.Request, []*http.Request) error { asked++; return nil }
	mine := &http.Client{Transport: srv.Client().Transport, CheckRedirect: own}
	c := Guard(mine)

	_, err := c.Post(srv.URL+"/away", "application/json", strings.NewReader("{}"))
	assert.ErrorIs(t, err, ErrCrossOrigin)
	assert.Zero(t, elsewhere.Load(), "the other origin got a request")
	assert.Zero(t, asked, "the caller's policy is not asked about a refused redirect")

	resp, err := c.Post(srv.URL+"/here", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, 1, asked)

	assert.NotSame(t, mine, c)
	assert.NotNil(t, mine.CheckRedirect)
	assert.NoError(t, mine.CheckRedirect(nil, nil))
	assert.Equal(t, 2, asked, "the caller's client keeps its own policy")
}

// TestGuardDefaultLimit: with no policy of its own, a client follows at
// most 10 same-origin redirects, as Go's default does.
func TestGuardDefaultLimit(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/again", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	_, err := Guard(srv.Client()).Get(srv.URL)
	require.Error(t, err)
	assert.False(t, errors.Is(err, ErrCrossOrigin))
	assert.Contains(t, err.Error(), "stopped after 10 redirects")
	assert.NotNil(t, Guard(nil).CheckRedirect)
	assert.Nil(t, http.DefaultClient.CheckRedirect)
}

// TestDo: a refused redirect's error is the policy's own, without the
// URL the server chose.
func TestDo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://elsewhere.invalid/path?secret=1", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
	require.NoError(t, err)
	_, err = Do(nil, req)
	require.ErrorIs(t, err, ErrCrossOrigin)
	assert.Equal(t, ErrCrossOrigin.Error()+" (from "+srv.URL+" to http://elsewhere.invalid)", err.Error())
}
