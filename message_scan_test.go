package agentcore

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/pi-go/agentcore/internal/jsonscan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scanSeeds are messages in the shapes pi writes and in the odd shapes
// the one-pass decoders leave to encoding/json.
var scanSeeds = []string{
	`{"role":"user","content":"hi \"there\"\n\u00e9\ud83d\ude00 é","timestamp":1733234400000}`,
	`{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","data":"AAA=","mimeType":"image/png"}],"timestamp":1}`,
	`{"role":"user","content":""}`,
	`{"role":"user"}`,
	`{"role":"user","content":null,"timestamp":null}`,
	`{"role":"user","Content":"x"}`,
	`{"role":"user","content":"x","content":"y"}`,
	`{"role":"user","content":"a\xffb"}`,
	`{"role":"user","content":"\ud800"}`,
	`{"role":"user","content":[{"type":"thinking","thinking":"no"}]}`,
	`{"role":"user","content":5}`,
	`{"role":"user","timestamp":1.5}`,
	`{"role":"user","timestamp":12345678901234567890}`,
	`{"role":"user","timestamp":-1e21}`,
	`{"role":"user","timestamp":"1"}`,
	`{"role":"user","timestamp":01}`,
	`{"role":"user","role":"assistant"}`,
	`{"role":"user","ROLE":"assistant"}`,
	`{"content":"x","role":"user"}`,
	` { "role" : "user" , "content" : [ ] , "timestamp" : 0 } `,
	`{"role":"user","content":"x"} x`,
	`{"role":"user","extra":{"a":[1,2,{"b":null}],"c":true}}`,
	`{"role":"user","\u0063ontent":"x"}`,
	`{"role":"user","ſ":1,"K":2}`,
	`{"role":"assistant","content":[{"type":"thinking","thinking":"t","thinkingSignature":"","redacted":false},` +
		`{"type":"text","text":"x","textSignature":""},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a","n":[1,{"x":null}]},"thoughtSignature":"","namespace":"","argumentsError":""},` +
		`{"type":"fancy","x":[1]}],"api":"anthropic-messages","provider":"anthropic","model":"m","responseModel":"","responseId":"r",` +
		`"providerThinkingLevel":"","thinkingLevel":"high","diagnostics":{"a":1},"usage":{"input":1,"output":2,"cacheRead":3,"cacheWrite":4,` +
		`"cacheWrite1h":0,"reasoning":1.9,"totalTokens":1e3,"cost":{"input":0.5,"output":1e-3,"cacheRead":0,"cacheWrite":0,"total":0.501,"totalFromProvider":true}},` +
		`"stopReason":"toolUse","deferred":[1],"errorMessage":"","rawStopReason":"end_turn","endTurn":true,"timestamp":2,"durationMs":17}`,
	`{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":"{}"}]}`,
	`{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n","arguments":null}]}`,
	`{"role":"assistant","content":[{"type":"text","text":"x","thinkingSignature":"s"}]}`,
	`{"role":"assistant","content":[{"type":"","text":"x"}]}`,
	`{"role":"assistant","content":[{"text":"x"}]}`,
	`{"role":"assistant","content":[{"type":"image","data":"x","mimeType":"image/png"}]}`,
	`{"role":"assistant","usage":{"input":1,"input":2}}`,
	`{"role":"assistant","usage":{"cost":{"total":1e400}}}`,
	`{"role":"assistant","usage":{"input":12345678901234567890,"output":-0.5,"totalTokens":-1e300}}`,
	`{"role":"assistant","usage":null,"stopReason":"stop"}`,
	`{"role":"assistant","endTurn":false,"durationMs":1.25}`,
	`{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"out"}],"details":{"diff":"x"},` +
		`"usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},` +
		`"nestedCalls":[{"a":1}],"isError":true,"timestamp":3,"durationMs":4}`,
	`{"role":"toolResult","details":null}`,
	`{"role":"toolResult","content":"text"}`,
	`{"role":"system","content":"s","timestamp":1.5}`,
	`{"role":"custom","x":1}`,
	`{"role":null}`,
	`[]`,
	`{"role":"user",`,
	`{"role":"user","content":"\x01"}`,
	`{"role":"user","content":"a"} , {"role":"toolResult","toolCallId":"c"}`,
}

