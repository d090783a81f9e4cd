package bedrock

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// seenRequest is what a test server saw of one request.
type seenRequest struct {
	path, authorization, contentType string
	header                           http.Header
	body                             []byte
}

// recordingServer answers every request with body (an event stream) and
// keeps the last request.
func recordingServer(t *testing.T, body []byte) (string, func() seenRequest) {
	var mu sync.Mutex
	var last seenRequest
	srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		last = seenRequest{path: r.URL.EscapedPath(), authorization: r.Header.Get("Authorization"), contentType: r.Header.Get("Content-Type"), header: r.Header.Clone(), body: data}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/vnd.amazon.eventstream")
		w.Write(body)
	})
	return srv.URL, func() seenRequest { mu.Lock(); defer mu.Unlock(); return last }
}

// TestRequestsMatchReference sends the transcripts of testdata/request
// with each case's model, options and environment, and compares the
// request (path, authorization, content type, JSON body) with the one
// pi-ai 1.6.0 sent through the AWS SDK.
func TestRequestsMatchReference(t *testing.T) {
	var file struct {
		Cases []struct {
			providertest.RequestCase
			Env map[string]string `json:"env"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "request", "cases.json"), &file))
	require.NotEmpty(t, file.Cases)
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			var want struct {
				URL     string            `json:"url"`
				Headers map[string]string `json:"headers"`
				Body    json.RawMessage   `json:"body"`
			}
			require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "request", c.Name+".pi.json"), &want))
			url, seen := recordingServer(t, providertest.ReadTestdata(t, "stream", "text.bin"))
			fn := StreamFn(Options{BaseURL: url, Getenv: func(k string) string { return c.Env[k] }})
			_, final := providertest.Collect(fn(t.Context(), c.Model, agentcore.Request{Messages: c.Messages(t)}, c.StreamOptions(testAPIKey)), nil)
			require.NotNil(t, final)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			got := seen()
			assert.Equal(t, want.URL, got.path)
			assert.Equal(t, want.Headers["authorization"], got.authorization)
			assert.Equal(t, want.Headers["content-type"], got.contentType)
			assert.JSONEq(t, string(want.Body), string(got.body))
		})
	}
}
