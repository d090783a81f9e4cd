package anthropic

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/golden"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// requestRecording is a request/NAME.pi.json file: what pi-ai sent for a
// case, and the message it built from the answer (stream/thinking.sse).
type requestRecording struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
	Message json.RawMessage   `json:"message"`
}

// sent is what a server saw of one request.
type sent struct {
	url    string
	header http.Header
	body   []byte
}

// TestRequestGolden sends a transcript (transcript.json: system sections
// and a mid-run system message with tool changes, images, signed, unsigned
// and redacted thinking, parallel tool calls, results with images and
// errors, a failed turn, a foreign model's turn with an orphaned call;
// transcript-edges.json: blank user messages, an assistant message left
// empty, system messages between a call and its result and at the end, an
// image-only result, a schema with root keywords the API rejects) with each case's
// model and options to a server answering with stream/thinking.sse, and
// checks the body against its golden file (go test -update rewrites them),
// the body and the headers against those pi-ai 1.6.0 sent for the same
// input, and the message built against pi-ai's.
func TestRequestGolden(t *testing.T) {
	cases := providertest.RequestCases(t)
	answer := providertest.ReadTestdata(t, "stream", "thinking.sse")
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			seen := make(chan sent, 1)
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				seen <- sent{url: r.URL.RequestURI(), header: r.Header.Clone(), body: body}
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(answer)
			})
			fn := StreamFn(Options{BaseURL: srv.URL, HTTPClient: srv.Client()})
			_, final := providertest.Collect(fn(t.Context(), c.Model, agentcore.Request{Messages: c.Messages(t)}, c.StreamOptions("sk-ant-test")), nil)
			require.NotNil(t, final)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			got := <-seen

			var ref requestRecording
			require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "request", c.Name+".pi.json"), &ref))
			golden.Check(t, indent(t, got.body), filepath.Join("testdata", "request", c.Name+".golden.json"))
			assert.JSONEq(t, string(ref.Body), string(got.body), "body differs from pi's")
			assert.Equal(t, ref.URL, got.url, "path differs from pi's")
			assert.Equal(t, ref.Headers, keptHeaders(got.header), "headers differ from pi's")
			assert.Equal(t, testTarget(t).ComparableMessage(t, providertest.ReferenceMessage(t, ref.Message)), testTarget(t).ComparableMessage(t, final), "message differs from pi's")
		})
	}
}

// keptHeaders returns the headers of h that providertest/oracle/record.mjs
// keeps (its keptHeaders), keyed in lower case as Node shows them.
func keptHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"accept", "anthropic-beta", "anthropic-dangerous-direct-browser-access", "anthropic-version", "content-type", "x-api-key",
		"x-model-header", "x-request-header", "x-session-affinity", "x-session-id"} {
		if v := h.Values(k); len(v) > 0 {
			out[k] = strings.Join(v, ", ")
		}
	}
	return out
}

// indent returns body indented, as the golden files hold it.
func indent(t *testing.T, body []byte) []byte {
	var out bytes.Buffer
	require.NoError(t, json.Indent(&out, body, "", "  "))
	out.WriteByte('\n')
	return out.Bytes()
}
