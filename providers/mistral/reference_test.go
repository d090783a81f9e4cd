package mistral

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

// TestRequestMatchesReference sends each case of testdata/request
// (transcript.json: system sections and a mid-run system message,
// thinking, text and calls of this model, a turn of another provider
// whose call IDs become Mistral's, results with images and errors, an
// orphaned call and result, IDs that collide once normalized;
// transcript-responses.json: a conversation of OpenAI's Responses API)
// with its model and options, and compares the URL, the headers (the
// x-affinity session header above all), the body and the message with
// pi-ai's.
func TestRequestMatchesReference(t *testing.T) {
	answer := providertest.ReadTestdata(t, "stream", "thinking.sse")
	kept := []string{"accept", "authorization", "content-type", "x-affinity", "x-model-header", "x-request-header"}
	testTarget(t).FullURLRequests(t, testKey, answer, kept, func(client *http.Client, _ func(string) string) agentcore.StreamFn {
		return StreamFn(Options{HTTPClient: client})
	})
}
