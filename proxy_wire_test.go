package agentcore

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pi-go/agentcore/internal/jsondec"
)

func TestDecodeProxyEvent(t *testing.T) {
	index := func(i int) *int { return &i }
	str := func(s string) *string { return &s }
	tests := []struct {
		name    string
		data    string
		want    proxyEvent
		wantErr bool
	}{
		{name: "delta", data: `{"type":"text_delta","contentIndex":0,"delta":"hi"}`, want: proxyEvent{Type: "text_delta", ContentIndex: index(0), Delta: str("hi")}},
		{name: "spaces", data: " { \"type\" : \"text_delta\" ,\n\"contentIndex\" : 12 , \"delta\" : \"\" } ", want: proxyEvent{Type: "text_delta", ContentIndex: index(12), Delta: str("")}},
		{name: "escapes", data: `{"type":"text_delta","contentIndex":1,"delta":"a\"b\\c\/d\n\t\u00e9\u4e16\ud83d\ude00"}`, want: proxyEvent{Type: "text_delta", ContentIndex: index(1), Delta: str("a\"b\\c/d\n\té世😀")}},
		{name: "toolcall start", data: `{"type":"toolcall_start","contentIndex":2,"id":"call_1","toolName":"read"}`, want: proxyEvent{Type: "toolcall_start", ContentIndex: index(2), ID: str("call_1"), ToolName: str("read")}},
		{name: "signature", data: `{"type":"thinking_end","contentIndex":0,"contentSignature":"sig-1"}`, want: proxyEvent{Type: "thinking_end", ContentIndex: index(0), ContentSignature: "sig-1"}},
		{name: "usage", data: `{"type":"done","reason":"stop","usage":{"input":1,"output":2,"totalTokens":3}}`, want: proxyEvent{Type: "done", Reason: StopStop, Usage: &proxyUsage{Usage{Input: 1, Output: 2, TotalTokens: 3}}}},
		{name: "error", data: `{"type":"error","reason":"error","errorMessage":"x","providerThinkingLevel":"high"}`, want: proxyEvent{Type: "error", Reason: StopError, ErrorMessage: str("x"), ProviderThinkingLevel: str("high")}},
		{name: "tool call", data: `{"type":"toolcall_end","contentIndex":2,"toolCall":{"id":"c"}}`, want: proxyEvent{Type: "toolcall_end", ContentIndex: index(2), ToolCall: json.RawMessage(`{"id":"c"}`)}},
		{name: "null index is absent", data: `{"type":"text_delta","contentIndex":null}`, want: proxyEvent{Type: "text_delta"}},
		{name: "unknown key", data: `{"type":"start","extra":"x"}`, want: proxyEvent{Type: "start"}},
		{name: "empty object", data: `{}`},
		{name: "float index", data: `{"type":"text_delta","contentIndex":1.5}`, wantErr: true},
		{name: "huge index", data: `{"type":"text_delta","contentIndex":12345678901234567890}`, wantErr: true},
		{name: "control character", data: "{\"type\":\"text_delta\",\"delta\":\"a\x01\"}", wantErr: true},
		{name: "trailing garbage", data: `{"type":"start"}x`, wantErr: true},
		{name: "truncated", data: `{"type":"sta`, wantErr: true},
		{name: "not an object", data: `["start"]`, wantErr: true},
		{name: "wrong field type", data: `{"type":"text_delta","delta":5}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got proxyEvent
			err := decodeProxyEvent(new(jsondec.Decoder), []byte(tt.data), &got)
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// FuzzDecodeProxyEvent checks that decoding any input fails or gives an
// event that encodes and decodes to itself, and that applying it to a
// rebuilder never panics.
func FuzzDecodeProxyEvent(f *testing.F) {
	f.Add([]byte(`{"type":"text_delta","contentIndex":0,"delta":"a\"\u00e9"}`))
	f.Add([]byte(`{"type":"toolcall_start","contentIndex":0,"id":"call_1","toolName":"read"}`))
	f.Add([]byte(`{"type":"toolcall_delta","contentIndex":0,"delta":"{\"a\": [1, {"}`))
	f.Add([]byte(`{"type":"error","reason":"error","errorMessage":"x","providerThinkingLevel":"high"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rb := newProxyRebuilder(Model{}, -1)
		for _, start := range []string{`{"type":"text_start","contentIndex":0}`, `{"type":"toolcall_start","contentIndex":1}`} {
			_, err := rb.apply([]byte(start))
			require.NoError(t, err)
		}
		_, _ = rb.apply(data)
		var e, back proxyEvent
		var dec jsondec.Decoder
		if err := decodeProxyEvent(&dec, data, &e); err != nil {
			return
		}
		again, err := json.Marshal(e)
		require.NoError(t, err)
		require.NoError(t, decodeProxyEvent(&dec, again, &back))
		require.Equal(t, e.Type, back.Type)
		require.Equal(t, e.ContentIndex, back.ContentIndex)
		require.Equal(t, e.Delta, back.Delta)
	})
}

func TestWireOptionsRoundTrip(t *testing.T) {
	temp := 0.0
	tests := []struct {
		name string
		in   StreamOptions
		json string
	}{
		{"zero", StreamOptions{APIKey: "never sent"}, `{}`},
		{"zero temperature is sent", StreamOptions{Temperature: &temp}, `{"temperature":0}`},
		{"all", StreamOptions{Reasoning: ThinkingLow, SessionID: "s", MaxTokens: 5, Headers: map[string]string{"a": "b"}, ThinkingBudgets: map[ThinkingLevel]int{ThinkingHigh: 9}, Transport: "sse", MaxRetryDelay: 1500e6},
			`{"maxTokens":5,"reasoning":"low","sessionId":"s","headers":{"a":"b"},"transport":"sse","thinkingBudgets":{"high":9},"maxRetryDelayMs":1500}`},
		{"no retry delay cap is pi's 0", StreamOptions{MaxRetryDelay: -1}, `{"maxRetryDelayMs":0}`},
		{"pi's pass-through options", StreamOptions{SamplingParams: json.RawMessage(`{"top_p":0.9}`), CacheRetention: "long", DisableContinuation: true, Metadata: json.RawMessage(`{"user":"u"}`)},
			`{"samplingParams":{"top_p":0.9},"cacheRetention":"long","disableContinuation":true,"metadata":{"user":"u"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(wireOptions(tt.in))
			if err != nil || string(data) != tt.json {
				t.Fatalf("wire %s (%v), want %s", data, err, tt.json)
			}
			var back proxyOptions
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			want := tt.in
			want.APIKey = ""
			if got := back.streamOptions(); !reflect.DeepEqual(got, want) {
				t.Fatalf("round trip %+v, want %+v", got, want)
			}
		})
	}
}
