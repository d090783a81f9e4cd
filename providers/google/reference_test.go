package google

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// The tests of this file replay the responses of testdata/stream and
// compare what the stream function makes of them with what pi-ai 1.6.0
// made of the same bytes (see providertest's "Reference recordings").

// TestMatchesReference replays the recorded responses, aborts and cut
// streams (see providertest's Target.Reference).
func TestMatchesReference(t *testing.T) { testTarget(t).Reference(t) }

// TestRefusalsMatchReference compares the error texts of refusal bodies
// with pi-ai 1.6.0's. A 429 asking a longer delay than MaxRetryDelay fails
// at once with the delay's text first, as the other providers do; pi-ai's
// Google provider never sees the header and retries after its backoff.
func TestRefusalsMatchReference(t *testing.T) {
	target := testTarget(t)
	var file struct {
		Cases []struct {
			Name, Body, Text string
			Status           int
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "stream", "refusals.pi.json"), &file))
	require.NotEmpty(t, file.Cases)
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			srv := providertest.ServeBody(t, c.Status, "application/json", nil, []byte(c.Body))
			_, final := target.Run(t, t.Context(), target.New(srv.URL, srv.Client()), nil)
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.Equal(t, c.Text, final.ErrorMessage, "refused with %d", c.Status)

			srv = providertest.ServeBody(t, 429, "application/json", map[string]string{"Retry-After": "120"}, []byte(c.Body))
			so := agentcore.StreamOptions{APIKey: target.APIKey, MaxRetries: 1, MaxRetryDelay: time.Minute}
			_, final = providertest.Collect(target.New(srv.URL, srv.Client())(t.Context(), target.Model, providertest.HiRequest(), so), nil)
			require.NotNil(t, final)
			assert.Equal(t, "Server requested 120s retry delay (max: 60s). "+c.Text, final.ErrorMessage)
		})
	}
}
