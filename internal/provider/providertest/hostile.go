package providertest

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pi-go/agentcore"
)

// Hostile checks the provider against servers that try to do it harm:
// see each subtest.
func Hostile(t *testing.T, target Target) {
	t.Run("redirects", target.redirects)
}

// redirects: a redirect within the server's origin is followed with the
// request's headers; one to another origin is refused and that origin
// gets nothing, whether the provider sends with the default client or
// with a caller's client whose own policy follows every redirect.
func (target Target) redirects(t *testing.T) {
	const custom = "custom-credential"
	so := agentcore.StreamOptions{APIKey: "secret-key", Headers: map[string]string{"Api-Key": custom}}
	var elsewhere atomic.Int32
	other := Serve(t, func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(target.Success)
	})
	var keyAfterMove atomic.Value
	srv := Serve(t, func(w http.ResponseWriter, r *http.Request) {
		first, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		switch first {
		case "here":
			w.Header().Set("Location", "/moved/"+rest)
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "away":
			w.Header().Set("Location", other.URL+"/"+rest)
			w.WriteHeader(http.StatusTemporaryRedirect)
		default:
			keyAfterMove.Store(r.Header.Get("Api-Key"))
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(target.Success)
		}
	})
	clients := []struct {
		name   string
		client *http.Client
	}{
		{name: "default client"},
		{name: "client that follows every redirect", client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}},
	}
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			t.Run("same origin", func(t *testing.T) {
				final := target.Final(t, target.New(srv.URL+"/here", c.client), so)
				assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
				assert.Equal(t, custom, keyAfterMove.Load())
			})
			t.Run("other origin", func(t *testing.T) {
				final := target.Final(t, target.New(srv.URL+"/away", c.client), so)
				assert.Zero(t, elsewhere.Load(), "the other origin got the request")
				assert.Equal(t, agentcore.StopError, final.StopReason)
				assert.ErrorIs(t, final.Err, agentcore.ErrCrossOriginRedirect)
				assert.Contains(t, final.ErrorMessage, "redirect to another origin refused")
				assert.False(t, agentcore.IsRetryable(final.Err), "retryable: %s", final.ErrorMessage)
			})
		})
	}
	if c := clients[1].client; c.CheckRedirect == nil {
		t.Error("the caller's client was changed")
	}
}
