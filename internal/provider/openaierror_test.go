package provider

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOpenAIStreamError(t *testing.T) {
	tests := []struct{ name, event, data, errValue, want string }{
		{name: "message", event: "error", errValue: `{"message": "overloaded", "code": 529}`, want: "overloaded"},
		{name: "non-string message", event: "error", errValue: `{"message": {"detail": "x"}}`, want: `{"detail":"x"}`},
		{name: "no message", event: "error", errValue: `{"code": 529}`, want: `{"code":529}`},
		{name: "string", event: "error", errValue: `"boom"`, want: `"boom"`},
		{name: "falsy", event: "error", errValue: `false`, want: "(no status code or body)"},
		{name: "error event without error", event: "error", data: `{"x":1}`, errValue: `null`, want: `{"x":1}`},
		{name: "error member", data: `{"error":"boom"}`, errValue: `"boom"`, want: `"boom"`},
		{name: "falsy error member", data: `{"error":0}`, errValue: `0`, want: ""},
		{name: "no error", data: `{}`, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, OpenAIStreamError(tt.event, []byte(tt.data), []byte(tt.errValue)))
		})
	}
}
