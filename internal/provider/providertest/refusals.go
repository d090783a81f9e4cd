package providertest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// refusalCase is one entry of testdata/stream/refusals.pi.json: a refusal
// body and the error texts pi-ai made of it.
type refusalCase struct {
	Name   string `json:"name"`
	Status int    `json:"status"`
	Body   string `json:"body"`
	// Text is the errorMessage of Body served with Status.
	Text string `json:"text"`
	// DelayTooLong is the errorMessage of Body served as a 429 whose
	// Retry-After (120s) exceeds MaxRetryDelay (60s), with a retry left.
	DelayTooLong string `json:"delayTooLong"`
}

// Refusals serves each body of testdata/stream/refusals.pi.json, in a
// subtest named after it, with its status and then as a 429 asking a
// longer retry delay than allowed, and compares the error messages with
// the ones pi-ai gave.
func (target Target) Refusals(t *testing.T) {
	var file struct {
		Cases []refusalCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(ReadTestdata(t, "stream", "refusals.pi.json"), &file))
	require.NotEmpty(t, file.Cases)
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			srv := ServeBody(t, c.Status, "application/json", nil, []byte(c.Body))
			_, final := target.Run(t, t.Context(), target.New(srv.URL, srv.Client()), nil)
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.Equal(t, c.Text, final.ErrorMessage, "refused with %d", c.Status)

			srv = ServeBody(t, 429, "application/json", map[string]string{"Retry-After": "120"}, []byte(c.Body))
			so := agentcore.StreamOptions{APIKey: target.APIKey, MaxRetries: 1, MaxRetryDelay: time.Minute}
			_, final = Collect(target.New(srv.URL, srv.Client())(t.Context(), target.Model, HiRequest(), so), nil)
			require.NotNil(t, final)
			assert.Equal(t, c.DelayTooLong, final.ErrorMessage, "refused with a retry delay too long")
		})
	}
}
