package google

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestRequestMatchesReference sends each case of testdata/request/cases.json
// (transcript.json: system sections and a mid-run system message with tool
// changes, consts in tool schemas, signed thinking, text and calls, a
// signature that is not base64, empty signed parts, tool results with
// images and errors, a failed turn, a foreign model's turn, an orphaned
// call; transcript-edges.json: blank and empty user messages, system
// messages between a call and its result, an image-only error result, a
// schema with root keywords; the same for Gemini 3 models, which take IDs
// and images inside function responses) with its model and options to a
// server answering stream/thinking.sse, and checks the body, the path and
// the headers against what pi-ai 1.6.0 sent for the same input, and the
// message built against pi-ai's.
func TestRequestMatchesReference(t *testing.T) {
	cases := providertest.RequestCases(t)
	require.NotEmpty(t, cases)
	answer := providertest.ReadTestdata(t, "stream", "thinking.sse")
	target := testTarget(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			type sent struct {
				path   string
				header http.Header
				body   []byte
			}
			seen := make(chan sent, 1)
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				seen <- sent{path: r.URL.RequestURI(), header: r.Header.Clone(), body: body}
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(answer)
			})
			model := c.Model
			model.BaseURL = strings.Replace(model.BaseURL, "http://127.0.0.1", srv.URL, 1)
			fn := StreamFn(Options{HTTPClient: srv.Client()})
			_, final := providertest.Collect(fn(t.Context(), model, agentcore.Request{Messages: c.Messages(t)}, c.StreamOptions("test-gemini-key")), nil)
			require.NotNil(t, final)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			got := <-seen

			var ref struct {
				Headers map[string]string `json:"headers"`
				Body    json.RawMessage   `json:"body"`
				Message json.RawMessage   `json:"message"`
			}
			require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "request", c.Name+".pi.json"), &ref))
			assert.JSONEq(t, string(ref.Body), string(got.body), "body differs from pi's")
			name := c.Model.ID
			if !strings.HasPrefix(name, "models/") {
				name = "models/" + name
			}
			assert.Equal(t, "/v1beta/"+name+":streamGenerateContent?alt=sse", got.path)
			assert.Equal(t, ref.Headers, keptHeaders(got.header), "headers differ from pi's")
			assert.Equal(t, target.ComparableMessage(t, providertest.ReferenceMessage(t, ref.Message)), target.ComparableMessage(t, final), "message differs from pi's")
		})
	}
}

// keptHeaders returns the headers of h that providertest/oracle/record.mjs
// keeps for this provider, keyed in lower case as Node shows them.
func keptHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"content-type", "x-goog-api-key", "x-model-header", "x-request-header"} {
		if v := h.Values(k); len(v) > 0 {
			out[k] = strings.Join(v, ", ")
		}
	}
	return out
}
