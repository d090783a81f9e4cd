package google

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

func TestStatusFailure(t *testing.T) {
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
		want                    string
	}{
		{"JSON compacted", "application/json; charset=UTF-8", "{ \"error\" : {\"code\": 429} }", 429, `{"error":{"code":429}}`},
		{"text in the envelope", "text/plain", "Bad Gateway\n", 502, `{"error":{"message":"Bad Gateway\n","code":502,"status":"Bad Gateway"}}`},
		{"JSON that does not parse, as text", "application/json", "oops", 500, `{"error":{"message":"oops","code":500,"status":"Internal Server Error"}}`},
		{"invalid UTF-8 replaced", "text/html", "a\xffb", 404, `{"error":{"message":"a` + "\uFFFD" + `b","code":404,"status":"Not Found"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tc.status, Status: fmt.Sprintf("%d %s", tc.status, http.StatusText(tc.status)), Header: http.Header{"Content-Type": {tc.contentType}, "Retry-After": {"3"}}}
			f := refusal(resp, []byte(tc.body))
			assert.Equal(t, tc.want, f.Text)
			assert.Equal(t, tc.status, f.Status)
			assert.Equal(t, "3s", f.RetryAfter.String())
		})
	}
}

// TestRefusalReasonPhrase: a text refusal's envelope names the status
// with the response's own reason phrase, as Google's SDK reads it.
func TestRefusalReasonPhrase(t *testing.T) {
	for status, want := range map[string]string{"503 Overloaded Now": "Overloaded Now", "503": ""} {
		resp := &http.Response{StatusCode: 503, Status: status, Header: http.Header{"Content-Type": {"text/plain"}}}
		f := refusal(resp, []byte("busy"))
		assert.Equal(t, `{"error":{"message":"busy","code":503,"status":"`+want+`"}}`, f.Text, status)
	}
}

func TestChunkError(t *testing.T) {
	for _, tc := range []struct {
		data, want string
		status     int
	}{
		{`{"error":{"code":503,"status":"UNAVAILABLE"}}`, `got status: UNAVAILABLE. {"error":{"code":503,"status":"UNAVAILABLE"}}`, 503},
		{`{"error":{"code":500}}`, `got status: undefined. {"error":{"code":500}}`, 500},
		{`{"error":{"code":400,"status":null}}`, `got status: null. {"error":{"code":400,"status":null}}`, 400},
		{`{"error":{"code":400,"status":[1,null,{"a":1}]}}`, `got status: 1,,[object Object]. {"error":{"code":400,"status":[1,null,{"a":1}]}}`, 400},
		{`{"error":{"code":400,"status":1.50}}`, `got status: 1.5. {"error":{"code":400,"status":1.5}}`, 400},
		{`{"error":{"code":200}}`, "", 0},
		{`{"error":{"code":"500"}}`, "", 0},
		{`{"error":"x"}`, "", 0},
		{`{"candidates":[]}`, "", 0},
	} {
		f := chunkError([]byte(tc.data))
		if tc.want == "" {
			assert.Nil(t, f, tc.data)
			continue
		}
		require.NotNil(t, f, tc.data)
		assert.Equal(t, tc.want, f.Text, tc.data)
		assert.Equal(t, tc.status, f.Status, tc.data)
	}
}

// TestRefusedUnsent checks the requests that fail before they are sent.
func TestRefusedUnsent(t *testing.T) {
	var rec providertest.Recorder
	target := testTarget(t)
	fn := rec.Serve(t, target, 200, nil, target.Success)
	for _, tc := range []struct {
		name  string
		model string
		so    agentcore.StreamOptions
		want  string
	}{
		{"no key", "gemini-2.5-flash", agentcore.StreamOptions{}, "No API key for provider: google"},
		{"a model ID that leaves its path", "../files", agentcore.StreamOptions{APIKey: "k"}, "invalid model parameter"},
		{"a model ID with a query", "m?x=1", agentcore.StreamOptions{APIKey: "k"}, "invalid model parameter"},
		{"no model ID", "", agentcore.StreamOptions{APIKey: "k"}, "model is required and must be a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := target.Model
			model.ID = tc.model
			_, final := providertest.Collect(fn(context.Background(), model, providertest.HiRequest(), tc.so), nil)
			require.NotNil(t, final)
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.Equal(t, tc.want, final.ErrorMessage)
		})
	}
	headers, _ := rec.Requests()
	assert.Empty(t, headers)

	t.Run("an authorization header stands for the key", func(t *testing.T) {
		final := target.Final(t, fn, agentcore.StreamOptions{APIKey: " ", Headers: map[string]string{"Authorization": "Bearer t"}})
		assert.Equal(t, agentcore.StopStop, final.StopReason, final.ErrorMessage)
	})
}

func TestEndpoint(t *testing.T) {
	for _, tc := range []struct{ base, id, want string }{
		{"https://g.test/v1beta", "gemini-2.5-flash", "https://g.test/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"},
		{"https://g.test/v1beta/", "models/gemini-2.5-flash", "https://g.test/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"},
		{"https://g.test/v1beta", "tunedModels/mine-1", "https://g.test/v1beta/tunedModels/mine-1:streamGenerateContent?alt=sse"},
		{"https://g.test", "my model#1", "https://g.test/models/my%20model%231:streamGenerateContent?alt=sse"},
	} {
		got, err := endpoint(tc.base, tc.id)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
}
