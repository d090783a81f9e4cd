package google

import (
	"bytes"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore"
	"github.com/pi-go/agentcore/internal/provider/providertest"
)

// TestHostileServers checks the provider against servers that try to do
// it harm (see providertest.Hostile).
func TestHostileServers(t *testing.T) { providertest.Hostile(t, testTarget(t)) }

// TestMaxResponseBytesToolCalls: a function call, which Gemini sends
// whole, counts against the cap with its ID, name and arguments: a call
// past it is not added and ends the response with the cap's error, the
// content before it kept, as do many calls that each fit.
func TestMaxResponseBytesToolCalls(t *testing.T) {
	call := func(id, args string) []byte {
		return []byte(`data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":"` + id + `","name":"write","args":` + args + `}}],"role":"model"},"index":0}]}` + "\n\n")
	}
	tail := testTarget(t).ToolCallTail
	tests := []struct {
		name  string
		body  []byte
		calls int // kept
		text  string
	}{
		{name: "one call too big", body: concat(providertest.GeminiTextEvent("Hi"), call("c0", `{"content":"`+strings.Repeat("x", 100)+`"}`), tail), text: "Hi"},
		{name: "many calls", body: concat(call("c1", `{"a":1}`), call("c2", `{"a":2}`), call("c3", `{"a":3}`), call("c4", `{"a":4}`), tail), calls: 2},
		{name: "within the cap", body: concat(call("c1", `{"a":1}`), tail), calls: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := providertest.ReaderClient(func(*http.Request) io.Reader { return strings.NewReader(string(tt.body)) })
			// a call {"a":N} here is 2 + 5 + 7 = 14 bytes
			final := testTarget(t).Final(t, StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client, MaxResponseBytes: 30}), agentcore.StreamOptions{})
			assert.Len(t, final.ToolCalls(), tt.calls)
			assert.Equal(t, tt.text, final.Text())
			if tt.name == "within the cap" {
				assert.Equal(t, agentcore.StopToolUse, final.StopReason, final.ErrorMessage)
				return
			}
			assert.Equal(t, agentcore.StopError, final.StopReason)
			assert.ErrorIs(t, final.Err, agentcore.ErrResponseTooLarge)
			assert.Equal(t, "Response too large: more than 30 bytes of content", final.ErrorMessage)
		})
	}
}

// TestManyToolCalls: a response of 100,000 function calls, the last one
// reusing the first one's ID, keeps every call, and the reused ID is made
// unique, in time linear in the calls (each ID is checked in a set, not
// against the content: 43 s before, quadratic).
func TestManyToolCalls(t *testing.T) {
	const n = 100000
	var body bytes.Buffer
	call := func(id string) {
		body.WriteString(`data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":"` + id + `","name":"f","args":{}}}],"role":"model"},"index":0}]}` + "\n\n")
	}
	for i := range n - 1 {
		call("c" + strconv.Itoa(i))
	}
	call("c0")
	body.Write(testTarget(t).ToolCallTail)
	client := providertest.ReaderClient(func(*http.Request) io.Reader { return bytes.NewReader(body.Bytes()) })
	var events int
	var final *agentcore.AssistantMessage
	fn := StreamFn(Options{BaseURL: "http://provider.test", HTTPClient: client})
	for ev := range fn(t.Context(), testTarget(t).Model, providertest.HiRequest(), agentcore.StreamOptions{APIKey: "k"}) {
		events++ // not cloned: a clone of each partial would be quadratic itself
		if done, ok := ev.(*agentcore.DoneEvent); ok {
			final = done.Message
		}
	}
	require.NotNil(t, final)
	require.Equal(t, agentcore.StopToolUse, final.StopReason, final.ErrorMessage)
	calls := final.ToolCalls()
	require.Len(t, calls, n)
	assert.Equal(t, "c1", calls[1].ID)
	assert.True(t, strings.HasPrefix(calls[n-1].ID, "f_"), "a reused ID is made up: %s", calls[n-1].ID)
	assert.Equal(t, 3*n+2, events, "start, three events per call, done")
}

