package google

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestRetryClassification: with a retry allowed, a 408, 409, 429 or 5xx
// is sent again, as pi-ai's Google provider does; other refusals are
// final. The failure keeps the status for a retry policy above the agent.
func TestRetryClassification(t *testing.T) {
	target := testTarget(t)
	for _, tc := range []struct {
		status  int
		retried bool
	}{
		{408, true}, {409, true}, {429, true}, {500, true}, {503, true}, {504, true},
		{400, false}, {401, false}, {403, false}, {404, false},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			var n atomic.Int32
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				n.Add(1)
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("Retry-After-Ms", "1")
				w.WriteHeader(tc.status)
				w.Write([]byte(`{"error":{"code":` + strconv.Itoa(tc.status) + `}}`))
			})
			so := agentcore.StreamOptions{APIKey: "k", MaxRetries: 1}
			_, final := providertest.Collect(target.New(srv.URL, srv.Client())(t.Context(), target.Model, providertest.HiRequest(), so), nil)
			require.NotNil(t, final)
			assert.Equal(t, `{"error":{"code":`+strconv.Itoa(tc.status)+`}}`, final.ErrorMessage)
			want := int32(1)
			if tc.retried {
				want = 2
			}
			assert.Equal(t, want, n.Load())
			pe, ok := final.Err.(*agentcore.ProviderError)
			require.True(t, ok, "%T", final.Err)
			assert.Equal(t, tc.status, pe.StatusCode)
		})
	}
	t.Run("an error object in the stream keeps its code", func(t *testing.T) {
		srv := providertest.ServeBody(t, 200, "text/event-stream", nil, providertest.ReadTestdata(t, "stream", "stream-error-429.sse"))
		_, final := target.Run(t, t.Context(), target.New(srv.URL, srv.Client()), nil)
		pe, ok := final.Err.(*agentcore.ProviderError)
		require.True(t, ok, "%T", final.Err)
		assert.Equal(t, 429, pe.StatusCode)
		assert.True(t, agentcore.IsRetryable(final.Err))
	})
}
