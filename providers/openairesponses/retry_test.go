package openairesponses

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestRetryClassification checks how the failures of the recorded
// responses classify with [agentcore.IsRetryable]: by HTTP status, else
// by their text as pi-ai's isRetryableAssistantError reads it, so that in
// the stream an overloaded server, a server error, a rate limit and a cut
// stream are worth a retry, and a content filter, a refusal of the
// request or a ChatGPT usage limit are not. pi-ai 1.6.0's
// isRetryableAssistantError gives the same answers for the recorded
// messages.
func TestRetryClassification(t *testing.T) {
	for name, want := range map[string]bool{
		"failed":               true,  // server_error: ...
		"failed-no-details":    false, // Unknown error (no error details in response)
		"stream-error-named":   true,  // overloaded
		"stream-error-unnamed": true,  // Error Code rate_limit_exceeded: ...
		"stream-error-field":   false, // Upstream gateway failed
		"cut-off":              true,  // ended before a terminal response event
		"content-filter":       false,
		"unfinished-tool-call": false,
		"malformed":            false,
		"http-400":             false,
		"http-429":             true,
		"http-429-usage-limit": false,
		"http-502":             true,
		"http-503-empty":       true,
	} {
		t.Run(name, func(t *testing.T) {
			_, cases := providertest.StreamCases(t)
			var c *providertest.StreamCase
			for i := range cases {
				if cases[i].Name == name {
					c = &cases[i]
				}
			}
			require.NotNil(t, c)
			contentType := c.ContentType
			if contentType == "" {
				contentType = "text/event-stream"
			}
			srv := providertest.ServeBody(t, c.Status, contentType, nil, providertest.ReadTestdata(t, "stream", c.Body))
			_, final := testTarget(t).Run(t, t.Context(), streamFrom(srv), nil)
			require.Equal(t, agentcore.StopError, final.StopReason)
			require.Error(t, final.Err)
			assert.Equal(t, want, agentcore.IsRetryable(final.Err), final.ErrorMessage)
			pe, ok := final.Err.(*agentcore.ProviderError)
			require.True(t, ok)
			if c.Status != 200 {
				assert.Equal(t, c.Status, pe.StatusCode)
			}
		})
	}
}
