package azure

import (
	"net/http"
	"testing"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// The tests of this file replay the responses of testdata/stream and the
// requests of testdata/request and compare what the stream function makes
// of them with what pi-ai 1.6.0 made of the same bytes (see providertest's
// "Reference recordings").

// TestMatchesReference replays the recorded responses, aborts and cut
// streams (see providertest's Target.Reference).
func TestMatchesReference(t *testing.T) { testTarget(t).Reference(t) }

// TestRefusalsMatchReference compares the error texts of refusal bodies
// with pi-ai 1.6.0's, as it reports them and after a retry delay too long.
func TestRefusalsMatchReference(t *testing.T) { testTarget(t).Refusals(t) }

// TestRequestMatchesReference sends each case of testdata/request (the
// transcripts of the Responses codec's recordings, and conversations of
// Chat Completions and of OpenAI's Responses API replayed into Azure)
// with its model, options and environment, and compares the URL, the
// api-key and other headers, the body and the message with pi-ai's; for
// the cases pi-ai failed (no endpoint, a base URL that is no URL), the
// error text.
func TestRequestMatchesReference(t *testing.T) {
	answer := providertest.ReadTestdata(t, "stream", "reasoning.sse")
	kept := []string{"accept", "api-key", "authorization", "content-type", "session-id", "x-client-request-id", "x-model-header", "x-request-header", "x-session-id"}
	testTarget(t).FullURLRequests(t, testKey, answer, kept, func(client *http.Client, getenv func(string) string) agentcore.StreamFn {
		return StreamFn(Options{HTTPClient: client, Getenv: getenv})
	})
}
