package openai

import (
	"strings"
	"testing"
)

func TestStatusErrorText(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{name: "error object", status: 400, body: "{\n \"error\": {\"message\": \"bad\", \"code\": null}\n}", want: `400: {"message":"bad","code":null}`},
		{name: "error string", status: 429, body: `{"error": "slow down"}`, want: `429 "slow down"`},
		{name: "empty error object", status: 400, body: `{"error": {}}`, want: `400 {}`},
		{name: "JSON without error", status: 404, body: `{"detail": "Not Found"}`, want: `404 {"detail": "Not Found"}`},
		{name: "text", status: 502, body: "Bad Gateway\n", want: "502 Bad Gateway"},
		{name: "no body", status: 503, body: "", want: "503 status code (no body)"},
		{name: "long text truncated", status: 500, body: strings.Repeat("é", 4010), want: "500 " + strings.Repeat("é", 4000) + "... [truncated 10 chars]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := statusErrorText(tt.status, []byte(tt.body)); got != tt.want {
				t.Errorf("statusErrorText = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStreamErrorText(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{name: "message", value: `{"message": "overloaded", "code": 529}`, want: "overloaded"},
		{name: "non-string message", value: `{"message": {"detail": "x"}}`, want: `{"detail":"x"}`},
		{name: "no message", value: `{"code": 529}`, want: `{"code":529}`},
		{name: "string", value: `"boom"`, want: `"boom"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := streamErrorText([]byte(tt.value)); got != tt.want {
				t.Errorf("streamErrorText = %q, want %q", got, tt.want)
			}
		})
	}
}
