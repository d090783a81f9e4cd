package agentcore

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDecodeProxyEvent(t *testing.T) {
	tests := []struct {
		name string
		data string
		fast bool
	}{
		{"delta", `{"type":"text_delta","contentIndex":0,"delta":"hi"}`, true},
		{"spaces", " { \"type\" : \"text_delta\" ,\n\"contentIndex\" : 12 , \"delta\" : \"\" } ", true},
		{"escapes", `{"type":"text_delta","contentIndex":1,"delta":"a\"b\\c\/d\n\t\u00e9\u4e16"}`, true},
		{"toolcall start", `{"type":"toolcall_start","contentIndex":2,"id":"call_1","toolName":"read"}`, true},
		{"signature", `{"type":"thinking_end","contentIndex":0,"contentSignature":"sig-1"}`, true},
		{"empty object", `{}`, true},
		{"surrogate pair", `{"type":"text_delta","contentIndex":0,"delta":"\ud83d\ude00"}`, false},
		{"lone surrogate", `{"type":"text_delta","contentIndex":0,"delta":"\ud83d"}`, false},
		{"usage", `{"type":"done","reason":"stop","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}}`, false},
		{"tool call", `{"type":"toolcall_end","contentIndex":2,"toolCall":{"type":"toolCall","id":"c","name":"n","arguments":{}}}`, false},
		{"null", `{"type":"text_delta","contentIndex":null}`, false},
		{"float index", `{"type":"text_delta","contentIndex":1.0}`, false},
		{"exponent index", `{"type":"text_delta","contentIndex":1e0}`, false},
		{"leading zero", `{"type":"text_delta","contentIndex":01}`, false},
		{"huge index", `{"type":"text_delta","contentIndex":12345678901234567890}`, false},
		{"other case key", `{"Type":"start"}`, false},
		{"unknown key", `{"type":"start","extra":"x"}`, false},
		{"invalid utf8", "{\"type\":\"text_delta\",\"delta\":\"\xff\"}", false},
		{"control character", "{\"type\":\"text_delta\",\"delta\":\"a\x01\"}", false},
		{"trailing garbage", `{"type":"start"}x`, false},
		{"truncated", `{"type":"sta`, false},
		{"not an object", `["start"]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fast wireEvent
			if got := fastDecodeEvent([]byte(tt.data), &fast); got != tt.fast {
				t.Fatalf("fast path taken: %v, want %v", got, tt.fast)
			}
			checkDecodeAgrees(t, []byte(tt.data))
		})
	}
}

// checkDecodeAgrees asserts that decodeProxyEvent gives what json.Unmarshal
// gives, error or value.
func checkDecodeAgrees(t *testing.T, data []byte) {
	t.Helper()
	var got, scratch, want wireEvent
	gotErr := decodeProxyEvent(data, &got)
	fast := fastDecodeEvent(data, &scratch)
	// The reference result: encoding/json alone.
	var p proxyEvent
	wantErr := json.Unmarshal(data, &p)
	if wantErr == nil {
		// Convert as decodeProxyEvent's slow path does, checked by hand.
		want.Type, want.ContentSignature, want.ToolCall, want.Reason, want.Usage = p.Type, p.ContentSignature, p.ToolCall, p.Reason, p.Usage
		if p.ContentIndex != nil {
			want.Index, want.HasIndex = *p.ContentIndex, true
		}
		for dst, src := range map[*string]*string{&want.Delta: p.Delta, &want.ID: p.ID, &want.ToolName: p.ToolName, &want.ErrorMessage: p.ErrorMessage} {
			if src != nil {
				*dst = *src
			}
		}
		if p.ProviderThinkingLevel != nil {
			want.ThinkingLevel, want.HasThinkingLevel = *p.ProviderThinkingLevel, true
		}
	}
	if fast && wantErr != nil {
		t.Fatalf("%q: the fast path accepted what encoding/json refuses: %v", data, wantErr)
	}
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%q: error %v, encoding/json %v", data, gotErr, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
	}
}

func FuzzDecodeProxyEvent(f *testing.F) {
	f.Add([]byte(`{"type":"text_delta","contentIndex":0,"delta":"a\"\u00e9"}`))
	f.Add([]byte(`{"type":"toolcall_start","contentIndex":2,"id":"call_1","toolName":"read"}`))
	f.Add([]byte(`{"type":"error","reason":"error","errorMessage":"x","providerThinkingLevel":"high"}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkDecodeAgrees(t, data) })
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
