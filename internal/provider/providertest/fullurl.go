package providertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
)

// FullURLRecording is a request/NAME.pi.json file of a provider whose
// recorder keeps the whole URL (record.mjs's fullURL): the URL the request
// was meant for, the kept headers, the body and the message pi-ai built
// from the answer, or the error it failed with.
type FullURLRecording struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
	Message json.RawMessage   `json:"message"`
	Error   string            `json:"error"`
}

// sentRequest is what a provider sent: the whole URL, the headers and
// the body.
type sentRequest struct {
	url    string
	header http.Header
	body   []byte
}

// answerTransport answers every request with one event-stream body,
// without a network, and remembers the last request.
type answerTransport struct {
	answer []byte
	mu     sync.Mutex
	last   *sentRequest
}

func (a *answerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.last = &sentRequest{url: r.URL.String(), header: r.Header.Clone(), body: body}
	a.mu.Unlock()
	return &http.Response{
		StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"text/event-stream"}},
		Body: io.NopCloser(bytes.NewReader(a.answer)), Request: r,
	}, nil
}

// FullURLRequests sends each case of testdata/request/cases.json (with
// the case's key, else key, and its environment) through the stream
// function newFn makes for a client and the case's getenv, to a client
// that answers every request with answer without a network, and compares
// with what pi-ai 1.6.0 did: the whole URL, the headers named by kept
// (lower case, as Node shows them), the body and the message built from
// the answer; or, for a case pi-ai failed, the error text and whether a
// request was sent.
func (target Target) FullURLRequests(t *testing.T, key string, answer []byte, kept []string, newFn func(client *http.Client, getenv func(string) string) agentcore.StreamFn) {
	cases := RequestCases(t)
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			tr := &answerTransport{answer: answer}
			fn := newFn(&http.Client{Transport: tr}, c.Getenv())
			_, final := Collect(fn(t.Context(), c.Model, agentcore.Request{Messages: c.Messages(t)}, c.StreamOptions(key)), nil)
			require.NotNil(t, final)
			var ref FullURLRecording
			require.NoError(t, json.Unmarshal(ReadTestdata(t, "request", c.Name+".pi.json"), &ref))
			if ref.Error != "" {
				assert.Equal(t, agentcore.StopError, final.StopReason)
				assert.Equal(t, ref.Error, final.ErrorMessage)
			} else {
				require.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
				assert.Equal(t, target.ComparableMessage(t, ReferenceMessage(t, ref.Message)), target.ComparableMessage(t, final), "message differs from pi's")
			}
			if ref.Body == nil {
				assert.Nil(t, tr.last, "pi-ai sent no request")
				return
			}
			require.NotNil(t, tr.last, "pi-ai sent a request")
			assert.Equal(t, ref.URL, tr.last.url, "URL differs from pi's")
			assert.JSONEq(t, string(ref.Body), string(tr.last.body), "body differs from pi's")
			headers := map[string]string{}
			for _, k := range kept {
				if v := tr.last.header.Values(k); len(v) > 0 {
					headers[k] = strings.Join(v, ", ")
				}
			}
			assert.Equal(t, ref.Headers, headers, "headers differ from pi's")
		})
	}
}