// TestUsageOutOfRange: token counts a server reports out of range are
// clamped to 0…MaxInt64, their sums saturate, and no cost is negative.
func TestUsageOutOfRange(t *testing.T) {
	const max = math.MaxInt64
	cases := []providertest.UsageCase{
		{Name: "negative and huge",
			Usage: `{"promptTokenCount":10,"candidatesTokenCount":-99999999999999999999,"thoughtsTokenCount":1e300,"cachedContentTokenCount":-7,"totalTokenCount":-5}`,
			Want:  agentcore.Usage{Input: 10, Output: max, Reasoning: new(int64(max))}},
		{Name: "every count huge",
			Usage: `{"promptTokenCount":1e300,"candidatesTokenCount":1e300,"thoughtsTokenCount":1e300,"cachedContentTokenCount":1e300,"totalTokenCount":1e300}`,
			Want:  agentcore.Usage{Output: max, CacheRead: max, Reasoning: new(int64(max)), TotalTokens: max}},
		{Name: "beyond float64", // JavaScript's Infinity, clamped
			Usage: `{"promptTokenCount":1e400,"candidatesTokenCount":2,"totalTokenCount":-1e400}`,
			Want:  agentcore.Usage{Input: max, Output: 2, Reasoning: new(int64(0))}},
		{Name: "cached beyond the prompt",
			Usage: `{"promptTokenCount":5,"candidatesTokenCount":1,"cachedContentTokenCount":9,"totalTokenCount":6}`,
			Want:  agentcore.Usage{Output: 1, CacheRead: 9, Reasoning: new(int64(0)), TotalTokens: 6}},
	}
	testTarget(t).UsageCases(t, func(usage string) string {
		return `data: {"candidates":[{"content":{"parts":[{"text":"ok"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":` + usage + "}\n\n"
	}, cases)
}

// TestErrorTextsBounded: an error text quotes at most 4000 characters of
// the JSON or text a server sent, and any failure text is cut to 16000.
func TestErrorTextsBounded(t *testing.T) {
	big := strings.Repeat("é", 100000) // 200 KB
	errJSON := `{"error":{"code":500,"message":"` + big + `","status":"INTERNAL"}}`
	cut := func(s string) string { return providertest.Truncated(s, 4000) }
	tests := []struct {
		name        string
		status      int
		contentType string
		body, want  string
	}{
		{name: "error event", status: 200, contentType: "text/event-stream", body: "data: " + errJSON + "\n\n",
			want: "got status: INTERNAL. " + cut(errJSON)},
		{name: "JSON refusal", status: 400, contentType: "application/json", body: errJSON,
			want: cut(errJSON)},
		{name: "text refusal", status: 400, contentType: "text/plain", body: big,
			want: `{"error":{"message":"` + cut(big) + `","code":400,"status":"Bad Request"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := providertest.ServeBody(t, tt.status, tt.contentType, nil, []byte(tt.body))
			_, final := testTarget(t).Run(t, t.Context(), newStream(srv.URL, srv.Client()), nil)
			require.Equal(t, agentcore.StopError, final.StopReason)
			assert.Equal(t, tt.want, final.ErrorMessage)
		})
	}
}

// concat joins the events of a body.
func concat(events ...[]byte) []byte { return bytes.Join(events, nil) }

// TestUsageCounts: every token count is read by the one rule of
// providertest's count table, 1e400 included (Vertex shares this codec).
// The output adds the thoughts, so the thoughts' count is the one read.
func TestUsageCounts(t *testing.T) {
	testTarget(t).Counts(t, func(c string) string {
		usage := strings.ReplaceAll(`{"promptTokenCount":#,"candidatesTokenCount":#,"thoughtsTokenCount":#,"cachedContentTokenCount":#,"totalTokenCount":#}`, "#", c)
		return `data: {"candidates":[{"content":{"parts":[{"text":"ok"}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":` + usage + "}\n\n"
	}, func(u agentcore.Usage) int64 { return *u.Reasoning })
}
