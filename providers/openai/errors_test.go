package openai

import (
	"testing"
)

func TestStreamErrorText(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{name: "message", value: `{"message": "overloaded", "code": 529}`, want: "overloaded"},
		{name: "non-string message", value: `{"message": {"detail": "x"}}`, want: `{"detail":"x"}`},
		{name: "no message", value: `{"code": 529}`, want: `{"code":529}`},
		{name: "string", value: `"boom"`, want: `"boom"`},
		{name: "falsy", value: `false`, want: "(no status code or body)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := streamErrorText([]byte(tt.value)); got != tt.want {
				t.Errorf("streamErrorText = %q, want %q", got, tt.want)
			}
		})
	}
}
