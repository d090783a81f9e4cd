package openairesponses

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

// requestCase is one entry of testdata/request/cases.json: a model and
// request options to send a transcript with.
type requestCase struct {
	Name string `json:"name"`
	// Transcript names the transcript file; empty means transcript.json.
	Transcript string          `json:"transcript"`
	Model      agentcore.Model `json:"model"`
	Options    struct {
		APIKey         string                  `json:"apiKey"`
		MaxTokens      int                     `json:"maxTokens"`
		Temperature    *float64                `json:"temperature"`
		Reasoning      agentcore.ThinkingLevel `json:"reasoning"`
		SessionID      string                  `json:"sessionId"`
		CacheRetention string                  `json:"cacheRetention"`
		Headers        map[string]string       `json:"headers"`
		SamplingParams json.RawMessage         `json:"samplingParams"`
	} `json:"options"`
}

func (c requestCase) streamOptions() agentcore.StreamOptions {
	o := c.Options
	key := o.APIKey
	if key == "" {
		key = "sk-test"
	}
	return agentcore.StreamOptions{
		APIKey: key, MaxTokens: o.MaxTokens, Temperature: o.Temperature, Reasoning: o.Reasoning,
		SessionID: o.SessionID, CacheRetention: o.CacheRetention, Headers: o.Headers, SamplingParams: o.SamplingParams,
	}
}

// transcript reads the case's transcript.
func (c requestCase) transcript(t *testing.T) []agentcore.Message {
	t.Helper()
	name := c.Transcript
	if name == "" {
		name = "transcript.json"
	}
	messages, err := agentcore.UnmarshalMessages(providertest.ReadTestdata(t, "request", name))
	require.NoError(t, err)
	return messages
}

// requestRecording is a request/NAME.pi.json file: what pi-ai sent for a
// case, and the message it built from the answer (stream/reasoning.sse).
type requestRecording struct {
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
	Message json.RawMessage   `json:"message"`
}

// sent is what a server saw of one request.
type sent struct {
	path   string
	header http.Header
	body   []byte
}

// TestRequestMatchesReference sends the transcripts of testdata/request
// (transcript.json: system sections and a mid-run system message with
// tool changes, images, reasoning items, signed and unsigned text, tool
// calls of this model, of another model, of Chat Completions and of
// another Responses API, results with images, a failed turn, an empty
// turn, an orphaned call and result; transcript-completions.json: a
// conversation Chat Completions made) with each case's model and options
// to a server answering with stream/reasoning.sse, and checks the body
// against its golden file (go test -update rewrites them), the body and
// the headers against those pi-ai 1.6.0 sent for the same input, and the
// message built against pi-ai's.
func TestRequestMatchesReference(t *testing.T) {
	var file struct {
		Cases []requestCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "request", "cases.json"), &file))
	answer := providertest.ReadTestdata(t, "stream", "reasoning.sse")
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			seen := make(chan sent, 1)
			srv := providertest.Serve(t, func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				seen <- sent{path: r.URL.Path, header: r.Header.Clone(), body: body}
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write(answer)
			})
			// The model's base URL decides what pi-ai sends; the request goes
			// to the test server under the same path.
			model := c.Model
			client := srv.Client()
			client.Transport = redirect{to: srv.URL, rt: client.Transport}
			fn := StreamFn(Options{HTTPClient: client})
			_, final := providertest.Collect(fn(t.Context(), model, agentcore.Request{Messages: c.transcript(t)}, c.streamOptions()), nil)
			require.NotNil(t, final)
			require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
			got := <-seen
			assert.True(t, strings.HasSuffix(got.path, "/responses"), got.path)

			var ref requestRecording
			require.NoError(t, json.Unmarshal(providertest.ReadTestdata(t, "request", c.Name+".pi.json"), &ref))
			golden.Check(t, indent(t, got.body), filepath.Join("testdata", "request", c.Name+".golden.json"))
			assert.JSONEq(t, string(ref.Body), string(got.body), "body differs from pi's")
			assert.Equal(t, ref.Headers, keptHeaders(got.header), "headers differ from pi's")
			target := testTarget(t)
			assert.Equal(t, target.ComparableMessage(t, providertest.ReferenceMessage(t, ref.Message)), target.ComparableMessage(t, final), "message differs from pi's")
		})
	}
}

// redirect sends every request to the server at to, keeping its path,
// as the oracle's fetch does.
type redirect struct {
	to string
	rt http.RoundTripper
}

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	target, err := req.URL.Parse(r.to + req.URL.Path)
	if err != nil {
		return nil, err
	}
	req = req.Clone(req.Context())
	req.URL, req.Host = target, target.Host
	return r.rt.RoundTrip(req)
}

// keptHeaders returns the headers of h that providertest/oracle/record.mjs
// keeps for this provider (its keptHeaders), keyed in lower case as Node
// shows them.
func keptHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for _, k := range []string{"accept", "authorization", "content-type", "session-id", "x-client-request-id", "x-session-id", "x-model-header", "x-request-header"} {
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