// FuzzScanMessage checks the one-pass decoders against encoding/json:
// whatever they take, the encoding/json path decodes to the same value.
func FuzzScanMessage(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if m, ok := scanMessage(data); ok {
			want, err := (*MessageRegistry)(nil).unmarshalMessage(data)
			require.NoError(t, err, "encoding/json refuses what the scanner took: %s", data)
			require.Equal(t, want, m, "%s", data)
		}
		for _, typ := range []struct {
			fast, slow interface {
				scan(*jsonscan.Scanner, bool, fields) bool
				unmarshalJSON([]byte) error
			}
		}{
			{new(UserMessage), new(UserMessage)},
			{new(AssistantMessage), new(AssistantMessage)},
			{new(ToolResultMessage), new(ToolResultMessage)},
		} {
			if scan(data, func(s *jsonscan.Scanner) bool { return s.Object() && typ.fast.scan(s, true, 0) }) {
				require.NoError(t, typ.slow.unmarshalJSON(data), "encoding/json refuses what the scanner took: %s", data)
				require.Equal(t, typ.slow, typ.fast, "%s", data)
			}
		}
		list := append(append([]byte("[ "), data...), ']')
		if got, ok := (*MessageRegistry)(nil).scanMessages(list); ok {
			want, err := (*MessageRegistry)(nil).unmarshalMessagesJSON(list)
			require.NoError(t, err, "encoding/json refuses what the scanner took: %s", list)
			require.Equal(t, want, got, "%s", list)
		}
		var fast, slow Usage
		if scan(data, func(s *jsonscan.Scanner) bool { fast.scan(s); return true }) {
			require.NoError(t, slow.unmarshalJSON(data), "encoding/json refuses what the scanner took: %s", data)
			require.Equal(t, slow, fast, "%s", data)
		}
	})
}

// TestScanTakesPiShapes checks that the messages pi writes take the
// one-pass path, and the odd ones the encoding/json path.
func TestScanTakesPiShapes(t *testing.T) {
	for i, s := range scanSeeds[:4] {
		_, ok := scanMessage([]byte(s))
		assert.True(t, ok, "seed %d", i)
	}
	_, ok := scanMessage([]byte(scanSeeds[24]))
	assert.True(t, ok, "the assistant message of every field")
	for _, s := range []string{`{"role":"user","content":null}`, `{"role":"user","Content":"x"}`, `{"role":"system"}`} {
		_, ok := scanMessage([]byte(s))
		assert.False(t, ok, s)
	}
}

// TestJSNumbers checks that integer fields take any JavaScript number, on
// both paths (a null elsewhere sends a message down the encoding/json one).
func TestJSNumbers(t *testing.T) {
	tests := []struct {
		lit  string
		want int64
	}{
		{"1.5", 1}, {"-1.5", -1}, {"12345678901234567890", math.MaxInt64}, {"1e21", math.MaxInt64},
		{"-1e21", math.MinInt64}, {"9223372036854775807", math.MaxInt64}, {"-9223372036854775808", math.MinInt64},
		{"1e3", 1000}, {"0.999", 0}, {"-0", 0}, {"1733234400000", 1733234400000},
	}
	for _, tt := range tests {
		for _, odd := range []string{"", `,"x":null,"X":1`} {
			m, err := UnmarshalMessage([]byte(`{"role":"assistant","timestamp":` + tt.lit + `,"durationMs":` + tt.lit +
				`,"usage":{"input":` + tt.lit + `,"reasoning":` + tt.lit + `}` + odd + `}`))
			require.NoError(t, err, tt.lit)
			a := m.(*AssistantMessage)
			assert.Equal(t, tt.want, a.Timestamp, tt.lit)
			assert.Equal(t, tt.want, *a.DurationMs, tt.lit)
			assert.Equal(t, tt.want, a.Usage.Input, tt.lit)
			assert.Equal(t, tt.want, *a.Usage.Reasoning, tt.lit)
			for _, role := range []string{"user", "toolResult", "system"} {
				m, err := UnmarshalMessage([]byte(`{"role":"` + role + `","timestamp":` + tt.lit + odd + `}`))
				require.NoError(t, err, tt.lit)
				got, _ := json.Marshal(m)
				var back struct{ Timestamp int64 }
				require.NoError(t, json.Unmarshal(got, &back))
				assert.Equal(t, tt.want, back.Timestamp, "%s %s", role, tt.lit)
			}
		}
	}
	var u Usage
	require.NoError(t, json.Unmarshal([]byte(`{"input":2.7,"totalTokens":1e30}`), &u))
	assert.Equal(t, Usage{Input: 2, TotalTokens: math.MaxInt64}, u)
	for _, bad := range []string{`{"role":"user","timestamp":"1"}`, `{"role":"assistant","usage":{"input":true}}`} {
		_, err := UnmarshalMessage([]byte(bad))
		assert.Error(t, err, bad)
	}
}
