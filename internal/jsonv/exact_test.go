package jsonv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseExact(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		exact bool
	}{
		{"compact object", `{"a":1,"b":[true,false,null],"c":"x"}`, true},
		{"empty containers", `{"a":{},"b":[]}`, true},
		{"space between tokens", `{"a": 1}`, false},
		{"space inside empty array", `[ ]`, false},
		{"leading space", ` 1`, false},
		{"trailing newline", "1\n", false},
		{"index keys in order", `{"0":1,"2":2,"a":3}`, true},
		{"index key after a name", `{"a":1,"0":2}`, false},
		{"index keys descending", `{"2":1,"1":2}`, false},
		{"repeated key", `{"a":1,"a":2}`, false},
		{"short escapes", `"\"\\\b\f\n\r\t"`, true},
		{"escaped slash", `"\/"`, false},
		{"control escape lowercase", `"\u001f"`, true},
		{"control escape uppercase", `"\u001F"`, false},
		{"newline as u escape", `"\u000a"`, false},
		{"letter as u escape", `"\u0041"`, false},
		{"lone surrogate lowercase", `"\ud800x"`, true},
		{"lone surrogate uppercase", `"\uD800"`, false},
		{"surrogate pair", `"\ud83d\ude00"`, false},
		{"raw non-ASCII", `"héllo 😀"`, true},
		{"invalid UTF-8 byte", "\"\xff\"", false},
		{"integer", `[0,-1,42,123456789012345]`, true},
		{"negative zero", `-0`, false},
		{"fraction", `[0.5,-1.25,0.30000000000000004]`, true},
		{"trailing zero fraction", `1.0`, false},
		{"exponent JavaScript spelling", `[1e+21,1.5e-7]`, true},
		{"exponent other spelling", `1E21`, false},
		{"exponent fixed range", `1e3`, false},
		{"large integer", `12345678901234567`, false},
		{"large integer as written", `1152921504606847000`, true},
		{"overflow", `1e400`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, exact, err := ParseExact([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.exact, exact, "exact (written %s)", v.AppendJSON(nil))
		})
	}
}

// FuzzParseExact checks ParseExact's claim both ways: exact input is what
// AppendJSON writes, and input that AppendJSON writes unchanged is exact.
func FuzzParseExact(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,"x",null,true,{"b":[]}]`, `"\ud800"`, `"\u001f\n"`, `1e400`, `{"1":1,"a":2,"0":3}`, "\"\xff\"", `-0.0e-0`, `1e21`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, exact, err := ParseExact(data)
		if err != nil {
			assert.False(t, exact, "exact with an error")
			return
		}
		same := string(v.AppendJSON(nil)) == string(data)
		assert.Equal(t, same, exact, "exact for %q, written %q", data, v.AppendJSON(nil))
	})
}
