package vertex

import (
	"context"
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

// adcToken is the token the recordings' Application Default Credentials
// gave.
const adcToken = "test-adc-token"

// TestRequestMatchesReference sends each case of testdata/request (the
// Gemini codec's transcripts, made by the Gemini API and so replayed from
// another API, and the endpoint cases: express keys, ADC in a region,
// globally, in a multi-region, the project and location from the
// environment, custom base URLs, publisher models) with its model,
// options and environment, and compares the URL, the headers, the body
// and the message with pi-ai's; for the cases pi-ai failed (no project,
// no location), the error text.
func TestRequestMatchesReference(t *testing.T) {
	answer := providertest.ReadTestdata(t, "stream", "thinking.sse")
	kept := []string{"authorization", "content-type", "x-goog-api-key", "x-model-header", "x-request-header"}
	token := func(context.Context) (string, error) { return adcToken, nil }
	testTarget(t).FullURLRequests(t, testKey, answer, kept, func(client *http.Client, getenv func(string) string) agentcore.StreamFn {
		return StreamFn(Options{HTTPClient: client, Getenv: getenv, Token: token})
	})
}
