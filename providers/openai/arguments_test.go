package openai

import (
	"strings"
	"testing"
)

func TestParseArguments(t *testing.T) {
	tests := []struct {
		name, text, want string
		wantError        string // a prefix of ArgumentsError; "" for none
	}{
		{name: "object", text: `{"a": 1, "b": [true, null]}`, want: `{"a":1,"b":[true,null]}`},
		{name: "empty text", text: "", want: `{}`},
		{name: "blank text", text: " \n", want: `{}`},
		{name: "raw newline in a string is repaired", text: "{\"s\": \"a\nb\"}", want: `{"s":"a\nb"}`},
		{name: "invalid escape stays literal", text: `{"p": "C:\dir"}`, want: `{"p":"C:\\dir"}`},
		{name: "not an object", text: `[1]`, want: `{}`, wantError: "Tool arguments must be a JSON object\n\nReceived arguments:\n[1]"},
		{name: "malformed", text: `{"a": 6*7}`, want: `{}`, wantError: "invalid character"},
		{name: "cut off", text: `{"a": "x`, want: `{}`, wantError: "unexpected end of JSON input\n\nReceived arguments:\n{\"a\": \"x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, errText := parseArguments(tt.text)
			if string(args) != tt.want {
				t.Errorf("arguments %s, want %s", args, tt.want)
			}
			switch {
			case tt.wantError == "" && errText != "":
				t.Errorf("unexpected error %q", errText)
			case tt.wantError != "" && !strings.HasPrefix(errText, tt.wantError):
				t.Errorf("error %q, want it to start with %q", errText, tt.wantError)
			case tt.wantError != "" && !strings.HasSuffix(errText, "\n\nReceived arguments:\n"+tt.text):
				t.Errorf("error %q does not end with the text received", errText)
			}
		})
	}
}

func TestPartialArguments(t *testing.T) {
	tests := []struct {
		name, text, want string // want "" means no preview (nil)
	}{
		{name: "nothing yet", text: "", want: `{}`},
		{name: "open object", text: `{`, want: `{}`},
		{name: "key started", text: `{"pa`, want: `{}`},
		{name: "key without value", text: `{"path":`, want: `{}`},
		{name: "open string", text: `{"path": "src/ma`, want: `{"path":"src/ma"}`},
		{name: "open escape held back", text: `{"s": "a\`, want: `{"s":"a"}`},
		{name: "open unicode escape held back", text: `{"s": "a\u00`, want: `{"s":"a"}`},
		{name: "complete escape kept", text: `{"s": "a\n`, want: `{"s":"a\n"}`},
		{name: "literal prefix", text: `{"ok": tr`, want: `{"ok":true}`},
		{name: "null prefix", text: `{"v": n`, want: `{"v":null}`},
		{name: "number so far", text: `{"n": 12`, want: `{"n":12}`},
		{name: "number before its fraction", text: `{"a": 1, "n": 1.`, want: `{"a":1}`},
		{name: "exponent without digits", text: `{"n": 1e+`, want: `{"n":1}`},
		{name: "after a comma", text: `{"a": 1,`, want: `{"a":1}`},
		{name: "nested open containers", text: `{"a": {"b": [1, {"c": "d`, want: `{"a":{"b":[1,{"c":"d"}]}}`},
		{name: "complete object, trailing text ignored", text: `{"a": 1} xyz`, want: `{"a":1}`},
		{name: "raw control character repaired", text: "{\"s\": \"a\tb", want: `{"s":"a\tb"}`},
		{name: "array root shows as no arguments", text: `[1, 2`, want: ""},
		{name: "unfinished unknown word dropped", text: `{"a": 6*7`, want: `{}`},
		{name: "unknown word", text: `{"a": 6*7, "b": 1`, want: ""},
		{name: "mismatched close", text: `{"a": [1}`, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := partialArguments(tt.text); string(got) != tt.want {
				t.Errorf("partialArguments(%q) = %s, want %s", tt.text, got, tt.want)
			}
		})
	}
}

// TestPreviewThrottle checks that long arguments are previewed at growing
// intervals, not at every delta.
func TestPreviewThrottle(t *testing.T) {
	var st callState
	st.args.WriteString(`{"content": "`)
	previews := 0
	for range 20000 {
		st.args.WriteString("xxxxx")
		if st.preview() != nil {
			previews++
		}
	}
	if previews > 1700 || previews < 20 {
		t.Errorf("%d previews for 20000 deltas", previews)
	}
}
