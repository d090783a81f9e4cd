package partialjson

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestArguments(t *testing.T) {
	tests := []struct {
		name, text, want, errPrefix string
	}{
		{name: "blank", text: "  ", want: `{}`},
		{name: "object compacted", text: `{ "a": [1, 2] }`, want: `{"a":[1,2]}`},
		{name: "raw newline repaired", text: "{\"a\":\"x\ny\"}", want: `{"a":"x\ny"}`},
		{name: "invalid escape kept as text", text: `{"p":"C:\dir"}`, want: `{"p":"C:\\dir"}`},
		{name: "array refused", text: `[1]`, want: `{}`, errPrefix: "Tool arguments must be a JSON object\n\nReceived arguments:\n[1]"},
		{name: "broken", text: `{"a" 1}`, want: `{}`, errPrefix: "invalid character"},
		{name: "cut off in a string", text: `{"path": "/etc/pas`, want: `{}`, errPrefix: "unexpected end of JSON input"},
		{name: "cut off after a member", text: `{"a": 1,`, want: `{}`, errPrefix: "unexpected end of JSON input"},
		{name: "trailing backslash", text: `{"a": "x\`, want: `{}`, errPrefix: "unexpected end of JSON input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, errText := Arguments(tt.text)
			assert.JSONEq(t, tt.want, string(args))
			if tt.errPrefix == "" {
				assert.Empty(t, errText)
				return
			}
			assert.True(t, len(errText) >= len(tt.errPrefix) && errText[:len(tt.errPrefix)] == tt.errPrefix, errText)
			assert.Contains(t, errText, "\n\nReceived arguments:\n"+tt.text)
		})
	}
}

func TestRepair(t *testing.T) {
	assert.Equal(t, `{"a":"\u0001\t\\q\u00e9"} "\\`, Repair("{\"a\":\"\x01\t\\q\\u00e9\"} \"\\"))
	assert.Equal(t, `{"a":1}`, Repair(`{"a":1}`))
}
