package agentcore

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeJSNumbers: integer fields of messages written by JavaScript
// accept any JSON number (a fraction, a value beyond int64, an exponent),
// so one odd number does not fail the whole message.
func TestDecodeJSNumbers(t *testing.T) {
	usage := `{"input":1.5,"output":1e3,"cacheRead":-2.7,"cacheWrite":12345678901234567890,"cacheWrite1h":2.5,"reasoning":1e400,"totalTokens":-1e400,"cost":{"input":0.5,"output":0,"cacheRead":0,"cacheWrite":0,"total":0.5}}`
	tests := []struct {
		name string
		json string
		ts   int64
	}{
		{"user", `{"role":"user","content":"hi","timestamp":12345678901234567890}`, math.MaxInt64},
		{"system", `{"role":"system","content":"p","timestamp":1.5}`, 1},
		{"assistant", `{"role":"assistant","content":[],"api":"a","provider":"p","model":"m","usage":` + usage + `,"stopReason":"stop","timestamp":1e21,"durationMs":2.5}`, math.MaxInt64},
		{"toolResult", `{"role":"toolResult","toolCallId":"c","toolName":"t","content":[],"isError":false,"usage":` + usage + `,"timestamp":-1e21,"durationMs":-0.5}`, math.MinInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := UnmarshalMessage([]byte(tt.json))
			require.NoError(t, err)
			var u *Usage
			switch m := m.(type) {
			case *UserMessage:
				assert.Equal(t, tt.ts, m.Timestamp)
			case *SystemMessage:
				assert.Equal(t, tt.ts, m.Timestamp)
			case *AssistantMessage:
				assert.Equal(t, tt.ts, m.Timestamp)
				assert.Equal(t, int64(2), *m.DurationMs)
				u = &m.Usage
			case *ToolResultMessage:
				assert.Equal(t, tt.ts, m.Timestamp)
				assert.Equal(t, int64(0), *m.DurationMs)
				u = m.Usage
			}
			if u != nil {
				assert.Equal(t, int64(1), u.Input)
				assert.Equal(t, int64(1000), u.Output)
				assert.Equal(t, int64(-2), u.CacheRead)
				assert.Equal(t, int64(math.MaxInt64), u.CacheWrite)
				assert.Equal(t, int64(2), *u.CacheWrite1h)
				assert.Equal(t, int64(math.MaxInt64), *u.Reasoning)
				assert.Equal(t, int64(math.MinInt64), u.TotalTokens)
				assert.Equal(t, 0.5, u.Cost.Total)
			}
		})
	}
	_, err := UnmarshalMessage([]byte(`{"role":"user","content":"hi","timestamp":"soon"}`))
	assert.Error(t, err, "a string is still not a number")
}
